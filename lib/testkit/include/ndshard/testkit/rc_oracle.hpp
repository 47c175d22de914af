// ndshard/testkit/rc_oracle.hpp - small helpers shared by the RapidCheck properties.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/distribution.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"

namespace ndshard::testkit {

// The oracle's model of a spec the fast path accepted; the property fails (with the
// oracle's reason) when the oracle refuses it.
inline oracle::model accepted_model(const distribution_spec& spec) {
    const oracle::verdict v = oracle::evaluate(to_oracle(spec));
    if (!v.accepted) RC_FAIL("the oracle rejects a spec the fast path accepts: [" + v.rule + "] " + v.message);
    return *v.accepted;
}

// Whether features(spec) (spec_gen.hpp) lists `name`.
inline bool has_feature(const std::vector<std::string>& features, std::string_view name) {
    return std::find(features.begin(), features.end(), name) != features.end();
}

}  // namespace ndshard::testkit
