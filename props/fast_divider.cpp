// Law: fast_divider(d).divide(n) == n / d and remainder(n) == n % d for every 32-bit
// n and every d >= 1 (fast_divider.hpp: division by a precomputed reciprocal).
//
// Three angles:
//  - every one of the 2^32 numerators for chosen divisors (where reciprocal methods break:
//    1, powers of two and their neighbours, 2^31 +- 1, 2^32 - 1, small odd and even ones,
//    and a few drawn at random); checked against the definition of floor division,
//    q*d <= n < (q+1)*d in 64-bit, which needs no division instruction and so keeps the
//    sweep fast; split over the hardware threads;
//  - every divisor 1..2^20 (and the top 2^16 divisors below 2^32, and those around 2^31)
//    against the numerators where an off-by-one shows: 0, 1, d-1, d, d+1, the multiples
//    of d next to 2^31 and 2^32, 2^32 - 1; checked against the `/` and `%` operators;
//  - a RapidCheck property over random (n, d), biased to powers of two and their
//    neighbours, against `/` and `%` and against libdivide's u32 division (branch-free
//    for d >= 2), the differential oracle of the 32-bit reciprocal method;
//  - the fast path: wherever exact_below(bound) holds, approx(n) (one mulhu) equals n / d
//    for n < bound, checked at the numerators next to every quotient change near the
//    bound; and bounded_divider_for(d, bound), the compile-time divider, likewise.
//
// The full sweep takes one to three minutes on two cores, so it is its own executable
// (property_fast_divider_exhaustive, compiled with NDSHARD_DIVIDER_EXHAUSTIVE=1, ctest
// label "slow"), registered in optimised builds only: scripts/verify.sh's release build
// runs it. The default executable sweeps every 251st numerator plus the lowest and
// highest 2^20 numerators of every listed divisor.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <libdivide.h>

#include "ndshard/fast_divider.hpp"

namespace {

using ndshard::fast_divider;

constexpr std::uint64_t two_pow_32 = std::uint64_t{1} << 32;
constexpr std::uint32_t two_pow_31 = std::uint32_t{1} << 31;

// floor(n/d) == q exactly when q*d <= n < q*d + d (all in 64 bits, no overflow); the
// remainder is then n - q*d.
bool is_floor_quotient(std::uint32_t n, std::uint32_t d, std::uint32_t q) {
    const std::uint64_t low = std::uint64_t{q} * d;
    return low <= n && n < low + d;
}

// First numerator in [first, last] (inclusive, stepping by `stride`) whose quotient or
// remainder is wrong, or `last + 1` (as 64-bit) when every one is right.
std::uint64_t first_wrong(const fast_divider& f, std::uint32_t d, std::uint64_t first, std::uint64_t last,
                          std::uint64_t stride) {
    for (std::uint64_t n = first; n <= last; n += stride) {
        const auto n32 = static_cast<std::uint32_t>(n);
        const std::uint32_t q = f.divide(n32);
        if (!is_floor_quotient(n32, d, q) || f.remainder(n32) != n32 - q * d) return n;
    }
    return last + 1;
}

// Sweeps [0, 2^32) with `stride`, split into one contiguous block per thread; returns the
// smallest wrong numerator found, or 2^32.
std::uint64_t sweep(std::uint32_t d, std::uint64_t stride) {
    const fast_divider f(d);
    const unsigned threads = std::max(1U, std::min(4U, std::thread::hardware_concurrency()));
    const std::uint64_t steps = (two_pow_32 + stride - 1) / stride;
    const std::uint64_t per_thread = (steps + threads - 1) / threads;
    std::vector<std::uint64_t> wrong(threads, two_pow_32);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        const std::uint64_t first_step = t * per_thread;
        const std::uint64_t last_step = std::min(steps, first_step + per_thread) - 1;
        if (first_step > last_step) continue;
        pool.emplace_back([&, t, first_step, last_step] {
            const std::uint64_t last = last_step * stride;
            const std::uint64_t w = first_wrong(f, d, first_step * stride, last, stride);
            if (w <= last) wrong[t] = w;
        });
    }
    for (auto& th : pool) th.join();
    return *std::min_element(wrong.begin(), wrong.end());
}

#ifdef NDSHARD_DIVIDER_EXHAUSTIVE
constexpr bool exhaustive = true;
#else
constexpr bool exhaustive = false;
#endif
constexpr std::uint64_t sweep_stride = 251;

