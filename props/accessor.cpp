// Law 5: the accessor equals the oracle on every entry point, for every mix of
// compile-time and runtime arguments.
//
// Entry points: page id (get_bank_and_offset, get_noc_addr with a byte offset), page
// coordinate in the accessor's rank, i.e. the folded layout (get_bank_and_offset_at,
// get_noc_addr_at), shard id (shard_bank_and_offset, get_shard_noc_addr), shard
// coordinate (get_shard_noc_addr_at), locality (is_local_page, is_local_shard,
// is_local_addr). Expected values come from the cpp_int oracle alone: oracle::locate for
// pages (asked by page id; the coordinates handed to the accessor are that id's digits in
// the oracle's folded shape), oracle::shard_location for shards (asked by coordinate),
// and the oracle's core coordinates for locality.
//
// Argument mixes (args.hpp, 15 valid static masks):
//  - generated specs drive what can be instantiated from a spec known only at run time:
//    all-runtime (both deal rules), static rank (ranks 1..8 by a template switch), static
//    bank count and static rank + bank count (for the bank counts listed below), and the
//    words of squeeze(d.layout) (page and shard ids; coordinates are in another rank);
//  - a typed test runs all 15 masks over fixed constexpr layouts (the SEMANTICS vectors,
//    rank 8 uneven, rank 1 at the 32-bit limit, more cores than shards, contiguous,
//    grid_2d, folded, no pages), built with static_words<N>, every page and shard.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/squeeze.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/spec_gen.hpp"
#include "ndshard/testkit/static_masks.hpp"

namespace {

using namespace ndshard;
using oracle::big;
using testkit::to_u64;
using coord8 = std::array<std::uint32_t, max_rank>;

// ---------------------------------------------------------------------------------
// What the oracle says.

oracle::model oracle_model(const distribution_spec& s) {
    oracle::verdict v = oracle::evaluate(testkit::to_oracle(s));
    if (!v.accepted) throw std::runtime_error("the oracle rejects an accepted spec: [" + v.rule + "] " + v.message);
    return std::move(*v.accepted);
}

// Row-major digits of `index` over `extents`, last dim fastest: 48 over [3,7,5] -> (1,2,3).
coord8 digits_of(std::uint64_t index, const std::vector<big>& extents) {
    coord8 c{};
    for (std::size_t d = extents.size(); d-- > 0;) {
        const std::uint64_t e = to_u64(extents[d]);
        c[d] = static_cast<std::uint32_t>(e == 0 ? 0 : index % e);
        index = e == 0 ? 0 : index / e;
    }
    return c;
}

core_coord core_of(const oracle::core_xy& c) {
    return {static_cast<std::uint32_t>(to_u64(c.x)), static_cast<std::uint32_t>(to_u64(c.y))};
}

// A page or a shard as the oracle places it.
struct expected_place {
    std::uint64_t id;
    coord8 coord;  // page: digits in the folded tensor; shard: digits in the shard grid
    std::uint64_t bank;
    std::uint64_t device_offset;
    std::uint64_t byte_address;
    core_coord core;
};

expected_place expected_page(const oracle::model& m, std::uint64_t page) {
    const oracle::location loc = oracle::locate(m, big(page));
    return {page, digits_of(page, m.folded_tensor), to_u64(loc.core_index), to_u64(loc.device_offset),
            to_u64(loc.byte_address), core_of(loc.core)};
}

expected_place expected_shard(const oracle::model& m, std::uint64_t shard) {
    const coord8 c = digits_of(shard, m.grid);
    const std::vector<big> coord(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(m.grid.size()));
    const oracle::shard_home h = oracle::shard_location(m, coord);  // the oracle finds the id itself
    return {shard, c, to_u64(h.core_index), to_u64(h.device_offset), to_u64(h.byte_address), core_of(h.core)};
}

// Which pages and shards to ask, what the oracle answers, and which cores to ask
// locality questions for (besides the right one).
struct check_plan {
    std::vector<expected_place> pages, shards;
    std::vector<core_coord> other_cores;
    std::uint64_t page_size = 1;  // aligned
    bool coords = true;           // ask the coordinate entry points (the accessor's rank is the folded one)
};

check_plan plan_for(const oracle::model& m, const std::vector<std::uint64_t>& pages,
                    const std::vector<std::uint64_t>& shards) {
    check_plan p;
    for (std::uint64_t id : pages) p.pages.push_back(expected_page(m, id));
    for (std::uint64_t id : shards) p.shards.push_back(expected_shard(m, id));
    const std::size_t n = m.cores.size();
    for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 6)) p.other_cores.push_back(core_of(m.cores[i]));
    if (n > 0) p.other_cores.push_back(core_of(m.cores[n - 1]));
    p.other_cores.push_back({0xFFFF, 0xFFFF});
    p.page_size = to_u64(m.aligned_page_size);
    return p;
}

