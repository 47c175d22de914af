// tt-metal's host API over the simulator (lib/ttmetal_host): each call against what tt-metal
// documents - argument orders, split_work_to_cores' split, a buffer's core_groups, CB
// configs, TensorAccessorArgs in every ArgsConfig mix - and the bad calls, each refused
// with an error naming the call and the value. No kernel is compiled here.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "ndshard/error.hpp"
#include "ndshard/tt/host_words.hpp"
#include "ndshard/ttmetal_host/bridge.hpp"
#include "ndshard/ttsim/launch.hpp"
#include "tt-metalium/host_api.hpp"

namespace {

using namespace tt::tt_metal;
namespace nd = ndshard;

// The message of what `f` throws (of type E), or "" when it throws nothing.
template <class E, class F>
std::string thrown(F f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "";
}

TEST(HostApi, CoreRangeSetCountsContainsAndBoundsItsRanges) {
    const CoreRangeSet set(std::vector<CoreRange>{CoreRange({0, 0}, {1, 1}), CoreRange({3, 0}, {3, 2})});
    EXPECT_EQ(set.num_cores(), 7u);
    EXPECT_EQ(set.size(), 2u);
    EXPECT_TRUE(set.contains(CoreCoord{3, 2}));
    EXPECT_FALSE(set.contains(CoreCoord{2, 0}));
    EXPECT_TRUE(set.contains(CoreRange({0, 1}, {1, 1})));
    EXPECT_EQ(set.bounding_box(), CoreRange({0, 0}, {3, 2}));
    EXPECT_EQ(CoreRange({1, 2}, {3, 2}).grid_size(), (CoreCoord{3, 1}));
    EXPECT_NE(thrown<std::invalid_argument>([] {
                  CoreRangeSet(std::vector<CoreRange>{CoreRange({0, 0}, {1, 1}), CoreRange({1, 1}, {2, 2})});
              }).find("overlap"),
              std::string::npos);
    // Range by range; inside a range column by column, or row by row when row_wise.
    const CoreRangeSet r(CoreRange({0, 0}, {1, 1}));
    EXPECT_EQ(corerange_to_cores(r), (std::vector<CoreCoord>{{0, 0}, {0, 1}, {1, 0}, {1, 1}}));
    EXPECT_EQ(corerange_to_cores(r, std::nullopt, true), (std::vector<CoreCoord>{{0, 0}, {1, 0}, {0, 1}, {1, 1}}));
    EXPECT_EQ(corerange_to_cores(set, 5u).size(), 5u);
}

using split = std::tuple<std::uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, std::uint32_t, std::uint32_t>;
CoreRangeSet ranges(std::vector<CoreRange> r) { return CoreRangeSet(std::move(r)); }

TEST(HostApi, SplitWorkToCoresSplitsAsTtMetal) {
    // Every core busy, the first 10 % 8 cores (column by column) with one unit more.
    EXPECT_EQ(split_work_to_cores({4, 2}, 10),
              (split{8, CoreRange({0, 0}, {3, 1}), CoreRange({0, 0}, {0, 1}), CoreRange({1, 0}, {3, 1}), 2, 1}));
    // Row by row: group 2 starts mid-row, then a whole row.
    EXPECT_EQ(split_work_to_cores({4, 2}, 10, true),
              (split{8, CoreRange({0, 0}, {3, 1}), CoreRange({0, 0}, {1, 0}),
                     ranges({CoreRange({2, 0}, {3, 0}), CoreRange({0, 1}, {3, 1})}), 2, 1}));
    EXPECT_EQ(split_work_to_cores({4, 2}, 17),
              (split{8, CoreRange({0, 0}, {3, 1}), CoreRange({0, 0}, {0, 0}),
                     ranges({CoreRange({0, 1}, {0, 1}), CoreRange({1, 0}, {3, 1})}), 3, 2}));
    // Fewer units than cores: one each, a whole column then a part of one.
    const CoreRangeSet three = ranges({CoreRange({0, 0}, {0, 1}), CoreRange({1, 0}, {1, 0})});
    EXPECT_EQ(split_work_to_cores({4, 2}, 3), (split{3, three, three, CoreRangeSet(), 1, 0}));
    EXPECT_EQ(split_work_to_cores({4, 2}, 0), (split{0, CoreRangeSet(), CoreRangeSet(), CoreRangeSet(), 0, 0}));
}

TEST(HostApi, CircularBufferConfigTakesTotalSizeFormatsAndPageSizes) {
    CircularBufferConfig cb(
        4096, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}, {tt::CBIndex::c_16, tt::DataFormat::Int32}});
    cb.set_page_size(tt::CBIndex::c_0, 2048).set_page_size(tt::CBIndex::c_16, 1024);
    EXPECT_EQ(cb.total_size(), 4096u);
    EXPECT_EQ(cb.page_sizes()[0], 2048u);
    EXPECT_EQ(cb.page_sizes()[16], 1024u);
    EXPECT_EQ(cb.data_formats()[16], tt::DataFormat::Int32);
    EXPECT_FALSE(cb.page_sizes()[1].has_value());
    EXPECT_NE(
        thrown<std::invalid_argument>([&] { cb.set_page_size(tt::CBIndex::c_0, 3000); }).find("set_page_size(0, 3000)"),
        std::string::npos);
    EXPECT_NE(thrown<std::invalid_argument>([&] { cb.set_page_size(tt::CBIndex::c_1, 1024); }).find("no data format"),
              std::string::npos);

    nd::sim::device dev(nd::ttsim::kernel_device_config(4, 2, 4));
    Program p = CreateProgram();
    CreateCircularBuffer(p, CoreRange({0, 0}, {1, 0}), cb);
    const nd::ttsim::program tp = nd::ttmetal_host::to_ttsim(p, dev);
    ASSERT_EQ(tp.circular_buffers().size(), 2u);  // one per index
    EXPECT_EQ(tp.circular_buffers()[0].num_pages, 2u);
    EXPECT_EQ(tp.circular_buffers()[1].id, 16u);
    EXPECT_EQ(tp.circular_buffers()[1].num_pages, 4u);
    EXPECT_EQ(tp.circular_buffers()[1].format, nd::ttsim::data_format::Int32);
    EXPECT_EQ(tp.circular_buffers()[1].cores.size(), 2u);

    // Index 0 again on core (1,0): two CBs of one index on a core.
    CircularBufferConfig again(2048, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}});
    again.set_page_size(tt::CBIndex::c_0, 2048);
    CreateCircularBuffer(p, CoreCoord{1, 0}, again);
    EXPECT_NE(thrown<nd::spec_error>([&] { (void)nd::ttmetal_host::to_ttsim(p, dev); }).find("CreateCircularBuffer"),
              std::string::npos);
}