// The divisors every numerator is tried against.
std::vector<std::uint32_t> sweep_divisors() {
    std::vector<std::uint32_t> ds = {
        1, 2, 3, 5, 6, 7, 12, 641, 65535, 65536, 65537, two_pow_31 - 1, two_pow_31, two_pow_31 + 1, 0xFFFFFFFFU};
    // A few random ones, fixed by a seed so that a failure reproduces.
    std::mt19937 rng(20240601U);
    ds.push_back(std::uniform_int_distribution<std::uint32_t>(8, 1U << 16)(rng));
    ds.push_back(std::uniform_int_distribution<std::uint32_t>(1U << 16, two_pow_31)(rng));
    ds.push_back(std::uniform_int_distribution<std::uint32_t>(two_pow_31, 0xFFFFFFFFU)(rng));
    return ds;
}

// Every numerator (NDSHARD_DIVIDER_EXHAUSTIVE), else every 251st plus both ends of the range.
TEST(FastDivider, EveryNumeratorForChosenDivisors) {
    constexpr std::uint64_t top = two_pow_32 - 1;
    for (std::uint32_t d : sweep_divisors()) {
        SCOPED_TRACE("divisor " + std::to_string(d));
        const fast_divider f(d);
        std::uint64_t wrong = sweep(d, exhaustive ? 1 : sweep_stride);
        if (!exhaustive) {
            for (auto [first, last] : {std::pair<std::uint64_t, std::uint64_t>{0, (1U << 20) - 1},
                                       std::pair<std::uint64_t, std::uint64_t>{top - (1U << 20) + 1, top}}) {
                const std::uint64_t w = first_wrong(f, d, first, last, 1);
                if (w <= last) wrong = std::min(wrong, w);
            }
        }
        ASSERT_EQ(wrong, two_pow_32) << "fast_divider(" << d << ") at n = " << wrong << ": quotient "
                                     << f.divide(static_cast<std::uint32_t>(wrong)) << " (expected " << wrong / d
                                     << "), remainder " << f.remainder(static_cast<std::uint32_t>(wrong))
                                     << " (expected " << wrong % d << ")";
    }
}

// Numerators next to the places where a quotient changes, and next to 2^31 and 2^32.
std::vector<std::uint32_t> edge_numerators(std::uint32_t d) {
    std::vector<std::uint64_t> n = {0,
                                    1,
                                    d - 1ULL,
                                    d,
                                    d + 1ULL,
                                    2ULL * d - 1,
                                    2ULL * d,
                                    two_pow_31 - 1ULL,
                                    two_pow_31,
                                    two_pow_31 + 1ULL,
                                    two_pow_32 - 2,
                                    two_pow_32 - 1};
    for (std::uint64_t limit : {std::uint64_t{two_pow_31}, two_pow_32}) {
        const std::uint64_t m = (limit - 1) / d * d;  // the largest multiple of d below limit
        for (std::uint64_t v : {m - 1, m, m + 1, m + d - 1, m + d, m + d + 1}) n.push_back(v);
    }
    std::vector<std::uint32_t> out;
    for (std::uint64_t v : n)
        if (v < two_pow_32) out.push_back(static_cast<std::uint32_t>(v));
    return out;
}

void expect_exact_at_edges(std::uint32_t d) {
    const fast_divider f(d);
    ASSERT_EQ(f.divisor(), d);
    for (std::uint32_t n : edge_numerators(d)) {
        ASSERT_EQ(f.divide(n), n / d) << "n = " << n << ", d = " << d;
        ASSERT_EQ(f.remainder(n), n % d) << "n = " << n << ", d = " << d;
    }
}

TEST(FastDivider, EveryDivisorUpTo2Pow20AtEdgeNumerators) {
    for (std::uint32_t d = 1; d <= (1U << 20); ++d) expect_exact_at_edges(d);
}

TEST(FastDivider, LargeDivisorsAtEdgeNumerators) {
    for (std::uint64_t d = two_pow_32 - (1U << 16); d < two_pow_32; ++d)
        expect_exact_at_edges(static_cast<std::uint32_t>(d));
    for (std::uint64_t d = two_pow_31 - (1U << 15); d <= two_pow_31 + (1U << 15); ++d)
        expect_exact_at_edges(static_cast<std::uint32_t>(d));
}

