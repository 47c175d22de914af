// ndshard/fast_divider.hpp - exact 32-bit division by a runtime constant.
//
// Lemire, Kaser & Kurz ("Faster remainder by direct computation", 2019): for d >= 2 the
// 64-bit reciprocal m = ceil(2^64 / d) gives n / d == high64(m * n) for every 32-bit n,
// so a quotient is one widening multiply, with no shift, branch or division. d == 1
// (whose reciprocal 2^64 needs 65 bits) uses m = 2^64 - 1 on n + 1:
// high64((2^64 - 1) * (n + 1)) == n for every n < 2^64 - 1. props/fast_divider.cpp
// checks divide and remainder exhaustively over all n for chosen d and over all d for
// chosen n. The device has no fast divider, so the accessor precomputes one per divisor
// when it is built (one 64-bit division each: the words carry no reciprocals). A
// reciprocal made elsewhere can be checked with one multiplication (is_reciprocal_of)
// and used without dividing (fast_divider::from_reciprocal).
#pragma once

#include <cstdint>

namespace ndshard {

__extension__ using uint128_t = unsigned __int128;  // GCC and Clang; __extension__ keeps -Wpedantic quiet

// high64(a * b): mulhi64(fast reciprocal of 12, 100) == 8.
constexpr std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) noexcept {
    return static_cast<std::uint64_t>((static_cast<uint128_t>(a) * b) >> 64);
}

// ceil(2^64 / d) mod 2^64, the word format's reciprocal: 0 for d <= 1 (d == 1 has no
// 64-bit reciprocal; d == 0 means "nothing to divide"). reciprocal_of(3) == 0x5555...56.
constexpr std::uint64_t reciprocal_of(std::uint64_t d) noexcept {
    return d <= 1 ? 0 : ~std::uint64_t{0} / d + 1;
}

// Whether m == reciprocal_of(d), by multiplication only: for d >= 2, m*d (128-bit) must
// lie in [2^64, 2^64 + d), which pins m to ceil(2^64 / d).
constexpr bool is_reciprocal_of(std::uint64_t m, std::uint64_t d) noexcept {
    if (d <= 1) return m == 0;
    const uint128_t p = static_cast<uint128_t>(m) * d;
    return static_cast<std::uint64_t>(p >> 64) == 1 && static_cast<std::uint64_t>(p) < d;
}

class fast_divider {
public:
    constexpr fast_divider() noexcept = default;
    // d >= 1; fast_divider(12).divide(100) == 8.
    explicit constexpr fast_divider(std::uint32_t d) noexcept : fast_divider(d, reciprocal_of(d)) {}

    // From a reciprocal already verified with is_reciprocal_of(m, d): no division.
    static constexpr fast_divider from_reciprocal(std::uint32_t d, std::uint64_t m) noexcept {
        return fast_divider(d, m);
    }

    [[nodiscard]] constexpr std::uint32_t divisor() const noexcept { return divisor_; }
    // divide(n) == high64(multiplier() * (n + addend())).
    [[nodiscard]] constexpr std::uint64_t multiplier() const noexcept { return multiplier_; }
    [[nodiscard]] constexpr std::uint32_t addend() const noexcept { return addend_; }

    [[nodiscard]] constexpr std::uint32_t divide(std::uint32_t n) const noexcept {
        return static_cast<std::uint32_t>(mulhi64(multiplier_, std::uint64_t{n} + addend_));
    }
    [[nodiscard]] constexpr std::uint32_t remainder(std::uint32_t n) const noexcept {
        return n - divide(n) * divisor_;
    }

private:
    constexpr fast_divider(std::uint32_t d, std::uint64_t m) noexcept
        : multiplier_(d <= 1 ? ~std::uint64_t{0} : m), divisor_(d), addend_(d <= 1 ? 1 : 0) {}

    std::uint64_t multiplier_ = ~std::uint64_t{0};  // divisor 1
    std::uint32_t divisor_ = 1;
    std::uint32_t addend_ = 1;
};

// Division by a compile-time constant d of numerators known to be below `bound`:
// n / d == (n * multiplier) >> shift with a 64-bit product, i.e. one multiply and one
// shift, where a compiler dividing a general 32-bit n by, say, 7 needs six operations.
// A shift k works when its rounding cannot reach a quotient boundary below the bound:
// with m = ceil(2^k / d) and e = m*d - 2^k, (bound-1)*e < 2^k and (bound-1)*m < 2^64.
// It takes the largest such k: a full-width multiplier stays one imul, where a small one
// (x * 171) is turned by compilers into a longer chain of shifts and adds. When no k
// fits (bounds near 2^32) it falls back to the 64-bit reciprocal and a widening multiply.
struct bounded_divider {
    std::uint64_t multiplier = 1;
    std::uint32_t shift = 0;
    bool wide = false;  // multiplier is reciprocal_of(d): quotient = high64(n * multiplier)
    [[nodiscard]] constexpr std::uint32_t divide(std::uint32_t n) const noexcept {
        if (wide) return static_cast<std::uint32_t>(mulhi64(multiplier, n));
        return static_cast<std::uint32_t>((std::uint64_t{n} * multiplier) >> shift);
    }
};
constexpr bounded_divider bounded_divider_for(std::uint64_t d, std::uint64_t bound) noexcept {
    if (d <= 1 || bound <= 1) return {1, 0, false};
    const uint128_t top = bound - 1;
    const uint128_t two_64 = static_cast<uint128_t>(1) << 64;
    for (std::uint32_t k = 64; k-- > 0;) {
        const uint128_t two_k = static_cast<uint128_t>(1) << k;
        const uint128_t m = (two_k + d - 1) / d;
        if (top * (m * d - two_k) < two_k && top * m < two_64) return {static_cast<std::uint64_t>(m), k, false};
    }
    return {reciprocal_of(d), 64, true};
}

}  // namespace ndshard