TEST(HostApi, KernelsAndRuntimeArgsInTtMetalsArgumentOrder) {
    nd::sim::device dev(nd::ttsim::kernel_device_config(4, 2, 4));
    Program p = CreateProgram();
    const CoreRange cores({0, 0}, {1, 0});
    const KernelHandle reader = CreateKernel(p, "reader.cpp", cores,
                                             DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                                .noc = NOC::RISCV_0_default,
                                                                .compile_args = {7, 8},
                                                                .defines = {{"FAST", "1"}},
                                                                .named_compile_args = {{"cb_in", 0}}});
    const KernelHandle writer =
        CreateKernel(p, "writer.cpp", CoreCoord{1, 0},
                     DataMovementConfig{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default});
    EXPECT_EQ(reader, 0u);
    EXPECT_EQ(writer, 1u);
    const std::uint32_t sem = CreateSemaphore(p, cores, 3);
    SetRuntimeArgs(p, reader, cores, {1, 2});                                        // every core of a range
    SetRuntimeArgs(p, reader, std::vector<CoreCoord>{{1, 0}}, {{4, 5, 6}});          // core i, list i
    SetRuntimeArgs(p, writer, CoreCoord{1, 0}, std::vector<std::uint32_t>{9, sem});  // one core
    SetCommonRuntimeArgs(p, reader, std::vector<std::uint32_t>{11});
    GetRuntimeArgs(p, reader, CoreCoord{0, 0})[1] = 20;  // changed in place
    EXPECT_EQ(GetRuntimeArgs(p, reader, CoreCoord{1, 0}), (std::vector<std::uint32_t>{4, 5, 6}));
    EXPECT_EQ(GetCommonRuntimeArgs(p, reader), (std::vector<std::uint32_t>{11}));

    const nd::ttsim::program tp = nd::ttmetal_host::to_ttsim(p, dev, "/src");
    ASSERT_EQ(tp.kernels().size(), 2u);
    const nd::ttsim::kernel_desc& k = tp.kernels()[0];
    EXPECT_EQ(k.source, "/src/reader.cpp");
    EXPECT_EQ(k.proc, nd::ttsim::riscv_0);
    EXPECT_EQ(k.noc, 0);
    EXPECT_EQ(k.compile_time_args, (std::vector<std::uint32_t>{7, 8}));
    EXPECT_EQ(k.defines.at("FAST"), "1");
    EXPECT_EQ(k.named_compile_time_args.at(0), (std::pair<std::string, std::uint32_t>{"cb_in", 0}));
    EXPECT_EQ(k.cores.size(), 2u);
    EXPECT_EQ(tp.kernels()[1].proc, nd::ttsim::riscv_1);
    EXPECT_EQ(tp.kernels()[1].noc, 1);
    EXPECT_EQ(tp.runtime_args(0, {0, 0}), (std::vector<std::uint32_t>{1, 20}));
    EXPECT_EQ(tp.runtime_args(0, {1, 0}), (std::vector<std::uint32_t>{4, 5, 6}));
    EXPECT_EQ(tp.runtime_args(1, {1, 0}), (std::vector<std::uint32_t>{9, sem}));
    EXPECT_EQ(tp.common_runtime_args(0), (std::vector<std::uint32_t>{11}));
    ASSERT_EQ(tp.semaphores().size(), 1u);
    EXPECT_EQ(tp.semaphores()[0].initial, 3u);
}