// ---------------------------------------------------------------------------------
// Any accessor<CT> behind one interface, so the checks are compiled once.

class accessor_probe {
public:
    virtual ~accessor_probe() = default;
    virtual bank_and_offset page(std::uint32_t id) const = 0;
    virtual noc_addr page_noc(std::uint32_t id, std::uint32_t byte) const = 0;
    virtual bank_and_offset page_at(const coord8& c) const = 0;
    virtual noc_addr page_noc_at(const coord8& c, std::uint32_t byte) const = 0;
    virtual bank_and_offset shard(std::uint32_t id) const = 0;
    virtual noc_addr shard_noc(std::uint32_t id, std::uint32_t byte) const = 0;
    virtual noc_addr shard_noc_at(const coord8& c, std::uint32_t byte) const = 0;
    virtual bool local_page(std::uint32_t id, core_coord me) const = 0;
    virtual bool local_shard(std::uint32_t id, core_coord me) const = 0;
    virtual bool local_addr(noc_addr a, core_coord me) const = 0;
};

template <class A>
class probe final : public accessor_probe {
public:
    explicit probe(const A& a) : a_(a) {}
    bank_and_offset page(std::uint32_t id) const override { return a_.get_bank_and_offset(id); }
    noc_addr page_noc(std::uint32_t id, std::uint32_t byte) const override { return a_.get_noc_addr(id, byte); }
    bank_and_offset page_at(const coord8& c) const override { return a_.get_bank_and_offset_at(c); }
    noc_addr page_noc_at(const coord8& c, std::uint32_t byte) const override { return a_.get_noc_addr_at(c, byte); }
    bank_and_offset shard(std::uint32_t id) const override { return a_.shard_bank_and_offset(id); }
    noc_addr shard_noc(std::uint32_t id, std::uint32_t byte) const override {
        return a_.get_shard_noc_addr(id, byte);
    }
    noc_addr shard_noc_at(const coord8& c, std::uint32_t byte) const override {
        return a_.get_shard_noc_addr_at(c, byte);
    }
    bool local_page(std::uint32_t id, core_coord me) const override { return a_.is_local_page(id, me); }
    bool local_shard(std::uint32_t id, core_coord me) const override { return a_.is_local_shard(id, me); }
    bool local_addr(noc_addr a, core_coord me) const override { return A::is_local_addr(a, me); }

private:
    const A& a_;
};

std::string show(core_coord c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }
std::string show(const bank_and_offset& b) {
    return "{bank " + std::to_string(b.bank) + ", offset " + std::to_string(b.page_offset) + "}";
}
std::string show(const noc_addr& n) {
    return "{(" + std::to_string(n.x) + "," + std::to_string(n.y) + "), addr " + std::to_string(n.addr) + "}";
}

