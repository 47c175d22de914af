// tt-metal's host API, the names factories use beyond the basics: the reader and writer
// configs' defaults, num_cores_to_corerangeset, split_work_to_cores over a CoreRangeSet,
// CoreRangeSet's set operations, grid_to_cores, tt::tile_size and tt::datum_size - each
// against tt-metal's documented results.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "tt-metalium/constants.hpp"
#include "tt-metalium/host_api.hpp"
#include "tt-metalium/tt_backend_api_types.hpp"

namespace {

using namespace tt::tt_metal;

using split = std::tuple<std::uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, std::uint32_t, std::uint32_t>;
CoreRangeSet ranges(std::vector<CoreRange> r) { return CoreRangeSet(std::move(r)); }

TEST(HostApiCoverage, ReaderAndWriterConfigsTakeTtMetalsDefaultsAndArgumentOrder) {
    const ReaderDataMovementConfig r({1, 2}, {{"FAST", "1"}}, {{"cb_in", 3}});
    EXPECT_EQ(r.processor, DataMovementProcessor::RISCV_1);
    EXPECT_EQ(r.noc, NOC::NOC_0);
    EXPECT_EQ(r.compile_args, (std::vector<std::uint32_t>{1, 2}));
    EXPECT_EQ(r.defines.at("FAST"), "1");
    EXPECT_EQ(r.named_compile_args.at("cb_in"), 3u);
    const WriterDataMovementConfig w({4});
    EXPECT_EQ(w.processor, DataMovementProcessor::RISCV_0);
    EXPECT_EQ(w.noc, NOC::NOC_1);
    EXPECT_EQ(w.compile_args, (std::vector<std::uint32_t>{4}));
    EXPECT_TRUE(w.defines.empty());
    // CreateKernel takes either, as tt-metal's factories pass them.
    Program p = CreateProgram();
    const KernelHandle k = CreateKernel(p, "reader.cpp", CoreCoord{0, 0}, ReaderDataMovementConfig{{7}});
    EXPECT_EQ(p.ndshard_state().kernels[k].config.processor, DataMovementProcessor::RISCV_1);
    EXPECT_EQ(p.ndshard_state().kernels[k].config.compile_args, (std::vector<std::uint32_t>{7}));
}

TEST(HostApiCoverage, NumCoresToCoreRangeSetCutsAsTtMetal) {
    // Column by column from (1,1) on a 3x3 grid: the rest of column 1, then part of column 2.
    EXPECT_EQ(num_cores_to_corerangeset({1, 1}, 4, {3, 3}),
              ranges({CoreRange({1, 1}, {1, 2}), CoreRange({2, 0}, {2, 1})}));
    // Row by row from (0,0): two whole rows, then one core of the third.
    EXPECT_EQ(num_cores_to_corerangeset(7, {3, 3}, true), ranges({CoreRange({0, 0}, {2, 1}), CoreRange({0, 2})}));
    EXPECT_EQ(num_cores_to_corerangeset(3, {3, 3}), CoreRangeSet(CoreRange({0, 0}, {0, 2})));
    EXPECT_TRUE(num_cores_to_corerangeset(0, {3, 3}).empty());
    EXPECT_THROW(num_cores_to_corerangeset({2, 2}, 2, {3, 3}), std::invalid_argument);
    EXPECT_THROW(num_cores_to_corerangeset({3, 0}, 1, {3, 3}), std::invalid_argument);
}

TEST(HostApiCoverage, SplitWorkToCoresOverACoreRangeSetGoesRangeByRange) {
    const CoreRangeSet set = ranges({CoreRange({0, 0}, {1, 1}), CoreRange({3, 0}, {3, 2})});  // 4 + 3 cores
    // Every core; the first 10 % 7 = 3 of them (column by column in the first range) one more.
    EXPECT_EQ(split_work_to_cores(set, 10), (split{7, set, ranges({CoreRange({0, 0}, {0, 1}), CoreRange({1, 0})}),
                                                   ranges({CoreRange({1, 1}), CoreRange({3, 0}, {3, 2})}), 2, 1}));
    // Fewer units than cores: the first ones, one each.
    const CoreRangeSet five = ranges({CoreRange({0, 0}, {1, 1}), CoreRange({3, 0})});
    EXPECT_EQ(split_work_to_cores(set, 5), (split{5, five, five, CoreRangeSet(), 1, 0}));
    // Row by row inside a range.
    EXPECT_EQ(split_work_to_cores(set, 8, true),
              (split{7, set, CoreRangeSet(CoreRange({0, 0})),
                     ranges({CoreRange({1, 0}), CoreRange({0, 1}, {1, 1}), CoreRange({3, 0}, {3, 2})}), 2, 1}));
    EXPECT_EQ(split_work_to_cores(set, 0), (split{0, CoreRangeSet(), CoreRangeSet(), CoreRangeSet(), 0, 0}));
    // A one-range set splits as the grid form does.
    EXPECT_EQ(split_work_to_cores(CoreRangeSet(CoreRange({0, 0}, {3, 1})), 17), split_work_to_cores({4, 2}, 17));
    EXPECT_EQ(split_work_to_cores(CoreRangeSet(CoreRange({0, 0}, {3, 1})), 3, true),
              split_work_to_cores({4, 2}, 3, true));
}

TEST(HostApiCoverage, CoreRangeSetMergesIntersectsAndSubtracts) {
    const CoreRangeSet row0(CoreRange({0, 0}, {1, 0}));
    EXPECT_EQ(row0.merge(CoreRangeSet(CoreRange({0, 1}, {1, 1}))), CoreRangeSet(CoreRange({0, 0}, {1, 1})));
    EXPECT_EQ(row0.merge(CoreCoord{2, 0}), CoreRangeSet(CoreRange({0, 0}, {2, 0})));
    EXPECT_EQ(row0.merge(CoreRange({0, 0}, {0, 0})), row0);
    EXPECT_EQ(ranges({CoreRange({0, 0}), CoreRange({1, 0})}).merge_ranges(), row0);
    const CoreRangeSet block(CoreRange({0, 0}, {2, 1}));
    EXPECT_EQ(block.subtract(CoreRange({1, 0}, {1, 1})),
              ranges({CoreRange({0, 0}, {0, 1}), CoreRange({2, 0}, {2, 1})}));
    EXPECT_EQ(CoreRangeSet(CoreRange({0, 0}, {2, 2})).intersection(CoreRange({1, 1}, {3, 3})),
              CoreRangeSet(CoreRange({1, 1}, {2, 2})));
    EXPECT_TRUE(block.intersects(CoreRange({2, 1}, {4, 4})));
    EXPECT_FALSE(block.intersects(CoreRangeSet(CoreRange({3, 0}, {3, 3}))));
    EXPECT_TRUE(block.contains(ranges({CoreRange({0, 0}), CoreRange({2, 1})})));
    EXPECT_FALSE(block.contains(ranges({CoreRange({0, 0}), CoreRange({3, 1})})));
    // From a std::set (ordered), from single cores.
    EXPECT_EQ(CoreRangeSet(std::set<CoreRange>{CoreRange({3, 0}, {3, 1}), CoreRange({0, 0}, {1, 1})}).ranges().front(),
              CoreRange({0, 0}, {1, 1}));
    const std::vector<CoreCoord> cores{{0, 0}, {2, 1}};
    EXPECT_EQ(CoreRangeSet(cores).num_cores(), 2u);
    EXPECT_EQ(CoreRangeSet(cores).size(), 2u);
}

TEST(HostApiCoverage, GridToCoresTakesTheFirstCores) {
    EXPECT_EQ(grid_to_cores(5, 2, 3), (std::vector<CoreCoord>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}}));
    EXPECT_EQ(grid_to_cores(3, 2, 3, true), (std::vector<CoreCoord>{{0, 0}, {1, 0}, {0, 1}}));
    EXPECT_EQ(grid_to_cores({1, 1}, {2, 2}, true), (std::vector<CoreCoord>{{1, 1}, {2, 1}, {1, 2}, {2, 2}}));
    EXPECT_THROW(grid_to_cores(7, 2, 3), std::invalid_argument);
}

