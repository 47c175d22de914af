// Kernels on hand-picked distributions, including every legacy layout, checked against
// the dense oracle; request errors; and a deliberately wrong kernel that the NoC bounds
// check must catch.
#include <gtest/gtest.h>

#include "ndshard/legacy.hpp"
#include "ndshard/sim/scenario.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "ndshard/sim/kernels.hpp"
#include "ndshard/sim/op.hpp"

namespace ndshard::sim {
namespace {

constexpr std::uint32_t elems = 4;

distribution_spec nd(shape tensor, shape shard, std::vector<core_range> cores, strategy st = strategy::round_robin_1d) {
    distribution_spec s;
    s.tensor = tensor;
    s.shard = shard;
    s.element_size = elems * 4;
    s.cores = std::move(cores);
    s.strat = st;
    return s;
}

distribution_spec legacy(legacy_layout kind, shape tensor, std::uint64_t sh, std::uint64_t sw,
                         std::vector<core_range> cores, orientation o = orientation::row_major) {
    legacy_spec l;
    l.layout = kind;
    l.tensor = tensor;
    l.shard_height = sh;
    l.shard_width = sw;
    l.cores = std::move(cores);
    l.orient = o;
    l.page_size = elems * 4;
    l.alignment = 32;
    return to_nd_keeping_rank(l);
}

struct fixture {
    device dev{[] {
        device_config c;
        c.grid_x = 4;
        c.grid_y = 4;
        c.l1_size = 1 << 16;
        c.num_dram_banks = 4;
        return c;
    }()};

