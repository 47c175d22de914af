// ndshard/testkit/rc_oracle.hpp - small helpers shared by the RapidCheck properties.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/distribution.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"  // accepted_model

namespace ndshard::testkit {

// Whether features(spec) (spec_gen.hpp) lists `name`.
inline bool has_feature(const std::vector<std::string>& features, std::string_view name) {
    return std::find(features.begin(), features.end(), name) != features.end();
}

}  // namespace ndshard::testkit
