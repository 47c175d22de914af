// A downstream program, built by every consumer test (tests/consumer/run_consumer_test.cmake:
// find_package, add_subdirectory, FetchContent, and a plain compile with pkg-config's flags).
// It uses the library the way README.md "Using the library" shows and checks the answers
// against values worked out by hand below, so a consumer that builds but gets a broken or
// mismatched ndshard fails.
#include <cstdio>
#include <cstring>
#include <string>

#include <ndshard/ndshard.hpp>
#if __has_include(<ndshard/version.hpp>)
#include <ndshard/version.hpp>
#define NDSHARD_CONSUMER_HAS_VERSION 1
#endif

static_assert(__cplusplus >= 202002L, "ndshard::ndshard must request C++20 (cxx_std_20)");

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
    if (!ok) {
        std::printf("ndshard consumer: FAILED: %s\n", what);
        ++failures;
    }
}

}  // namespace

int main() {
    using namespace ndshard;
    // [3,7,5] pages in [2,2,2] shards: a [2,4,3] shard grid, 24 shards dealt round-robin over
    // the 2x3 grid's 6 cores (row-major: (0,0), (1,0), (0,1), ...); 64-byte pages at 0x1000.
    distribution_spec spec;
    spec.tensor = {3, 7, 5};
    spec.shard = {2, 2, 2};
    spec.cores = {grid_range(2, 3)};
    spec.element_size = 64;
    spec.alignment = 32;
    spec.bank_base = 0x1000;
    const distribution d = make_distribution(spec);
    expect(d.layout.num_shards == 24, "num_shards == 2*4*3 = 24");
    expect(d.aligned_page_size == 64, "aligned page size 64 (already a multiple of 32)");

    const accessor_words w = make_accessor_words(d, arg::all_runtime);
    const accessor<> acc(w.runtime, 0x1000, static_cast<std::uint32_t>(d.aligned_page_size));
    // Page 36 = 1*35 + 0*5 + 1 is coordinate [1,0,1]: shard [0,0,0] = shard 0 -> core 0 = (0,0),
    // its first shard (slot 0); offset in the shard 1*4 + 0*2 + 1 = 5 -> 0x1000 + 5*64 = 0x1140.
    const noc_addr a36 = acc.get_noc_addr(36);
    expect(a36.x == 0 && a36.y == 0 && a36.addr == 0x1140, "page 36 -> core (0,0), 0x1140");
    // Page 37 is [1,0,2]: shard [0,0,1] = shard 1 -> core 1 = (1,0), slot 0; offset
    // 1*4 + 0*2 + 0 = 4 -> 0x1000 + 4*64 = 0x1100.
    const noc_addr a37 = acc.get_noc_addr(37);
    expect(a37.x == 1 && a37.y == 0 && a37.addr == 0x1100, "page 37 -> core (1,0), 0x1100");

#ifdef NDSHARD_CONSUMER_HAS_VERSION
    const std::string parts = std::to_string(NDSHARD_VERSION_MAJOR) + "." + std::to_string(NDSHARD_VERSION_MINOR) +
                              "." + std::to_string(NDSHARD_VERSION_PATCH);
    expect(parts == NDSHARD_VERSION_STRING, "NDSHARD_VERSION_MAJOR.MINOR.PATCH == NDSHARD_VERSION_STRING");
#ifdef NDSHARD_CONSUMER_EXPECTED_VERSION
    // The version the build system reports (PROJECT_VERSION, ndshard.pc's Version).
    expect(std::strcmp(NDSHARD_VERSION_STRING, NDSHARD_CONSUMER_EXPECTED_VERSION) == 0,
           "NDSHARD_VERSION_STRING == the package's version");
#endif
    std::printf("ndshard consumer: version %s\n", NDSHARD_VERSION_STRING);
#else
    std::puts("ndshard consumer: no <ndshard/version.hpp> (version macros not checked)");
#endif

    if (failures != 0) return 1;
    std::puts("ndshard consumer: OK");
    return 0;
}
