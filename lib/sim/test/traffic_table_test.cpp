// Issue 4's figure: reduce_sum over dim 0 of an [8,16,16]-page tensor on 8 cores (a 4x2
// grid), with the input interleaved, HEIGHT sharded, and ND sharded along the batch.
// The output is the same in every row: [16,16] pages in [2,16] shards (two rows per
// core) on the same 8 cores. Prints the table and pins its numbers.
#include <gtest/gtest.h>

#include <cstdio>

#include "ndshard/legacy.hpp"
#include "ndshard/sim/scenario.hpp"
#include "ndshard/sim/kernels.hpp"

namespace ndshard::sim {
namespace {

constexpr std::uint32_t page_elems = 16;  // 64-byte pages

struct row {
    const char* name;
    distribution_spec input;
    traffic_stats traffic;
};

legacy_spec base_legacy(legacy_layout kind) {
    legacy_spec l;
    l.layout = kind;
    l.tensor = {8, 16, 16};
    l.cores = {grid_range(4, 2)};
    l.page_size = page_elems * 4;
    return l;
}

TEST(SimTrafficTable, ReduceOverBatchOnEightCores) {
    legacy_spec height = base_legacy(legacy_layout::height);
    height.shard_height = 16;  // [128,16] view: one batch per core
    distribution_spec aligned;
    aligned.tensor = {8, 16, 16};
    aligned.shard = {8, 2, 16};  // every batch of two rows
    aligned.element_size = page_elems * 4;
    aligned.cores = {grid_range(4, 2)};
    std::vector<row> rows = {{"interleaved", to_nd_keeping_rank(base_legacy(legacy_layout::interleaved)), {}},
                             {"height [16,16]", to_nd_keeping_rank(height), {}},
                             {"ND [8,2,16]", aligned, {}}};

    distribution_spec out;
    out.tensor = {16, 16};
    out.shard = {2, 16};
    out.element_size = page_elems * 4;
    out.cores = {grid_range(4, 2)};

    for (row& r : rows) {
        device_config c;
        c.grid_x = 4;
        c.grid_y = 2;
        device dev(c);
        const buffer_id in = dev.allocate(r.input, "in");
        const dense_tensor t = dense_tensor::random({8, 16, 16}, page_elems, 42);
        dev.write(in, t);
        const buffer_id o = dev.allocate(out, "out");
        r.traffic = reduce_sum(dev, in, o, 0, 1);
        ASSERT_EQ(dev.read(o), dense::reduce_sum(t, 0)) << r.name;
    }

    std::printf("\nreduce_sum:0 of [8,16,16] pages (64 B each) on 8 cores (4x2); output [16,16] in [2,16] shards\n");
    std::printf(
        "| input          | pages read | local | remote | bytes read | remote bytes | hops | hops/remote read |\n");
    std::printf(
        "|----------------|-----------:|------:|-------:|-----------:|-------------:|-----:|-----------------:|\n");
    for (const row& r : rows) {
        const traffic_stats& s = r.traffic;
        std::printf("| %-14s | %10llu | %5llu | %6llu | %10llu | %12llu | %4llu | %16.2f |\n", r.name,
                    static_cast<unsigned long long>(s.pages_read), static_cast<unsigned long long>(s.local_reads),
                    static_cast<unsigned long long>(s.remote_reads), static_cast<unsigned long long>(s.bytes_read),
                    static_cast<unsigned long long>(s.remote_reads * page_elems * 4),
                    static_cast<unsigned long long>(s.hops),
                    s.remote_reads == 0 ? 0.0 : static_cast<double>(s.hops) / static_cast<double>(s.remote_reads));
    }
    std::printf("(every run also writes 256 pages, all local)\n\n");

    for (const row& r : rows) {
        EXPECT_EQ(r.traffic.pages_read, 2048U) << r.name;
        EXPECT_EQ(r.traffic.pages_written, 256U) << r.name;
        EXPECT_EQ(r.traffic.remote_writes, 0U) << r.name;
    }
    // Interleaved: page (b,i,j) sits on core j % 8, so a core finds 1 of every 8 reads at home.
    EXPECT_EQ(rows[0].traffic.remote_reads, 1792U);
    // HEIGHT: core c holds batch c, so 7 of the 8 terms of every sum are remote.
    EXPECT_EQ(rows[1].traffic.remote_reads, 1792U);
    // Batch-aligned ND: every term is local.
    EXPECT_EQ(rows[2].traffic.remote_reads, 0U);
    EXPECT_EQ(rows[2].traffic.hops, 0U);
}

}  // namespace
}  // namespace ndshard::sim
