// ndshard/detail/place.hpp - THE mapping formulas, written once.
//
// The host layout (64-bit, plain division) and the device accessor (32-bit reciprocals
// or compile-time constants) both instantiate these templates with their own geometry,
// so no formula exists twice outside the oracle. C++17, freestanding.
//
// A geometry G over an unsigned index type I provides:
//   g.for_each_dim_reversed(f)   calls f(d) for d = rank-1 .. 0 (d may be an
//                                integral-constant-like tag when the rank is static)
//   g.tensor_div(d, n), g.tensor_extent(d)   n / T[d], T[d]
//   g.shard_div(d, n),  g.shard_extent(d)    n / S[d], S[d]
//   g.grid_div(d, n),   g.grid_extent(d)     n / G[d], G[d]
//   g.grid_stride_of(d), g.shard_stride_of(d)      row-major strides of G and S
//   g.shard_volume_of()                      vol(S)
//   g.num_cores_of(), g.deal_block()         P, and k = ceil(vol(G)/P) (contiguous deal)
//   g.deal_div(s)                            s / P (round robin) or s / k (contiguous)
//   g.contiguous_deal()                      which of the two deal rules
//   g.num_shards_of(), g.max_slots()         vol(G), slots every core reserves
//   g.shards_per_core_floor()                vol(G) / P
// In C++20 this is the concept placement_geometry below, which every formula requires.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "ndshard/config.hpp"