class mismatch : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Throws `mismatch` naming the accessor, the entry point and both answers.
void check_accessor(const accessor_probe& a, const check_plan& plan, const std::string& label) {
    auto fail = [&](const std::string& what, const expected_place& e, const std::string& got) {
        throw mismatch(label + ": " + what + " " + std::to_string(e.id) + " -> " + got + ", the oracle says bank " +
                       std::to_string(e.bank) + " " + show(e.core) + ", offset " + std::to_string(e.device_offset) +
                       ", address " + std::to_string(e.byte_address));
    };
    auto same_bo = [](const bank_and_offset& b, const expected_place& e) {
        return b.bank == e.bank && b.page_offset == e.device_offset;
    };
    auto same_noc = [](const noc_addr& n, const expected_place& e, std::uint32_t byte) {
        return n.x == e.core.x && n.y == e.core.y && n.addr == e.byte_address + byte;
    };
    // Byte offsets inside the page: the first byte, the last byte, one in between.
    auto byte_for = [&](std::uint64_t id) {
        const std::uint64_t pick = id % 3;
        return static_cast<std::uint32_t>(pick == 0 ? 0 : pick == 1 ? plan.page_size - 1 : (id * 7919) % plan.page_size);
    };
    auto check_locality = [&](const std::string& what, const expected_place& e, auto&& is_local) {
        if (!is_local(e.core)) fail(what + " (own core " + show(e.core) + ": false)", e, "not local");
        for (core_coord me : plan.other_cores)
            if (is_local(me) != (me == e.core)) fail(what + " asked on " + show(me), e, is_local(me) ? "local" : "not local");
    };
    for (const expected_place& e : plan.pages) {
        const auto id = static_cast<std::uint32_t>(e.id);
        const std::uint32_t byte = byte_for(e.id);
        if (const auto b = a.page(id); !same_bo(b, e)) fail("get_bank_and_offset(page)", e, show(b));
        if (const auto n = a.page_noc(id, byte); !same_noc(n, e, byte))
            fail("get_noc_addr(page, byte " + std::to_string(byte) + ")", e, show(n));
        if (plan.coords) {
            if (const auto b = a.page_at(e.coord); !same_bo(b, e)) fail("get_bank_and_offset_at(coord of page)", e, show(b));
            if (const auto n = a.page_noc_at(e.coord, byte); !same_noc(n, e, byte))
                fail("get_noc_addr_at(coord of page, byte " + std::to_string(byte) + ")", e, show(n));
        }
        check_locality("is_local_page", e, [&](core_coord me) { return a.local_page(id, me); });
        const noc_addr there{e.core.x, e.core.y, static_cast<std::uint32_t>(e.byte_address)};
        check_locality("is_local_addr", e, [&](core_coord me) { return a.local_addr(there, me); });
    }
    for (const expected_place& e : plan.shards) {
        const auto id = static_cast<std::uint32_t>(e.id);
        const std::uint32_t byte = byte_for(e.id);
        if (const auto b = a.shard(id); !same_bo(b, e)) fail("shard_bank_and_offset(shard)", e, show(b));
        if (const auto n = a.shard_noc(id, byte); !same_noc(n, e, byte))
            fail("get_shard_noc_addr(shard, byte " + std::to_string(byte) + ")", e, show(n));
        if (plan.coords)
            if (const auto n = a.shard_noc_at(e.coord, byte); !same_noc(n, e, byte))
                fail("get_shard_noc_addr_at(coord of shard, byte " + std::to_string(byte) + ")", e, show(n));
        check_locality("is_local_shard", e, [&](core_coord me) { return a.local_shard(id, me); });
    }
}

// Builds accessor<CT> over `rt` and checks it.
template <auto CT>
void check_static(const std::vector<std::uint32_t>& rt, std::uint32_t base, std::uint32_t page_size,
                  const check_plan& plan, const std::string& label) {
    const accessor<CT> a(rt, base, page_size);
    check_accessor(probe<accessor<CT>>(a), plan, label);
}

