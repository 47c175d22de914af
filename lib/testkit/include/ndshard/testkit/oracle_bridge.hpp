// ndshard/testkit/oracle_bridge.hpp - hand a spec to the oracle and its answers back
// (field by field, no math: whatever is computed, the oracle computed it).
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

// The oracle's core as the library's coordinate type (each coordinate to_u64, then 32 bits).
core_coord to_core_coord(const oracle::core_xy& c);

// The oracle's core list (m.cores, in bank order) as coordinates.
std::vector<core_coord> core_coords(const oracle::model& m);

// The oracle's model of a spec the fast path accepted. Throws std::runtime_error naming
// the oracle's rule, its message and the spec when the oracle refuses it: a failure in a
// RapidCheck property (which shrinks it) and in a plain GoogleTest test alike.
oracle::model accepted_model(const distribution_spec& spec);

}  // namespace ndshard::testkit