TEST(HostApi, BadCallsAreRefusedNamingTheCallAndTheValue) {
    nd::sim::device dev(nd::ttsim::kernel_device_config(4, 2, 4));
    Program p = CreateProgram();
    EXPECT_NE(thrown<std::invalid_argument>([&] {
                  CreateKernel(p, "k.cpp", CoreRangeSet(), DataMovementConfig{});
              }).find("CreateKernel(k.cpp): the kernel is on no core"),
              std::string::npos);
    const KernelHandle k = CreateKernel(p, "k.cpp", CoreCoord{0, 0}, DataMovementConfig{});
    EXPECT_EQ(thrown<std::invalid_argument>([&] {
                  CreateKernel(p, "twin.cpp", CoreRange({0, 0}, {1, 0}), DataMovementConfig{});
              }),
              "CreateKernel(twin.cpp): core (x=0,y=0) already runs k.cpp on RISCV_0");
    CreateKernel(p, "other.cpp", CoreCoord{0, 0}, ReaderDataMovementConfig{});  // RISCV_1: fits
    EXPECT_NE(thrown<std::invalid_argument>([&] {
                  SetRuntimeArgs(p, k, CoreCoord{1, 0}, {1});
              }).find("(x=1,y=0)"),
              std::string::npos);
    EXPECT_NE(thrown<std::invalid_argument>([&] {
                  SetRuntimeArgs(p, 5, CoreCoord{0, 0}, {1});
              }).find("no kernel 5"),
              std::string::npos);
    SetCommonRuntimeArgs(p, k, std::vector<std::uint32_t>(300, 0));
    EXPECT_NE(thrown<std::invalid_argument>([&] {
                  SetRuntimeArgs(p, k, CoreCoord{0, 0}, std::vector<std::uint32_t>(42, 0));
              }).find("42 unique + 300 common runtime args, more than 341"),
              std::string::npos);
    SetRuntimeArgs(p, k, CoreCoord{0, 0}, std::vector<std::uint32_t>(41, 0));  // 341 in all: fits
    CreateKernel(p, "far.cpp", CoreRange({3, 1}, {4, 1}), DataMovementConfig{});
    EXPECT_NE(thrown<nd::spec_error>([&] {
                  (void)nd::ttmetal_host::to_ttsim(p, dev);
              }).find("CreateKernel(far.cpp): core (x=4,y=1) is outside the device's 4x2 worker grid"),
              std::string::npos);
}