// ---------------------------------------------------------------------------------
// Generated specs: the masks whose compile-time part is a rank and/or a bank count.

template <std::uint32_t Mask, bool Contiguous, std::uint32_t... Words>
inline constexpr std::array<std::uint32_t, 1 + sizeof...(Words)> ct_words{
    arg::magic | Mask | (Contiguous ? arg::contiguous : 0U), Words...};

inline constexpr std::array<std::uint32_t, 9> static_bank_counts{1, 2, 3, 4, 5, 6, 7, 8, 12};
inline constexpr std::array<std::uint32_t, 3> static_rank_bank_counts{1, 2, 12};

struct run_context {
    const accessor_words& words;
    std::uint32_t base, page_size;
    const check_plan& plan;
    std::string label;
};

template <bool C, std::size_t... R>
bool run_static_rank(std::uint32_t rank, const run_context& x, std::index_sequence<R...>) {
    return ((rank == R + 1 &&
             (check_static<ct_words<arg::rank, C, R + 1>>(x.words.runtime, x.base, x.page_size, x.plan, x.label), true)) ||
            ...);
}

template <bool C, std::size_t... B>
bool run_static_banks(std::uint32_t banks, const run_context& x, std::index_sequence<B...>) {
    return ((banks == static_bank_counts[B] &&
             (check_static<ct_words<arg::num_banks, C, static_bank_counts[B]>>(x.words.runtime, x.base, x.page_size,
                                                                                x.plan, x.label),
              true)) ||
            ...);
}

template <bool C, std::uint32_t Rank, std::size_t... B>
bool run_static_rank_banks_for(std::uint32_t banks, const run_context& x, std::index_sequence<B...>) {
    return ((banks == static_rank_bank_counts[B] &&
             (check_static<ct_words<arg::rank | arg::num_banks, C, Rank, static_rank_bank_counts[B]>>(
                  x.words.runtime, x.base, x.page_size, x.plan, x.label),
              true)) ||
            ...);
}

template <bool C, std::size_t... R>
bool run_static_rank_banks(std::uint32_t rank, std::uint32_t banks, const run_context& x, std::index_sequence<R...>) {
    return ((rank == R + 1 &&
             run_static_rank_banks_for<C, R + 1>(banks, x, std::make_index_sequence<static_rank_bank_counts.size()>{})) ||
            ...);
}

// Runs `mask` (a rank and/or bank-count mask) if it can be instantiated for this layout.
bool run_mask(std::uint32_t mask, const distribution& d, const page_layout& layout, const check_plan& plan,
              const std::string& label) {
    const accessor_words w = make_accessor_words(d, mask, &layout);
    const auto base = static_cast<std::uint32_t>(d.bank_base);
    const auto page = static_cast<std::uint32_t>(d.aligned_page_size);
    const run_context x{w, base, page, plan, label};
    const auto rank = static_cast<std::uint32_t>(layout.rank());
    const auto banks = static_cast<std::uint32_t>(d.cores.size());
    const bool contiguous = layout.rule == deal_rule::contiguous;
    switch (mask) {
        case arg::all_runtime:
            with_runtime_accessor(w, base, page, [&](const auto& a) {
                check_accessor(probe<std::decay_t<decltype(a)>>(a), plan, label);
            });
            return true;
        case arg::rank:
            return contiguous ? run_static_rank<true>(rank, x, std::make_index_sequence<max_rank>{})
                              : run_static_rank<false>(rank, x, std::make_index_sequence<max_rank>{});
        case arg::num_banks: {
            constexpr auto all = std::make_index_sequence<static_bank_counts.size()>{};
            return contiguous ? run_static_banks<true>(banks, x, all) : run_static_banks<false>(banks, x, all);
        }
        case arg::rank | arg::num_banks: {
            constexpr auto all = std::make_index_sequence<max_rank>{};
            return contiguous ? run_static_rank_banks<true>(rank, banks, x, all)
                              : run_static_rank_banks<false>(rank, banks, x, all);
        }
        default: throw std::logic_error("run_mask: mask " + std::to_string(mask) + " needs a constexpr layout");
    }
}

