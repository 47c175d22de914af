// api/tensor/tensor_accessor_args.h - tt-metal's TensorAccessorArgs: where a buffer's
// accessor arguments are among the kernel's compile-time (CTA) and common runtime (CRTA)
// arguments. The layout is ndshard::tt::read_cta's (ndshard/tt/words.hpp); this class only
// names its fields as tt-metal does. Freestanding, C++17.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

#include "api/compile_time_args.h"
#include "hostdevcommon/tensor_accessor/arg_config.hpp"
#include "ndshard/tt/words.hpp"

// The platform's (dataflow_api.h on tt-metal; ndshard's simulator or a device harness here).
template <typename T>
T get_common_arg_val(int arg_idx);

namespace tensor_accessor {
inline constexpr std::size_t UNKNOWN = static_cast<std::size_t>(-1);
inline constexpr std::uint32_t MAX_RANK = 8;
}  // namespace tensor_accessor

template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET = tensor_accessor::UNKNOWN>
struct TensorAccessorArgs {
    // Everything the compile-time words say, read once.
    static constexpr ::ndshard::tt::cta_layout layout =
        ::ndshard::tt::read_cta(kernel_compile_time_args, kernel_compile_time_args.size(), CTA_OFFSET);
    static_assert(layout.error != ::ndshard::tt::cta_error::past_end,
                  "TensorAccessorArgs: CTA_OFFSET is past the kernel's compile-time arguments");
    static_assert(layout.error != ::ndshard::tt::cta_error::config_bits,
                  "TensorAccessorArgs: the config word has bits above bit 7 (is CTA_OFFSET right?)");
    static_assert(layout.error != ::ndshard::tt::cta_error::mix,
                  "TensorAccessorArgs: a runtime rank needs runtime tensor and shard shapes, and a runtime bank "
                  "count needs runtime bank coordinates");
    static_assert(layout.error != ::ndshard::tt::cta_error::short_list,
                  "TensorAccessorArgs: the compile-time arguments end before a part the config word announces");
    static_assert(layout.error != ::ndshard::tt::cta_error::rank, "TensorAccessorArgs: rank must be in 1..8");
    static_assert(layout.error != ::ndshard::tt::cta_error::banks,
                  "TensorAccessorArgs: the number of banks must be in 1..65536");

    static constexpr auto args_config =
        tensor_accessor::ArgsConfig(static_cast<tensor_accessor::ArgsConfig::Underlying>(layout.config));
    static constexpr bool is_sharded = layout.sharded;
    static constexpr bool is_dram = layout.dram;
    static constexpr bool rank_is_crta = layout.rank_rt;
    static constexpr bool num_banks_is_crta = layout.banks_rt;
    static constexpr bool tensor_shape_is_crta = layout.tensor_rt;
    static constexpr bool shard_shape_is_crta = layout.shard_rt;
    static constexpr bool bank_coords_is_crta = layout.coords_rt;
    static constexpr bool is_shard_contiguous = layout.contiguous;

#if NDSHARD_TT_ARGS_LAYOUT == 2
    static constexpr std::uint32_t AlignedPageSizeCTAOffset = CTA_OFFSET + 1;
    static constexpr std::uint32_t AlignedPageSize = layout.aligned_page_size;
#else
    static constexpr std::uint32_t AlignedPageSize = 0;  // layout 1: the kernel passes the page size
#endif
    static constexpr std::uint32_t RankCTAOffset = static_cast<std::uint32_t>(layout.rank_at);
    static constexpr std::uint32_t NumBanksCTAOffset = static_cast<std::uint32_t>(layout.banks_at);
    static constexpr std::uint32_t TensorShapeCTAOffset = static_cast<std::uint32_t>(layout.tensor_at);
    static constexpr std::uint32_t ShardShapeCTAOffset = static_cast<std::uint32_t>(layout.shard_at);
    static constexpr std::uint32_t BankCoordsCTAOffset = static_cast<std::uint32_t>(layout.coords_at);
    static constexpr std::uint32_t RankCT = layout.rank;
    static constexpr std::uint32_t NumBanksCT = layout.num_banks;
    static constexpr std::uint32_t PhysicalNumBanksCT = ::ndshard::tt::coord_words(layout.num_banks);
    static constexpr std::uint32_t NumArgsCT = static_cast<std::uint32_t>(layout.count(CTA_OFFSET));

    // The same arguments as ndshard's compile-time words: the accessor's template argument.
    static constexpr auto ndshard_words =
        ::ndshard::tt::to_ndshard_words<::ndshard::tt::ndshard_word_count(layout)>(layout, kernel_compile_time_args);

    constexpr TensorAccessorArgs() noexcept = default;
    constexpr explicit TensorAccessorArgs(std::uint32_t crta_offset) noexcept : crta_offset_rt_(crta_offset) {
        static_assert(CRTA_OFFSET == tensor_accessor::UNKNOWN,
                      "TensorAccessorArgs: pass the CRTA offset either as a template argument or at run time");
    }

