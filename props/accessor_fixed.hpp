// props/accessor_fixed.hpp - law 5 on fixed layouts: a table of eleven constexpr layouts
// (the docs/semantics.md vectors, rank 8 uneven, rank 1 at the 32-bit limit, more cores than
// shards, contiguous, grid_2d, folded, no pages), each through accessor<static words> for
// a compile-time mask, every page, shard and bank against the checked-integer oracle
// (testkit/accessor_check.hpp). The masks are split
// over props/accessor_fixed.cpp and props/accessor_fixed_b.cpp so they compile in
// parallel; both are part of property.accessor.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/testkit/accessor_check.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/static_masks.hpp"

namespace ndshard::props {

// ---------------------------------------------------------------------------------
// Fixed constexpr layouts x all 15 masks.

constexpr bool valid_mask(std::uint32_t m) {  // written from args.hpp's comment, not its code
    const bool shapes = (m & (arg::tensor_shape | arg::shard_shape)) != 0;
    return m <= arg::all_static && (!shapes || (m & arg::rank)) && (!(m & arg::bank_coords) || (m & arg::num_banks));
}

// A list of at most N items in a constant: a fixed layout's core ranges or core list.
template <class T, std::size_t N>
struct fixed_list {
    std::array<T, N> items{};
    std::size_t count = 0;

    constexpr fixed_list() = default;
    constexpr fixed_list(std::initializer_list<T> list) {
        for (const T& x : list) push_back(x);
    }
    constexpr void push_back(const T& x) {
        if (count == N) throw std::logic_error("fixed_list: more items than its capacity");
        items[count++] = x;
    }
    [[nodiscard]] constexpr std::size_t size() const noexcept { return count; }
    constexpr const T* begin() const noexcept { return items.data(); }
    constexpr const T* end() const noexcept { return items.data() + count; }
};
using fixed_cores = fixed_list<core_coord, 16>;  // V1 deals over 16 cores
using fixed_ranges = fixed_list<core_range, 5>;  // rank 8 lists 5 single cores

// The cores of one range in orientation order, walked here rather than taken from
// spec.hpp's append_range (the list it is compared with is built by that):
// (0,0)-(1,2) col_major -> (0,0),(0,1),(0,2),(1,0),(1,1),(1,2).
constexpr fixed_cores walk(core_range r, orientation o) {
    fixed_cores out;
    const std::uint32_t w = r.end.x - r.start.x + 1, h = r.end.y - r.start.y + 1;
    for (std::uint32_t a = 0; a < (o == orientation::row_major ? h : w); ++a)
        for (std::uint32_t b = 0; b < (o == orientation::row_major ? w : h); ++b)
            out.push_back(o == orientation::row_major ? core_coord{r.start.x + b, r.start.y + a}
                                                      : core_coord{r.start.x + a, r.start.y + b});
    return out;
}

// Each listed core as a range of its own, in list order.
constexpr fixed_ranges one_range_each(const fixed_cores& cores) {
    fixed_ranges out;
    for (core_coord c : cores) out.push_back({c, c});
    return out;
}

// Every accessor type compiles every query; a runtime rank compiles each for 24 (rank,
// quotient) views, a compile-time rank for 3, a compile-time geometry for 1. So each layout
// says which masks check it.
enum class checked_under : std::uint8_t {
    every_mask,         // also a runtime rank with compile-time banks (B, BC)
    compile_time_rank,  // every mask with a compile-time rank, and the full masks below
    full_masks,         // the runtime words, a compile-time rank only (R), a compile-time
                        // geometry (RBTS) and everything at compile time (RBTSC)
};

constexpr bool checks(checked_under which, std::uint32_t mask) {
    const bool full = mask == arg::all_runtime || mask == arg::rank ||
                      mask == (arg::rank | arg::num_banks | arg::tensor_shape | arg::shard_shape) ||
                      mask == arg::all_static;
    switch (which) {
        case checked_under::every_mask:
            return true;
        case checked_under::compile_time_rank:
            return full || (mask & arg::rank) != 0;
        case checked_under::full_masks:
            return full;
    }
    return false;
}

// One fixed layout. The spec is what a user writes; the folded page grid, the deal and
// the effective core list are what a kernel would be compiled with, written out by hand
// (not derived from the spec) so that check_fixed_case can confirm they describe it.
struct fixed_layout {
    const char* name;
    checked_under checked = checked_under::full_masks;
    // The spec (tile pages are 32x32).
    shape tensor, shard;
    page_kind page = page_kind::pages;
    std::uint64_t element_size = 1, alignment = 1;
    fixed_ranges ranges;
    orientation orient = orientation::row_major;
    strategy strat = strategy::round_robin_1d;
    std::uint64_t bank_base = 0;
    // The constants.
    shape tensor_pages, shard_pages;
    fixed_cores cores;
    deal_rule rule = deal_rule::round_robin;
    bool one_shard_per_core = false;  // grid_2d

