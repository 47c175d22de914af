// Law 6: accessor argument words round-trip, and malformed word lists are rejected with
// spec_error (never undefined behaviour, never a crash: run under the asan preset too).
//
//  - make_accessor_words(d, mask) for each of the 15 valid static masks has the layout
//    words.hpp documents (re-read by testkit/arg_words.hpp, written from that comment), and holds
//    the oracle's rank, bank count, folded tensor and shard shapes and core coordinates;
//    the 17 other masks (and any bit past them) are refused with rule args_config;
//  - constructing an accessor from the words (all-runtime for both deal rules, and static
//    rank) gives back that rank, bank count, shapes and bank coordinates;
//  - corrupted runtime words are refused: truncated, extended, every single word changed
//    by a random delta (the checksum catches what nothing else does), a bad config word;
//    words rebuilt with a valid checksum are refused by the rule they break: rank 0 or 9+,
//    a zero shard dim, shapes spanning 2^32 page ids, too many banks, no banks for some
//    shards, page size 0, bank base + reserved bytes past 2^32;
//  - a compile-time word changed (typed over all 15 masks on a small layout) makes the
//    accessor refuse the runtime words that belonged to the original.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/testkit/arg_words.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"
#include "ndshard/testkit/static_masks.hpp"

namespace {

using namespace ndshard;
using oracle::big;
using testkit::has_feature;
using testkit::rc_choose;
using testkit::to_u64;
using words = std::vector<std::uint32_t>;
namespace arg_words = testkit::arg_words;  // the word format as documented, read and written again

// `good` all-runtime words with the arguments (rank, banks, tensor, shard, coords)
// replaced and the checksum recomputed, so that only the rule under test can refuse
// them; whatever follows the checksum in `good` is kept.
accessor_words rebuilt(const accessor_words& good, std::size_t checksum_at, const arg_words::fields& args) {
    accessor_words w =
        arg_words::write(args, arg::all_runtime, (good.compile_time[0] & arg_words::contiguous_flag) != 0);
    w.runtime.insert(w.runtime.end(), good.runtime.begin() + static_cast<std::ptrdiff_t>(checksum_at) + 1,
                     good.runtime.end());
    return w;
}

// ---------------------------------------------------------------------------------
// What the oracle says about a spec.

words u32s(const std::vector<big>& v) {
    words out;
    for (const big& x : v) out.push_back(static_cast<std::uint32_t>(to_u64(x)));
    return out;
}

// The arguments the words of an accepted spec must hold.
arg_words::fields oracle_fields(const oracle::model& m) {
    arg_words::fields f;
    f.tensor = u32s(m.folded_tensor);
    f.shard = u32s(m.shard_pages);
    f.rank = static_cast<std::uint32_t>(f.tensor.size());
    f.coords = testkit::core_coords(m);
    f.banks = static_cast<std::uint32_t>(f.coords.size());
    return f;
}

// An accessor built from words answers what the words say.
template <class A>
void expect_geometry(const A& a, const oracle::model& m) {
    const arg_words::fields f = oracle_fields(m);
    RC_ASSERT(a.rank() == f.rank);
    RC_ASSERT(a.num_banks() == f.banks);
    for (std::uint32_t d = 0; d < a.rank(); ++d) {
        RC_ASSERT(a.tensor_extent(d) == f.tensor[d]);
        RC_ASSERT(a.shard_extent(d) == f.shard[d]);
    }
    for (std::uint32_t b = 0; b < a.num_banks(); ++b) RC_ASSERT(a.bank_coord(b) == f.coords[b]);
    RC_ASSERT(a.num_pages() == to_u64(m.num_pages));
    RC_ASSERT(a.num_shards() == to_u64(m.num_shards));
    RC_ASSERT(a.shard_volume() == to_u64(m.shard_volume));
    RC_ASSERT(a.max_shards_per_core() == to_u64(m.max_shards_per_core));
}

template <bool Contiguous, std::uint32_t Rank>
inline constexpr std::array<std::uint32_t, 2> static_rank_words{
    arg::magic | arg::rank | (Contiguous ? arg::contiguous : 0U), Rank};

template <bool C, std::size_t... R>
void expect_static_rank_geometry(const accessor_words& w, const oracle::model& m, std::index_sequence<R...>) {
    const auto rank = static_cast<std::uint32_t>(m.shard_pages.size());
    const bool ran =
        ((rank == R + 1 && (expect_geometry(accessor<static_rank_words<C, R + 1>>(w.runtime), m), true)) || ...);
    RC_ASSERT(ran);
}

// A generated distribution, logged and classified.
distribution drawn_distribution() {
    testkit::rc_entropy e;
    distribution d = testkit::generate_distribution(e);
    RC_LOG(testkit::describe(d.spec));
    testkit::classify_by_features(
        d.spec, {{"rank:1", "rank 1 or 8"}, {"rank:8", "rank 1 or 8"}, {"strategy:contiguous_1d", "contiguous"}});
    return d;
}

RC_GTEST_PROP(Args, WordsHoldTheSpecForEveryMaskAndParseBack, ()) {
    const distribution d = drawn_distribution();
    const oracle::model m = testkit::accepted_model(d.spec);
    const bool contiguous = m.strat == oracle::strategy::contiguous_1d;
    const arg_words::fields want = oracle_fields(m);

    for (std::uint32_t mask = 0; mask < 32; ++mask) {
        if (!arg_words::valid_mask(mask)) continue;
        const accessor_words w = make_accessor_words(d, mask);
        const std::optional<arg_words::read_words> got = arg_words::read(w);
        RC_ASSERT(got.has_value());
        RC_ASSERT(got->config == arg_words::config_word(mask, contiguous));
        RC_ASSERT(got->args == want);  // rank, bank count, tensor, shard, coordinates
        std::size_t ct = 1;            // compile-time words: the config and the static parts
        if (mask & arg_words::rank) ct += 1;
        if (mask & arg_words::banks) ct += 1;
        if (mask & arg_words::tensor) ct += want.tensor.size();
        if (mask & arg_words::shard) ct += want.shard.size();
        if (mask & arg_words::coords) ct += want.coords.size();
        RC_ASSERT(w.compile_time.size() == ct);
    }

    const accessor_words w = make_accessor_words(d, arg::all_runtime);
    with_runtime_accessor(w, 0, 1, [&](const auto& a) { expect_geometry(a, m); });
    const accessor_words r = make_accessor_words(d, arg::rank);
    if (contiguous) expect_static_rank_geometry<true>(r, m, std::make_index_sequence<max_rank>{});
    else expect_static_rank_geometry<false>(r, m, std::make_index_sequence<max_rank>{});
}

TEST(Args, OnlyTheFifteenValidMasksMakeWords) {
    distribution_spec s;
    s.tensor = {3, 7, 5};
    s.shard = {2, 2, 2};
    s.cores = {grid_range(2, 3)};
    const distribution d = make_distribution(s);
    int valid = 0;
    for (std::uint32_t mask :
         {0U,  1U,  2U,  3U,  4U,  5U,  6U,  7U,   8U,   9U,          10U,         11U,        12U, 13U,
          14U, 15U, 16U, 17U, 18U, 19U, 20U, 21U,  22U,  23U,         24U,         25U,        26U, 27U,
          28U, 29U, 30U, 31U, 32U, 33U, 64U, 256U, 257U, 0x4E440000U, 0x80000000U, 0xFFFFFFFFU}) {
        SCOPED_TRACE("mask " + std::to_string(mask));
        EXPECT_EQ(is_valid_static_mask(mask), arg_words::valid_mask(mask));
        if (arg_words::valid_mask(mask)) {
            ++valid;
            EXPECT_NO_THROW((void)make_accessor_words(d, mask));
            continue;
        }
        try {
            (void)make_accessor_words(d, mask);
            ADD_FAILURE() << "make_accessor_words accepted an invalid mask";
        } catch (const spec_error& err) {
            EXPECT_EQ(err.rule(), "args_config");
        }
    }
    EXPECT_EQ(valid, 15);
}

TEST(Args, BadConfigWordsAreRefused) {
    // Compile-time words holding only a config word: an invalid mask is refused as a
    // config error, a valid one that announces static parts as a short list.
    for (std::uint32_t mask = 0; mask < 32; ++mask) {
        SCOPED_TRACE("mask " + std::to_string(mask));
        for (bool contiguous : {false, true}) {
            const std::array<std::uint32_t, 1> config{arg_words::config_word(mask, contiguous)};
            if (mask == 0) {
                EXPECT_NO_THROW((void)detail::decode_static(config));
                continue;
            }
            try {
                (void)detail::decode_static(config);
                ADD_FAILURE() << "decode_static accepted a config word announcing missing words";
            } catch (const spec_error& err) {
                EXPECT_EQ(err.rule(), arg_words::valid_mask(mask) ? "args_length" : "args_config");
            }
        }
    }
    for (std::uint32_t config :
         {0U, 0x12345678U, arg_words::magic | (1U << 11), arg_words::magic | (1U << 5), 0x4E450000U, 0xFFFFFFFFU}) {
        SCOPED_TRACE("config " + std::to_string(config));
        try {
            (void)detail::decode_static(std::array<std::uint32_t, 1>{config});
            ADD_FAILURE() << "decode_static accepted a bad config word";
        } catch (const spec_error& err) {
            EXPECT_EQ(err.rule(), "args_config");
        }
    }
}

// ---------------------------------------------------------------------------------
// Corrupted runtime words.

// The rule that refused the words, or nullopt when an accessor was built.
std::optional<std::string> refusal(const accessor_words& w, std::uint32_t base = 0, std::uint32_t page_size = 1) {
    try {
        with_runtime_accessor(w, base, page_size, [](const auto& a) { (void)a.num_pages(); });
        return std::nullopt;
    } catch (const spec_error& err) {
        RC_ASSERT(!err.rule().empty());
        RC_ASSERT(std::string(err.what()).find(err.rule()) != std::string::npos);  // the message names the rule
        return err.rule();
    }
}

RC_GTEST_PROP(Args, CorruptedRuntimeWordsAreRefused, ()) {
    const distribution d = drawn_distribution();
    const accessor_words good = make_accessor_words(d, arg::all_runtime);
    RC_ASSERT(!refusal(good).has_value());
    const std::size_t n = good.runtime.size();

    switch (rc_choose(0, 4)) {
        case 0: {  // truncated
            accessor_words w = good;
            w.runtime.resize(n - rc_choose<std::size_t>(1, n + 1));
            const auto rule = refusal(w);
            RC_ASSERT(rule.has_value());
            RC_TAG("truncated: " + *rule);
            break;
        }
        case 1: {  // extended
            accessor_words w = good;
            const auto extra = *rc::gen::container<words>(*rc::gen::inRange(1, 4), rc::gen::arbitrary<std::uint32_t>());
            w.runtime.insert(w.runtime.end(), extra.begin(), extra.end());
            const auto rule = refusal(w);
            RC_ASSERT(rule.has_value());
            RC_TAG("extended: " + *rule);
            break;
        }
        case 2: {  // every single word changed, one at a time
            const auto deltas =
                *rc::gen::container<words>(n, rc::gen::oneOf(rc::gen::element(1U, 0xFFFFFFFFU, 1U << 16, 1U << 31),
                                                             rc::gen::arbitrary<std::uint32_t>()));
            std::string rules;
            for (std::size_t i = 0; i < n; ++i) {
                accessor_words w = good;
                w.runtime[i] += deltas[i] == 0 ? 1 : deltas[i];
                const auto rule = refusal(w);
                if (!rule)
                    RC_FAIL("runtime word " + std::to_string(i) + " of " + std::to_string(n) + " changed by " +
                            std::to_string(deltas[i]) + " is accepted");
                if (rules.find(*rule) == std::string::npos) rules += " " + *rule;
            }
            RC_TAG("one word changed:" + rules);
            break;
        }
        default: {  // a bad config word, or a compile-time list that is not just the config
            accessor_words w = good;
            const std::uint32_t config = *rc::gen::arbitrary<std::uint32_t>();
            RC_PRE(config != arg_words::config_word(0, false) && config != arg_words::config_word(0, true));
            w.compile_time[0] = config;
            auto rule = refusal(w);
            RC_ASSERT(rule == std::optional<std::string>("args_config"));
            w = good;
            w.compile_time.push_back(good.runtime[0]);
            rule = refusal(w);
            RC_ASSERT(rule == std::optional<std::string>("args_length"));
            w.compile_time.clear();
            RC_ASSERT(refusal(w) == std::optional<std::string>("args_length"));
            RC_TAG("bad config word");
            break;
        }
    }
}

RC_GTEST_PROP(Args, WordsWithAValidChecksumAreRefusedByTheRuleTheyBreak, ()) {
    const distribution d = drawn_distribution();
    const oracle::model m = testkit::accepted_model(d.spec);
    const arg_words::fields oracle_args = oracle_fields(m);
    const std::uint32_t rank = oracle_args.rank, banks = oracle_args.banks;
    words tensor = oracle_args.tensor, shard = oracle_args.shard;
    const std::vector<core_coord>& coords = oracle_args.coords;
    const accessor_words good = make_accessor_words(d, arg::all_runtime);
    const std::size_t checksum_at = 2 + 2 * rank + banks;
    RC_ASSERT(good.runtime.size() > checksum_at);
    // Rebuilt from the oracle's answers, the words are the library's.
    RC_ASSERT(rebuilt(good, checksum_at, oracle_args) == good);
    RC_ASSERT(!refusal(good).has_value());
    auto words_with = [&](std::uint32_t r, std::uint32_t b, const words& t, const words& s,
                          const std::vector<core_coord>& c) {
        return rebuilt(good, checksum_at, {r, b, t, s, c});
    };

    std::string expected;
    accessor_words w;
    std::uint32_t base = 0, page_size = 1;
    switch (rc_choose(0, 7)) {
        case 0: {  // rank 0 or past 8
            const std::uint32_t bad = *rc::gen::oneOf(rc::gen::element(0U, 9U), rc::gen::inRange(9U, 0xFFFFFFFFU));
            w = words_with(bad, banks, tensor, shard, coords);
            expected = "args_rank";
            break;
        }
        case 1:  // a zero shard dim
            shard[rc_choose<std::size_t>(0, rank)] = 0;
            w = words_with(rank, banks, tensor, shard, coords);
            expected = "args_shape";
            break;
        case 2: {  // tensor or shard spanning 2^32 page ids (a zero tensor dim counts as 1)
            words& target = *rc::gen::arbitrary<bool>() ? tensor : shard;
            std::uint64_t rest = 1;
            const std::size_t at = rc_choose<std::size_t>(0, rank);
            for (std::size_t k = 0; k < rank; ++k)
                if (k != at) rest *= std::max<std::uint32_t>(target[k], 1);
            // The smallest dim at `at` that reaches 2^32, or more; dims themselves stay 32-bit.
            const std::uint64_t need = (two_pow_32 + rest - 1) / rest;
            if (need > 0xFFFFFFFFU) {
                RC_TAG("shape past 2^32 impossible in 32-bit dims");
                return;
            }
            target[at] = static_cast<std::uint32_t>(*rc::gen::inRange<std::uint64_t>(need, two_pow_32));
            w = words_with(rank, banks, tensor, shard, coords);
            expected = "args_shape";
            break;
        }
        case 3: {  // more than 65536 banks (with that many coordinate words)
            const std::uint32_t many = *rc::gen::inRange(65537U, 70000U);
            w = words_with(rank, many, tensor, shard, std::vector<core_coord>(many, core_coord{0, 0}));
            expected = "args_banks";
            break;
        }
        case 4:  // no banks although there are shards (with no shards, too many banks instead)
            if (to_u64(m.num_shards) == 0) {
                w = words_with(rank, 65537, tensor, shard, std::vector<core_coord>(65537, core_coord{0, 0}));
            } else {
                w = words_with(rank, 0, tensor, shard, {});
            }
            expected = "args_banks";
            break;
        case 5:  // page size 0
            w = words_with(rank, banks, tensor, shard, coords);
            page_size = 0;
            expected = "args_page_size";
            break;
        default: {  // bank base + reserved bytes: accepted up to 2^32 exactly, refused past it
            w = words_with(rank, banks, tensor, shard, coords);
            page_size = *rc::gen::oneOf(rc::gen::inRange(1U, 4097U), rc::gen::arbitrary<std::uint32_t>());
            if (page_size == 0) page_size = 1;
            const big bytes = m.reserved_pages_per_core * page_size;
            const big room = big(two_pow_32) - bytes;  // the largest base that still fits
            if (room >= 0 && *rc::gen::arbitrary<bool>()) {
                base = static_cast<std::uint32_t>(to_u64(room > big(0xFFFFFFFFU) ? big(0xFFFFFFFFU) : room));
                RC_ASSERT(!refusal(w, base, page_size).has_value());
                RC_TAG("base at the limit: accepted");
                if (room >= big(0xFFFFFFFFU)) return;
                base += 1;
            } else {
                base = *rc::gen::arbitrary<std::uint32_t>();
            }
            if (big(base) + bytes <= big(two_pow_32)) {
                RC_ASSERT(!refusal(w, base, page_size).has_value());
                RC_TAG("base + reserved fits: accepted");
                return;
            }
            expected = "address_32bit";
            break;
        }
    }
    const auto rule = refusal(w, base, page_size);
    if (rule != std::optional<std::string>(expected))
        RC_FAIL("expected rule " + expected + ", got " + (rule ? "rule " + *rule : std::string("an accessor")));
    RC_TAG("refused: " + expected);
}

// ---------------------------------------------------------------------------------
// A changed compile-time word: typed over the 15 masks on a small layout.

constexpr std::array<core_coord, 3> tiny_cores{{{1, 0}, {0, 2}, {3, 3}}};
constexpr page_layout tiny_layout =
    make_page_layout(shape{5, 3}, shape{2, 2}, tiny_cores.size(), deal_rule::round_robin);

distribution tiny_distribution() {
    distribution_spec s;
    s.tensor = {5, 3};
    s.shard = {2, 2};
    for (core_coord c : tiny_cores) s.cores.push_back({c, c});
    return make_distribution(s);
}

template <std::uint32_t Mask>
inline constexpr auto tiny_words = static_words<static_word_count(tiny_layout, tiny_cores, Mask)>(tiny_layout,
                                                                                                  tiny_cores, Mask);

// Which argument compile-time word `pos` holds (rank 2, 3 banks).
constexpr std::uint32_t part_at(std::uint32_t mask, std::size_t pos) {
    using namespace arg_words;
    std::size_t at = 1;
    for (std::uint32_t flag : {rank, banks, tensor, shard, coords}) {
        if (!(mask & flag)) continue;
        const std::size_t len = flag == rank || flag == banks ? 1 : flag == coords ? tiny_cores.size() : 2;
        if (pos < at + len) return flag;
        at += len;
    }
    return 0;
}

// Changing the rank or bank count next to compile-time shapes or coordinates would make
// the compile-time list itself malformed, which is a compile error by design; every other
// word can change and still compile.
template <std::uint32_t Mask, std::size_t Pos>
constexpr bool compiles_when_changed() {
    const std::uint32_t part = part_at(Mask, Pos);
    if (part == arg_words::rank) return !(Mask & (arg_words::tensor | arg_words::shard));
    if (part == arg_words::banks) return !(Mask & arg_words::coords);
    return true;
}

template <std::uint32_t Mask, std::size_t Pos>
inline constexpr auto changed_words = [] {
    auto w = tiny_words<Mask>;
    w[Pos] += 1;  // a dim one larger, a rank or bank count one larger, a core one row down
    return w;
}();

template <std::uint32_t Mask, std::size_t... Pos>
void expect_changed_words_refused(const words& rt, std::index_sequence<Pos...>) {
    (
        [&] {
            constexpr std::size_t pos = Pos + 1;  // the config word cannot change and still compile
            if constexpr (compiles_when_changed<Mask, pos>()) {
                SCOPED_TRACE("compile-time word " + std::to_string(pos));
                try {
                    const accessor<changed_words<Mask, pos>> a(rt);
                    ADD_FAILURE() << "accepted; rank " << a.rank() << ", " << a.num_pages() << " pages";
                } catch (const spec_error& err) {
                    EXPECT_FALSE(err.rule().empty());
                }
            }
        }(),
        ...);
}

template <class Mask>
class ArgsStaticMasks : public ::testing::Test {};
TYPED_TEST_SUITE(ArgsStaticMasks, testkit::valid_masks, testkit::mask_name);

TYPED_TEST(ArgsStaticMasks, ChangedWordsAreRefused) {
    constexpr std::uint32_t mask = TypeParam::value;
    static_assert(arg_words::valid_mask(mask));
    const distribution d = tiny_distribution();
    const accessor_words w = make_accessor_words(d, mask);
    constexpr auto& ct = tiny_words<mask>;
    ASSERT_EQ(w.compile_time, words(ct.begin(), ct.end()));

    // The original pair is accepted and holds the layout.
    const accessor<ct> good(w.runtime, 64, 32);
    EXPECT_EQ(good.rank(), 2U);
    EXPECT_EQ(good.num_banks(), 3U);
    EXPECT_EQ(good.num_pages(), 15U);
    EXPECT_EQ(good.num_shards(), 6U);
    for (std::uint32_t b = 0; b < 3; ++b) EXPECT_EQ(good.bank_coord(b), tiny_cores[b]);

    // Every runtime word changed, one at a time.
    for (std::size_t i = 0; i < w.runtime.size(); ++i)
        for (std::uint32_t delta : {1U, 0xFFFFFFFFU, 0x80000000U, 0x10000U}) {
            words rt = w.runtime;
            rt[i] += delta;
            EXPECT_THROW((void)accessor<ct>(rt, 64, 32), spec_error) << "runtime word " << i << " + " << delta;
        }
    // Truncated and extended.
    for (std::size_t k = 0; k < w.runtime.size(); ++k)
        EXPECT_THROW((void)accessor<ct>(std::span(w.runtime).first(k)), spec_error) << k << " runtime words";
    words longer = w.runtime;
    longer.push_back(0);
    EXPECT_THROW((void)accessor<ct>(longer), spec_error);

    // Every compile-time word changed (that still compiles), with the original runtime words.
    expect_changed_words_refused<mask>(w.runtime, std::make_index_sequence<ct.size() - 1>{});
}

}  // namespace