// Pages to ask: all of a small spec, else first/last/edge-shard/random ones.
std::vector<std::uint64_t> pages_to_check(testkit::entropy& e, const distribution& d) {
    if (d.num_pages() <= 4096) {
        std::vector<std::uint64_t> all(d.num_pages());
        for (std::uint64_t p = 0; p < all.size(); ++p) all[p] = p;
        return all;
    }
    return testkit::sample_pages(e, d, 48);
}

std::vector<std::uint64_t> shards_to_check(testkit::entropy& e, const oracle::model& m,
                                           const std::vector<std::uint64_t>& pages) {
    const std::uint64_t n = to_u64(m.num_shards);
    std::vector<std::uint64_t> s;
    if (n <= 256) {
        for (std::uint64_t i = 0; i < n; ++i) s.push_back(i);
        return s;
    }
    s = {0, n - 1, n / 2};
    for (int i = 0; i < 24; ++i) s.push_back(e.between(0, n - 1));
    for (std::size_t i = 0; i < pages.size() && i < 24; ++i)
        s.push_back(to_u64(oracle::locate(m, big(pages[i])).shard_id));
    return s;
}

void classify_features(const distribution_spec& s) {
    const std::vector<std::string> f = testkit::features(s);
    auto has = [&](const char* name) { return std::find(f.begin(), f.end(), name) != f.end(); };
    RC_CLASSIFY(has("rank:1") || has("rank:8"), "rank 1 or 8");
    RC_CLASSIFY(has("folded"), "folded");
    RC_CLASSIFY(has("strategy:contiguous_1d"), "contiguous");
}

RC_GTEST_PROP(Accessor, EqualsTheOracleForRuntimeRankAndBankArguments, ()) {
    testkit::rc_entropy e;
    testkit::spec_options o;
    o.max_pages = 4096;
    o.huge_percent = 8;
    const distribution d = testkit::generate_distribution(e, o);
    RC_LOG(testkit::describe(d.spec));
    classify_features(d.spec);
    const oracle::model m = oracle_model(d.spec);
    RC_ASSERT(to_u64(m.num_pages) == d.num_pages());

    const std::vector<std::uint64_t> pages = pages_to_check(e, d);
    const check_plan plan = plan_for(m, pages, shards_to_check(e, m, pages));
    int masks_run = 0;
    for (std::uint32_t mask : {arg::all_runtime, arg::rank, arg::num_banks, arg::rank | arg::num_banks})
        masks_run += run_mask(mask, d, d.layout, plan, "static mask " + std::to_string(mask)) ? 1 : 0;
    RC_CLASSIFY(masks_run > 2, "static bank count");

    // Squeezed words: another rank, so ask by page and shard id only.
    const page_layout squeezed = squeeze(d.layout);
    check_plan by_id = plan;
    by_id.coords = false;
    for (std::uint32_t mask : {arg::all_runtime, arg::rank, arg::rank | arg::num_banks})
        run_mask(mask, d, squeezed, by_id, "squeezed, static mask " + std::to_string(mask));
}

// ---------------------------------------------------------------------------------
// Fixed constexpr layouts x all 15 masks.

constexpr bool valid_mask(std::uint32_t m) {  // written from args.hpp's comment, not its code
    const bool shapes = (m & (arg::tensor_shape | arg::shard_shape)) != 0;
    return m <= arg::all_static && (!shapes || (m & arg::rank)) && (!(m & arg::bank_coords) || (m & arg::num_banks));
}