    buffer_id filled(const distribution_spec& s, std::uint64_t seed, dense_tensor* out = nullptr) {
        const buffer_id id = dev.allocate(s);
        dense_tensor t = dense_tensor::random(dev.buffer(id).dist.tensor_pages, elems, seed);
        dev.write(id, t);
        if (out) *out = std::move(t);
        return id;
    }
};

TEST(SimKernels, ReshardAcrossEveryLayout) {
    const shape pages{3, 4, 6};  // legacy view [12, 6]
    const std::vector<distribution_spec> layouts = {
        legacy(legacy_layout::interleaved, pages, 1, 1, {grid_range(4, 3)}),
        legacy(legacy_layout::height, pages, 5, 0, {grid_range(3, 1)}),  // uneven: 5,5,2 rows
        legacy(legacy_layout::width, pages, 0, 4, {grid_range(2, 2)}),   // more cores than shards
        legacy(legacy_layout::block, pages, 4, 4, {grid_range(4, 4)}, orientation::col_major),
        nd(pages, {2, 3, 4}, {grid_range(3, 2)}),
        nd(pages, {5, 4}, {grid_range(2, 2)}, strategy::contiguous_1d),  // folded to [12, 6]
        nd(pages, {2, 2, 5}, {grid_range(4, 4)}, strategy::grid_2d),
    };
    for (std::size_t i = 0; i < layouts.size(); ++i)
        for (std::size_t j = 0; j < layouts.size(); ++j) {
            fixture f;
            dense_tensor t;
            const buffer_id a = f.filled(layouts[i], 10 * i + j, &t);
            const buffer_id b = f.dev.allocate(layouts[j]);
            const traffic_stats s = reshard(f.dev, a, b, i);
            EXPECT_EQ(f.dev.read(b), t) << i << " -> " << j;
            EXPECT_EQ(s.pages_read, 72U);
            EXPECT_EQ(s.pages_written, 72U);
            EXPECT_EQ(s.remote_writes, 0U);
            EXPECT_TRUE(f.dev.padding_violations(b).empty());
            if (i == j) {
                EXPECT_EQ(s.remote_reads, 0U) << "identical layouts move nothing remote";
            }
        }
}

TEST(SimKernels, EltwiseAddWithThreeDistributions) {
    fixture f;
    dense_tensor x, y;
    const buffer_id a = f.filled(nd({5, 7}, {2, 3}, {grid_range(3, 3)}), 1, &x);
    const buffer_id b = f.filled(legacy(legacy_layout::interleaved, {5, 7}, 1, 1, f.dev.dram_bank_ranges(4)), 2, &y);
    const buffer_id c = f.dev.allocate(legacy(legacy_layout::height, {5, 7}, 2, 0, {grid_range(3, 1)}));
    const traffic_stats s = eltwise_add(f.dev, a, b, c);
    EXPECT_EQ(f.dev.read(c), dense::eltwise_add(x, y));
    EXPECT_EQ(s.pages_read, 70U);
    // The same buffer twice is fine.
    eltwise_add(f.dev, a, a, c);
    EXPECT_EQ(f.dev.read(c), dense::eltwise_add(x, x));
}

TEST(SimKernels, ReduceSumOverEachDim) {
    const shape pages{3, 7, 5};  // the proposal's picture
    for (std::size_t dim = 0; dim < 3; ++dim)
        for (bool keep : {false, true}) {
            fixture f;
            dense_tensor t;
            const buffer_id in = f.filled(nd(pages, {2, 2, 2}, {grid_range(2, 3)}), dim, &t);
            const dense_tensor want = dense::reduce_sum(t, dim, keep);
            const buffer_id out = f.dev.allocate(nd(want.pages, {1, 2}, {grid_range(3, 1)}, strategy::contiguous_1d));
            const traffic_stats s = reduce_sum(f.dev, in, out, dim);
            EXPECT_EQ(f.dev.read(out), want) << dim << " " << keep;
            EXPECT_EQ(s.pages_read, 105U);
            EXPECT_EQ(s.pages_written, want.num_pages());
        }
}

TEST(SimKernels, ReduceSumOfAlignedShardsIsLocal) {
    fixture f;
    dense_tensor t;
    // Shards cover the whole batch; the output's shards are the same ones without it.
    const buffer_id in = f.filled(nd({4, 6, 3}, {4, 2, 3}, {grid_range(3, 1)}), 5, &t);
    const buffer_id out = f.dev.allocate(nd({6, 3}, {2, 3}, {grid_range(3, 1)}));
    const traffic_stats s = reduce_sum(f.dev, in, out, 0);
    EXPECT_EQ(f.dev.read(out), dense::reduce_sum(t, 0));
    EXPECT_EQ(s.remote_reads, 0U);
    EXPECT_EQ(s.local_reads, 72U);
    EXPECT_EQ(s.hops, 0U);
}

TEST(SimKernels, Permute) {
    fixture f;
    dense_tensor t;
    const buffer_id in = f.filled(nd({2, 3, 4}, {1, 2, 3}, {grid_range(4, 2)}), 9, &t);
    const std::vector<std::size_t> order{2, 0, 1};
    const buffer_id out = f.dev.allocate(legacy(legacy_layout::block, {4, 2, 3}, 3, 2, {grid_range(2, 3)}));
    permute(f.dev, in, out, order);
    EXPECT_EQ(f.dev.read(out), dense::permute(t, order));
    EXPECT_EQ(f.dev.read(out).pages, (shape{4, 2, 3}));
}

TEST(SimKernels, ResultsDoNotDependOnTheCoreOrder) {
    fixture f;
    const buffer_id in = f.filled(nd({6, 5}, {4, 2}, {grid_range(4, 4)}), 3);
    const buffer_id out = f.dev.allocate(nd({5}, {2}, {grid_range(2, 2)}, strategy::contiguous_1d));
    reduce_sum(f.dev, in, out, 0, 1);
    const dense_tensor first = f.dev.read(out);
    for (std::uint64_t seed = 2; seed < 10; ++seed) {
        reduce_sum(f.dev, in, out, 0, seed);
        EXPECT_EQ(f.dev.read(out), first);
    }
}

TEST(SimKernels, RequestErrors) {
    fixture f;
    const buffer_id a = f.filled(nd({2, 3}, {1, 1}, {grid_range(2, 1)}), 1);
    const buffer_id b = f.dev.allocate(nd({3, 2}, {1, 1}, {grid_range(2, 1)}));
    EXPECT_THROW(reshard(f.dev, a, b), op_error);
    EXPECT_THROW(reshard(f.dev, a, a), op_error);
    EXPECT_THROW(reduce_sum(f.dev, a, b, 2), op_error);
    EXPECT_THROW(reduce_sum(f.dev, a, b, 0), op_error);
    const std::vector<std::size_t> bad{0, 0};
    EXPECT_THROW(permute(f.dev, a, b, bad), op_error);
    const std::vector<std::size_t> swap{1, 0};
    permute(f.dev, a, b, swap);
    distribution_spec wide = nd({2, 3}, {1, 1}, {grid_range(2, 1)});
    wide.element_size = 8;
    const buffer_id c = f.dev.allocate(wide);
    try {
        reshard(f.dev, a, c);
        ADD_FAILURE();
    } catch (const op_error& e) {
        EXPECT_NE(std::string(e.what()).find("page sizes differ"), std::string::npos) << e.what();
    }
    f.dev.free(b);
    EXPECT_THROW(reshard(f.dev, a, b), op_error);
}

TEST(SimKernels, ParseOp) {
    for (const char* s : {"reshard", "eltwise_add", "reduce_sum:0", "reduce_sum:7", "permute:2,0,1", "permute:0"})
        EXPECT_EQ(to_string(parse_op(s)), s);
    EXPECT_EQ(parse_op("permute:2,0,1").order, (std::vector<std::size_t>{2, 0, 1}));
    for (const char* s : {"", "sum", "reduce_sum", "reduce_sum:", "reduce_sum:x", "reduce_sum:8", "reduce_sum:1,2",
                          "permute", "permute:", "permute:1,,0", "reshard:1", "eltwise_add:0", "Reshard"})
        EXPECT_THROW(parse_op(s), op_error) << s;
    EXPECT_EQ(output_pages(parse_op("reduce_sum:1"), {2, 3, 4}), (shape{2, 4}));
    EXPECT_EQ(output_pages(parse_op("reduce_sum:0"), {5}), (shape{1}));
    EXPECT_EQ(output_pages(parse_op("permute:2,0,1"), {2, 3, 4}), (shape{4, 2, 3}));
    EXPECT_NO_THROW(check_output_pages(parse_op("reduce_sum:1"), {2, 3, 4}, {2, 1, 4}));
    EXPECT_THROW(check_output_pages(parse_op("reduce_sum:1"), {2, 3, 4}, {2, 3}), op_error);
    EXPECT_THROW(output_pages(parse_op("permute:1,0"), {2, 3, 4}), op_error);
}

// A kernel with an address bug (it forgets that the output does not start at 0)
// is stopped by the NoC check with a message naming the core, address and buffer.
TEST(SimKernels, AddressBugsFailLoudly) {
    fixture f;
    const buffer_id other = f.dev.allocate(nd({4}, {1}, {grid_range(2, 1)}));  // takes base 0
    const buffer_id in = f.filled(nd({4}, {1}, {grid_range(2, 1)}), 1);
    const buffer_id out = f.dev.allocate(nd({4}, {2}, {grid_range(2, 1)}));
    (void)other;
    tensor_arg src = tensor_arg::of(f.dev.buffer(in));
    tensor_arg dst = tensor_arg::of(f.dev.buffer(out));
    dst.bank_base = 0;  // the bug
    core_context core(f.dev, {1, 0}, 1);
    try {
        reshard_kernel(core, src, dst);
        ADD_FAILURE() << "no noc_error";
    } catch (const noc_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("noc write by core (1,0)"), std::string::npos) << what;
        EXPECT_NE(what.find("(1,0) 0x0"), std::string::npos) << what;
        EXPECT_NE(what.find("not in the addressed buffer"), std::string::npos) << what;
    }
}

TEST(SimKernels, RunOpAndOracleOpAgree) {
    fixture f;
    dense_tensor x, y;
    const buffer_id a = f.filled(nd({2, 3, 2}, {1, 2, 2}, {grid_range(3, 1)}), 4, &x);
    const buffer_id b = f.filled(nd({2, 3, 2}, {2, 1, 1}, {grid_range(2, 2)}, strategy::contiguous_1d), 5, &y);
    for (const char* text : {"reshard", "eltwise_add", "reduce_sum:1", "permute:1,2,0"}) {
        const op_spec op = parse_op(text);
        const shape out_pages = output_pages(op, {2, 3, 2});
        const buffer_id out = f.dev.allocate(nd(out_pages, {1, 1}, {grid_range(4, 1)}));
        const std::vector<buffer_id> ins = op.kind == op_kind::eltwise_add ? std::vector{a, b} : std::vector{a};
        const std::vector<dense_tensor> data = op.kind == op_kind::eltwise_add ? std::vector{x, y} : std::vector{x};
        run_op(f.dev, op, ins, out, 3);
        EXPECT_EQ(f.dev.read(out), oracle_op(op, data, out_pages)) << text;
        EXPECT_THROW(run_op(f.dev, op, std::vector<buffer_id>{}, out), op_error);
        f.dev.free(out);
    }
}

// run_scenario, the entry point of the fuzz target, from seeded PRNGs and from raw
// bytes (an exhausted byte source answers the simplest choice).
TEST(SimKernels, RunScenario) {
    int ops[4] = {};
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
        testkit::random_entropy e(seed);
        const scenario_outcome r = run_scenario(e);
        EXPECT_EQ(r.failure, "") << seed;
        ++ops[static_cast<int>(r.op.kind)];
    }
    for (int n : ops) EXPECT_GT(n, 30);
    const std::uint8_t bytes[] = {3, 250, 7, 1, 0, 9, 200, 13, 77, 5, 31, 64, 2, 8};
    for (std::size_t n = 0; n <= sizeof bytes; ++n) {
        testkit::byte_entropy e(std::span<const std::uint8_t>(bytes, n));
        EXPECT_EQ(run_scenario(e).failure, "") << n;
    }
}

