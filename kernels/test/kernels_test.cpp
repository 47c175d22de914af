// ctest -L kernels: the ops of kernels/ops pass kcheck over generated distributions, and
// every defect of kernels/defects is caught by the check its expectations name, with a
// counterexample no larger than they allow. Prints the defect table and the catch rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "defects/defects.hpp"
#include "ndshard/distribution.hpp"
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
    for (const char* name : {"copy", "copy_shards", "permute:1,0", "permute:2,0,1", "reduce:0", "reduce:1"}) {
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

// Correct kernels written unusually (kernels/examples/): none may fail. One page size and
// all-runtime accessor words, so each kernel is compiled once.
TEST(Kernels, EveryUnusualButCorrectKernelPasses) {
    struct example {
        const char* name;
        kernels::kernel_swap swap;
    };
    const example examples[] = {
        {"two pages per barrier",
         {.reader = "", .writer = "examples/two_pages_per_barrier_writer.cpp", .semaphore = false}},
        {"reversed order",
         {.reader = "examples/reversed_reader.cpp", .writer = "examples/reversed_writer.cpp", .semaphore = false}},
        {"semaphore handshake",
         {.reader = "examples/handshake_reader.cpp", .writer = "examples/handshake_writer.cpp", .semaphore = true}},
    };
    for (const example& e : examples) {
        ttsim::check_options o = options(cases_from_env(8), 13);
        o.page_bytes = {24};
        o.static_mix_percent = 0;
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
    std::size_t caught = 0;
    std::string table =
        "| defect | caught by | counterexample (largest tensor, pages) | allowed |\n|---|---|---:|---:|\n";
    for (const kernels::defect_expectation& e : expected) {
        const ttsim::check_report r = ttsim::check_kernel(kernels::defect_op(e.name),
                                                          options(std::max<std::uint64_t>(cases_from_env(60), 60), 5));
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
    std::printf("%s\nkernels: %zu of %zu defects caught by their check, counterexamples within bounds\n", table.c_str(),
                caught, expected.size());
}

}  // namespace