    [[nodiscard]] constexpr std::uint32_t crta_offset() const noexcept {
        if constexpr (CRTA_OFFSET != tensor_accessor::UNKNOWN) return static_cast<std::uint32_t>(CRTA_OFFSET);
        else return crta_offset_rt_;
    }
    [[nodiscard]] static constexpr std::uint32_t get_aligned_page_size() noexcept { return AlignedPageSize; }

    [[nodiscard]] constexpr std::uint32_t rank_crta_offset() const noexcept { return crta_offset(); }
    [[nodiscard]] constexpr std::uint32_t num_banks_crta_offset() const noexcept {
        return crta_offset() + (rank_is_crta ? 1U : 0U);
    }
    [[nodiscard]] constexpr std::uint32_t get_rank() const {
        if constexpr (rank_is_crta) return get_common_arg_val<std::uint32_t>(static_cast<int>(rank_crta_offset()));
        else return RankCT;
    }
    [[nodiscard]] constexpr std::uint32_t get_num_banks() const {
        if constexpr (num_banks_is_crta)
            return tensor_accessor::unpack_num_banks(
                get_common_arg_val<std::uint32_t>(static_cast<int>(num_banks_crta_offset())));
        else return NumBanksCT;
    }
    [[nodiscard]] constexpr std::uint32_t get_physical_num_banks() const {
        return ::ndshard::tt::coord_words(get_num_banks());
    }
    [[nodiscard]] constexpr std::uint32_t tensor_shape_crta_offset() const {
        return num_banks_crta_offset() + (num_banks_is_crta ? 1U : 0U);
    }
    [[nodiscard]] constexpr std::uint32_t shard_shape_crta_offset() const {
        return tensor_shape_crta_offset() + (tensor_shape_is_crta ? get_rank() : 0U);
    }
    [[nodiscard]] constexpr std::uint32_t bank_coords_crta_offset() const {
        return shard_shape_crta_offset() + (shard_shape_is_crta ? get_rank() : 0U);
    }

    [[nodiscard]] static constexpr std::uint32_t num_compile_time_args() noexcept { return NumArgsCT; }
    [[nodiscard]] static constexpr std::uint32_t next_compile_time_args_offset() noexcept {
        return static_cast<std::uint32_t>(CTA_OFFSET) + NumArgsCT;
    }
    // The common runtime words; a constant expression when rank and bank count are compile-time.
    [[nodiscard]] constexpr std::uint32_t num_common_runtime_args() const {
        if constexpr (!is_sharded) return 0;
        else if constexpr (!rank_is_crta && !num_banks_is_crta) return layout.runtime_count(RankCT, NumBanksCT);
        else return layout.runtime_count(get_rank(), get_num_banks());
    }
    [[nodiscard]] constexpr std::uint32_t next_common_runtime_args_offset() const {
        return crta_offset() + num_common_runtime_args();
    }
    // tt-metal's older names for the two counts.
    [[nodiscard]] static constexpr std::uint32_t compile_time_args_skip() noexcept { return num_compile_time_args(); }
    [[nodiscard]] constexpr std::uint32_t runtime_args_skip() const { return num_common_runtime_args(); }

private:
    std::uint32_t crta_offset_rt_ = 0;
};

namespace tensor_accessor::detail {
// The CTA offset of the I-th of a run of TensorAccessorArgs that start at CTA_OFFSET.
template <std::uint32_t I, std::uint32_t CTA_OFFSET>
constexpr std::uint32_t nth_args_offset() noexcept {
    if constexpr (I == 0) return CTA_OFFSET;
    else return TensorAccessorArgs<nth_args_offset<I - 1, CTA_OFFSET>()>::next_compile_time_args_offset();
}
template <std::uint32_t CTA_OFFSET, std::uint32_t... I>
constexpr auto make_args_tuple(std::integer_sequence<std::uint32_t, I...>) noexcept {
    return std::make_tuple(TensorAccessorArgs<nth_args_offset<I, CTA_OFFSET>()>()...);
}
}  // namespace tensor_accessor::detail

// NUM_TENSORS TensorAccessorArgs, one after the other in the compile-time arguments from
// CTA_OFFSET on (their runtime words at offset 0: give each its own with the crta form).
template <std::uint32_t NUM_TENSORS, std::uint32_t CTA_OFFSET>
constexpr auto make_tensor_accessor_args_tuple() noexcept {
    return tensor_accessor::detail::make_args_tuple<CTA_OFFSET>(
        std::make_integer_sequence<std::uint32_t, NUM_TENSORS>());
}

// tt-metal's older names for TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>() and
// TensorAccessorArgs<CTA_OFFSET>(crta_offset).
template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET = tensor_accessor::UNKNOWN>
constexpr auto make_tensor_accessor_args() noexcept {
    return TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>();
}
template <std::size_t CTA_OFFSET>
constexpr auto make_tensor_accessor_args(std::uint32_t crta_offset) noexcept {
    return TensorAccessorArgs<CTA_OFFSET>(crta_offset);
}