    [[nodiscard]] distribution_spec spec() const {
        distribution_spec s;
        s.tensor = tensor;
        s.shard = shard;
        s.page = {page};
        s.element_size = element_size;
        s.alignment = alignment;
        s.cores.assign(ranges.begin(), ranges.end());
        s.orient = orient;
        s.strat = strat;
        s.bank_base = bank_base;
        return s;
    }
    [[nodiscard]] constexpr page_layout layout() const {
        return make_page_layout(tensor_pages, shard_pages, cores.size(), rule, one_shard_per_core);
    }
};

// Rank 8 on cores in no particular order.
constexpr fixed_cores scattered_cores{{7, 3}, {0, 0}, {2, 9}, {4, 4}, {1, 6}};

// The docs/semantics.md vectors, rank 8 uneven, rank 1 at the 32-bit limit, more cores than
// shards, contiguous, grid_2d, folded, no pages.
inline constexpr fixed_layout fixed_layouts[] = {
    {.name = "rank 8 uneven on 5 scattered cores",  // uneven in most dims
     .checked = checked_under::every_mask,
     .tensor = {3, 2, 5, 1, 2, 3, 2, 3},
     .shard = {2, 1, 3, 1, 2, 2, 1, 2},
     .element_size = 32,
     .ranges = one_range_each(scattered_cores),
     .bank_base = 1U << 20,
     .tensor_pages = {3, 2, 5, 1, 2, 3, 2, 3},
     .shard_pages = {2, 1, 3, 1, 2, 2, 1, 2},
     .cores = scattered_cores},
    {.name = "rank 1 [37]/[5], 3 cores, ends at 2^32",
     .checked = checked_under::every_mask,
     .tensor = {37},
     .shard = {5},
     .element_size = 100,
     .alignment = 64,  // 128-byte pages; 3 slots x 5 pages reserved = 1920 bytes
     .ranges = {{{0, 0}, {0, 2}}},
     .bank_base = two_pow_32 - 1920,
     .tensor_pages = {37},
     .shard_pages = {5},
     .cores = walk({{0, 0}, {0, 2}}, orientation::row_major)},
    {.name = "[4,6]/[2,6]: 2 shards on 9 cores",
     .checked = checked_under::every_mask,
     .tensor = {4, 6},
     .shard = {2, 6},
     .element_size = 8,
     .ranges = {grid_range(3, 3)},
     .tensor_pages = {4, 6},
     .shard_pages = {2, 6},
     .cores = walk({{0, 0}, {2, 2}}, orientation::row_major)},
    {.name = "V7 [2,1,3,4]/[2,2,1,2] 6 banks",  // docs/semantics.md V7, second spec
     .checked = checked_under::compile_time_rank,
     .tensor = {2, 1, 3, 4},
     .shard = {2, 2, 1, 2},
     .element_size = 64,
     .ranges = {{{0, 0}, {5, 0}}},
     .tensor_pages = {2, 1, 3, 4},
     .shard_pages = {2, 2, 1, 2},
     .cores = walk({{0, 0}, {5, 0}}, orientation::row_major)},
    {.name = "[3,7,5]/[2,2,2] contiguous on (1,1)-(3,2) col_major",
     .checked = checked_under::compile_time_rank,
     .tensor = {3, 7, 5},
     .shard = {2, 2, 2},
     .element_size = 100,
     .alignment = 16,
     .ranges = {{{1, 1}, {3, 2}}},
     .orient = orientation::col_major,
     .strat = strategy::contiguous_1d,
     .tensor_pages = {3, 7, 5},
     .shard_pages = {2, 2, 2},
     .cores = walk({{1, 1}, {3, 2}}, orientation::col_major),
     .rule = deal_rule::contiguous},
    {.name = "V1 [2,64,96]/[1,32,64] tile",  // docs/semantics.md V1
     .tensor = {2, 64, 96},
     .shard = {1, 32, 64},
     .page = page_kind::tile,
     .element_size = 2,
     .ranges = {{{0, 0}, {3, 3}}},
     .bank_base = 0x10000,
     .tensor_pages = {2, 2, 3},
     .shard_pages = {1, 1, 2},
     .cores = walk({{0, 0}, {3, 3}}, orientation::row_major)},
    {.name = "V4 [3,2,2,3,4]/[1,1,2,2,4] row_major",  // docs/semantics.md V4: row-major pages, col_major range
     .tensor = {3, 2, 2, 3, 4},
     .shard = {1, 1, 2, 2, 4},
     .page = page_kind::row_major,
     .element_size = 3,
     .alignment = 32,
     .ranges = {{{0, 0}, {1, 4}}},
     .orient = orientation::col_major,
     .tensor_pages = {3, 2, 2, 3, 1},
     .shard_pages = {1, 1, 2, 2, 1},
     .cores = walk({{0, 0}, {1, 4}}, orientation::col_major)},
    {.name = "[3,7,5]/[2,2,2] 6 cores",  // the proposal's picture
     .tensor = {3, 7, 5},
     .shard = {2, 2, 2},
     .element_size = 1024,
     .ranges = {grid_range(2, 3)},
     .bank_base = 4096,
     .tensor_pages = {3, 7, 5},
     .shard_pages = {2, 2, 2},
     .cores = walk({{0, 0}, {1, 2}}, orientation::row_major)},
    {.name = "grid_2d [4,6]/[2,2] col_major",  // legacy block sharding: Gh = 2, Gw = 3 over (0,0)-(3,3)
     .tensor = {4, 6},
     .shard = {2, 2},
     .element_size = 2048,
     .ranges = {grid_range(4, 4)},
     .orient = orientation::col_major,
     .strat = strategy::grid_2d,
     .tensor_pages = {4, 6},
     .shard_pages = {2, 2},
     .cores = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}},
     .one_shard_per_core = true},
    {.name = "folded [2,3,4]/[4,3]",  // shard rank 2 < tensor rank 3: [2,3,4] folds to [6,4]
     .tensor = {2, 3, 4},
     .shard = {4, 3},
     .element_size = 16,
     .ranges = {{{2, 0}, {3, 1}}},
     .tensor_pages = {6, 4},
     .shard_pages = {4, 3},
     .cores = walk({{2, 0}, {3, 1}}, orientation::row_major)},
    {.name = "[3,0,4]/[2,2,2]: no pages",  // a zero dim: no pages, no shards
     .tensor = {3, 0, 4},
     .shard = {2, 2, 2},
     .ranges = {grid_range(2, 1)},
     .tensor_pages = {3, 0, 4},
     .shard_pages = {2, 2, 2},
     .cores = walk({{0, 0}, {1, 0}}, orientation::row_major)},
};

