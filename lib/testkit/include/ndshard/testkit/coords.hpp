// ndshard/testkit/coords.hpp - a row-major id as a coordinate, for tests.
//
// row_major_coord(48, [3,7,5]) == (1,2,3): the digits of the id with the last dim
// fastest, one remainder and one quotient per dim in 64-bit integers. A zero extent gives
// digit 0 (and nothing of the id passes it). Extents may be integers (a shape, a vector)
// or the oracle's big integers (which must fit 64 bits).
//
// Why it is independent of the fast path: the library takes the same digits through
// detail/place.hpp (templates shared by the host layout and the accessor, 32-bit
// reciprocals on the device); this is the plain schoolbook loop, so a test that hands
// its result to a coordinate entry point compares two derivations, not one with itself.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/testkit/oracle_bridge.hpp"

namespace ndshard::testkit {

std::vector<std::uint64_t> row_major_coord(std::uint64_t id, std::span<const std::uint64_t> extents);

inline std::uint64_t extent_u64(std::uint64_t e) { return e; }
inline std::uint64_t extent_u64(const oracle::big& e) { return to_u64(e); }

template <class Extents>
std::vector<std::uint64_t> row_major_coord(std::uint64_t id, const Extents& extents) {
    std::vector<std::uint64_t> e;
    for (const auto& x : extents) e.push_back(extent_u64(x));
    return row_major_coord(id, std::span<const std::uint64_t>(e));
}

}  // namespace ndshard::testkit