struct buffers {
    nd::sim::device dev{nd::ttsim::kernel_device_config(4, 2, 4)};
    nd::sim::buffer_id sharded, interleaved;
    buffers() {
        nd::distribution_spec s;  // [5,4] pages of 64 bytes, [1,4] shards round robin on 2 cores: 3 + 2 shards
        s.tensor = {5, 4};
        s.shard = {1, 4};
        s.page.kind = nd::page_kind::pages;
        s.element_size = 64;
        s.alignment = 16;
        s.cores = {nd::core_range{{0, 0}, {1, 0}}};
        sharded = dev.allocate(s, "sharded");
        nd::distribution_spec i = s;  // one page per shard over every DRAM bank: interleaved
        i.shard = {1, 1};
        i.cores = dev.dram_bank_ranges(4);
        i.alignment = 32;
        interleaved = dev.allocate(i, "interleaved");
    }
};

TEST(HostApi, BufferAnswersItsSizesMemoryAndCoreGroups) {
    buffers b;
    const Buffer in = nd::ttmetal_host::make_buffer(b.dev, b.sharded);
    EXPECT_EQ(in.address(), b.dev.buffer(b.sharded).dist.bank_base);
    EXPECT_EQ(in.page_size(), 64u);
    EXPECT_EQ(in.aligned_page_size(), 64u);
    EXPECT_EQ(in.num_pages(), 20u);
    EXPECT_EQ(in.size(), 20u * 64u);
    EXPECT_TRUE(in.is_l1());
    EXPECT_EQ(in.buffer_type(), BufferType::L1);
    ASSERT_TRUE(in.buffer_distribution_spec().has_value());
    const BufferDistributionSpec& spec = *in.buffer_distribution_spec();
    EXPECT_EQ(spec.num_shards(), 5u);
    EXPECT_EQ(spec.shard_shape_in_pages(), (std::vector<std::uint32_t>{1, 4}));
    // Round robin: core 0 holds shards 0, 2, 4, core 1 shards 1, 3.
    const BufferDistributionSpec::CoreGroups& g = spec.core_groups();
    EXPECT_EQ(g.cores_with_data.num_cores(), 2u);
    EXPECT_TRUE(g.cores_in_group_1.contains(CoreCoord{0, 0}));
    EXPECT_TRUE(g.cores_in_group_2.contains(CoreCoord{1, 0}));
    EXPECT_EQ(g.num_shards_per_core_in_group_1, 3u);
    EXPECT_EQ(g.num_shards_per_core_in_group_2, 2u);
    EXPECT_EQ(std::get<0>(spec.core_groups_tuple()), 2u);

    const Buffer il = nd::ttmetal_host::make_buffer(b.dev, b.interleaved);
    EXPECT_TRUE(il.is_dram());
    EXPECT_FALSE(il.buffer_distribution_spec().has_value());
    EXPECT_EQ(il.aligned_page_size(), 64u);
}