template <std::size_t I, std::uint32_t Mask>
inline constexpr auto fixed_words =
    static_words<static_word_count(fixed_layouts[I].layout(), fixed_layouts[I].cores, Mask)>(fixed_layouts[I].layout(),
                                                                                             fixed_layouts[I].cores,
                                                                                             Mask);

// Every page and shard of fixed layout I through accessor<static words>.
template <std::size_t I, std::uint32_t Mask>
void check_fixed_case() {
    constexpr const fixed_layout& f = fixed_layouts[I];
    constexpr page_layout layout = f.layout();
    SCOPED_TRACE(std::string(f.name) + ", static mask " + std::to_string(Mask));
    const distribution d = make_distribution(f.spec());
    // The constants describe this spec (else the check below would prove nothing).
    ASSERT_TRUE(d.layout.tensor == layout.tensor && d.layout.shard == layout.shard);
    ASSERT_EQ(d.layout.num_cores, layout.num_cores);
    ASSERT_EQ(d.layout.max_shards_per_core, layout.max_shards_per_core);
    ASSERT_TRUE(d.layout.rule == layout.rule);
    ASSERT_TRUE(std::equal(d.cores.begin(), d.cores.end(), f.cores.begin(), f.cores.end()));

    constexpr auto& ct = fixed_words<I, Mask>;
    const accessor_words w = make_accessor_words(d, Mask);
    ASSERT_EQ(w.compile_time, std::vector<std::uint32_t>(ct.begin(), ct.end()));

    const oracle::model m = testkit::accepted_model(f.spec());
    std::vector<std::uint64_t> pages(testkit::to_u64(m.num_pages)), shards(testkit::to_u64(m.num_shards));
    for (std::uint64_t i = 0; i < pages.size(); ++i) pages[i] = i;
    for (std::uint64_t i = 0; i < shards.size(); ++i) shards[i] = i;
    std::vector<std::uint32_t> banks(m.cores.size());
    for (std::uint32_t b = 0; b < banks.size(); ++b) banks[b] = b;
    // Every page, shard and bank, every list of pages, and pages(); locality on every core.
    testkit::accessor_expectation x = testkit::expect_from_oracle(m, pages, shards, banks, ~0ULL, ~0ULL);
    x.other_cores.clear();
    for (const auto& c : m.cores) x.other_cores.push_back(testkit::to_core_coord(c));
    x.other_cores.push_back({0xFFFF, 0xFFFF});
    try {
        const accessor<ct> a(w.runtime, static_cast<std::uint32_t>(d.bank_base),
                             static_cast<std::uint32_t>(d.aligned_page_size));
        testkit::check_accessor(a, x, testkit::throw_mismatch(f.name));
    } catch (const std::exception& err) {
        FAIL() << err.what();
    }
}

