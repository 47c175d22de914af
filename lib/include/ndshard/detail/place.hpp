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
#pragma once

#include <cstddef>
#include <cstdint>

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

// The deal rule. Round robin: shard s -> core s % P, slot s / P. Contiguous: k =
// ceil(vol(G)/P), shard s -> core s / k, slot s % k. [3,7,5]/[2,2,2], 6 cores, round
// robin: deal(20) == {2, 3}.
template <class G, class I>
NDSHARD_INLINE constexpr deal_result<I> deal(const G& g, I s) noexcept {
    const I q = g.deal_div(s);
    if (g.contiguous_deal()) return {q, s - q * g.deal_block()};
    return {s - q * g.num_cores_of(), q};
}

// The shard in a core's slot; the caller checks slot < shards_on_core(core).
template <class G, class I>
constexpr I shard_in_slot(const G& g, I core, I slot) noexcept {
    if (g.contiguous_deal()) return core * g.deal_block() + slot;
    return slot * g.num_cores_of() + core;
}

// Shards dealt to a core (its real shards, at most its reserved slots). Round robin gives
// vol(G)/P + (c < vol(G)%P); contiguous gives min(k, vol(G) - c*k). The slot limit only
// binds for grid_2d, whose one slot per core is the deal of a grid that fits the cores
// (vol(G) <= P), so there both formulas give 1 or 0 already.
// [2,2,4]/[2,2,2] on 4 cores: 1, 1, 0, 0.
template <class G, class I>
constexpr I shards_on_core(const G& g, I core) noexcept {
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
NDSHARD_INLINE constexpr page_place<I> placed(const G& g, I shard, I offset) noexcept {
    const deal_result<I> home = detail::deal(g, shard);
    return {shard, offset, home.core, home.slot, home.slot * g.shard_volume_of() + offset};
}

// Page id -> place. Digits of the id in the tensor's mixed radix are split into a grid
// digit (c / S[d]) and an in-shard digit (c % S[d]); dim 0 needs no division because
// a valid id leaves a remainder < T[0] there.
// [3,7,5]/[2,2,2] on 6 cores: page 36 = (1,0,1) -> shard 0, in-shard offset 5, core 0, slot 0.
template <class G, class I>
NDSHARD_INLINE constexpr page_place<I> place_page(const G& g, I id) noexcept {
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
NDSHARD_INLINE constexpr page_place<I> place_coord(const G& g, const Coord& coord) noexcept {
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
constexpr I shard_id_of(const G& g, const Coord& coord) noexcept {
    I shard = 0;
    g.for_each_dim_reversed(
        [&](auto d) { shard += static_cast<I>(coord[static_cast<std::size_t>(d)]) * g.grid_stride_of(d); });
    return shard;
}

// Shard id -> its coordinate in the grid, written into out[0..rank).
template <class G, class I, class Out>
NDSHARD_INLINE constexpr void shard_coord_of(const G& g, I shard, Out& out) noexcept {
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

// The real (non-padding) extent along one dim of the shard at grid coordinate q, for a
// tensor extent t cut in shard extent s: min(s, t - q*s). t 7, s 2: q 0..2 -> 2, q 3 -> 1.
// The one formula; q must be below the dim's shard count (t - q*s > 0).
template <class I>
NDSHARD_INLINE constexpr I real_extent(I t, I s, I q) noexcept {
    const I left = t - q * s;
    return left < s ? left : s;
}

// Real (non-padding) pages of a shard: prod_d real_extent(T[d], S[d], q[d]).
// [3,7,5]/[2,2,2]: shard 23 = (1,3,2) holds 1*1*1 page.
template <class G, class I>
constexpr I pages_in_shard(const G& g, I s) noexcept {
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
