// props/tt_accessor_fixed.hpp - law 17 on fixed specs in all 15 compile-time mixes: the
// words of gen_tt_fixed_cases (props/gen_tt_fixed_cases.cpp) are this kernel's
// compile-time arguments, and every case instantiates its own TensorAccessorArgs<cta, crta>
// (one case per mix also TensorAccessorArgs<cta>(crta), the CRTA offset given at run time),
// then checks everything props/tt_accessor.cpp checks (props/tt_accessor_check.cpp), every
// page and shard of a small spec, samples of the one of 2^32 - 5 pages. The compile-time
// path is checked where a kernel has it: TensorAccessorArgs' constants (static_assert),
// the accessor built from them. The cases are split over props/tt_accessor_fixed.cpp,
// tt_accessor_fixed_b.cpp, _c.cpp and _d.cpp, which compile in parallel and are one
// executable (property.tt_accessor_fixed).
#pragma once

#include "tt_fixed_cases.hpp"  // generated; defines KERNEL_COMPILE_TIME_ARGS, so it comes first

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/specio/spec_text.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/tt/host_words.hpp"
#include "tt_accessor_probe.hpp"

namespace ndshard::props::tt_fixed {

inline constexpr std::size_t case_count = std::size(cases);

// "RBTSC" for the parts in the compile-time words (rank, banks, tensor, shard, coords), '-' for runtime ones.
std::string mix_name(std::uint32_t config);

// One case made ready: its distribution, the oracle's model, the banks the words carry and
// the platform's DRAM table, and what to check (every page and shard, or samples).
// (Not copied: `check` points at `model`.)
struct prepared {
    explicit prepared(std::size_t index);
    prepared(const prepared&) = delete;
    prepared& operator=(const prepared&) = delete;
    distribution dist;
    oracle::model model;
    tt::tt_case check;
    std::string label;
};

// Throws mismatch unless make_tt_words refuses the case's mix (contiguous_1d with a runtime bank count).
void expect_refused(std::size_t index);

// Installs the common runtime words and the DRAM table for a prepared case.
void install(const prepared& p);

// The words made again at run time equal the compiled ones, and TensorAccessorArgs says of
// them what the case's mix says.
template <std::size_t I>
void expect_words_and_constants(const prepared& p) {
    constexpr fixed_case f = cases[I];
    using args = TensorAccessorArgs<f.cta, f.crta>;
    static_assert(args::is_sharded && args::is_dram == f.dram);
    static_assert(args::rank_is_crta == ((f.config & ::ndshard::tt::flag::runtime_rank) != 0));
    static_assert(args::num_banks_is_crta == ((f.config & ::ndshard::tt::flag::runtime_num_banks) != 0));
    static_assert(args::tensor_shape_is_crta == ((f.config & ::ndshard::tt::flag::runtime_tensor_shape) != 0));
    static_assert(args::shard_shape_is_crta == ((f.config & ::ndshard::tt::flag::runtime_shard_shape) != 0));
    static_assert(args::bank_coords_is_crta == ((f.config & ::ndshard::tt::flag::runtime_bank_coords) != 0));
    static_assert(args::NumArgsCT == f.cta_count && args::next_compile_time_args_offset() == f.cta + f.cta_count);
    static_assert(args::AlignedPageSize == kernel_compile_time_args[f.cta + 1]);
    const std::vector<core_coord>& banks = p.check.banks.word_coords;
    const ::ndshard::tt::tt_words w = ::ndshard::tt::make_tt_words(
        p.dist.layout, banks, f.config, static_cast<std::uint32_t>(p.dist.aligned_page_size));
    const std::vector<std::uint32_t> ct(kernel_compile_time_args.begin() + f.cta,
                                        kernel_compile_time_args.begin() + f.cta + f.cta_count);
    const std::vector<std::uint32_t> rt(common_runtime_words + f.crta, common_runtime_words + f.crta + f.crta_count);
    EXPECT_EQ(w.compile_time, ct);
    EXPECT_EQ(w.common_runtime, rt);
    EXPECT_EQ(args().num_common_runtime_args(), f.crta_count);
    EXPECT_EQ(args().next_common_runtime_args_offset(), f.crta + f.crta_count);
    if constexpr (!args::rank_is_crta) {
        EXPECT_EQ(args::RankCT, p.dist.layout.rank());
    }
    if constexpr (!args::num_banks_is_crta) {
        EXPECT_EQ(args::NumBanksCT, banks.size());
    }
    EXPECT_EQ(args::is_shard_contiguous, p.dist.layout.rule == deal_rule::contiguous);
}

// Case I: its words, then TensorAccessor(TensorAccessorArgs<cta, crta>(), base) and
// TensorAccessor(TensorAccessorArgs<cta>(crta), base), both with the page size of the words.
template <std::size_t I>
void check_case() {
    constexpr fixed_case f = cases[I];
    if constexpr (f.refused) {
        SCOPED_TRACE("case " + std::to_string(I));
        try {
            expect_refused(I);
        } catch (const tt::mismatch& err) {
            ADD_FAILURE() << err.what();
        }
    } else {
        const prepared p(I);
        SCOPED_TRACE(p.label);
        install(p);
        expect_words_and_constants<I>(p);
        const auto base = static_cast<std::uint32_t>(p.dist.bank_base);
        tt::tt_case c = p.check;
        try {
            c.label = p.label + ", TensorAccessorArgs<" + std::to_string(f.cta) + ", " + std::to_string(f.crta) + ">";
            tt::check_sharded_accessor(TensorAccessorArgs<f.cta, f.crta>(), base, c);
            // Every accessor type costs seconds of compile time (a runtime rank compiles each
            // query for 24 views): the runtime CRTA offset form once per mix (the generator
            // marks which case).
            if constexpr (f.runtime_offset_form) {
                c.label =
                    p.label + ", TensorAccessorArgs<" + std::to_string(f.cta) + ">(" + std::to_string(f.crta) + ")";
                tt::check_sharded_accessor(TensorAccessorArgs<f.cta>(static_cast<std::uint32_t>(f.crta)), base, c);
            }
        } catch (const tt::mismatch& err) {
            ADD_FAILURE() << err.what();
        }
    }
}

template <std::size_t First, std::size_t... I>
void check_cases(std::index_sequence<I...>) {
    (check_case<First + I>(), ...);
}

// Where part `Part` of `Parts` starts: the first part (whose file also builds the tuple's two
// accessors) takes 3/16 of the cases, the others share the rest, which evens their compile times.
constexpr std::size_t part_start(std::size_t part, std::size_t parts) {
    const std::size_t first_part = case_count * 3 / 16;
    return part == 0 ? 0 : first_part + (case_count - first_part) * (part - 1) / (parts - 1);
}

// Part `Part` of `Parts` of the cases (each source file checks one); prints what it checked.
template <std::size_t Part, std::size_t Parts>
void check_part() {
    constexpr std::size_t first = part_start(Part, Parts), last = part_start(Part + 1, Parts);
    const tt::checked_counts before = tt::checked();
    check_cases<first>(std::make_index_sequence<last - first>{});
    const tt::checked_counts& after = tt::checked();
    std::size_t refused = 0;
    for (std::size_t i = first; i < last; ++i) refused += cases[i].refused ? 1 : 0;
    std::cout << "[ checked  ] cases " << first << ".." << last - 1 << ": " << after.accessors - before.accessors
              << " accessors, " << after.pages - before.pages << " pages and " << after.shards - before.shards
              << " shards asked; " << refused << " mixes refused as they must be\n";
}

}  // namespace ndshard::props::tt_fixed