// A 32-bit value biased to the method's edges: powers of two and their neighbours,
// small values, and the whole range.
rc::Gen<std::uint32_t> edgy_u32(std::uint32_t min) {
    const auto power_neighbour =
        rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 32), rc::gen::inRange(-2, 3)), [min](std::pair<int, int> p) {
            const std::int64_t v = (std::int64_t{1} << p.first) + p.second;
            return static_cast<std::uint32_t>(std::clamp<std::int64_t>(v, min, 0xFFFFFFFFLL));
        });
    return rc::gen::oneOf(power_neighbour, rc::gen::inRange<std::uint32_t>(min, 1000),
                          rc::gen::map(rc::gen::resize(100, rc::gen::arbitrary<std::uint32_t>()),
                                       [min](std::uint32_t v) { return std::max(v, min); }));
}

RC_GTEST_PROP(FastDivider, RandomNumeratorAndDivisor, ()) {
    const std::uint32_t d = *edgy_u32(1);
    const std::uint32_t n = *edgy_u32(0);
    RC_CLASSIFY((d & (d - 1)) == 0, "d power of two");
    RC_CLASSIFY(d > two_pow_31, "d > 2^31");
    RC_CLASSIFY(n >= two_pow_31, "n >= 2^31");
    RC_CLASSIFY(n < d, "n < d");
    const fast_divider f(d);
    RC_ASSERT(f.divide(n) == n / d);
    RC_ASSERT(f.remainder(n) == n % d);
    if (d >= 2) {
        const libdivide::libdivide_u32_branchfree_t bf = libdivide::libdivide_u32_branchfree_gen(d);
        RC_ASSERT(f.divide(n) == libdivide::libdivide_u32_branchfree_do(n, &bf));
    } else {
        const libdivide::libdivide_u32_t plain = libdivide::libdivide_u32_gen(d);
        RC_ASSERT(f.divide(n) == libdivide::libdivide_u32_do(n, &plain));
    }
}

// The numerators below `bound` where a fast path breaks first: around the multiples of d
// just below the bound, and a few small ones.
std::vector<std::uint32_t> below(std::uint32_t d, std::uint64_t bound) {
    std::vector<std::uint32_t> out;
    if (bound == 0) return out;
    const std::uint64_t top = bound - 1;
    const std::uint64_t m = top / d * d;
    for (std::uint64_t v : {std::uint64_t{0}, std::uint64_t{1}, top, top - 1, m, m - 1, m + d - 1, m - d, m - d + 1,
                            std::uint64_t{d} - 1, std::uint64_t{d}})
        if (v <= top) out.push_back(static_cast<std::uint32_t>(v));
    return out;
}

// approx(n) is one mulhu: exact for every n below any bound exact_below approves, and
// exact_below approves every bound up to 2^32 / d (the accessor relies on both).
RC_GTEST_PROP(FastDivider, ApproxIsExactWhereExactBelowSaysSo, ()) {
    const std::uint32_t d = *edgy_u32(1);
    const std::uint32_t bound = *edgy_u32(1);
    const fast_divider f(d);
    const bool exact = f.exact_below(bound);
    RC_CLASSIFY(exact, "exact");
    if (std::uint64_t{bound} * d <= two_pow_32) RC_ASSERT(exact);
    if (!exact) return;
    const libdivide::libdivide_u32_t ld = libdivide::libdivide_u32_gen(d);
    for (std::uint32_t n : below(d, bound)) {
        if (d == 1 && n == 0xFFFFFFFFU) continue;  // approx's documented limit for d == 1
        RC_ASSERT(f.approx(n) == n / d);
        RC_ASSERT(f.approx(n) == libdivide::libdivide_u32_do(n, &ld));
    }
}

// The compile-time divider is exact for every numerator below its bound.
RC_GTEST_PROP(FastDivider, BoundedDividerIsExactBelowItsBound, ()) {
    const std::uint32_t d = *edgy_u32(1);
    const std::uint64_t bound = *rc::gen::oneOf(
        rc::gen::just(two_pow_32), rc::gen::map(edgy_u32(1), [](std::uint32_t v) { return std::uint64_t{v}; }));
    const ndshard::bounded_divider b = ndshard::bounded_divider_for(d, bound);
    RC_CLASSIFY(b.how == ndshard::bounded_divider::kind::multiply, "multiply");
    RC_CLASSIFY(b.how == ndshard::bounded_divider::kind::corrected, "corrected");
    for (std::uint32_t n : below(d, bound)) RC_ASSERT(b.divide(n) == n / d);
}

}  // namespace