// The three buffers of a fuzz_kernel scenario (96 pages, 16-byte pages aligned up to 64)
// must fit one L1 bank together. Padding multiplies over the dims: fuzz_kernel found a
// rank-8 shard of 4096 pages (256 KiB) when every shard dim could reach past the tensor
// (corpus/fuzz_kernel/regressions/). So at most one dim may, and no drawn distribution
// reserves more than a third of L1 on a core.
TEST(SimKernels, DrawnDistributionsFitAThirdOfL1) {
    const device_config cfg = scenario_device_config();
    std::uint64_t largest = 0, one_past = 0;
    for (std::uint64_t seed = 0; seed < 20000; ++seed) {
        testkit::random_entropy e(seed);
        const shape pages = draw_page_grid(e, 5 + seed % 4, 96);
        const drawn_spec drawn = draw_distribution(e, cfg, pages, 16);
        const distribution d = make_distribution(drawn.spec);
        const std::uint64_t bytes = d.reserved_pages_per_core() * d.aligned_page_size;
        largest = std::max(largest, bytes);
        ASSERT_LE(bytes, cfg.l1_size / 3) << "seed " << seed << ": " << to_string(d.spec.shard);
        if (drawn.family != layout_family::nd || drawn.spec.strat == strategy::grid_2d) continue;
        const shape folded = fold_to_rank(pages, d.spec.shard.rank());
        std::uint64_t past = 0;
        for (std::size_t k = 0; k < folded.rank(); ++k) past += d.spec.shard[k] > std::max<std::uint64_t>(folded[k], 1);
        ASSERT_LE(past, 1U) << "seed " << seed << ": shard " << to_string(d.spec.shard) << " of " << to_string(folded);
        one_past += past;
    }
    EXPECT_GT(one_past, 1000U);            // shards past the tensor are still drawn
    EXPECT_GT(largest, cfg.l1_size / 64);  // and so are sizable buffers
}

}  // namespace
}  // namespace ndshard::sim