// set_globally_allocated_address (or the constructor taking a buffer): the CB's memory is the
// L1 buffer's on each core, ttsim's CB at the buffer's address; UpdateDynamicCircularBufferAddress
// moves it; a DRAM buffer is refused.
TEST(HostApi, ACircularBufferInABufferIsPlacedAtTheBuffersAddress) {
    buffers b;
    const Buffer in = nd::ttmetal_host::make_buffer(b.dev, b.sharded);
    const Buffer dram = nd::ttmetal_host::make_buffer(b.dev, b.interleaved);
    Program p = CreateProgram();
    const CBHandle placed = CreateCircularBuffer(
        p, CoreRange({0, 0}, {1, 0}),
        CircularBufferConfig(128, {{tt::CBIndex::c_0, tt::DataFormat::Int32}}, in).set_page_size(tt::CBIndex::c_0, 64));
    const CBHandle fresh = CreateCircularBuffer(
        p, CoreCoord{0, 0},
        CircularBufferConfig(128, {{tt::CBIndex::c_1, tt::DataFormat::Int32}}).set_page_size(tt::CBIndex::c_1, 64));
    nd::ttsim::program tp = nd::ttmetal_host::to_ttsim(p, b.dev);
    ASSERT_EQ(tp.circular_buffers().size(), 2u);
    EXPECT_EQ(tp.circular_buffers()[0].address, in.address());
    EXPECT_FALSE(tp.circular_buffers()[1].address.has_value());
    EXPECT_NE(placed, fresh);
    UpdateDynamicCircularBufferAddress(p, fresh, in);
    UpdateCircularBufferPageSize(p, fresh, tt::CBIndex::c_1, 32);
    tp = nd::ttmetal_host::to_ttsim(p, b.dev);
    EXPECT_EQ(tp.circular_buffers()[1].address, in.address());
    EXPECT_EQ(tp.circular_buffers()[1].num_pages, 4u);
    EXPECT_NE(thrown<std::invalid_argument>([&] {
                  UpdateDynamicCircularBufferAddress(p, fresh, dram);
              }).find("set_globally_allocated_address: buffer at " + std::to_string(dram.address()) + " is not in L1"),
              std::string::npos);
    EXPECT_NE(thrown<std::invalid_argument>([&] {
                  UpdateCircularBufferTotalSize(p, 7, 64);
              }).find("UpdateCircularBufferTotalSize: no circular buffer 7"),
              std::string::npos);
}

TEST(HostApi, TensorAccessorArgsGivesTtsimsWordsInEveryMix) {
    buffers b;
    std::vector<std::uint32_t> mixes = nd::tt::all_runtime_mixes();
    mixes.push_back(nd::ttsim::all_compile_time);
    for (const nd::sim::buffer_id id : {b.sharded, b.interleaved}) {
        const Buffer buf = nd::ttmetal_host::make_buffer(b.dev, id);
        for (const std::uint32_t mix : mixes) {
            SCOPED_TRACE("mix " + std::to_string(mix));
            const nd::tt::tt_words want = nd::ttsim::accessor_words(b.dev, id, mix);
            const TensorAccessorArgs args(buf, tensor_accessor::ArgsConfig(static_cast<std::uint8_t>(mix)));
            EXPECT_EQ(args.get_compile_time_args(), want.compile_time);
            EXPECT_EQ(args.get_common_runtime_args(), want.common_runtime);
            std::vector<std::uint32_t> cta{99}, crta{98};
            args.append_to(cta, crta);
            EXPECT_EQ(cta.size(), 1 + want.compile_time.size());
            EXPECT_EQ(crta.size(), 1 + want.common_runtime.size());
            if (!want.common_runtime.empty()) {
                EXPECT_NE(thrown<std::logic_error>([&] { args.append_to(cta); }).find("append_to"), std::string::npos);
            }
        }
    }
    // Without a config: the case's mix (all compile-time outside kcheck).
    const Buffer runtime = nd::ttmetal_host::make_buffer(b.dev, b.sharded, nd::ttsim::all_runtime);
    EXPECT_EQ(TensorAccessorArgs(runtime).get_common_runtime_args(),
              nd::ttsim::accessor_words(b.dev, b.sharded, nd::ttsim::all_runtime).common_runtime);
    const Buffer fixed = nd::ttmetal_host::make_buffer(b.dev, b.sharded);
    EXPECT_TRUE(TensorAccessorArgs(fixed).get_common_runtime_args().empty());
    EXPECT_TRUE(TensorAccessorArgs(runtime, tensor_accessor::ArgConfig::None).get_common_runtime_args().empty());
}

}  // namespace
