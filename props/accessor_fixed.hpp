// props/accessor_fixed.hpp - law 5 on fixed layouts: eleven constexpr layouts (the
// SEMANTICS vectors, rank 8 uneven, rank 1 at the 32-bit limit, more cores than shards,
// contiguous, grid_2d, folded, no pages), each through accessor<static words> for a
// compile-time mask, every page and shard against the cpp_int oracle. The masks are split
// over props/accessor_fixed.cpp and props/accessor_fixed_b.cpp so they compile in
// parallel; both are part of property.accessor.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "accessor_check.hpp"
#include "ndshard/testkit/static_masks.hpp"

namespace ndshard::props {

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
    static constexpr page_layout layout =
        make_page_layout(shape{4, 6}, shape{2, 6}, cores.size(), deal_rule::round_robin);
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
    static constexpr page_layout layout =
        make_page_layout(shape{6, 4}, shape{4, 3}, cores.size(), deal_rule::round_robin);
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
inline constexpr auto fixed_words = static_words<static_word_count(Case::layout, Case::cores, Mask)>(Case::layout,
                                                                                                     Case::cores, Mask);

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

    const oracle::model m = accepted_model(Case::spec());
    std::vector<std::uint64_t> pages(to_u64(m.num_pages)), shards(to_u64(m.num_shards));
    for (std::uint64_t i = 0; i < pages.size(); ++i) pages[i] = i;
    for (std::uint64_t i = 0; i < shards.size(); ++i) shards[i] = i;
    check_plan plan = plan_for(m, pages, shards);
    plan.other_cores.clear();
    for (const auto& c : m.cores) plan.other_cores.push_back(to_core_coord(c));
    plan.other_cores.push_back({0xFFFF, 0xFFFF});
    try {
        check_static<ct>(w.runtime, static_cast<std::uint32_t>(d.bank_base),
                         static_cast<std::uint32_t>(d.aligned_page_size), plan, Case::name);
    } catch (const std::exception& err) {
        FAIL() << err.what();
    }
}

// Every accessor type compiles every query; a runtime rank compiles each for 24 (rank,
// quotient) views, a compile-time rank for 3, a compile-time geometry for 1. So the layouts
// are chosen per mask:
//  - three (rank 8 on 5 scattered banks, rank 1 ending at 2^32 on 3, more cores than
//    shards on 9) for a runtime rank with compile-time banks (B, BC);
//  - those and two more (V7 on 6 banks, a contiguous deal) for the other partial masks;
//  - all eleven for the runtime words, a compile-time rank only (R), a compile-time
//    geometry (RBTS) and everything at compile time (RBTSC).
template <std::uint32_t Mask>
void check_fixed_layouts() {
    static_assert(valid_mask(Mask));
    constexpr bool runtime_rank = (Mask & arg::rank) == 0;
    constexpr bool every_layout = Mask == arg::all_runtime || Mask == arg::rank ||
                                  Mask == (arg::rank | arg::num_banks | arg::tensor_shape | arg::shard_shape) ||
                                  Mask == arg::all_static;
    check_fixed_case<rank8_case, Mask>();
    check_fixed_case<rank1_limit_case, Mask>();
    check_fixed_case<more_cores_case, Mask>();
    if constexpr (every_layout || !runtime_rank) {
        check_fixed_case<v7_case, Mask>();
        check_fixed_case<contiguous_case, Mask>();
    }
    if constexpr (every_layout) {
        check_fixed_case<v1_case, Mask>();
        check_fixed_case<v4_case, Mask>();
        check_fixed_case<picture_case, Mask>();
        check_fixed_case<grid_2d_case, Mask>();
        check_fixed_case<folded_case, Mask>();
        check_fixed_case<empty_case, Mask>();
    }
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
