// run_sim_op: the contract `ndshard sim` relies on (see sim_op.hpp).
#include <gtest/gtest.h>

#include "ndshard/error.hpp"
#include "ndshard/cli/sim_op.hpp"
#include "ndshard/sim/error.hpp"

namespace ndshard::cli {
namespace {

using sim::op_error;

// {"tensor":[4,8,8],"shard":[4,1,1],"grid":"2x3","strategy":"round_robin_1d"}
distribution_spec sharded(shape tensor, shape shard, std::uint32_t gx, std::uint32_t gy,
                          strategy st = strategy::round_robin_1d) {
    distribution_spec s;
    s.tensor = tensor;
    s.shard = shard;
    s.cores = {grid_range(gx, gy)};
    s.strat = st;
    return s;
}

// {"tensor":[...],"interleaved":true,"banks":12} as a 12x1 row of cores.
distribution_spec interleaved(shape tensor, std::uint32_t banks) {
    distribution_spec s;
    s.tensor = tensor;
    for (std::size_t d = 0; d < tensor.rank(); ++d) s.shard.push_back(1);
    s.cores = {grid_range(banks, 1)};
    return s;
}

TEST(SimCliOp, EveryOpVerifies) {
    const distribution_spec in = sharded({4, 8, 8}, {4, 1, 1}, 2, 3);
    const sim_op_result r = run_sim_op("reshard", {in}, interleaved({4, 8, 8}, 12), 16, 5);
    EXPECT_TRUE(r.verified) << r.detail;
    EXPECT_EQ(r.op, "reshard");
    EXPECT_EQ(r.pages_read, 256U);
    EXPECT_EQ(r.pages_written, 256U);
    EXPECT_EQ(r.bytes_read, 256U * 64);
    EXPECT_EQ(r.local_reads + r.remote_reads, 256U);

    const sim_op_result red = run_sim_op("reduce_sum:0", {in}, sharded({8, 8}, {1, 1}, 2, 3));
    EXPECT_TRUE(red.verified) << red.detail;
    EXPECT_EQ(red.remote_reads, 0U) << "the [4,1,1] shards hold whole batches";
    EXPECT_EQ(red.pages_written, 64U);

    const sim_op_result add =
        run_sim_op("eltwise_add", {in, interleaved({4, 8, 8}, 5)}, sharded({4, 8, 8}, {2, 3, 3}, 3, 3), 3, 1);
    EXPECT_TRUE(add.verified) << add.detail;
    EXPECT_EQ(add.pages_read, 512U);
    EXPECT_EQ(add.bytes_read, 512U * 12);

    const sim_op_result per = run_sim_op("permute:2,0,1", {in}, sharded({8, 4, 8}, {3, 4, 5}, 4, 3, strategy::grid_2d));
    EXPECT_TRUE(per.verified) << per.detail;
    EXPECT_EQ(per.op, "permute:2,0,1");
}

TEST(SimCliOp, TileAndRowMajorPages) {
    distribution_spec tiles = sharded({64, 96}, {32, 64}, 2, 2);  // pages [2,3], 1024 int32 each
    tiles.page = {page_kind::tile};
    const sim_op_result r = run_sim_op("reshard", {tiles}, interleaved({2, 3}, 4), 1024);
    EXPECT_TRUE(r.verified) << r.detail;
    EXPECT_EQ(r.bytes_read, 6U * 4096);
    distribution_spec rows = sharded({4, 12}, {2, 12}, 2, 1);  // pages [4,1], 12 int32 each
    rows.page = {page_kind::row_major};
    EXPECT_TRUE(run_sim_op("reduce_sum:1", {rows}, interleaved({4}, 3), 12).verified);
    EXPECT_THROW(run_sim_op("reshard", {tiles}, interleaved({2, 3}, 4), 16), op_error);  // 1024 vs 16 int32
}

TEST(SimCliOp, BadRequestsAreInvalidArguments) {
    const distribution_spec in = sharded({4, 8, 8}, {4, 1, 1}, 2, 3);
    auto message = [](auto&& f) -> std::string {
        try {
            f();
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "no std::invalid_argument";
    };
    EXPECT_NE(message([&] { run_sim_op("sum", {in}, in); }).find("unknown op 'sum'"), std::string::npos);
    EXPECT_NE(message([&] { run_sim_op("eltwise_add", {in}, in); }).find("takes 2 --in"), std::string::npos);
    EXPECT_NE(message([&] {
                  run_sim_op("reshard", {in}, interleaved({4, 8, 7}, 3));
              }).find("not [4,8,7]"),
              std::string::npos);
    EXPECT_NE(message([&] { run_sim_op("reduce_sum:3", {in}, in); }).find("dim 3 is not in 0..2"), std::string::npos);
    EXPECT_NE(message([&] {
                  run_sim_op("eltwise_add", {in, interleaved({4, 8, 4}, 2)}, in);
              }).find("differ"),
              std::string::npos);
    distribution_spec bad = in;
    bad.shard = {1, 1, 1, 1};
    try {
        run_sim_op("reshard", {in}, bad);
        ADD_FAILURE();
    } catch (const spec_error& e) {
        EXPECT_EQ(e.rule(), "shard_rank");
        EXPECT_NE(std::string(e.what()).find("output: "), std::string::npos) << e.what();
    }
    EXPECT_NE(message([&] { run_sim_op("reshard", {in}, in, 0); }).find("--page-elems"), std::string::npos);
    const distribution_spec huge = interleaved({1 << 20, 64}, 8);
    EXPECT_NE(message([&] { run_sim_op("reshard", {huge}, huge); }).find("too large to simulate"), std::string::npos);
    distribution_spec far = in;
    far.cores = {{{300, 300}, {300, 300}}};
    EXPECT_NE(message([&] { run_sim_op("reshard", {in}, far); }).find("at most 65536 worker cores"), std::string::npos);
}

TEST(SimCliOp, Json) {
    sim_op_result r{"reduce_sum:0", true, 1, 2, 3, 4, 5, 6, 7, "ignored"};
    EXPECT_EQ(to_json(r),
              "{\"op\":\"reduce_sum:0\",\"verified\":true,\"pages_read\":1,\"pages_written\":2,\"local_reads\":3,"
              "\"remote_reads\":4,\"bytes_read\":5,\"bytes_written\":6,\"hops\":7}");
    r.verified = false;
    EXPECT_NE(to_json(r).find("\"verified\":false"), std::string::npos);
}

}  // namespace
}  // namespace ndshard::cli
