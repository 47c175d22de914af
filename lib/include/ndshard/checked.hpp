// ndshard/checked.hpp - integer helpers that cannot wrap silently.
//
// Used at the validation edge only; the hot path relies on the limits proven there.
#pragma once

#include <cstdint>
#include <limits>

#include "ndshard/shape.hpp"

namespace ndshard {

inline constexpr std::uint64_t saturated = std::numeric_limits<std::uint64_t>::max();
inline constexpr std::uint64_t two_pow_32 = std::uint64_t{1} << 32;

// ceil(a/b) for b > 0: ceil_div(7, 2) == 4, ceil_div(0, 5) == 0.
constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) noexcept { return a / b + (a % b != 0 ? 1 : 0); }

// a*b, or `saturated` when the true product does not fit: sat_mul(2^40, 2^40) == 2^64-1.
constexpr std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) noexcept {
    std::uint64_t r = 0;
    return __builtin_mul_overflow(a, b, &r) ? saturated : r;
}

// a+b, or `saturated` on overflow.
constexpr std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) noexcept {
    std::uint64_t r = 0;
    return __builtin_add_overflow(a, b, &r) ? saturated : r;
}

// Product of the dims, saturating; `zero_as_one` bounds the span of ids a shape with a
// zero-size dim could still address: volume_of({0, 3, 4}, true) == 12.
constexpr std::uint64_t volume_of(const shape& s, bool zero_as_one = false) noexcept {
    std::uint64_t v = 1;
    for (auto d : s) v = sat_mul(v, (zero_as_one && d == 0) ? 1 : d);
    return v;
}

// GSL-style: narrow_cast is the unchecked conversion, used only where validation has
// proven the value fits.
template <class To, class From>
constexpr To narrow_cast(From v) noexcept {
    return static_cast<To>(v);
}

}  // namespace ndshard