TEST(HostApiCoverage, TileAndDatumSizesAreTtMetals) {
    EXPECT_EQ(tt::tile_size(tt::DataFormat::Float32), 4096u);
    EXPECT_EQ(tt::tile_size(tt::DataFormat::Float16_b), 2048u);
    EXPECT_EQ(tt::tile_size(tt::DataFormat::Bfp8_b), 1088u);
    EXPECT_EQ(tt::tile_size(tt::DataFormat::Bfp4_b), 576u);
    EXPECT_EQ(tt::tile_size(tt::DataFormat::Bfp2_b), 320u);
    EXPECT_EQ(tt::tile_size(tt::DataFormat::UInt8), 1024u);
    EXPECT_EQ(tt::tile_size(tt::DataFormat::Int32), 4096u);
    EXPECT_EQ(tt::datum_size(tt::DataFormat::UInt16), 2u);
    EXPECT_THROW((void)tt::datum_size(tt::DataFormat::Bfp8_b), std::invalid_argument);
    EXPECT_THROW((void)tt::tile_size(tt::DataFormat::Tf32), std::invalid_argument);
    static_assert(tt::tile_size(tt::DataFormat::Bfp8_b) == 1088);
    static_assert(tt::constants::TILE_HW == 1024 && tt::constants::FACE_HW == 256);
    static_assert(tt::tile_size(tt::DataFormat::Bfp8_b) == tt::constants::BFLOAT8_B_TILE_HW);
    static_assert(tt::tile_size(tt::DataFormat::Bfp4_b) == tt::constants::BFLOAT4_B_TILE_HW);
}

}  // namespace
