// Law 10, conformance: the vectors of docs/semantics.md's conformance vectors, exactly.
//
// Each vector is typed in by hand from docs/semantics.md and checked three ways:
//   (c) at compile time: static_assert over make_page_layout(...).locate / page_at /
//       shards_on_core / pages_on_core (layout.hpp is constexpr), mdspan-test style;
//   (a) through the fast path: make_distribution + slot_table / locate, including the
//       element-level specs of V1 (TILE 32x32) and V4 (ROW_MAJOR pages);
//   (b) through the oracle (lib/oracle, checked integers).
// `pad` marks a padding slot (docs/semantics.md writes P).
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/distribution.hpp"
#include "ndshard/host_mapping.hpp"
#include "ndshard/layout.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"

namespace {

namespace oracle = ndshard::oracle;
namespace tk = ndshard::testkit;
using ndshard::deal_rule;
using ndshard::make_page_layout;
using ndshard::page_layout;
using std::uint64_t;

constexpr std::int64_t pad = -1;

template <std::size_t Cores, std::size_t Slots>
using slot_rows = std::array<std::array<std::int64_t, Slots>, Cores>;

// --- the vectors, from docs/semantics.md's conformance vectors ------------------------------------------

// V1. Pages [2,2,3], shard [1,1,2], 16 cores.
constexpr slot_rows<16, 2> v1_slots{{
    {0, 1},
    {2, pad},
    {3, 4},
    {5, pad},
    {6, 7},
    {8, pad},
    {9, 10},
    {11, pad},
    {pad, pad},
    {pad, pad},
    {pad, pad},
    {pad, pad},
    {pad, pad},
    {pad, pad},
    {pad, pad},
    {pad, pad},
}};

// V4. Pages [3,2,2,3,1], shard [1,1,2,2,1], 10 cores.
constexpr slot_rows<10, 8> v4_slots{{
    {0, 1, 3, 4, 30, 31, 33, 34},
    {2, pad, 5, pad, 32, pad, 35, pad},
    {6, 7, 9, 10, pad, pad, pad, pad},
    {8, pad, 11, pad, pad, pad, pad, pad},
    {12, 13, 15, 16, pad, pad, pad, pad},
    {14, pad, 17, pad, pad, pad, pad, pad},
    {18, 19, 21, 22, pad, pad, pad, pad},
    {20, pad, 23, pad, pad, pad, pad, pad},
    {24, 25, 27, 28, pad, pad, pad, pad},
    {26, pad, 29, pad, pad, pad, pad, pad},
}};

// V7 (first). [2,3] / [1,2], 4 banks: page -> (bank, offset).
struct bank_offset {
    uint64_t bank, offset;
};
constexpr std::array<bank_offset, 6> v7a_homes{{{0, 0}, {0, 1}, {1, 0}, {2, 0}, {2, 1}, {3, 0}}};

// V7 (second). [2,1,3,4] / [2,2,1,2], 6 banks: p < 12 -> (p/2, p%2), p >= 12 -> ((p-12)/2, 4+p%2).
constexpr bank_offset v7b_home(uint64_t p) {
    return p < 12 ? bank_offset{p / 2, p % 2} : bank_offset{(p - 12) / 2, 4 + p % 2};
}

// V8. 2x2 grid (4 cores): shards max per core, and per core.
struct v8_case {
    ndshard::shape tensor, shard;
    uint64_t num_shards, max_per_core;
    std::array<uint64_t, 4> per_core;
};
constexpr std::array<v8_case, 4> v8_cases{{
    {{2, 2, 2}, {1, 1, 1}, 8, 2, {2, 2, 2, 2}},
    {{3, 3, 3}, {2, 2, 2}, 8, 2, {2, 2, 2, 2}},
    {{2, 2, 4}, {2, 2, 2}, 2, 1, {1, 1, 0, 0}},
    {{0, 0, 0}, {1, 1, 1}, 0, 0, {0, 0, 0, 0}},
}};

// The proposal's picture: [3,7,5] / [2,2,2] on 6 cores.
constexpr uint64_t picture_shards = 24, picture_max_per_core = 4;
constexpr std::array<uint64_t, 6> picture_pages_per_core{24, 24, 12, 18, 18, 9};
constexpr std::array<uint64_t, 16> picture_core0_start{0, 1, 5, 6, 35, 36, 40, 41, 20, 21, 25, 26, 55, 56, 60, 61};

// --- (c) compile time ------------------------------------------------------------------

// Every slot holds what the rows say (page_at), every listed page locates back to its
// slot, and the listed pages are all the pages.
template <std::size_t Cores, std::size_t Slots>
constexpr bool layout_holds(const page_layout& l, const slot_rows<Cores, Slots>& want) {
    if (l.num_cores != Cores || l.reserved_pages_per_core() != Slots) return false;
    uint64_t listed = 0;
    for (std::size_t c = 0; c < Cores; ++c)
        for (std::size_t o = 0; o < Slots; ++o) {
            const auto got = l.page_at(c, o);
            if (want[c][o] == pad) {
                if (got) return false;
                continue;
            }
            const auto page = static_cast<uint64_t>(want[c][o]);
            if (!got || *got != page) return false;
            const auto at = l.locate(page);
            if (at.core != c || at.device_offset != o) return false;
            ++listed;
        }
    return listed == l.num_pages;
}

constexpr bool v1() {
    const page_layout l = make_page_layout({2, 2, 3}, {1, 1, 2}, 16, deal_rule::round_robin);
    if (l.num_shards != 8 || l.max_shards_per_core != 1) return false;
    for (uint64_t c = 0; c < 16; ++c)
        if (l.shards_on_core(c) != (c < 8 ? 1U : 0U)) return false;
    return layout_holds(l, v1_slots);
}

constexpr bool v4() {
    const page_layout l = make_page_layout({3, 2, 2, 3, 1}, {1, 1, 2, 2, 1}, 10, deal_rule::round_robin);
    if (l.num_shards != 12 || l.max_shards_per_core != 2) return false;
    for (uint64_t c = 0; c < 10; ++c)
        if (l.shards_on_core(c) != (c < 2 ? 2U : 1U)) return false;
    return layout_holds(l, v4_slots);
}

constexpr bool v7a() {
    const page_layout l = make_page_layout({2, 3}, {1, 2}, 4, deal_rule::round_robin);
    if (l.num_pages != v7a_homes.size()) return false;
    for (uint64_t p = 0; p < v7a_homes.size(); ++p) {
        const auto at = l.locate(p);
        if (at.core != v7a_homes[p].bank || at.device_offset != v7a_homes[p].offset) return false;
        if (l.page_at(at.core, at.device_offset) != p) return false;
    }
    return true;
}

constexpr bool v7b() {
    const page_layout l = make_page_layout({2, 1, 3, 4}, {2, 2, 1, 2}, 6, deal_rule::round_robin);
    if (l.num_pages != 24) return false;
    for (uint64_t p = 0; p < 24; ++p) {
        const auto at = l.locate(p);
        if (at.core != v7b_home(p).bank || at.device_offset != v7b_home(p).offset) return false;
        if (l.page_at(at.core, at.device_offset) != p) return false;
    }
    return true;
}

constexpr bool v8() {
    for (const v8_case& v : v8_cases) {
        const page_layout l = make_page_layout(v.tensor, v.shard, 4, deal_rule::round_robin);
        if (l.num_shards != v.num_shards || l.max_shards_per_core != v.max_per_core) return false;
        for (uint64_t c = 0; c < 4; ++c)
            if (l.shards_on_core(c) != v.per_core[c]) return false;
    }
    return true;
}

constexpr bool picture() {
    const page_layout l = make_page_layout({3, 7, 5}, {2, 2, 2}, 6, deal_rule::round_robin);
    if (l.num_shards != picture_shards || l.max_shards_per_core != picture_max_per_core) return false;
    for (uint64_t c = 0; c < 6; ++c)
        if (l.pages_on_core(c) != picture_pages_per_core[c]) return false;
    for (uint64_t o = 0; o < picture_core0_start.size(); ++o) {
        if (l.page_at(0, o) != picture_core0_start[o]) return false;
        const auto at = l.locate(picture_core0_start[o]);
        if (at.core != 0 || at.device_offset != o) return false;
    }
    return true;
}

static_assert(v1());
static_assert(v4());
static_assert(v7a());
static_assert(v7b());
static_assert(v8());
static_assert(picture());

// The picture's geometry as detail::build_shape derives it (place.hpp's worked example), and
// page_in_shard, the inverse of locate's digits, on a real page and on padding.
constexpr bool picture_geometry() {
    const page_layout l = make_page_layout({3, 7, 5}, {2, 2, 2}, 6, deal_rule::contiguous);
    const bool strides = l.grid == ndshard::shape{2, 4, 3} && l.tensor_stride == ndshard::shape{35, 5, 1} &&
                         l.shard_stride == ndshard::shape{4, 2, 1} && l.grid_stride == ndshard::shape{12, 3, 1};
    const bool totals = l.num_pages == 105 && l.num_shards == 24 && l.shard_volume == 8 && l.shards_per_block == 4 &&
                        l.max_shards_per_core == 4;
    const auto page = l.page_in_shard(ndshard::shape{0, 2, 0}, ndshard::shape{1, 0, 1});
    const auto pad_page = l.page_in_shard(ndshard::shape{1, 3, 2}, ndshard::shape{0, 1, 0});
    return strides && totals && page == 56U && !pad_page && l.page_at(1, 21) == 56U;
}
static_assert(picture_geometry());

// place.hpp's requirement on a geometry, as concepts: the host's view meets it; a deal alone
// (tt/interleaved.hpp's kind) meets only the deal's; a signed index meets neither.
struct deal_only {
    uint64_t deal_div(uint64_t s) const { return s / 4; }
    uint64_t num_cores_of() const { return 4; }
    uint64_t deal_block() const { return 1; }
    static constexpr bool contiguous_deal() { return false; }
};
static_assert(ndshard::detail::placement_geometry<ndshard::detail::layout_view, uint64_t>);
static_assert(ndshard::detail::deal_geometry<deal_only, uint64_t>);
static_assert(!ndshard::detail::placement_geometry<deal_only, uint64_t>);
static_assert(!ndshard::detail::deal_geometry<ndshard::detail::layout_view, std::int64_t>);

TEST(conformance, v1) { EXPECT_TRUE(v1()); }
TEST(conformance, picture_geometry) { EXPECT_TRUE(picture_geometry()); }
TEST(conformance, v4) { EXPECT_TRUE(v4()); }
TEST(conformance, v7a) { EXPECT_TRUE(v7a()); }
TEST(conformance, v7b) { EXPECT_TRUE(v7b()); }
TEST(conformance, v8) { EXPECT_TRUE(v8()); }
TEST(conformance, picture) { EXPECT_TRUE(picture()); }

// --- (a) fast path and (b) oracle on the same specs --------------------------------------

template <std::size_t Cores, std::size_t Slots>
std::vector<std::vector<uint64_t>> as_table(const slot_rows<Cores, Slots>& rows) {
    std::vector<std::vector<uint64_t>> out;
    for (const auto& row : rows) {
        auto& core = out.emplace_back();
        for (const std::int64_t v : row) core.push_back(v == pad ? ndshard::padding_slot : static_cast<uint64_t>(v));
    }
    return out;
}

ndshard::distribution_spec pages_spec(ndshard::shape tensor, ndshard::shape shard, ndshard::core_range cores,
                                      ndshard::orientation o = ndshard::orientation::row_major) {
    ndshard::distribution_spec s;
    s.tensor = tensor;
    s.shard = shard;
    s.cores = {cores};
    s.orient = o;
    return s;
}

template <std::size_t Cores, std::size_t Slots>
void expect_slots(const ndshard::distribution_spec& spec, const slot_rows<Cores, Slots>& rows) {
    SCOPED_TRACE(tk::describe(spec));
    const ndshard::distribution d = ndshard::make_distribution(spec);
    EXPECT_EQ(ndshard::slot_table(d), as_table(rows));
    const oracle::model m = tk::accepted_model(spec);
    EXPECT_EQ(tk::oracle_slot_table(m), as_table(rows));
}

// V1 cores: (0,0)-(3,3) ROW_MAJOR, x fastest.
std::vector<ndshard::core_coord> v1_cores() {
    std::vector<ndshard::core_coord> out;
    for (std::uint32_t y = 0; y < 4; ++y)
        for (std::uint32_t x = 0; x < 4; ++x) out.push_back({x, y});
    return out;
}

// V4 cores: (0,0),(0,1),...,(0,4),(1,0),...,(1,4).
std::vector<ndshard::core_coord> v4_cores() {
    std::vector<ndshard::core_coord> out;
    for (std::uint32_t x = 0; x < 2; ++x)
        for (std::uint32_t y = 0; y < 5; ++y) out.push_back({x, y});
    return out;
}

TEST(conformance, v1_pages_fast_path_and_oracle) {
    expect_slots(pages_spec({2, 2, 3}, {1, 1, 2}, {{0, 0}, {3, 3}}), v1_slots);
}

TEST(conformance, v1_elements_tile_32x32) {
    ndshard::distribution_spec s;
    s.tensor = {2, 64, 96};
    s.shard = {1, 32, 64};
    s.page.kind = ndshard::page_kind::tile;
    s.cores = {{{0, 0}, {3, 3}}};
    const ndshard::distribution d = ndshard::make_distribution(s);
    EXPECT_EQ(ndshard::to_string(d.tensor_pages), "[2,2,3]");
    EXPECT_EQ(ndshard::to_string(d.shard_pages), "[1,1,2]");
    EXPECT_EQ(d.num_shards(), 8U);
    EXPECT_EQ(d.cores, v1_cores());
    EXPECT_EQ(tk::core_coords(tk::accepted_model(s)), v1_cores());
    expect_slots(s, v1_slots);
}

TEST(conformance, v4_pages_fast_path_and_oracle) {
    expect_slots(pages_spec({3, 2, 2, 3, 1}, {1, 1, 2, 2, 1}, {{0, 0}, {1, 4}}, ndshard::orientation::col_major),
                 v4_slots);
}

TEST(conformance, v4_elements_row_major_pages) {
    ndshard::distribution_spec s;
    s.tensor = {3, 2, 2, 3, 4};
    s.shard = {1, 1, 2, 2, 4};
    s.page.kind = ndshard::page_kind::row_major;
    s.cores = {{{0, 0}, {1, 4}}};
    s.orient = ndshard::orientation::col_major;
    const ndshard::distribution d = ndshard::make_distribution(s);
    EXPECT_EQ(ndshard::to_string(d.tensor_pages), "[3,2,2,3,1]");
    EXPECT_EQ(ndshard::to_string(d.shard_pages), "[1,1,2,2,1]");
    EXPECT_EQ(d.cores, v4_cores());
    EXPECT_EQ(tk::core_coords(tk::accepted_model(s)), v4_cores());
    expect_slots(s, v4_slots);
}

// page -> (bank, offset) through the fast path's locate and the oracle's.
template <class Home>
void expect_homes(const ndshard::distribution_spec& spec, uint64_t pages, Home home) {
    SCOPED_TRACE(tk::describe(spec));
    const ndshard::distribution d = ndshard::make_distribution(spec);
    const oracle::model m = tk::accepted_model(spec);
    ASSERT_EQ(d.num_pages(), pages);
    ASSERT_EQ(tk::to_u64(m.num_pages), pages);
    for (uint64_t p = 0; p < pages; ++p) {
        const auto fast = d.layout.locate(p);
        EXPECT_EQ(fast.core, home(p).bank) << "page " << p;
        EXPECT_EQ(fast.device_offset, home(p).offset) << "page " << p;
        const oracle::location slow = oracle::locate(m, oracle::big(p));
        EXPECT_EQ(tk::to_u64(slow.core_index), home(p).bank) << "page " << p;
        EXPECT_EQ(tk::to_u64(slow.device_offset), home(p).offset) << "page " << p;
    }
}

TEST(conformance, v7_fast_path_and_oracle) {
    expect_homes(pages_spec({2, 3}, {1, 2}, ndshard::grid_range(4, 1)), v7a_homes.size(),
                 [](uint64_t p) { return v7a_homes[p]; });
    expect_homes(pages_spec({2, 1, 3, 4}, {2, 2, 1, 2}, ndshard::grid_range(6, 1)), 24, v7b_home);
}

TEST(conformance, v8_fast_path_and_oracle) {
    for (const v8_case& v : v8_cases) {
        const ndshard::distribution_spec spec = pages_spec(v.tensor, v.shard, ndshard::grid_range(2, 2));
        SCOPED_TRACE(tk::describe(spec));
        const ndshard::distribution d = ndshard::make_distribution(spec);
        const oracle::model m = tk::accepted_model(spec);
        EXPECT_EQ(d.num_shards(), v.num_shards);
        EXPECT_EQ(d.layout.max_shards_per_core, v.max_per_core);
        EXPECT_EQ(tk::to_u64(m.num_shards), v.num_shards);
        EXPECT_EQ(tk::to_u64(m.max_shards_per_core), v.max_per_core);
        for (uint64_t c = 0; c < 4; ++c) {
            EXPECT_EQ(d.layout.shards_on_core(c), v.per_core[c]) << "core " << c;
            EXPECT_EQ(tk::to_u64(oracle::shards_on_core(m, c)), v.per_core[c]) << "core " << c;
        }
        // The slot table holds each shard's pages: every core reserves max * vol(S) slots.
        const auto table = ndshard::slot_table(d);
        ASSERT_EQ(table.size(), 4U);
        for (const auto& core : table) EXPECT_EQ(core.size(), v.max_per_core * d.layout.shard_volume);
    }
}

TEST(conformance, picture_fast_path_and_oracle) {
    const ndshard::distribution_spec spec = pages_spec({3, 7, 5}, {2, 2, 2}, ndshard::grid_range(2, 3));
    const ndshard::distribution d = ndshard::make_distribution(spec);
    const oracle::model m = tk::accepted_model(spec);
    EXPECT_EQ(d.num_shards(), picture_shards);
    EXPECT_EQ(d.layout.max_shards_per_core, picture_max_per_core);
    EXPECT_EQ(tk::to_u64(m.num_shards), picture_shards);
    EXPECT_EQ(tk::to_u64(m.max_shards_per_core), picture_max_per_core);
    for (const auto& table : {ndshard::slot_table(d), tk::oracle_slot_table(m)}) {
        ASSERT_EQ(table.size(), 6U);
        for (uint64_t c = 0; c < 6; ++c) {
            uint64_t real = 0;
            for (const uint64_t page : table[c]) real += page == ndshard::padding_slot ? 0 : 1;
            EXPECT_EQ(real, picture_pages_per_core[c]) << "core " << c;
        }
        const std::vector<uint64_t> start(table[0].begin(), table[0].begin() + picture_core0_start.size());
        EXPECT_EQ(start, std::vector<uint64_t>(picture_core0_start.begin(), picture_core0_start.end()));
    }
    for (uint64_t c = 0; c < 6; ++c) {
        EXPECT_EQ(d.layout.pages_on_core(c), picture_pages_per_core[c]) << "core " << c;
        EXPECT_EQ(tk::to_u64(oracle::pages_on_core(m, c)), picture_pages_per_core[c]) << "core " << c;
    }
}

}  // namespace