template <std::size_t N>
constexpr std::array<core_coord, N> range_cores(core_range r, orientation o) {
    std::array<core_coord, N> out{};
    std::size_t i = 0;
    const std::uint32_t w = r.end.x - r.start.x + 1, h = r.end.y - r.start.y + 1;
    for (std::uint32_t a = 0; a < (o == orientation::row_major ? h : w); ++a)
        for (std::uint32_t b = 0; b < (o == orientation::row_major ? w : h); ++b)
            out[i++] = o == orientation::row_major ? core_coord{r.start.x + b, r.start.y + a}
                                                   : core_coord{r.start.x + a, r.start.y + b};
    if (i != N) throw std::logic_error("range_cores: N does not match the range");
    return out;
}

// Each case: a spec (what a user writes), its folded page layout and effective core list
// as constants (what a kernel would be compiled with).
struct v1_case {  // SEMANTICS V1
    static constexpr const char* name = "V1 [2,64,96]/[1,32,64] tile";
    static constexpr auto cores = range_cores<16>({{0, 0}, {3, 3}}, orientation::row_major);
    static constexpr page_layout layout =
        make_page_layout(shape{2, 2, 3}, shape{1, 1, 2}, cores.size(), deal_rule::round_robin);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {2, 64, 96};
        s.shard = {1, 32, 64};
        s.page = {page_kind::tile};
        s.element_size = 2;
        s.cores = {{{0, 0}, {3, 3}}};
        s.bank_base = 0x10000;
        return s;
    }
};
struct v4_case {  // SEMANTICS V4: row-major pages, col_major range
    static constexpr const char* name = "V4 [3,2,2,3,4]/[1,1,2,2,4] row_major";
    static constexpr auto cores = range_cores<10>({{0, 0}, {1, 4}}, orientation::col_major);
    static constexpr page_layout layout =
        make_page_layout(shape{3, 2, 2, 3, 1}, shape{1, 1, 2, 2, 1}, cores.size(), deal_rule::round_robin);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {3, 2, 2, 3, 4};
        s.shard = {1, 1, 2, 2, 4};
        s.page = {page_kind::row_major};
        s.element_size = 3;
        s.alignment = 32;
        s.cores = {{{0, 0}, {1, 4}}};
        s.orient = orientation::col_major;
        return s;
    }
};
struct v7_case {  // SEMANTICS V7, second spec
    static constexpr const char* name = "V7 [2,1,3,4]/[2,2,1,2] 6 banks";
    static constexpr auto cores = range_cores<6>({{0, 0}, {5, 0}}, orientation::row_major);
    static constexpr page_layout layout =
        make_page_layout(shape{2, 1, 3, 4}, shape{2, 2, 1, 2}, cores.size(), deal_rule::round_robin);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {2, 1, 3, 4};
        s.shard = {2, 2, 1, 2};
        s.element_size = 64;
        s.cores = {{{0, 0}, {5, 0}}};
        return s;
    }
};
struct picture_case {  // the proposal's picture
    static constexpr const char* name = "[3,7,5]/[2,2,2] 6 cores";
    static constexpr auto cores = range_cores<6>({{0, 0}, {1, 2}}, orientation::row_major);
    static constexpr page_layout layout =
        make_page_layout(shape{3, 7, 5}, shape{2, 2, 2}, cores.size(), deal_rule::round_robin);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {3, 7, 5};
        s.shard = {2, 2, 2};
        s.element_size = 1024;
        s.cores = {grid_range(2, 3)};
        s.bank_base = 4096;
        return s;
    }
};
struct contiguous_case {
    static constexpr const char* name = "[3,7,5]/[2,2,2] contiguous on (1,1)-(3,2) col_major";
    static constexpr auto cores = range_cores<6>({{1, 1}, {3, 2}}, orientation::col_major);
    static constexpr page_layout layout =
        make_page_layout(shape{3, 7, 5}, shape{2, 2, 2}, cores.size(), deal_rule::contiguous);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {3, 7, 5};
        s.shard = {2, 2, 2};
        s.element_size = 100;
        s.alignment = 16;
        s.cores = {{{1, 1}, {3, 2}}};
        s.orient = orientation::col_major;
        s.strat = strategy::contiguous_1d;
        return s;
    }
};
struct rank8_case {  // uneven in most dims, scattered cores in no particular order
    static constexpr const char* name = "rank 8 uneven on 5 scattered cores";
    static constexpr std::array<core_coord, 5> cores{{{7, 3}, {0, 0}, {2, 9}, {4, 4}, {1, 6}}};
    static constexpr page_layout layout = make_page_layout(shape{3, 2, 5, 1, 2, 3, 2, 3}, shape{2, 1, 3, 1, 2, 2, 1, 2},
                                                           cores.size(), deal_rule::round_robin);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {3, 2, 5, 1, 2, 3, 2, 3};
        s.shard = {2, 1, 3, 1, 2, 2, 1, 2};
        s.element_size = 32;
        for (core_coord c : cores) s.cores.push_back({c, c});
        s.bank_base = 1U << 20;
        return s;
    }
};
struct rank1_limit_case {  // rank 1, buffer ending exactly at 2^32
    static constexpr const char* name = "rank 1 [37]/[5], 3 cores, ends at 2^32";
    static constexpr auto cores = range_cores<3>({{0, 0}, {0, 2}}, orientation::row_major);
    static constexpr page_layout layout = make_page_layout(shape{37}, shape{5}, cores.size(), deal_rule::round_robin);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {37};
        s.shard = {5};
        s.element_size = 100;
        s.alignment = 64;  // 128-byte pages; 3 slots x 5 pages reserved = 1920 bytes
        s.cores = {{{0, 0}, {0, 2}}};
        s.bank_base = two_pow_32 - 1920;
        return s;
    }
};
struct more_cores_case {
    static constexpr const char* name = "[4,6]/[2,6]: 2 shards on 9 cores";
    static constexpr auto cores = range_cores<9>({{0, 0}, {2, 2}}, orientation::row_major);
    static constexpr page_layout layout = make_page_layout(shape{4, 6}, shape{2, 6}, cores.size(), deal_rule::round_robin);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {4, 6};
        s.shard = {2, 6};
        s.element_size = 8;
        s.cores = {grid_range(3, 3)};
        return s;
    }
};
struct grid_2d_case {  // legacy block sharding: Gh = 2, Gw = 3 over (0,0)-(3,3) col_major
    static constexpr const char* name = "grid_2d [4,6]/[2,2] col_major";
    static constexpr std::array<core_coord, 6> cores{{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}};
    static constexpr page_layout layout =
        make_page_layout(shape{4, 6}, shape{2, 2}, cores.size(), deal_rule::round_robin, true);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {4, 6};
        s.shard = {2, 2};
        s.element_size = 2048;
        s.cores = {grid_range(4, 4)};
        s.orient = orientation::col_major;
        s.strat = strategy::grid_2d;
        return s;
    }
};
struct folded_case {  // shard rank 2 < tensor rank 3: [2,3,4] folds to [6,4]
    static constexpr const char* name = "folded [2,3,4]/[4,3]";
    static constexpr auto cores = range_cores<4>({{2, 0}, {3, 1}}, orientation::row_major);
    static constexpr page_layout layout = make_page_layout(shape{6, 4}, shape{4, 3}, cores.size(), deal_rule::round_robin);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {2, 3, 4};
        s.shard = {4, 3};
        s.element_size = 16;
        s.cores = {{{2, 0}, {3, 1}}};
        return s;
    }
};
struct empty_case {  // a zero dim: no pages, no shards
    static constexpr const char* name = "[3,0,4]/[2,2,2]: no pages";
    static constexpr auto cores = range_cores<2>({{0, 0}, {1, 0}}, orientation::row_major);
    static constexpr page_layout layout =
        make_page_layout(shape{3, 0, 4}, shape{2, 2, 2}, cores.size(), deal_rule::round_robin);
    static distribution_spec spec() {
        distribution_spec s;
        s.tensor = {3, 0, 4};
        s.shard = {2, 2, 2};
        s.cores = {grid_range(2, 1)};
        return s;
    }
};

