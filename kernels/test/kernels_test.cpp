// ctest -L kernels: the ops of kernels/ops pass kcheck over generated distributions, and
// every defect of kernels/defects is caught by the check its expectations name, with a
// counterexample no larger than they allow. Prints the defect table and the catch rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "defects/defects.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "ops/ops.hpp"

namespace {

using namespace ndshard;

// Cases per op or defect: `fallback`, or $NDSHARD_KERNELS_CASES (the sanitizer presets set
// fewer: every kernel variant is compiled with the sanitizers there).
std::uint64_t cases_from_env(std::uint64_t fallback) {
    const char* env = std::getenv("NDSHARD_KERNELS_CASES");
    if (env == nullptr || *env == 0) return fallback;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(env, &end, 10);
    if (*end != 0 || n == 0 || n > 100000) {
        ADD_FAILURE() << "NDSHARD_KERNELS_CASES='" << env << "': a case count in 1..100000";
        return fallback;
    }
    return n;
}

// This process's share of a list: $NDSHARD_KERNELS_SHARD "i/n" takes the items i, i + n,
// i + 2n, ... (ctest runs the shards as tests of their own, side by side on both cores);
// unset, every item.
struct shard {
    std::size_t index = 0, count = 1;
    [[nodiscard]] bool mine(std::size_t item) const { return item % count == index; }
};
shard shard_from_env() {
    const char* env = std::getenv("NDSHARD_KERNELS_SHARD");
    if (env == nullptr || *env == 0) return {};
    unsigned long i = 0, n = 0;
    char tail = 0;
    if (std::sscanf(env, "%lu/%lu%c", &i, &n, &tail) != 2 || n == 0 || i >= n) {
        ADD_FAILURE() << "NDSHARD_KERNELS_SHARD='" << env << "': i/n with n >= 1 and i < n";
        return {};
    }
    return {i, n};
}

ttsim::check_options options(std::uint64_t cases, std::uint64_t seed) {
    ttsim::check_options o;
    o.cases = cases;
    o.seed = seed;
    o.max_pages = 96;
    o.static_mix_percent = 10;  // each compile-time mix is a kernel compiled anew
    o.launch.cache = NDSHARD_KERNEL_CACHE_DIR;
    return o;
}

std::uint64_t largest_tensor(const ttsim::case_spec& c) {
    std::uint64_t most = make_distribution(c.output).num_pages();
    for (const distribution_spec& s : c.inputs) most = std::max(most, make_distribution(s).num_pages());
    return most;
}

TEST(Kernels, EveryOpPassesEveryCase) {
    const shard mine = shard_from_env();
    const char* const names[] = {"copy", "copy_shards", "permute:1,0", "permute:2,0,1", "reduce:0", "reduce:1"};
    for (std::size_t i = 0; i < std::size(names); ++i) {
        if (!mine.mine(i)) continue;
        const char* name = names[i];
        const ttsim::op_desc op = kernels::make_op(name);
        ttsim::check_options o = options(cases_from_env(12), 11);
        o.page_bytes = {8, 24, 48};  // kernels.property's pool: the two share compiled kernels
        const ttsim::check_report r = ttsim::check_kernel(op, o);
        std::printf("kernels: %-14s %3llu cases, %llu failed\n", name, static_cast<unsigned long long>(r.cases_run),
                    static_cast<unsigned long long>(r.cases_failed));
        EXPECT_GE(r.cases_run * 5, cases_from_env(12) * 3) << name << ": most drawn cases apply to the op";
        EXPECT_EQ(r.cases_failed, 0U) << name << ": " << r.smallest_result.summary << "\n  " << r.replay;
    }
}

// Correct kernels written unusually (kernels/examples/): none may fail, under any of four
// interleavings of each case (--schedules 4). One page size and all-runtime accessor words,
// so each kernel is compiled once.
TEST(Kernels, EveryUnusualButCorrectKernelPasses) {
    struct example {
        const char* name;
        kernels::kernel_swap swap;
    };
    const example examples[] = {
        {"two pages per barrier",
         {.reader = "", .writer = "examples/two_pages_per_barrier_writer.cpp", .semaphore = false, .include_dirs = {}}},
        {"reversed order",
         {.reader = "examples/reversed_reader.cpp",
          .writer = "examples/reversed_writer.cpp",
          .semaphore = false,
          .include_dirs = {}}},
        {"semaphore handshake",
         {.reader = "examples/handshake_reader.cpp",
          .writer = "examples/handshake_writer.cpp",
          .semaphore = true,
          .include_dirs = {}}},
    };
    for (const example& e : examples) {
        ttsim::check_options o = options(cases_from_env(8), 13);
        o.page_bytes = {24};
        o.static_mix_percent = 0;
        o.launch.schedules = 4;  // no interleaving of a correct pair is a finding
        const ttsim::check_report r = ttsim::check_kernel(kernels::make_op("copy", e.swap), o);
        std::printf("kernels: example %-22s %3llu cases, %llu failed\n", e.name,
                    static_cast<unsigned long long>(r.cases_run), static_cast<unsigned long long>(r.cases_failed));
        EXPECT_GT(r.cases_run, 0U) << e.name;
        EXPECT_EQ(r.cases_failed, 0U) << e.name << ": " << r.smallest_result.summary << "\n  " << r.replay;
    }
}

TEST(Kernels, EveryDefectIsCaughtByItsCheckWithASmallCounterexample) {
    const std::vector<kernels::defect_expectation> expected = kernels::read_expectations();
    ASSERT_GE(expected.size(), 10U);
    const shard mine = shard_from_env();
    std::size_t caught = 0, checked = 0;
    std::string table =
        "| defect | caught by | counterexample (largest tensor, pages) | allowed |\n|---|---|---:|---:|\n";
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (!mine.mine(i)) continue;
        ++checked;
        const kernels::defect_expectation& e = expected[i];
        ttsim::check_options o = options(std::max<std::uint64_t>(cases_from_env(60), 60), 5);
        o.launch.schedules = e.schedules;
        // A defect found only in a case of thousands of pages (the integer-width ones) shrinks
        // in steps of 1-3 s each: 40 of them, two at a time (kernels.hard_classes shows the
        // shrunk case staying past its boundary).
        if (e.max_pages > 4096) {
            o.shrink_steps = 40;
            o.jobs = 2;
        }
        const ttsim::check_report r = ttsim::check_kernel(kernels::defect_op(e.name), o);
        std::string found = "not caught";
        std::uint64_t pages = 0;
        bool ok = false;
        if (r.smallest) {
            pages = largest_tensor(*r.smallest);
            for (const ttsim::finding& f : r.smallest_result.findings) {
                const std::string kind = ttsim::to_string(f.kind);
                if (std::find(e.checks.begin(), e.checks.end(), kind) != e.checks.end()) {
                    found = kind;
                    ok = pages <= e.max_pages;
                    break;
                }
                found = "only " + kind;
            }
        }
        caught += ok ? 1 : 0;
        table += "| " + e.name + " | " + found + " | " + std::to_string(pages) + " | " + std::to_string(e.max_pages) +
                 " |\n";
        EXPECT_TRUE(ok) << e.name << ": " << found << ", counterexample " << pages << " pages (allowed " << e.max_pages
                        << "): " << r.smallest_result.summary << "\n  " << r.replay;
    }
    std::printf(
        "%s\nkernels: %zu of %zu defects caught by their check, counterexamples within bounds (%zu of the "
        "gallery's %zu here)\n",
        table.c_str(), caught, checked, checked, expected.size());
}

