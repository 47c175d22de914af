// ndshard/fast_divider.hpp - exact 32-bit division by a runtime constant.
//
// Granlund & Montgomery's round-up method ("Division by invariant integers using
// multiplication", 1994, fig. 4.1): one 32x32->64 multiply, a subtract, an add and two
// shifts, with no branch and no division. Exact for every n and every d >= 1, which
// props/fast_divider.cpp checks exhaustively over all n for chosen d and over all d for
// chosen n. The device has no fast divider, so the accessor precomputes one per divisor.
#pragma once

#include <bit>
#include <cstdint>

namespace ndshard {

class fast_divider {
public:
    constexpr fast_divider() noexcept : fast_divider(1) {}
    // d >= 1; fast_divider(12).divide(100) == 8.
    explicit constexpr fast_divider(std::uint32_t d) noexcept : divisor_(d) {
        // l = ceil(log2 d): the smallest l with 2^l >= d (0 for d == 1).
        const std::uint32_t l = d <= 1 ? 0U : 32U - static_cast<std::uint32_t>(std::countl_zero(d - 1));
        const std::uint64_t two_l = std::uint64_t{1} << l;
        // m = floor(2^32 * (2^l - d) / d) + 1 < 2^32 because 2^(l-1) < d <= 2^l.
        multiplier_ = static_cast<std::uint32_t>(((std::uint64_t{1} << 32) * (two_l - d)) / d + 1);
        shift1_ = l < 1 ? l : 1;
        shift2_ = l > 1 ? l - 1 : 0;
    }

    [[nodiscard]] constexpr std::uint32_t divisor() const noexcept { return divisor_; }

    [[nodiscard]] constexpr std::uint32_t divide(std::uint32_t n) const noexcept {
        const auto t = static_cast<std::uint32_t>((std::uint64_t{multiplier_} * n) >> 32);
        return (t + ((n - t) >> shift1_)) >> shift2_;
    }
    [[nodiscard]] constexpr std::uint32_t remainder(std::uint32_t n) const noexcept {
        return n - divide(n) * divisor_;
    }

private:
    std::uint32_t divisor_ = 1;
    std::uint32_t multiplier_ = 1;
    std::uint32_t shift1_ = 0;
    std::uint32_t shift2_ = 0;
};

}  // namespace ndshard
