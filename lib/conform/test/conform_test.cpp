// The runner against its test implementation (test/testimpl.cpp): the correct one passes
// every law; each planted defect fails the law that must catch it, with a small shrunk
// counterexample; crashes and hangs are failures and the run goes on.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "ndshard/conform/laws.hpp"
#include "ndshard/conform/runner.hpp"
#include "ndshard/conform/specs.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace ndshard::conform {
namespace {

run_report run_with(const char* defect, const std::string& laws, std::uint64_t cases = 150,
                    std::uint32_t timeout_ms = 2000) {
    if (defect) ::setenv("NDSC_TESTIMPL_DEFECT", defect, 1);
    else ::unsetenv("NDSC_TESTIMPL_DEFECT");
    run_options o;
    o.impl_path = NDSC_TESTIMPL;
    o.cases = cases;
    o.seed = 7;
    o.law_filter = laws;
    o.timeout_ms = timeout_ms;
    run_report r = run_conformance(o);
    ::unsetenv("NDSC_TESTIMPL_DEFECT");
    return r;
}

const law_result& result(const run_report& r, const std::string& name) {
    for (const law_result& l : r.laws)
        if (l.name == name) return l;
    throw std::runtime_error("no law " + name);
}

void expect_small_failure(const run_report& r, const std::string& name) {
    const law_result& l = result(r, name);
    std::ostringstream text;
    write_text(r, text);
    std::cout << text.str();
    ASSERT_EQ(l.status, law_status::failed) << name;
    ASSERT_TRUE(l.example.has_value());
    EXPECT_LE(l.example->rank, 3U) << l.example->spec;
    EXPECT_LE(l.example->pages, 64U) << l.example->spec;
    EXPECT_NE(l.replay.find("--law '^" + name + "$'"), std::string::npos) << l.replay;
}

// The test implementation leaves out the version-2 queries: their two laws are skipped,
// each naming the query it needs; every other law passes.
TEST(Conform, CorrectImplementationPassesEveryLaw) {
    const run_report r = run_with(nullptr, "", 60);
    EXPECT_EQ(r.impl.name, "conform-testimpl");
    for (const law_result& l : r.laws) {
        if (l.name == "contiguous_runs" || l.name == "thread_split_iteration") {
            EXPECT_EQ(l.status, law_status::skipped) << l.name;
            const std::string needed = l.name == "contiguous_runs" ? "ndsc_page_run" : "ndsc_thread_pages";
            EXPECT_NE(l.reason.find("needs " + needed + ", which the implementation does not declare"),
                      std::string::npos)
                << l.reason;
        } else {
            EXPECT_EQ(l.status, law_status::passed) << l.name << ": " << l.reason;
        }
    }
    EXPECT_EQ(r.count(law_status::failed), 0U);
    EXPECT_EQ(r.count(law_status::skipped), 2U);
    std::ostringstream text;
    write_text(r, text);
    EXPECT_NE(text.str().find("PASS page_placement (60 cases)"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find(std::to_string(r.laws.size() - 2) + " passed, 0 failed, 2 skipped"), std::string::npos)
        << text.str();
}

// A query bit of ABI version 2 declared by an adapter of version 1 is refused by name; a
// declared version-2 query whose symbol is missing too.
TEST(Conform, VersionTwoQueryBitsNeedVersionTwo) {
    ::setenv("NDSC_TESTIMPL_DESCRIBE", "v1_page_run", 1);
    try {
        (void)loaded_impl::open(NDSC_TESTIMPL);
        ADD_FAILURE() << "an abi_version 1 adapter declaring NDSC_Q_PAGE_RUN was loaded";
    } catch (const load_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("declares ndsc_page_run (NDSC_Q_PAGE_RUN, since ABI version 2) with abi_version 1"),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find("rule: a query bit is valid only from the ABI version that defines it"), std::string::npos)
            << what;
    }
    ::setenv("NDSC_TESTIMPL_DESCRIBE", "v2_thread_pages", 1);
    try {
        (void)loaded_impl::open(NDSC_TESTIMPL);
        ADD_FAILURE() << "an adapter declaring ndsc_thread_pages without exporting it was loaded";
    } catch (const load_error& e) {
        EXPECT_NE(std::string(e.what()).find("declares ndsc_thread_pages in ndsc_info.queries but does not export it"),
                  std::string::npos)
            << e.what();
    }
    ::unsetenv("NDSC_TESTIMPL_DESCRIBE");
    EXPECT_NO_THROW((void)loaded_impl::open(NDSC_TESTIMPL));
}

TEST(Conform, ColumnMajorIgnored) {
    expect_small_failure(run_with("col_major_ignored", "^page_placement$"), "page_placement");
}
TEST(Conform, ContiguousDealtRoundRobin) { expect_small_failure(run_with("contiguous_as_rr", "^balance$"), "balance"); }
TEST(Conform, DuplicateCoreDeduplicated) {
    expect_small_failure(run_with("dedup_cores", "^acceptance$"), "acceptance");
}
TEST(Conform, AcceptsInvalid) { expect_small_failure(run_with("accept_invalid", "^acceptance$"), "acceptance"); }
TEST(Conform, IteratorSkipsLast) {
    expect_small_failure(run_with("iter_skip_last", "^iteration_order$"), "iteration_order");
}

TEST(Conform, WrapAt32Bits) {
    const run_report r = run_with("wrap32", "^address_limit_32bit$", 300);
    expect_small_failure(r, "address_limit_32bit");
}

TEST(Conform, CrashIsAFailureAndTheRunGoesOn) {
    const run_report r = run_with("crash", "^(page_placement|acceptance)$");
    expect_small_failure(r, "page_placement");
    // A plain build sees the signal; under AddressSanitizer its SEGV handler reports and exits.
    const std::string& got = result(r, "page_placement").example->what.got;
    EXPECT_TRUE(got.find("crashed: signal 11 (SIGSEGV)") != std::string::npos ||
                got.find("exited with status") != std::string::npos)
        << got;
    EXPECT_EQ(result(r, "page_placement").example->what.query, "ndsc_locate_page(3)");
    EXPECT_EQ(result(r, "acceptance").status, law_status::passed);
}

TEST(Conform, HangIsAFailure) {
    const run_report r = run_with("hang", "^page_placement$", 100, 300);
    expect_small_failure(r, "page_placement");
    // Shrinking a hang waits a quarter of the timeout, at least 250 ms.
    EXPECT_EQ(result(r, "page_placement").example->what.got, "timed out after 250 ms");
    EXPECT_EQ(result(r, "page_placement").example->what.query, "ndsc_locate_page(5)");
}

TEST(Conform, JsonReport) {
    const run_report r = run_with("col_major_ignored", "^(page_placement|interleaved_equivalence)$", 60);
    std::ostringstream json;
    write_json(r, json);
    const std::string s = json.str();
    EXPECT_NE(s.find("\"status\":\"failed\""), std::string::npos) << s;
    EXPECT_NE(s.find("\"counterexample\":{\"spec\":\"--tensor"), std::string::npos) << s;
    EXPECT_NE(s.find("\"passed\":0,\"failed\":2,\"skipped\":0}"), std::string::npos) << s;
}

// The generators of the two version-2 laws reach the hard cases of runs and thread splits,
// and every spec they make belongs to their law (the shrinker's membership test).
TEST(Conform, VersionTwoLawsReachTheHardCases) {
    impl_info full;
    full.name = "full domain";
    full.abi_version = NDSC_ABI_VERSION;
    full.queries = NDSC_Q_PAGE_ID | NDSC_Q_PAGE_COORD | NDSC_Q_SHARD_PAGE | NDSC_Q_CORE_PAGES | NDSC_Q_PAGE_RUN |
                   NDSC_Q_THREAD_PAGES;
    full.strategies = 0x7;
    full.page_kinds = 0x7;
    for (const char* name : {"contiguous_runs", "thread_split_iteration"}) {
        const law* l = find_law(name);
        ASSERT_NE(l, nullptr) << name;
        EXPECT_EQ(l->unavailable(full), "") << name;
        std::map<std::string, int> seen;
        for (std::uint64_t i = 0; i < 1500; ++i) {
            testkit::random_entropy e(i * 7919 + 17);
            distribution_spec s;
            if (!l->generate(e, full, s)) continue;
            ++seen["generated"];
            EXPECT_TRUE(l->fits(s, full)) << name << ": a generated spec does not fit its own law";
            for (const std::string& f : testkit::features(s)) ++seen[f];
            if (total_pages(s) > 4096) ++seen["large"];
        }
        std::string all;
        for (const auto& [f, n] : seen) all += f + "=" + std::to_string(n) + " ";
        for (const char* f : {"rank:1", "rank:8", "uneven", "cores>shards", "zero_dim", "strategy:contiguous_1d",
                              "strategy:round_robin_1d", "strategy:grid_2d", "base_at_limit", "large"})
            EXPECT_GT(seen[f], 0) << name << " never generated " << f << ": " << all;
        EXPECT_GT(seen["generated"], 1400) << name << ": " << all;
    }
}

// ndsc_info.max_core_coord: a spec with a coordinate past the declared largest is outside
// the domain; fit_to_domain moves the ranges towards the origin when they then fit, and
// the laws' generators meet only specs inside (moved or not).
TEST(Conform, DeclaredLargestCoreCoordinateBoundsTheSpecs) {
    impl_info info;
    info.queries = NDSC_Q_PAGE_ID;
    info.strategies = 0x7;
    info.page_kinds = 0x7;
    distribution_spec s;
    s.tensor = {4, 6};
    s.shard = {2, 2};
    s.cores = {{{300, 2}, {301, 3}}, {{310, 9}, {310, 9}}};
    EXPECT_TRUE(in_domain(s, info));  // no limit declared
    info.max_core_coord = 255;
    EXPECT_FALSE(in_domain(s, info));
    ASSERT_TRUE(fit_to_domain(s, info));
    EXPECT_EQ(s.cores[0].start, (core_coord{0, 2}));
    EXPECT_EQ(s.cores[0].end, (core_coord{1, 3}));
    EXPECT_EQ(s.cores[1].start, (core_coord{10, 9}));
    s.cores = {{{0, 0}, {256, 0}}};  // wider than 0..255 itself
    EXPECT_FALSE(fit_to_domain(s, info));
    for (const law& l : all_laws()) {
        testkit::random_entropy e(5);
        for (int i = 0; i < 200; ++i) {
            distribution_spec g;
            if (!l.generate(e, info, g)) continue;
            for (const core_range& r : g.cores)
                ASSERT_TRUE(r.start.x <= 255 && r.start.y <= 255 && r.end.x <= 255 && r.end.y <= 255)
                    << l.name << ": " << spec_key(g);
        }
    }
}

TEST(Conform, BadFilterAndBadImpl) {
    run_options o;
    o.impl_path = NDSC_TESTIMPL;
    o.law_filter = "nolaw";
    EXPECT_THROW(run_conformance(o), std::invalid_argument);
    o.law_filter = "(";
    EXPECT_THROW(run_conformance(o), std::invalid_argument);
    o.law_filter = "";
    o.impl_path = "/nonexistent/libimpl.so";
    EXPECT_THROW(run_conformance(o), load_error);
}

}  // namespace
}  // namespace ndshard::conform
