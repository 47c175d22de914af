// ndshard::ttsim::check_kernel on a copy op made of the test kernels: the good reader and
// writer pass every generated case; a reader that pushes before its read lands is caught,
// the case is shrunk, and its replay text reads back into the same case.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ndshard/ttsim/kcheck.hpp"

namespace {

using namespace ndshard;

const std::string kernels = NDSHARD_TTSIM_TEST_KERNELS;

// The copy op: pages [start, start + count) per core, reader -> CB 0 -> writer.
ttsim::op_desc copy_op(const std::string& reader) {
    ttsim::op_desc op;
    op.name = "copy";
    op.output_pages = [](const std::vector<shape>& in) { return std::optional<shape>(in.at(0)); };
    op.reference = [](const std::vector<sim::dense_tensor>& in, const shape&) { return in.at(0); };
    op.build = [reader](const ttsim::op_case& c) {
        const sim::buffer_info& in = c.dev.buffer(c.inputs.at(0));
        const sim::buffer_info& out = c.dev.buffer(c.output);
        ttsim::program p;
        ttsim::circular_buffer_desc cb;
        cb.page_size = static_cast<std::uint32_t>(std::max(in.dist.aligned_page_size, out.dist.aligned_page_size));
        cb.num_pages = 2;
        cb.cores = c.cores;
        p.add_circular_buffer(cb);
        std::vector<std::uint32_t> rct{0}, rcrt, wct{0}, wcrt;
        ttsim::append_accessor_args(c.dev, c.inputs.at(0), c.mix, rct, rcrt, c.layout);
        ttsim::append_accessor_args(c.dev, c.output, c.mix, wct, wcrt, c.layout);
        ttsim::kernel_desc r, w;
        r.source = c.source("reader", kernels + "/" + reader);
        r.compile_time_args = rct;
        r.cores = c.cores;
        w.source = c.source("writer", kernels + "/copy_writer.cpp");
        w.proc = ttsim::riscv_1;
        w.compile_time_args = wct;
        w.cores = c.cores;
        const auto rk = p.add_kernel(r), wk = p.add_kernel(w);
        p.set_common_runtime_args(rk, rcrt);
        p.set_common_runtime_args(wk, wcrt);
        const auto pages = static_cast<std::uint32_t>(in.dist.num_pages());
        const auto n = static_cast<std::uint32_t>(c.cores.size());
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::uint32_t start = pages * i / n, end = pages * (i + 1) / n;
            p.set_runtime_args(rk, c.cores[i], {static_cast<std::uint32_t>(in.dist.bank_base), start, end - start});
            p.set_runtime_args(wk, c.cores[i], {static_cast<std::uint32_t>(out.dist.bank_base), start, end - start});
        }
        return p;
    };
    return op;
}

ttsim::check_options options(std::uint64_t cases) {
    ttsim::check_options o;
    o.cases = cases;
    o.seed = 3;
    o.max_pages = 64;
    o.launch.cache = NDSHARD_KERNEL_CACHE_DIR;
    return o;
}

TEST(TtsimKcheck, TheGoodCopyPassesEveryCase) {
    const ttsim::check_report r = ttsim::check_kernel(copy_op("copy_reader.cpp"), options(40));
    EXPECT_EQ(r.cases_failed, 0U) << r.replay << "\n" << r.smallest_result.summary;
    EXPECT_GE(r.cases_run, 30U);
    std::string tags;
    for (const std::string& t : r.tags) tags += t + "; ";
    // The generator reached DRAM and L1, every strategy, and mixes with compile-time parts.
    for (const char* want : {"input in dram", "output in l1", "strategy:contiguous_1d", "strategy:grid_2d",
                             "mix with compile-time parts", "uneven"})
        EXPECT_NE(tags.find(want), std::string::npos) << want << " not reached: " << tags;
}

TEST(TtsimKcheck, APushBeforeTheBarrierIsCaughtShrunkAndReplayed) {
    const ttsim::check_report r = ttsim::check_kernel(copy_op("push_before_barrier_reader.cpp"), options(20));
    ASSERT_GE(r.cases_failed, 1U);
    ASSERT_TRUE(r.smallest.has_value());
    ASSERT_FALSE(r.smallest_result.findings.empty());
    EXPECT_EQ(r.smallest_result.findings.front().kind, ttsim::finding_kind::async) << r.smallest_result.summary;
    EXPECT_EQ(r.smallest->num_cores, 1U) << ttsim::describe(*r.smallest);
    // The replay text is the case again.
    const std::string flags = ttsim::replay_flags(*r.smallest);
    const std::string json = flags.substr(flags.find('\'') + 1, flags.rfind('\'') - flags.find('\'') - 1);
    EXPECT_EQ(ttsim::replay_flags(ttsim::parse_case(json)), flags);
    EXPECT_NE(r.replay.find("ndshard kcheck copy --case"), std::string::npos) << r.replay;
}

TEST(TtsimKcheck, ACrashInsideAKernelIsAFindingOfItsCase) {
    const ttsim::check_report r = ttsim::check_kernel(copy_op("crashing_reader.cpp"), options(3));
    ASSERT_GE(r.cases_failed, 1U);
    ASSERT_FALSE(r.smallest_result.findings.empty());
    EXPECT_EQ(r.smallest_result.findings.front().kind, ttsim::finding_kind::crash) << r.smallest_result.summary;
}

}  // namespace