template <class Case, std::uint32_t Mask>
inline constexpr auto fixed_words =
    static_words<static_word_count(Case::layout, Case::cores, Mask)>(Case::layout, Case::cores, Mask);

// Every page and shard of one fixed case through accessor<static words>.
template <class Case, std::uint32_t Mask>
void check_fixed_case() {
    SCOPED_TRACE(std::string(Case::name) + ", static mask " + std::to_string(Mask));
    const distribution d = make_distribution(Case::spec());
    // The constants describe this spec (else the check below would prove nothing).
    ASSERT_TRUE(d.layout.tensor == Case::layout.tensor && d.layout.shard == Case::layout.shard);
    ASSERT_EQ(d.layout.num_cores, Case::layout.num_cores);
    ASSERT_EQ(d.layout.max_shards_per_core, Case::layout.max_shards_per_core);
    ASSERT_TRUE(d.layout.rule == Case::layout.rule);
    ASSERT_TRUE(std::equal(d.cores.begin(), d.cores.end(), Case::cores.begin(), Case::cores.end()));

    constexpr auto& ct = fixed_words<Case, Mask>;
    const accessor_words w = make_accessor_words(d, Mask);
    ASSERT_EQ(w.compile_time, std::vector<std::uint32_t>(ct.begin(), ct.end()));

    const oracle::model m = oracle_model(Case::spec());
    std::vector<std::uint64_t> pages(to_u64(m.num_pages)), shards(to_u64(m.num_shards));
    for (std::uint64_t i = 0; i < pages.size(); ++i) pages[i] = i;
    for (std::uint64_t i = 0; i < shards.size(); ++i) shards[i] = i;
    check_plan plan = plan_for(m, pages, shards);
    plan.other_cores.clear();
    for (const auto& c : m.cores) plan.other_cores.push_back(core_of(c));
    plan.other_cores.push_back({0xFFFF, 0xFFFF});
    try {
        check_static<ct>(w.runtime, static_cast<std::uint32_t>(d.bank_base),
                         static_cast<std::uint32_t>(d.aligned_page_size), plan, Case::name);
    } catch (const std::exception& err) {
        FAIL() << err.what();
    }
}