template <std::size_t I, std::uint32_t Mask>
void check_fixed_case_if_checked() {
    if constexpr (checks(fixed_layouts[I].checked, Mask)) check_fixed_case<I, Mask>();
}

template <std::uint32_t Mask, std::size_t... I>
void check_fixed_layouts(std::index_sequence<I...>) {
    (check_fixed_case_if_checked<I, Mask>(), ...);
}

// The fixed layouts that `Mask` checks (checked_under), in table order.
template <std::uint32_t Mask>
void check_fixed_layouts() {
    static_assert(valid_mask(Mask));
    check_fixed_layouts<Mask>(std::make_index_sequence<std::size(fixed_layouts)>{});
}

// The two halves of the 15 valid masks (testkit::valid_masks), one per source file.
using fixed_masks_a = ::testing::Types<testkit::mask_t<0>, testkit::mask_t<1>, testkit::mask_t<2>, testkit::mask_t<3>,
                                       testkit::mask_t<5>, testkit::mask_t<7>, testkit::mask_t<9>>;
using fixed_masks_b =
    ::testing::Types<testkit::mask_t<11>, testkit::mask_t<13>, testkit::mask_t<15>, testkit::mask_t<18>,
                     testkit::mask_t<19>, testkit::mask_t<23>, testkit::mask_t<27>, testkit::mask_t<31>>;
template <class... M>
std::vector<std::uint32_t> mask_values(::testing::Types<M...>) {
    return {M::value...};
}

}  // namespace ndshard::props
