// Law 6 and 5 for precomputed words (arg::precomputed): the host writes the geometry the
// device needs after the runtime parts, and the accessor copies it instead of making it.
//
//  - the words are the plain words with the geometry inserted before the checksum:
//    9 + 14 x rank words when a shape part is runtime, none when all four are compile-time;
//  - an accessor built from them by the trusting constructor (the copy) and by the
//    validating one (words of unknown origin) answers every entry point as the oracle does,
//    all-runtime and static-rank, both deal rules;
//  - every single changed word of the geometry, under a valid checksum, is refused by the
//    validating constructor with rule args_precomputed naming that word; under the old
//    checksum, the trusting constructor refuses it with args_checksum when
//    NDSHARD_CHECK_WORDS is on (every test build);
//  - a word list too short for its geometry is refused by the trusting copy too.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/testkit/accessor_check.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace {

using namespace ndshard;
using testkit::accepted_model;

// Built twice: property.precomputed with NDSHARD_CHECK_WORDS on (as every test build), and
// property.precomputed_unchecked with it off (the copy alone, as a kernel that trusts its host
// builds it; the checksum expectation below does not apply there).

template <std::uint32_t Config, std::uint32_t... Words>
inline constexpr std::array<std::uint32_t, 1 + sizeof...(Words)> ct_words{Config, Words...};
constexpr std::uint32_t pre = arg::magic | arg::precomputed;

// f(accessor type) for the all-runtime words of a deal rule, or the static-rank ones.
template <class F, std::size_t... R>
void with_static_rank(std::uint32_t rank, bool contiguous, F&& f, std::index_sequence<R...>) {
    const bool found =
        ((rank == R + 1 &&
          (contiguous ? f(std::type_identity<accessor<ct_words<pre | arg::rank | arg::contiguous, R + 1>>>{})
                      : f(std::type_identity<accessor<ct_words<pre | arg::rank, R + 1>>>{}),
           true)) ||
         ...);
    RC_ASSERT(found);
}
template <class F>
void with_accessor_type(std::uint32_t mask, std::uint32_t rank, bool contiguous, F&& f) {
    if (mask == arg::all_runtime) {
        if (contiguous) f(std::type_identity<accessor<ct_words<pre | arg::contiguous>>>{});
        else f(std::type_identity<accessor<ct_words<pre>>>{});
    } else {
        with_static_rank(rank, contiguous, f, std::make_index_sequence<max_rank>{});
    }
}

std::uint32_t checksum_of(const accessor_words& w) {
    return checksum_state{}
        .add_all(w.compile_time)
        .add_all(std::span<const std::uint32_t>(w.runtime).first(w.runtime.size() - 1))
        .value();
}

RC_GTEST_PROP(Precomputed, WordsCarryTheGeometryAndAnswerAsTheOracle, ()) {
    testkit::rc_entropy e;
    const distribution d = testkit::generate_distribution(e, {.max_pages = 2048, .huge_percent = 8});
    testkit::log_and_classify(d.spec, {{"rank:1", "rank 1 or 8"},
                                       {"rank:8", "rank 1 or 8"},
                                       {"strategy:contiguous_1d", "contiguous"},
                                       "uneven",
                                       "cores>shards",
                                       "zero_dim",
                                       {"near_2^32", "near 2^32"}});
    const oracle::model m = accepted_model(d.spec);

    std::vector<std::uint64_t> pages;
    for (std::uint64_t p = 0; p < d.num_pages() && p < 512; ++p) pages.push_back(p);
    if (d.num_pages() > 512) pages.push_back(d.num_pages() - 1);
    std::vector<std::uint64_t> shards;
    for (std::uint64_t s = 0; s < d.num_shards() && s < 64; ++s) shards.push_back(s);
    if (d.num_shards() > 64) shards.push_back(d.num_shards() - 1);
    const testkit::accessor_expectation x = testkit::expect_from_oracle(m, pages, shards);

    const auto rank = static_cast<std::uint32_t>(d.layout.rank());
    const bool contiguous = d.layout.rule == deal_rule::contiguous;
    const auto base = static_cast<std::uint32_t>(d.bank_base);
    const auto page = static_cast<std::uint32_t>(d.aligned_page_size);
    for (std::uint32_t mask : {arg::all_runtime, arg::rank}) {
        const accessor_words plain = make_accessor_words(d, mask);
        const accessor_words w = make_accessor_words(d, mask, nullptr, word_format::precomputed);
        // The plain runtime parts, then 9 + 14 x rank words, then the checksum.
        RC_ASSERT(w.compile_time[0] == (plain.compile_time[0] | arg::precomputed));
        RC_ASSERT(w.runtime.size() == plain.runtime.size() + detail::image_words(rank));
        RC_ASSERT(std::equal(plain.runtime.begin(), plain.runtime.end() - 1, w.runtime.begin()));
        RC_ASSERT(w.runtime.back() == checksum_of(w));

        const std::string label = "precomputed, static mask " + std::to_string(mask);
        with_accessor_type(mask, rank, contiguous, [&](auto type) {
            using A = typename decltype(type)::type;
            const A trusting(w.runtime, base, page);
            testkit::check_accessor(trusting, x, testkit::throw_mismatch(label + ", trusting constructor"));
            args_status status{};
            const A validating(w.runtime, base, page, status);
            RC_ASSERT(status.ok());
            testkit::check_accessor(validating, x, testkit::throw_mismatch(label + ", validating constructor"));
        });
    }
}