// keep_going: the run goes on after the first failure and counts every failing case.
TEST(Kernels, KeepGoingCountsEveryFailingCaseOfADefect) {
    ttsim::check_options o = options(6, 5);
    o.page_bytes = {8};  // one compile per kernel
    o.static_mix_percent = 0;
    o.keep_going = true;
    const ttsim::check_report r = ttsim::check_kernel(kernels::defect_op("push_before_read_barrier"), o);
    EXPECT_EQ(r.cases_run, 6U);
    EXPECT_GE(r.cases_failed, 2U) << r.smallest_result.summary;
    EXPECT_EQ(r.failures.size(), r.cases_failed);
    ASSERT_TRUE(r.smallest.has_value());
    EXPECT_EQ(r.smallest_result.findings.front().kind, ttsim::finding_kind::async) << r.smallest_result.summary;
    o.keep_going = false;
    EXPECT_EQ(ttsim::check_kernel(kernels::defect_op("push_before_read_barrier"), o).cases_failed, 1U);
}

// The ops' contract: a replayed case of another shape (output pages of another size, or
// another output grid) is not applicable, never a failure, and nothing is compiled for it.
TEST(Kernels, ACaseTheOpDoesNotTakeIsNotApplicable) {
    const ttsim::op_desc op = kernels::make_op("copy");
    ttsim::check_options o = options(1, 5);
    testkit::random_entropy e(2);
    std::optional<ttsim::case_spec> c;
    while (!c) c = ttsim::draw_case(op, e, o);
    EXPECT_EQ(ttsim::outside_contract(op.contract, *c), "") << ttsim::describe(*c);
    ttsim::case_spec other = *c;
    other.output.element_size += 4;
    ttsim::case_result r = ttsim::run_one(op, other, o);
    EXPECT_FALSE(r.applicable);
    EXPECT_TRUE(r.passed);
    EXPECT_NE(r.summary.find("equal page sizes"), std::string::npos) << r.summary;
    other = *c;
    other.output.tensor.push_back(2);
    other.output.shard.push_back(1);
    r = ttsim::run_one(op, other, o);
    EXPECT_FALSE(r.applicable) << r.summary;
}

