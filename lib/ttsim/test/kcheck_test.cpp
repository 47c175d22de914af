// ndshard::ttsim::check_kernel on a copy op made of the test kernels: the good reader and
// writer pass every generated case; a reader that pushes before its read lands is caught,
// the case is shrunk, and its replay text reads back into the same case. An op's contract:
// every drawn case is inside it, a case outside is not applicable, the shrinker stays in
// it; a check on tt-metal's 8x8 grid with 12 DRAM banks runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/testkit/entropy.hpp"
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

// A contract of the kind tt-metal's tests skip pairs by: the output spec equal to the
// input's, L1 only, all-runtime words, equal aligned page sizes.
ttsim::op_contract narrow_contract() {
    ttsim::op_contract k;
    k.same_spec = true;
    k.same_aligned_page = true;
    k.memory = sim::memory_kind::l1;
    k.mixes = {ttsim::all_runtime};
    return k;
}

TEST(TtsimKcheck, TheGeneratorDrawsInsideTheOpsContract) {
    for (const auto layout : {ttsim::op_contract::layouts::sharded, ttsim::op_contract::layouts::interleaved}) {
        ttsim::op_desc op = copy_op("copy_reader.cpp");
        op.contract = narrow_contract();
        op.contract.layout = layout;
        ttsim::check_options o = options(1);
        testkit::random_entropy e(9);
        int drawn = 0;
        for (int i = 0; i < 200; ++i) {
            const std::optional<ttsim::case_spec> c = ttsim::draw_case(op, e, o);
            if (!c) continue;
            ++drawn;
            ASSERT_EQ(ttsim::outside_contract(op.contract, *c), "") << ttsim::describe(*c);
            EXPECT_TRUE(c->output == c->inputs.at(0)) << ttsim::describe(*c);
            EXPECT_EQ(c->output_memory, sim::memory_kind::l1);
            EXPECT_EQ(c->mix, ttsim::all_runtime);
        }
        EXPECT_GE(drawn, 150) << "most draws fit the contract";
    }
}

TEST(TtsimKcheck, ACaseOutsideTheContractIsNotApplicableNeverAFailure) {
    ttsim::op_desc op = copy_op("crashing_reader.cpp");  // would fail if it ran
    op.contract = narrow_contract();
    testkit::random_entropy e(4);
    ttsim::check_options o = options(1);
    std::optional<ttsim::case_spec> c;
    while (!c) c = ttsim::draw_case(op, e, o);
    ttsim::case_spec outside = *c;
    outside.output_memory = sim::memory_kind::dram;
    outside.output.alignment = 32;
    const ttsim::case_result r = ttsim::run_one(op, outside, o);
    EXPECT_FALSE(r.applicable);
    EXPECT_TRUE(r.passed);
    EXPECT_TRUE(r.findings.empty());
    EXPECT_NE(r.summary.find("not applicable: the output's distribution is not the input's"), std::string::npos)
        << r.summary;
    outside = *c;
    outside.mix = ttsim::all_compile_time;
    EXPECT_FALSE(ttsim::run_case(op, outside).applicable);
}

TEST(TtsimKcheck, TheShrinkerStaysInsideTheContract) {
    ttsim::op_desc op = copy_op("push_before_barrier_reader.cpp");
    op.contract = narrow_contract();
    ttsim::check_options o = options(10);
    o.page_bytes = {8};  // one compile per kernel
    const ttsim::check_report r = ttsim::check_kernel(op, o);
    ASSERT_TRUE(r.smallest.has_value()) << r.cases_run << " cases ran";
    EXPECT_EQ(ttsim::outside_contract(op.contract, *r.smallest), "") << ttsim::describe(*r.smallest);
    EXPECT_EQ(r.smallest_result.findings.front().kind, ttsim::finding_kind::async) << r.smallest_result.summary;
    EXPECT_LE(make_distribution(r.smallest->output).num_pages(), 2U) << ttsim::describe(*r.smallest);
}

TEST(TtsimKcheck, ACheckRunsOnTtMetalsGridOf8x8WorkersAnd12DramBanks) {
    ttsim::check_options o = options(4);
    o.device = {8, 8, 12};
    o.max_cores = 64;
    o.page_bytes = {8};
    o.static_mix_percent = 0;
    const ttsim::op_desc op = copy_op("copy_reader.cpp");
    testkit::random_entropy e(o.seed);
    std::uint32_t most_cores = 0;
    for (int i = 0; i < 50; ++i)
        if (const auto c = ttsim::draw_case(op, e, o)) most_cores = std::max(most_cores, c->num_cores);
    EXPECT_GT(most_cores, 8U);
    const ttsim::check_report r = ttsim::check_kernel(op, o);
    EXPECT_GE(r.cases_run, 3U);
    EXPECT_EQ(r.cases_failed, 0U) << r.smallest_result.summary << "\n" << r.replay;
    // A case on it replays as one.
    ttsim::case_spec c;
    while (true)
        if (const auto d = ttsim::draw_case(op, e, o)) {
            c = *d;
            break;
        }
    const std::string flags = ttsim::replay_flags(c);
    EXPECT_NE(flags.find("\"device\":[8,8,12]"), std::string::npos) << flags;
    const std::string json = flags.substr(flags.find('\'') + 1, flags.rfind('\'') - flags.find('\'') - 1);
    EXPECT_TRUE(ttsim::parse_case(json).device == (ttsim::case_grid{8, 8, 12}));
}