template <class Mask>
class AccessorStaticMasks : public ::testing::Test {};
TYPED_TEST_SUITE(AccessorStaticMasks, testkit::valid_masks, testkit::mask_name);

TEST(AccessorStaticMasks, TheTypedTestCoversExactlyTheValidMasks) {
    std::vector<std::uint32_t> listed{0, 1, 2, 3, 5, 7, 9, 11, 13, 15, 18, 19, 23, 27, 31}, valid;
    for (std::uint32_t m = 0; m < 64; ++m)
        if (valid_mask(m)) valid.push_back(m);
    EXPECT_EQ(listed, valid);
}

TYPED_TEST(AccessorStaticMasks, EveryPageAndShardOfTheFixedLayoutsEqualsTheOracle) {
    constexpr std::uint32_t mask = TypeParam::value;
    static_assert(valid_mask(mask));
    check_fixed_case<v1_case, mask>();
    check_fixed_case<v4_case, mask>();
    check_fixed_case<v7_case, mask>();
    check_fixed_case<picture_case, mask>();
    check_fixed_case<contiguous_case, mask>();
    check_fixed_case<rank8_case, mask>();
    check_fixed_case<rank1_limit_case, mask>();
    check_fixed_case<more_cores_case, mask>();
    check_fixed_case<grid_2d_case, mask>();
    check_fixed_case<folded_case, mask>();
    check_fixed_case<empty_case, mask>();
}

}  // namespace
