// ndshard/detail/place.hpp - THE mapping formulas, written once.
//
// Both the host layout (64-bit, plain division) and the device accessor (32-bit,
// compile-time constants or precomputed reciprocals) instantiate these templates with
// their own "geometry", so no formula exists twice outside the oracle.
//
// A geometry G over an unsigned index type I provides:
//   g.for_each_dim_reversed(f)   calls f(d) for d = rank-1 .. 0 (d may be an
//                                std::integral_constant when the rank is static)
//   g.tensor_div(d, n), g.tensor_extent(d)   n / T[d], T[d]
//   g.shard_div(d, n),  g.shard_extent(d)    n / S[d], S[d]
//   g.grid_div(d, n),   g.grid_extent(d)     n / G[d], G[d]
//   g.grid_stride_of(d), g.shard_stride_of(d)      row-major strides of G and S
//   g.shard_volume_of()                         vol(S)
//   g.deal(s) -> deal_result<I>              shard -> (core, slot) by the strategy
//
// A 32-bit geometry (the accessor) may add the packed interface, which evaluates the
// very same sums with fewer operations (packed_terms below explains the algebra):
//   g.with_rank(f)                f(r) with r = std::integral_constant<std::size_t, rank>
//   g.for_each_digit(r, id, f)    f(d, c) for the digits c of page id `id` in the radix T,
//                                 every dim once, in any order
//   g.for_each_shard_digit(s, f)  f(d, q) for the digits q of shard id s in the radix G
//   g.packed_terms_of_dim(d)      packed_terms_of(S[d], Gstride[d], Sstride[d])
//   g.packed_quotient(d, c)       c / S[d] for a digit c < T[d] (any value when S[d] == 1:
//                                 its grid term is 0)
//   g.digit_quotient(d, c)        c / S[d] for a digit c < T[d], exact for S[d] == 1 too
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

// Address math is a chain of tiny functions and lambdas; a compiler left to itself may
// keep a call (or a runtime rank's dispatch) out of line, which costs more than the math.
// NDSHARD_INLINE marks functions, NDSHARD_INLINE_LAMBDA lambdas (after the parameters).
// NDSHARD_COLD keeps error paths (message building) out of line.
#if defined(__GNUC__) || defined(__clang__)
#define NDSHARD_INLINE [[gnu::always_inline]]
#define NDSHARD_INLINE_LAMBDA __attribute__((always_inline))
#define NDSHARD_COLD [[gnu::cold, gnu::noinline]]
#else
#define NDSHARD_INLINE
#define NDSHARD_INLINE_LAMBDA
#define NDSHARD_COLD
#endif