// The default draw (100 cases, no page sizes given) reaches every hard class in every run:
// more than 255, 4,095 and 65,536 pages, shards over 64 KiB, more than 255 shards a core,
// tile pages, buffers at the top of L1 and of a DRAM bank, every rank; each case inside the
// op's contract. A tally per seed.
TEST(TtsimKcheck, TheDefaultDrawReachesEveryHardClassInEveryRun) {
    const ttsim::op_desc op = copy_op("copy_reader.cpp");
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        ttsim::check_options o;
        o.seed = seed;
        std::map<std::string, int> tally;
        for (const std::optional<ttsim::case_spec>& c : ttsim::draw_cases(op, o)) {
            if (!c) continue;
            ASSERT_EQ(ttsim::outside_contract(op.contract, *c), "") << ttsim::describe(*c);
            for (const std::string& h : ttsim::hard_classes(*c)) ++tally[h];
        }
        std::string seen;
        for (const auto& [h, n] : tally) seen += h + " x" + std::to_string(n) + "; ";
        for (const std::string& want : ttsim::all_hard_classes())
            EXPECT_GT(tally[want], 0) << "seed " << seed << ": " << want << " not reached: " << seen;
        std::printf("seed %llu: %s\n", static_cast<unsigned long long>(seed), seen.c_str());
    }
    // Off when asked.
    ttsim::check_options o;
    o.hard_every = 0;
    for (const std::optional<ttsim::case_spec>& c : ttsim::draw_cases(op, o))
        if (c) {
            for (const std::string& h : ttsim::hard_classes(*c)) EXPECT_NE(h, "pages>65536");
            EXPECT_FALSE(c->top);
        }
}

// Every hard class runs, and passes, with the good copy: the big cases are cheap (4-byte
// pages, whole outputs compared), and a case at the top of L1 or of a DRAM bank replays.
TEST(TtsimKcheck, EveryHardCaseRunsCheaplyAndTheGoodCopyPassesIt) {
    const ttsim::op_desc op = copy_op("copy_reader.cpp");
    ttsim::check_options o = options(1);
    testkit::random_entropy e(21);
    o.page_bytes = {8};
    for (std::uint64_t k = 0; k < 8; ++k) {
        const std::optional<ttsim::case_spec> c = ttsim::draw_hard_case(op, e, o, k, true);
        ASSERT_TRUE(c.has_value()) << "class " << k;
        const auto t0 = std::chrono::steady_clock::now();
        const ttsim::case_result r = ttsim::run_one(op, *c, o);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::string classes;
        for (const std::string& h : ttsim::hard_classes(*c)) classes += h + " ";
        std::printf("hard case %llu (%s): %.2f s\n", static_cast<unsigned long long>(k), classes.c_str(), s);
        EXPECT_TRUE(r.applicable && r.passed) << classes << ": " << r.summary << "\n" << ttsim::replay_flags(*c);
        const std::string flags = ttsim::replay_flags(*c);
        const std::string json = flags.substr(flags.find('\'') + 1, flags.rfind('\'') - flags.find('\'') - 1);
        EXPECT_EQ(ttsim::parse_case(json).top, c->top);
    }
}

// The case timer starts once the kernels are compiled: cold compiles slower than a 1 s
// timeout (a fresh cache) are not a hang.
TEST(TtsimKcheck, ACompileSlowerThanTheCaseTimeoutIsNotAHang) {
    ttsim::check_options o = options(2);
    o.case_timeout_s = 1;
    o.page_bytes = {8};
    o.static_mix_percent = 0;
    o.hard_every = 0;
    const std::filesystem::path cache =
        std::filesystem::temp_directory_path() / ("ndshard-kcheck-cold-" + std::to_string(::getpid()));
    std::filesystem::remove_all(cache);
    o.launch.cache = cache;
    const ttsim::check_report r = ttsim::check_kernel(copy_op("copy_reader.cpp"), o);
    std::filesystem::remove_all(cache);
    EXPECT_EQ(r.cases_failed, 0U) << r.smallest_result.summary;
    EXPECT_GE(r.cases_run, 1U);
}

}  // namespace
