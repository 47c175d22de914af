// ndshard/testkit/oracle_bridge.hpp - hand a spec to the oracle (field by field, no math).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/spec.hpp"

namespace ndshard::testkit {

oracle::spec to_oracle(const distribution_spec& s);

// A big integer that must fit 64 bits (throws std::overflow_error when it does not).
std::uint64_t to_u64(const oracle::big& v);

// The oracle's slot table with padding as ndshard::padding_slot, for direct comparison
// with ndshard::slot_table.
std::vector<std::vector<std::uint64_t>> oracle_slot_table(const oracle::model& m);

}  // namespace ndshard::testkit
