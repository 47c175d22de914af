// The simulated device on its own: geometry, allocation, host transfers, NoC checks and
// traffic accounting, on hand-picked cases (the properties cover random ones).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ndshard/legacy.hpp"
#include "ndshard/sim/device.hpp"

namespace ndshard::sim {
namespace {

// Runs f, expects an exception of type E whose message contains every piece.
template <class E, class F>
void expect_error(F&& f, std::initializer_list<std::string> pieces) {
    try {
        f();
        ADD_FAILURE() << "no exception";
    } catch (const E& e) {
        const std::string what = e.what();
        for (const std::string& p : pieces)
            EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
    }
}

distribution_spec pages_spec(shape tensor, shape shard, std::vector<core_range> cores, std::uint64_t page_bytes = 16) {
    distribution_spec s;
    s.tensor = tensor;
    s.shard = shard;
    s.element_size = page_bytes;
    s.cores = std::move(cores);
    return s;
}

// 4x4 workers with 4 KiB of L1 each, and 6 DRAM banks of 8 KiB in two columns (x = 4, 5).
device_config small_config() {
    return {.grid_x = 4, .grid_y = 4, .l1_size = 4096, .num_dram_banks = 6, .dram_bank_size = 8192};
}

TEST(SimDevice, Geometry) {
    const device dev(small_config());
    EXPECT_EQ(dev.num_workers(), 16U);
    EXPECT_EQ(dev.worker(5), (core_coord{1, 1}));
    EXPECT_EQ(dev.dram_bank(0), (core_coord{4, 0}));
    EXPECT_EQ(dev.dram_bank(5), (core_coord{5, 1}));  // second DRAM column
    ASSERT_NE(dev.memory_at({3, 3}), nullptr);
    EXPECT_EQ(dev.memory_at({3, 3})->kind(), memory_kind::l1);
    EXPECT_EQ(dev.memory_at({5, 1})->kind(), memory_kind::dram);
    EXPECT_EQ(dev.memory_at({5, 2}), nullptr);  // past the last bank
    EXPECT_EQ(dev.memory_at({0, 4}), nullptr);
    EXPECT_EQ(dev.executor_for({2, 3}), (core_coord{2, 3}));
    EXPECT_EQ(dev.executor_for(dev.dram_bank(5)), dev.worker(5));
    EXPECT_THROW(device(device_config{0, 1}), std::invalid_argument);
    device_config odd = small_config();
    odd.alloc_alignment = 24;
    EXPECT_THROW((device{odd}), std::invalid_argument);
}

TEST(SimDevice, AllocatesAtTheLowestCommonFreeBase) {
    device dev(small_config());
    // [4,4]/[2,2] on 2x2 cores: 1 shard of 4 pages per core, 64 bytes.
    const buffer_id a = dev.allocate(pages_spec({4, 4}, {2, 2}, {grid_range(2, 2)}), "a");
    EXPECT_EQ(dev.buffer(a).dist.bank_base, 0U);
    EXPECT_EQ(dev.buffer(a).bytes_per_bank, 64U);
    // Overlapping cores (1,1),(2,1): the first base free on both is after 'a'.
    const buffer_id b = dev.allocate(pages_spec({2}, {1}, {{{1, 1}, {2, 1}}}), "b");
    EXPECT_EQ(dev.buffer(b).dist.bank_base, 64U);
    // Disjoint cores start at 0 again.
    const buffer_id c = dev.allocate(pages_spec({2}, {1}, {{{3, 3}, {3, 3}}}), "c");
    EXPECT_EQ(dev.buffer(c).dist.bank_base, 0U);
    // The accessor words are the all-runtime words of the placed distribution.
    EXPECT_EQ(dev.buffer(b).words, make_accessor_words(dev.buffer(b).dist, arg::all_runtime));
    // Freeing 'a' lets a new buffer take base 0 on its cores.
    dev.free(a);
    EXPECT_FALSE(dev.is_live(a));
    const buffer_id d = dev.allocate(pages_spec({4}, {1}, {{{0, 0}, {1, 0}}}), "d");
    EXPECT_EQ(dev.buffer(d).dist.bank_base, 0U);
    EXPECT_THROW(dev.free(a), alloc_error);
}

TEST(SimDevice, AllocationErrorsNameTheProblem) {
    device dev(small_config());
    const buffer_id a = dev.allocate(pages_spec({8}, {2}, {grid_range(4, 1)}), "a");  // 32 bytes at 0
    (void)a;
    distribution_spec at = pages_spec({4}, {1}, {{{1, 0}, {1, 0}}});
    at.bank_base = 16;
    expect_error<alloc_error>([&] { dev.allocate_at(at, "clash"); }, {"clash", "0x10", "overlaps", "'a'", "(1,0)"});
    at.bank_base = 4096 - 32;
    expect_error<alloc_error>([&] { dev.allocate_at(at, "edge"); },
                              {"edge", "ends at 0x1020", "outside [0x0, 0x1000)", "L1 of core (1,0)"});
    at.bank_base = 32;
    EXPECT_EQ(dev.buffer(dev.allocate_at(at, "fits")).dist.bank_base, 32U);
    // 4096 bytes per core fit nowhere once 'a' holds the start of core (0,0).
    expect_error<alloc_error>(
        [&] {
            dev.allocate(pages_spec({256}, {256}, {{{0, 0}, {0, 0}}}), "big");
        },
        {"big", "4096 bytes", "no address is free"});
    expect_error<alloc_error>(
        [&] {
            dev.allocate(pages_spec({4}, {1}, {{{0, 7}, {0, 7}}}), "off");
        },
        {"off", "no core or DRAM bank at (0,7)"});
    expect_error<alloc_error>(
        [&] {
            dev.allocate(pages_spec({4}, {1}, {{{3, 0}, {3, 0}}, {dev.dram_bank(0), dev.dram_bank(0)}}), "mixed");
        },
        {"mixed", "mix", "L1", "DRAM"});
    EXPECT_THROW(dev.allocate(pages_spec({4}, {0}, {{{0, 0}, {0, 0}}})), spec_error);
    EXPECT_THROW(dev.allocate(pages_spec({4}, {1}, {{{0, 0}, {0, 0}}}, 6)), op_error);  // 6-byte pages
}

// docs/semantics.md V1: [2,2,3] pages in [1,1,2] shards on 16 cores; cores 8..15 hold only padding.
TEST(SimDevice, HostRoundTripKeepsPaddingAtTheSentinel) {
    device dev(small_config());
    distribution_spec s = pages_spec({2, 2, 3}, {1, 1, 2}, {grid_range(4, 4)}, 8);
    s.alignment = 16;  // 8-byte pages in 16-byte slots: every page has an 8-byte gap
    const buffer_id id = dev.allocate(s, "v1");
    const dense_tensor unwritten = dev.read(id);
    EXPECT_EQ(unwritten, dense_tensor::filled({2, 2, 3}, 2, sentinel_value(dev.config())));
    const dense_tensor t = dense_tensor::random({2, 2, 3}, 2, 7);
    dev.write(id, t);
    EXPECT_EQ(dev.read(id), t);
    EXPECT_TRUE(dev.padding_violations(id).empty());
    // Core 1 holds {2, P}: page 2 at slot 0, padding at slot 1.
    const memory& core1 = *dev.memory_at({1, 0});
    const auto page2 = core1.bytes(0, 8);
    EXPECT_EQ(std::memcmp(page2.data(), t.page(2).data(), 8), 0);
    for (std::byte b : core1.bytes(16, 16)) EXPECT_EQ(b, std::byte{0xA5});
    EXPECT_THROW(dev.write(id, dense_tensor::random({2, 3, 2}, 2, 7)), op_error);
    EXPECT_THROW(dev.write(id, dense_tensor::random({2, 2, 3}, 1, 7)), op_error);
}

TEST(SimDevice, PaddingViolationsAreReported) {
    device dev(small_config());
    const buffer_id id = dev.allocate(pages_spec({3}, {2}, {{{0, 0}, {0, 0}}}, 4), "p");  // {0,1} {2,P}
    dev.write(id, dense_tensor::random({3}, 1, 1));
    const std::int32_t bad = 7;
    dev.noc_write({0, 0}, {0, 0, 12}, std::as_bytes(std::span(&bad, 1)), id);  // the padding slot
    const auto v = dev.padding_violations(id);
    ASSERT_EQ(v.size(), 1U);
    EXPECT_NE(v[0].find("slot 3 (padding)"), std::string::npos) << v[0];
}

TEST(SimDevice, WritesIntoAlignmentGapsAreReportedWithTheirPage) {
    device dev(small_config());
    distribution_spec s = pages_spec({5}, {2}, {{{0, 0}, {1, 0}}}, 4);  // core 0 {0,1} {4,P}, core 1 {2,3}
    s.alignment = 8;                                                    // 4 bytes of page, 4 of gap
    const buffer_id id = dev.allocate(s, "g");
    dev.write(id, dense_tensor::random({5}, 1, 3));
    EXPECT_TRUE(dev.padding_violations(id).empty());
    const std::int32_t bad = 7;
    for (const noc_addr at : {noc_addr{1, 0, 12}, noc_addr{0, 0, 20}, noc_addr{0, 0, 28}})  // after 3, after 4, pad
        dev.noc_write({0, 0}, at, std::as_bytes(std::span(&bad, 1)), id);
    const auto v = dev.padding_violations(id);
    ASSERT_EQ(v.size(), 3U);
    EXPECT_NE(v[0].find("core (0,0) slot 2 (gap after page 4): byte 4"), std::string::npos) << v[0];
    EXPECT_NE(v[1].find("core (0,0) slot 3 (padding): byte 4"), std::string::npos) << v[1];
    EXPECT_NE(v[2].find("core (1,0) slot 1 (gap after page 3): byte 4"), std::string::npos) << v[2];
}

TEST(SimDevice, NocAccessesAreBoundsChecked) {
    device dev(small_config());
    const buffer_id a = dev.allocate(pages_spec({4}, {1}, {grid_range(2, 1)}), "a");  // 2 pages x 16 B per core
    std::int32_t page[4] = {};
    const auto dst = std::as_writable_bytes(std::span(page));
    dev.noc_read({0, 0}, {1, 0, 16}, dst, a);  // page 3
    expect_error<noc_error>(
        [&] {
            dev.noc_read({0, 0}, {1, 0, 32}, dst, a);
        },
        {"noc read by core (0,0)", "(1,0) 0x20", "outside every live buffer", "'a'"});
    expect_error<noc_error>([&] { dev.noc_read({0, 0}, {1, 0, 24}, dst, a); }, {"overruns", "'a'", "[0x0, 0x20)"});
    expect_error<noc_error>(
        [&] {
            dev.noc_read({3, 3}, {2, 0, 0}, dst);
        },
        {"core (3,3)", "outside every live buffer", "no buffer lies below"});
    expect_error<noc_error>([&] { dev.noc_read({0, 0}, {9, 9, 0}, dst); }, {"no core or DRAM bank at (9,9)"});
    const buffer_id b = dev.allocate(pages_spec({2}, {1}, {grid_range(2, 1)}), "b");  // right after 'a'
    expect_error<noc_error>(
        [&] {
            dev.noc_write({0, 0}, {0, 0, 32}, dst, a);
        },
        {"noc write", "lands in buffer 'b'", "not in the addressed buffer 'a'"});
    dev.noc_write({0, 0}, {0, 0, 32}, dst, b);
    dev.free(a);
    expect_error<noc_error>([&] { dev.noc_read({0, 0}, {1, 0, 16}, dst); }, {"outside every live buffer"});
}

TEST(SimDevice, TrafficCountsLocalRemoteAndHops) {
    device dev(small_config());
    const buffer_id a = dev.allocate(pages_spec({16}, {1}, {grid_range(4, 4)}), "a");
    std::int32_t page[4] = {};
    const auto bytes = std::as_writable_bytes(std::span(page));
    dev.reset_traffic();
    dev.record_accesses(true);
    dev.noc_read({1, 1}, {1, 1, 0}, bytes, a);   // local
    dev.noc_read({1, 1}, {3, 0, 0}, bytes, a);   // 2 + 1 hops
    dev.noc_write({1, 1}, {0, 3, 0}, bytes, a);  // 1 + 2 hops
    // Two 16-byte reads (one local, one remote), one remote 16-byte write, 3 + 3 hops.
    const traffic_stats want{.pages_read = 2,
                             .pages_written = 1,
                             .bytes_read = 32,
                             .bytes_written = 16,
                             .local_reads = 1,
                             .remote_reads = 1,
                             .remote_writes = 1,
                             .hops = 6};
    EXPECT_EQ(dev.traffic(), want);
    ASSERT_EQ(dev.accesses().size(), 3U);
    EXPECT_TRUE(dev.accesses()[2].is_write);
    EXPECT_EQ(dev.accesses()[1].target, (core_coord{3, 0}));
    // Host transfers are not traffic.
    dev.write(a, dense_tensor::random({16}, 4, 3));
    (void)dev.read(a);
    EXPECT_EQ(dev.traffic(), want);
}

TEST(SimDevice, DramInterleavedBuffer) {
    device dev(small_config());
    legacy_spec l;
    l.layout = legacy_layout::interleaved;
    l.tensor = {5, 3};
    l.page_size = 12;
    l.alignment = 32;
    l.cores = dev.dram_bank_ranges(6);
    const buffer_id id = dev.allocate(to_nd(l), "dram");
    EXPECT_EQ(dev.buffer(id).memory, memory_kind::dram);
    const dense_tensor t = dense_tensor::random({5, 3}, 3, 11);
    dev.write(id, t);
    EXPECT_EQ(dev.read(id), t);
    EXPECT_TRUE(dev.padding_violations(id).empty());
    // Page 7 -> bank 1 (at (4,1)), offset 1: byte 32.
    std::int32_t page[3] = {};
    dev.noc_read({0, 0}, {4, 1, 32}, std::as_writable_bytes(std::span(page)), id);
    EXPECT_EQ(std::vector<std::int32_t>(page, page + 3), std::vector<std::int32_t>(t.page(7).begin(), t.page(7).end()));
    EXPECT_THROW((void)dev.dram_bank_ranges(7), std::invalid_argument);
}

}  // namespace
}  // namespace ndshard::sim
