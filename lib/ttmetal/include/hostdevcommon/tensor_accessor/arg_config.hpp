// hostdevcommon/tensor_accessor/arg_config.hpp - tt-metal's ArgConfig flags, at tt-metal's
// path, over ndshard::tt's bit values (ndshard/tt/words.hpp). Freestanding, C++17.
#pragma once

#include <cstdint>

#include "ndshard/tt/words.hpp"

namespace tensor_accessor {

namespace flag_bits = ::ndshard::tt::flag;

enum class ArgConfig : std::uint8_t {
    None = 0,
    Sharded = flag_bits::sharded,
    IsDram = flag_bits::is_dram,
    RuntimeRank = flag_bits::runtime_rank,
    RuntimeNumBanks = flag_bits::runtime_num_banks,
    RuntimeTensorShape = flag_bits::runtime_tensor_shape,
    RuntimeShardShape = flag_bits::runtime_shard_shape,
    RuntimeBankCoords = flag_bits::runtime_bank_coords,
    Bound = flag_bits::bound,
    Runtime = flag_bits::runtime_all,
};

// A set of ArgConfig flags.
class ArgsConfig {
public:
    using Underlying = std::uint8_t;
    constexpr ArgsConfig() noexcept = default;
    constexpr ArgsConfig(ArgConfig f) noexcept : bits_(static_cast<Underlying>(f)) {}  // NOLINT: implicit
    constexpr explicit ArgsConfig(Underlying raw) noexcept : bits_(raw) {}
    [[nodiscard]] constexpr bool test(ArgConfig f) const noexcept {
        return (bits_ & static_cast<Underlying>(f)) == static_cast<Underlying>(f);
    }
    [[nodiscard]] constexpr Underlying raw() const noexcept { return bits_; }
    constexpr ArgsConfig& set(ArgConfig f, bool on = true) noexcept {
        bits_ = on ? static_cast<Underlying>(bits_ | static_cast<Underlying>(f))
                   : static_cast<Underlying>(bits_ & ~static_cast<Underlying>(f));
        return *this;
    }
    constexpr ArgsConfig operator|(ArgsConfig o) const noexcept {
        return ArgsConfig(static_cast<Underlying>(bits_ | o.bits_));
    }
    constexpr ArgsConfig operator|(ArgConfig f) const noexcept { return *this | ArgsConfig(f); }
    constexpr ArgsConfig& operator|=(ArgsConfig o) noexcept { return *this = *this | o; }
    friend constexpr bool operator==(ArgsConfig a, ArgsConfig b) noexcept { return a.bits_ == b.bits_; }
    friend constexpr bool operator!=(ArgsConfig a, ArgsConfig b) noexcept { return a.bits_ != b.bits_; }

private:
    Underlying bits_ = 0;
};
constexpr ArgsConfig operator|(ArgConfig a, ArgConfig b) noexcept { return ArgsConfig(a) | b; }
constexpr ArgsConfig operator|(ArgConfig a, ArgsConfig b) noexcept { return ArgsConfig(a) | b; }

// The bank-count word: the count below bit 31, the contiguous deal in bit 31.
inline constexpr std::uint32_t ShardContiguousBit = ::ndshard::tt::contiguous_banks_bit;
constexpr std::uint32_t pack_num_banks(std::uint32_t num_banks, bool is_shard_contiguous) noexcept {
    return num_banks | (is_shard_contiguous ? ShardContiguousBit : 0U);
}
constexpr std::uint32_t unpack_num_banks(std::uint32_t packed) noexcept { return packed & ~ShardContiguousBit; }
constexpr bool unpack_is_shard_contiguous(std::uint32_t packed) noexcept { return (packed & ShardContiguousBit) != 0; }

}  // namespace tensor_accessor