RC_GTEST_PROP(Precomputed, AChangedGeometryWordIsRefused, ()) {
    testkit::rc_entropy e;
    testkit::spec_options o;
    o.max_pages = 1024;
    const distribution d = testkit::generate_distribution(e, o);
    RC_LOG(testkit::describe(d.spec));
    const auto rank = static_cast<std::uint32_t>(d.layout.rank());
    const bool contiguous = d.layout.rule == deal_rule::contiguous;
    const auto base = static_cast<std::uint32_t>(d.bank_base);
    const auto page = static_cast<std::uint32_t>(d.aligned_page_size);
    const accessor_words w = make_accessor_words(d, arg::all_runtime, nullptr, word_format::precomputed);
    const std::size_t first = w.runtime.size() - 1 - detail::image_words(rank);  // the geometry's first word

    const auto at = static_cast<std::uint32_t>(e.between(0, detail::image_words(rank) - 1));
    const auto delta = static_cast<std::uint32_t>(e.between(1, 0xFFFF'FFFFULL));
    RC_CLASSIFY(at < detail::image_header_words, "a header word");
    accessor_words changed = w;
    changed.runtime[first + at] += delta;
    with_accessor_type(arg::all_runtime, rank, contiguous, [&](auto type) {
        using A = typename decltype(type)::type;
#if NDSHARD_CHECK_WORDS
        try {  // the old checksum no longer matches: the trusting constructor sees it
            const A a(changed.runtime, base, page);
            RC_FAIL("word " + std::to_string(at) + " of the geometry changed, old checksum: accepted");
        } catch (const spec_error& err) {
            RC_ASSERT(err.rule() == std::string("args_checksum"));
        }
#endif
        accessor_words resummed = changed;
        resummed.runtime.back() = checksum_of(resummed);
        args_status status{};
        const A a(resummed.runtime, base, page, status);
        RC_ASSERT(status.error == args_error::image);
        RC_ASSERT(status.value == at);
        RC_ASSERT(std::string(args_status_rule(status.error)) == "args_precomputed");
    });
}

RC_GTEST_PROP(Precomputed, AListTooShortForItsGeometryIsRefused, ()) {
    testkit::rc_entropy e;
    const distribution d = testkit::generate_distribution(e, {.max_pages = 256});
    const bool contiguous = d.layout.rule == deal_rule::contiguous;
    accessor_words w = make_accessor_words(d, arg::all_runtime, nullptr, word_format::precomputed);
    // Cut inside the geometry (the last word kept is before the checksum).
    const auto keep = static_cast<std::size_t>(e.between(0, w.runtime.size() - 2));
    w.runtime.resize(keep);
    with_accessor_type(arg::all_runtime, static_cast<std::uint32_t>(d.layout.rank()), contiguous, [&](auto type) {
        using A = typename decltype(type)::type;
        try {
            const A a(w.runtime, 0, 64);
            RC_FAIL("runtime words cut to " + std::to_string(keep) + ": accepted");
        } catch (const spec_error& err) {
            RC_ASSERT(err.rule() != std::string());
        }
    });
}

TEST(Precomputed, AllStaticShapesCarryNoGeometry) {
    distribution_spec s;
    s.tensor = {3, 7, 5};
    s.shard = {2, 2, 2};
    s.page.kind = page_kind::pages;
    s.element_size = 64;
    s.cores = {core_range{{0, 0}, {2, 1}}};
    const distribution d = make_distribution(s);
    const std::uint32_t shapes = arg::rank | arg::num_banks | arg::tensor_shape | arg::shard_shape;
    const accessor_words plain = make_accessor_words(d, shapes);
    const accessor_words w = make_accessor_words(d, shapes, nullptr, word_format::precomputed);
    EXPECT_EQ(w.runtime.size(), plain.runtime.size());  // the coordinates and the checksum only
    EXPECT_EQ(w.compile_time[0], plain.compile_time[0] | arg::precomputed);
}

}  // namespace