// The integer-width defects: a page id in 16 bits and an in-shard byte offset in 16 bits are
// right below their boundary, so only kcheck's hard cases catch them (none of the ordinary
// draw does), and the shrinker keeps the counterexample past the boundary.
TEST(Kernels, AnIntegerWidthDefectIsCaughtOnlyPastItsBoundary) {
    struct width_defect {
        const char* name;
        std::uint64_t cases;
        const char* hard_class;
    };
    for (const width_defect& d :
         {width_defect{"page_id_uint16", 10, "pages>65536"}, width_defect{"shard_offset_uint16", 30, "shard>64KiB"}}) {
        ttsim::check_options o = options(d.cases, 5);
        // Each step of shrinking a 65,537-page case runs 2-3 s: 40 steps, two at a time, are
        // enough to show the shrinker stepping down and staying past the boundary.
        o.shrink_steps = 40;
        o.jobs = 2;
        const ttsim::check_report r = ttsim::check_kernel(kernels::defect_op(d.name), o);
        ASSERT_TRUE(r.smallest.has_value()) << d.name << " not caught in " << r.cases_run << " cases";
        const std::vector<std::string> classes = ttsim::hard_classes(*r.smallest);
        EXPECT_NE(std::find(classes.begin(), classes.end(), d.hard_class), classes.end())
            << d.name << ": the smallest failing case left " << d.hard_class << ": " << ttsim::describe(*r.smallest);
        std::printf("kernels: %s caught (%s), smallest counterexample %llu pages\n", d.name,
                    r.smallest_result.summary.substr(0, 60).c_str(),
                    static_cast<unsigned long long>(largest_tensor(*r.smallest)));
        o.hard_every = 0;  // the ordinary draw alone passes it
        const ttsim::check_report ordinary = ttsim::check_kernel(kernels::defect_op(d.name), o);
        EXPECT_EQ(ordinary.cases_failed, 0U) << d.name << ": " << ordinary.smallest_result.summary;
    }
}

// --schedules: counter_lost_update loses a count only when its two kernels interleave inside
// their load-store window. Over the same drawn cases, schedule 0 alone (the case's seed)
// passes some that one of 8 interleavings fails, every case schedule 0 fails still fails
// with 8 (schedule 0 is among them), and a case failed by a later schedule says which.
TEST(Kernels, MoreSchedulesFindAnOrderDependentMistakeOneOrderMisses) {
    const ttsim::op_desc op = kernels::defect_op("counter_lost_update");
    ttsim::check_options o = options(cases_from_env(24), 3);
    o.page_bytes = {8};  // one compile per kernel
    o.static_mix_percent = 0;
    o.hard_every = 0;
    std::size_t runs = 0, one = 0, eight = 0, only_later = 0;
    for (const std::optional<ttsim::case_spec>& c : ttsim::draw_cases(op, o)) {
        if (!c) continue;
        o.launch.schedules = 1;
        const ttsim::case_result first = ttsim::run_one(op, *c, o);
        o.launch.schedules = 8;
        const ttsim::case_result more = ttsim::run_one(op, *c, o);
        if (!first.applicable) continue;
        ++runs;
        one += first.passed ? 0 : 1;
        eight += more.passed ? 0 : 1;
        EXPECT_TRUE(first.passed || !more.passed) << ttsim::describe(*c) << ": " << first.summary;
        if (first.passed && !more.passed) {
            ++only_later;
            EXPECT_EQ(more.summary.rfind("deadlock: schedule ", 0), 0U) << more.summary;
        }
    }
    std::printf(
        "kernels: counter_lost_update failed %zu of %zu cases under one schedule, %zu under 8 (%zu only "
        "by a later one)\n",
        one, runs, eight, only_later);
    EXPECT_GT(runs, 0U);
    EXPECT_GT(only_later, 0U);
}

}  // namespace
