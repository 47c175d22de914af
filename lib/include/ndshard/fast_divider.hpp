// ndshard/fast_divider.hpp - exact 32-bit division by a constant, in 32-bit arithmetic.
//
// A data-movement core is rv32im: a 32 x 32 -> 64-bit product is one `mul` and one
// `mulhu`, a division tens of cycles, and anything 64-bit a library call. So every divisor
// here is a 32-bit reciprocal, and a quotient is one `mulhu` (and at most a shift).
//
// Runtime divisors (fast_divider): m = ceil(2^32 / d), made with one 32-bit division when
// the accessor is built. q0 = mulhu(m, n) is floor(n/d) or floor(n/d) + 1: writing
// m*d = 2^32 + e with 0 <= e < d, n*m / 2^32 = n/d + n*e/(d * 2^32), and n*e < 2^32*d.
// It is exact for every n < bound when (bound - 1) * e < 2^32 (the remainder of n/d is at
// most d - 1, and the error term stays below 1/d); exact_below() checks that with one
// multiply, and divide() corrects the overshoot for any n. d == 1 (m would be 2^32)
// uses m = 2^32 - 1 on n + 1: mulhu(2^32 - 1, n + 1) == n for n < 2^32 - 1.
// fast_divider(12).divide(100) == 8.
//
// Compile-time divisors (bounded_divider): for numerators below a known bound the
// compiler's general sequence is not needed: q = mulhu(m, n) >> k with the smallest k
// (no shift at all when k = 0 will do) for which m = ceil(2^(32+k) / d) is below 2^32
// and exact below the bound, a shift for a power of two, nothing for 1.
//
// props/fast_divider.cpp checks both against libdivide and plain division.
#pragma once

#include <cstdint>

#include "ndshard/config.hpp"

