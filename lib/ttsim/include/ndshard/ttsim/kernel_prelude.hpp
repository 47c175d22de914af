// The headers every kernel variant includes that do not depend on its compile-time
// arguments: the simulator precompiles them once per compiler, flags, NoC and processor
// (kernel_cache.cpp), so a variant's compile parses only the kernel and the argument
// headers. Including it changes nothing else: every header here guards itself, and the
// kernel's own includes of them are then no-ops.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ndshard/accessor.hpp"
#include "ndshard/tt/interleaved.hpp"
#include "ndshard/tt/noc.hpp"
#include "ndshard/tt/words.hpp"
#include "ndshard/ttsim/kernel_platform.hpp"
