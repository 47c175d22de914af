// bench/page_stream.hpp - the page ids a benchmark asks for, the same on every run and
// machine (bench_main.cpp and callgrind_driver.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ndshard/testkit/splitmix64.hpp"

namespace ndshard::bench {

// Pre-generated page ids: 0,1,2,.. (wrapping) or uniform random from a fixed-seed
// splitmix64 (testkit/splitmix64.hpp), so nothing about the stream is known at compile
// time and every run and every machine sees the same one.
inline std::vector<std::uint32_t> page_stream(std::uint32_t num_pages, bool random, std::size_t count = 4096) {
    std::vector<std::uint32_t> ids(count);
    testkit::splitmix64 gen{0x9E37'79B9'7F4A'7C15ULL};
    for (std::size_t i = 0; i < count; ++i) {
        if (!random) {
            ids[i] = static_cast<std::uint32_t>(i % num_pages);
            continue;
        }
        const std::uint64_t z = gen.next();
        ids[i] = static_cast<std::uint32_t>(((z >> 32) * num_pages) >> 32);  // uniform in [0, num_pages)
    }
    return ids;
}

}  // namespace ndshard::bench
