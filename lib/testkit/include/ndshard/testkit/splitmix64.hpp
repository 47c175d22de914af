// ndshard/testkit/splitmix64.hpp - SplitMix64 (Steele, Lea and Flood, 2014): the one
// deterministic 64-bit stream of the tests and benchmarks (random_entropy in entropy.hpp,
// bench/selfcheck.cpp, the page streams of bench/bench_main.cpp). A few instructions per
// value, the same on every machine, so seeds replay. Freestanding: <cstdint> only.
//
// splitmix64{0}.next() == 0xE220A8397B1DCDAF.
#pragma once

#include <cstdint>

namespace ndshard::testkit {

struct splitmix64 {
    std::uint64_t state = 0;

    constexpr std::uint64_t next() noexcept {
        std::uint64_t z = (state += 0x9E37'79B9'7F4A'7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58'476D'1CE4'E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D0'49BB'1331'11EBULL;
        return z ^ (z >> 31);
    }
};

static_assert(splitmix64{0}.next() == 0xE220'A839'7B1D'CDAFULL);

}  // namespace ndshard::testkit