namespace ndshard {

template <class I>
struct deal_result {
    I core;
    I slot;
    friend constexpr bool operator==(const deal_result& a, const deal_result& b) noexcept {
        return a.core == b.core && a.slot == b.slot;
    }
    friend constexpr bool operator!=(const deal_result& a, const deal_result& b) noexcept { return !(a == b); }
};

template <class I>
struct page_place {
    I shard_id;         // row-major over the shard grid
    I in_shard_offset;  // row-major over the FULL shard shape
    I core;             // index into the (effective) core list
    I slot;             // which of the core's shard slots
    I device_offset;    // slot * vol(S) + in_shard_offset, in pages
    friend constexpr bool operator==(const page_place& a, const page_place& b) noexcept {
        return a.shard_id == b.shard_id && a.in_shard_offset == b.in_shard_offset && a.core == b.core &&
               a.slot == b.slot && a.device_offset == b.device_offset;
    }
    friend constexpr bool operator!=(const page_place& a, const page_place& b) noexcept { return !(a == b); }
};

namespace detail {

#if NDSHARD_CPP20
// The requirement above as a concept: dims are passed as std::integral_constant tags (a
// geometry may take them as std::size_t, or as the tags themselves when its rank is static).
// The deal alone (deal, shard_in_slot) needs only its four members; tt/interleaved.hpp's
// one-page shards provide just those.
template <class G, class I>
concept deal_geometry = std::is_unsigned_v<I> && requires(const G& g, I n) {
    requires std::is_convertible_v<decltype(g.num_cores_of()), I>;
    requires std::is_convertible_v<decltype(g.deal_block()), I>;
    requires std::is_convertible_v<decltype(g.deal_div(n)), I>;
    requires std::is_convertible_v<decltype(g.contiguous_deal()), bool>;
};
template <class G, class I>
concept placement_geometry = deal_geometry<G, I> &&
    requires(const G& g, std::integral_constant<std::size_t, 0> d, I n) {
    g.for_each_dim_reversed([](auto) {});
    requires std::is_convertible_v<decltype(g.tensor_div(d, n)), I>;
    requires std::is_convertible_v<decltype(g.tensor_extent(d)), I>;
    requires std::is_convertible_v<decltype(g.shard_div(d, n)), I>;
    requires std::is_convertible_v<decltype(g.shard_extent(d)), I>;
    requires std::is_convertible_v<decltype(g.grid_div(d, n)), I>;
    requires std::is_convertible_v<decltype(g.grid_extent(d)), I>;
    requires std::is_convertible_v<decltype(g.grid_stride_of(d)), I>;
    requires std::is_convertible_v<decltype(g.shard_stride_of(d)), I>;
    requires std::is_convertible_v<decltype(g.shard_volume_of()), I>;
    requires std::is_convertible_v<decltype(g.num_shards_of()), I>;
    requires std::is_convertible_v<decltype(g.max_slots()), I>;
    requires std::is_convertible_v<decltype(g.shards_per_core_floor()), I>;
};
// After a formula's parameter list: the formula requires a placement_geometry (C++20 only;
// a C++17 build, such as the device's, finds a missing member when it instantiates).
#define NDSHARD_REQUIRES_GEOMETRY(G, I) requires ::ndshard::detail::placement_geometry<G, I>
#define NDSHARD_REQUIRES_DEAL(G, I) requires ::ndshard::detail::deal_geometry<G, I>
#else
#define NDSHARD_REQUIRES_GEOMETRY(G, I)
#define NDSHARD_REQUIRES_DEAL(G, I)
#endif

// --- the geometry's builder: one for the host's 64-bit layout and the device's 32-bit one ---

// Which product the builder asks for, so a builder can check the two that may overflow.
enum class product : std::uint8_t { tensor_span, shard_volume, bounded };

// One dim's shape products as the builder hands them over.
template <class I>
struct dim_shape {
    I tensor, shard, grid;                       // T[d], S[d], G[d] = ceil(T[d] / S[d])
    I tensor_stride, shard_stride, grid_stride;  // row-major; a zero extent counts as 1
};

// What the whole shape gives the deal.
template <class I>
struct shape_totals {
    I num_pages, num_shards, shard_volume;  // vol(T), vol(G), vol(S)
    I whole_shards_per_core;                // vol(G) / P (0 when P is 0)
    I shards_per_core;                      // k = ceil(vol(G) / P): slots a core reserves
    I deal_divisor;                         // what deal_div divides by: P, or k for the contiguous deal
};

// Builds the shape products in one pass from the last dim, the strides being the running
// products. The builder b supplies the index type's arithmetic and keeps what it needs:
//   b.tensor(d), b.shard(d)   T[d], S[d]
//   b.grid(d, t, s)           ceil(t / s) (the device divides through its shard divider)
//   b.mul(product, a, x)      a * x (host: saturating; device: wrapping, noting when the
//                             tensor span or the shard volume leaves 32 bits)
//   b.dim(d, dim_shape)       dim d, before dim d - 1 is built
// [3,7,5]/[2,2,2], P = 6: G = [2,4,3]; strides T [35,5,1], S [4,2,1], G [12,3,1];
// 105 pages, 24 shards, vol(S) = 8, 4 shards a core.
template <class I, class B>
NDSHARD_INLINE constexpr shape_totals<I> build_shape(B& b, std::size_t rank, I cores, bool contiguous) noexcept {
    I ts = 1, ss = 1, gs = 1, pages = 1, shards = 1;
    for (std::size_t d = rank; d-- > 0;) {
        const I t = b.tensor(d), s = b.shard(d);
        const I grid = b.grid(d, t, s);
        b.dim(d, dim_shape<I>{t, s, grid, ts, ss, gs});
        ts = b.mul(product::tensor_span, ts, t == 0 ? I{1} : t);
        ss = b.mul(product::shard_volume, ss, s);
        gs = b.mul(product::bounded, gs, grid == 0 ? I{1} : grid);  // grid <= max(t, 1)
        pages = b.mul(product::bounded, pages, t);
        shards = b.mul(product::bounded, shards, grid);
    }
    const I whole = cores == 0 ? I{0} : shards / cores;
    const I per_core = whole + (whole * cores != shards ? I{1} : I{0});
    return {pages, shards, ss, whole, per_core, contiguous ? per_core : cores};
}

// The deal rule. Round robin: shard s -> core s % P, slot s / P. Contiguous: k =
// ceil(vol(G)/P), shard s -> core s / k, slot s % k. [3,7,5]/[2,2,2], 6 cores, round
// robin: deal(20) == {2, 3}.
template <class G, class I>
NDSHARD_INLINE constexpr deal_result<I> deal(const G& g, I s) noexcept NDSHARD_REQUIRES_DEAL(G, I) {
    const I q = g.deal_div(s);
    if (g.contiguous_deal()) return {q, s - q * g.deal_block()};
    return {s - q * g.num_cores_of(), q};
}

// The shard in a core's slot; the caller checks slot < shards_on_core(core).
template <class G, class I>
constexpr I shard_in_slot(const G& g, I core, I slot) noexcept NDSHARD_REQUIRES_DEAL(G, I) {
    if (g.contiguous_deal()) return core * g.deal_block() + slot;
    return slot * g.num_cores_of() + core;
}

// Shards dealt to a core (its real shards, at most its reserved slots). Round robin gives
// vol(G)/P + (c < vol(G)%P); contiguous gives min(k, vol(G) - c*k). The slot limit only
// binds for grid_2d, whose one slot per core is the deal of a grid that fits the cores
// (vol(G) <= P), so there both formulas give 1 or 0 already.
// [2,2,4]/[2,2,2] on 4 cores: 1, 1, 0, 0.
template <class G, class I>
constexpr I shards_on_core(const G& g, I core) noexcept NDSHARD_REQUIRES_GEOMETRY(G, I) {
    const I n = g.num_shards_of();
    if (core >= g.num_cores_of()) return 0;
    I count = 0;
    if (g.contiguous_deal()) {
        const I k = g.deal_block();
        // core * k < n + P: in 64 bits it cannot wrap (n < 2^64 - 2^16 on the host, < 2^32 here).
        const std::uint64_t first = static_cast<std::uint64_t>(core) * k;
        count = first >= n ? 0 : (n - static_cast<I>(first) < k ? n - static_cast<I>(first) : k);
    } else {
        const I q = g.shards_per_core_floor();
        count = q + (core < n - q * g.num_cores_of() ? 1 : 0);
    }
    return count < g.max_slots() ? count : g.max_slots();
}

// One tensor digit c of dim d: its grid digit (c / S[d]) goes into the shard id, its
// in-shard digit (c % S[d]) into the in-shard offset.
template <class G, class I, class D>
NDSHARD_INLINE constexpr void add_digit(const G& g, D d, I c, I& shard, I& offset) noexcept {
    const I gq = g.shard_div(d, c);
    shard += gq * g.grid_stride_of(d);
    offset += (c - gq * g.shard_extent(d)) * g.shard_stride_of(d);
}

// The place of in-shard offset `offset` of shard `shard`: the deal gives core and slot.
template <class G, class I>
NDSHARD_INLINE constexpr page_place<I> placed(const G& g, I shard, I offset) noexcept NDSHARD_REQUIRES_GEOMETRY(G, I) {
    const deal_result<I> home = detail::deal(g, shard);
    return {shard, offset, home.core, home.slot, home.slot * g.shard_volume_of() + offset};
}

// Page id -> place. Digits of the id in the tensor's mixed radix are split into a grid
// digit (c / S[d]) and an in-shard digit (c % S[d]); dim 0 needs no division because
// a valid id leaves a remainder < T[0] there.
// [3,7,5]/[2,2,2] on 6 cores: page 36 = (1,0,1) -> shard 0, in-shard offset 5, core 0, slot 0.
template <class G, class I>
NDSHARD_INLINE constexpr page_place<I> place_page(const G& g, I id) noexcept NDSHARD_REQUIRES_GEOMETRY(G, I) {
    I shard = 0;
    I offset = 0;
    g.for_each_dim_reversed([&](auto d) NDSHARD_INLINE_LAMBDA {
        I c = id;
        if (static_cast<std::size_t>(d) != 0) {
            const I q = g.tensor_div(d, id);
            c = id - q * g.tensor_extent(d);
            id = q;
        }
        add_digit(g, d, c, shard, offset);
    });
    return placed(g, shard, offset);
}

// Page coordinate (in the geometry's rank) -> place; the same digits without dividing by T.
template <class G, class I, class Coord>
NDSHARD_INLINE constexpr page_place<I> place_coord(const G& g, const Coord& coord) noexcept
    NDSHARD_REQUIRES_GEOMETRY(G, I) {
    I shard = 0;
    I offset = 0;
    g.for_each_dim_reversed([&](auto d) NDSHARD_INLINE_LAMBDA {
        add_digit(g, d, static_cast<I>(coord[static_cast<std::size_t>(d)]), shard, offset);
    });
    return placed(g, shard, offset);
}

// Shard coordinate -> shard id (row-major over the grid): uses every coordinate,
// unlike the tt-metal lookup that ignored it.
template <class G, class I, class Coord>
constexpr I shard_id_of(const G& g, const Coord& coord) noexcept NDSHARD_REQUIRES_GEOMETRY(G, I) {
    I shard = 0;
    g.for_each_dim_reversed(
        [&](auto d) { shard += static_cast<I>(coord[static_cast<std::size_t>(d)]) * g.grid_stride_of(d); });
    return shard;
}

// Shard id -> its coordinate in the grid, written into out[0..rank).
template <class G, class I, class Out>
NDSHARD_INLINE constexpr void shard_coord_of(const G& g, I shard, Out& out) noexcept NDSHARD_REQUIRES_GEOMETRY(G, I) {
    g.for_each_dim_reversed([&](auto d) NDSHARD_INLINE_LAMBDA {
        if (static_cast<std::size_t>(d) != 0) {
            const I q = g.grid_div(d, shard);
            out[static_cast<std::size_t>(d)] = shard - q * g.grid_extent(d);
            shard = q;
        } else {
            out[0] = shard;
        }
    });
}

// Page id -> its coordinate in the tensor's pages, written into out[0..rank): the digits
// place_page splits (dim 0 keeps the rest).
template <class G, class I, class Out>
constexpr void page_coord_of(const G& g, I id, Out& out) noexcept NDSHARD_REQUIRES_GEOMETRY(G, I) {
    g.for_each_dim_reversed([&](auto d) NDSHARD_INLINE_LAMBDA {
        if (static_cast<std::size_t>(d) != 0) {
            const I q = g.tensor_div(d, id);
            out[static_cast<std::size_t>(d)] = id - q * g.tensor_extent(d);
            id = q;
        } else {
            out[0] = id;
        }
    });
}

// The real (non-padding) extent along one dim of the shard that starts at tensor index
// `first` (a multiple of s), for a tensor extent t cut in shard extent s: min(s, t - first).
// The one formula; first < t. t 7, s 2: first 0..4 -> 2, first 6 -> 1.
template <class I>
NDSHARD_INLINE constexpr I real_extent_from(I t, I s, I first) noexcept {
    const I left = t - first;
    return left < s ? left : s;
}
// The same for the shard at grid coordinate q along that dim: first = q * s.
// t 7, s 2: q 0..2 -> 2, q 3 -> 1.
template <class I>
NDSHARD_INLINE constexpr I real_extent(I t, I s, I q) noexcept {
    return real_extent_from(t, s, q * s);
}

// One dim's share of a page id: the page at in-shard index r of the shard at grid index q,
// along a dim of shard extent s and tensor stride ts, is (q*s + r) * ts. Summed over the
// dims it is the inverse of place_page's digits: [3,7,5]/[2,2,2], q [0,2,0], r [1,0,1]
// -> 35 + 20 + 1 = page 56.
template <class I>
NDSHARD_INLINE constexpr I page_digit(I q, I s, I r, I ts) noexcept {
    return (q * s + r) * ts;
}

// Real (non-padding) pages of a shard: prod_d real_extent(T[d], S[d], q[d]).
// [3,7,5]/[2,2,2]: shard 23 = (1,3,2) holds 1*1*1 page.
template <class G, class I>
constexpr I pages_in_shard(const G& g, I s) noexcept NDSHARD_REQUIRES_GEOMETRY(G, I) {
    I q[8] = {};
    shard_coord_of(g, s, q);
    I n = 1;
    g.for_each_dim_reversed([&](auto d) {
        const std::size_t i = static_cast<std::size_t>(d);
        n *= real_extent<I>(g.tensor_extent(d), g.shard_extent(d), q[i]);
    });
    return n;
}

}  // namespace detail
}  // namespace ndshard
