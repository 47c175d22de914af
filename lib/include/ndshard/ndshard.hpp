// ndshard/ndshard.hpp - everything: spec -> distribution -> layout -> accessor.
#pragma once

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/fast_divider.hpp"
#include "ndshard/host_mapping.hpp"
#include "ndshard/interleaved.hpp"
#include "ndshard/layout.hpp"
#include "ndshard/legacy.hpp"
#include "ndshard/shape.hpp"
#include "ndshard/spec.hpp"
#include "ndshard/squeeze.hpp"