namespace ndshard {

// high32(a * b): one mulhu on rv32im. mulhi32(0x8000'0000, 6) == 3.
NDSHARD_INLINE constexpr std::uint32_t mulhi32(std::uint32_t a, std::uint32_t b) noexcept {
    return static_cast<std::uint32_t>((std::uint64_t{a} * b) >> 32);
}

class fast_divider {
public:
    // Left unset (trivial, so that an accessor's geometry costs nothing before it is
    // built); fast_divider{} is all zeros, fast_divider(1) divides by 1.
    fast_divider() noexcept = default;
    // d >= 1 (d == 0 is treated as 1). One 32-bit division: (2^32 - 1) / d + 1 == ceil(2^32/d)
    // for d >= 2.
    explicit constexpr fast_divider(std::uint32_t d) noexcept
        : magic_(d <= 1 ? ~std::uint32_t{0} : 0xFFFF'FFFFU / d + 1),
          addend_(d <= 1 ? 1 : 0),
          divisor_(d <= 1 ? 1 : d) {}

    // A divider from the parts another one reported (multiplier(), addend(), divisor()):
    // how the device takes reciprocals the host made (detail/decode.hpp, read_image).
    // Unchecked: the parts must come from a fast_divider.
    [[nodiscard]] NDSHARD_INLINE static constexpr fast_divider from_parts(std::uint32_t multiplier,
                                                                          std::uint32_t addend,
                                                                          std::uint32_t divisor) noexcept {
        return fast_divider(multiplier, addend, divisor);
    }

    [[nodiscard]] constexpr std::uint32_t divisor() const noexcept { return divisor_; }
    [[nodiscard]] constexpr std::uint32_t multiplier() const noexcept { return magic_; }
    [[nodiscard]] constexpr std::uint32_t addend() const noexcept { return addend_; }

    // floor(n/d) or one more; exactly floor(n/d) for n < any bound with exact_below(bound).
    // Needs n < 2^32 - 1 when d == 1.
    [[nodiscard]] NDSHARD_INLINE constexpr std::uint32_t approx(std::uint32_t n) const noexcept {
        return mulhi32(magic_, n + addend_);
    }
    // approx for d >= 2, whose addend is 0: the mulhu alone.
    [[nodiscard]] NDSHARD_INLINE constexpr std::uint32_t approx_nonunit(std::uint32_t n) const noexcept {
        return mulhi32(magic_, n);
    }
    // Whether approx(n) == n / d for every n < bound: (bound - 1) * e < 2^32, e = m*d - 2^32.
    [[nodiscard]] constexpr bool exact_below(std::uint32_t bound) const noexcept {
        if (divisor_ == 1 || bound <= 1) return true;
        return mulhi32(bound - 1, magic_ * divisor_) == 0;  // magic_ * divisor_ == e (mod 2^32)
    }
    // floor(n/d) for every 32-bit n: mulhu(m, n) + addend is floor(n/d) or one more (for
    // d == 1, n - 1 + 1 except at n == 0), less one when it overshot (q * d > n, compared in
    // 64 bits: mul and mulhu, no division).
    [[nodiscard]] NDSHARD_INLINE constexpr std::uint32_t divide(std::uint32_t n) const noexcept {
        const std::uint32_t q = mulhi32(magic_, n) + addend_;
        return q - (std::uint64_t{q} * divisor_ > n ? 1U : 0U);
    }
    [[nodiscard]] NDSHARD_INLINE constexpr std::uint32_t remainder(std::uint32_t n) const noexcept {
        return n - divide(n) * divisor_;
    }

private:
    constexpr fast_divider(std::uint32_t multiplier, std::uint32_t addend, std::uint32_t divisor) noexcept
        : magic_(multiplier), addend_(addend), divisor_(divisor) {}

    std::uint32_t magic_;
    std::uint32_t addend_;
    std::uint32_t divisor_;
};

// Division by a compile-time constant d of numerators below `bound` (see the top).
struct bounded_divider {
    enum class kind : std::uint8_t { identity, shift, multiply, corrected };
    kind how = kind::identity;
    std::uint32_t magic = 0;
    std::uint32_t shift = 0;
    fast_divider fallback{1};  // kind::corrected: no 32-bit reciprocal is exact below the bound
    [[nodiscard]] NDSHARD_INLINE constexpr std::uint32_t divide(std::uint32_t n) const noexcept {
        switch (how) {
            case kind::identity:
                return n;
            case kind::shift:
                return n >> shift;
            case kind::multiply:
                return mulhi32(magic, n) >> shift;
            default:
                return fallback.divide(n);
        }
    }
};

// Evaluated at compile time (its 64-bit divisions never reach a device).
// bounded_divider_for(7, 100).divide(99) == 14.
constexpr bounded_divider bounded_divider_for(std::uint32_t d, std::uint64_t bound) noexcept {
    bounded_divider b;
    if (d <= 1 || bound <= 1) return b;
    if ((d & (d - 1)) == 0) {
        std::uint32_t k = 0;
        while ((std::uint32_t{1} << k) != d) ++k;
        b.how = bounded_divider::kind::shift;
        b.shift = k;
        return b;
    }
    for (std::uint32_t k = 0; k < 32; ++k) {
        const std::uint64_t two_k = std::uint64_t{1} << (32 + k);
        const std::uint64_t m = two_k / d + 1;  // d is no power of two: ceil
        if (m >= (std::uint64_t{1} << 32)) continue;
        const std::uint64_t e = m * d - two_k;  // < d
        // (bound - 1) * e < 2^(32+k), without overflow: e < 2^32, bound - 1 < 2^32 here.
        if (bound - 1 < (std::uint64_t{1} << 32) && (bound - 1) * e < two_k) {
            b.how = bounded_divider::kind::multiply;
            b.magic = static_cast<std::uint32_t>(m);
            b.shift = k;
            return b;
        }
    }
    b.how = bounded_divider::kind::corrected;
    b.fallback = fast_divider(d);
    return b;
}

}  // namespace ndshard