namespace ndshard {

template <class I>
struct deal_result {
    I core;
    I slot;
    friend constexpr bool operator==(const deal_result&, const deal_result&) = default;
};

template <class I>
struct page_place {
    I shard_id;         // row-major over the shard grid
    I in_shard_offset;  // row-major over the FULL shard shape
    I core;             // index into the (effective) core list
    I slot;             // which of the core's shard slots
    I device_offset;    // slot * vol(S) + in_shard_offset, in pages
    friend constexpr bool operator==(const page_place&, const page_place&) = default;
};

namespace detail {

// A page's shard and in-shard offset are, per dim with coordinate c,
//   shard  += (c / S[d]) * Gstride[d]        offset += (c % S[d]) * Sstride[d].
// When both fit 32 bits they pack into one word, and with c = g*S[d] + r:
//   (shard << 32) + offset = sum_d g*(Gstride[d] << 32) + r*Sstride[d]
//                          = sum_d g*grid_term + c*page_term            (mod 2^64)
// where grid_term = (Gstride[d] << 32) - S[d]*Sstride[d] and page_term = Sstride[d]:
// one quotient and two multiply-adds per dim, no remainder. When S[d] == 1, g == c and
// the whole contribution c*(Gstride[d] << 32) moves into page_term with grid_term 0, so
// that dim needs no quotient at all.
// S=2, Gstride=3, Sstride=5, c=7 (g=3, r=1): 3*((3<<32) - 10) + 7*5 == (9 << 32) + 5.
struct packed_terms {
    std::uint64_t grid_term = 0;
    std::uint64_t page_term = 0;
    friend constexpr bool operator==(const packed_terms&, const packed_terms&) = default;
};
constexpr packed_terms packed_terms_of(std::uint64_t shard_extent, std::uint64_t grid_stride,
                                       std::uint64_t shard_stride) noexcept {
    const std::uint64_t grid_term = (grid_stride << 32) - shard_extent * shard_stride;
    if (shard_extent == 1) return {0, grid_term + shard_stride};
    return {grid_term, shard_stride};
}

template <class G>
concept packed_geometry = requires(const G& g, std::uint32_t n) {
    g.with_rank([](auto) {});
    g.for_each_shard_digit(n, [](auto, std::uint32_t) {});
};

// f(std::integral_constant<std::size_t, d>) for d = 0 .. R-1.
template <std::size_t R, class F>
NDSHARD_INLINE constexpr void for_each_index(F&& f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) NDSHARD_INLINE_LAMBDA {
        (f(std::integral_constant<std::size_t, I>{}), ...);
    }(std::make_index_sequence<R>{});
}

// Digits (however obtained: digits(r, f) calls f(d, c) per dim) -> place, in the packed
// form. A single dim has both strides 1, so there the shard is c / S[0] and the offset
// c % S[0] directly, with nothing to pack.
template <class G, class Digits>
NDSHARD_INLINE constexpr page_place<std::uint32_t> place_packed(const G& g, Digits&& digits) noexcept {
    return g.with_rank([&](auto rank) NDSHARD_INLINE_LAMBDA {
        std::uint32_t shard = 0;
        std::uint32_t offset = 0;
        if constexpr (rank() == 1) {
            digits(rank, [&](auto d, std::uint32_t c) NDSHARD_INLINE_LAMBDA {
                shard = g.digit_quotient(d, c);
                offset = c - shard * g.shard_extent(d);
            });
        } else {
            std::uint64_t packed = 0;
            digits(rank, [&](auto d, std::uint32_t c) NDSHARD_INLINE_LAMBDA {
                const packed_terms t = g.packed_terms_of_dim(d);
                packed += std::uint64_t{g.packed_quotient(d, c)} * t.grid_term + std::uint64_t{c} * t.page_term;
            });
            shard = static_cast<std::uint32_t>(packed >> 32);
            offset = static_cast<std::uint32_t>(packed);
        }
        const deal_result<std::uint32_t> home = g.deal(shard);
        return page_place<std::uint32_t>{shard, offset, home.core, home.slot, home.slot * g.shard_volume_of() + offset};
    });
}

// Page id -> place. Digits of the id in the tensor's mixed radix are split into a grid
// digit (c / S[d]) and an in-shard digit (c % S[d]); dim 0 needs no division because
// a valid id leaves a remainder < T[0] there.
// [3,7,5]/[2,2,2] on 6 cores: page 36 = (1,0,1) -> shard 0, in-shard offset 5, core 0, slot 0.
template <class G, class I>
NDSHARD_INLINE constexpr page_place<I> place_page(const G& g, I id) noexcept {
    if constexpr (packed_geometry<G>) {
        return place_packed(g, [&](auto rank, auto&& f) NDSHARD_INLINE_LAMBDA { g.for_each_digit(rank, id, f); });
    } else {
        I shard = 0;
        I offset = 0;
        g.for_each_dim_reversed([&](auto d) {
            I c = id;
            if (d != 0) {
                const I q = g.tensor_div(d, id);
                c = id - q * g.tensor_extent(d);
                id = q;
            }
            const I gq = g.shard_div(d, c);
            shard += gq * g.grid_stride_of(d);
            offset += (c - gq * g.shard_extent(d)) * g.shard_stride_of(d);
        });
        const deal_result<I> home = g.deal(shard);
        return {shard, offset, home.core, home.slot, home.slot * g.shard_volume_of() + offset};
    }
}

// Page coordinate (in the geometry's rank) -> place; same digits without dividing by T.
template <class G, class I, class Coord>
NDSHARD_INLINE constexpr page_place<I> place_coord(const G& g, const Coord& coord) noexcept {
    if constexpr (packed_geometry<G>) {
        return place_packed(g, [&](auto rank, auto&& f) NDSHARD_INLINE_LAMBDA {
            for_each_index<rank()>(
                [&](auto d) NDSHARD_INLINE_LAMBDA { f(d, static_cast<std::uint32_t>(coord[d])); });
        });
    } else {
        I shard = 0;
        I offset = 0;
        g.for_each_dim_reversed([&](auto d) {
            const I c = static_cast<I>(coord[d]);
            const I gq = g.shard_div(d, c);
            shard += gq * g.grid_stride_of(d);
            offset += (c - gq * g.shard_extent(d)) * g.shard_stride_of(d);
        });
        const deal_result<I> home = g.deal(shard);
        return {shard, offset, home.core, home.slot, home.slot * g.shard_volume_of() + offset};
    }
}

// Shard coordinate -> shard id (row-major over the grid): uses every coordinate,
// unlike the tt-metal lookup that ignored it.
template <class G, class I, class Coord>
constexpr I shard_id_of(const G& g, const Coord& coord) noexcept {
    I shard = 0;
    g.for_each_dim_reversed([&](auto d) { shard += static_cast<I>(coord[d]) * g.grid_stride_of(d); });
    return shard;
}

// Shard id -> its coordinate in the grid, written into out[0..rank).
template <class G, class I, class Out>
constexpr void shard_coord_of(const G& g, I shard, Out& out) noexcept {
    if constexpr (packed_geometry<G>) {
        g.for_each_shard_digit(shard, [&](auto d, std::uint32_t q) { out[d] = q; });
    } else {
        g.for_each_dim_reversed([&](auto d) {
            if (d != 0) {
                const I q = g.grid_div(d, shard);
                out[d] = shard - q * g.grid_extent(d);
                shard = q;
            } else {
                out[d] = shard;
            }
        });
    }
}

}  // namespace detail
}  // namespace ndshard
