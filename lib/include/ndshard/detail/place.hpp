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
#pragma once

#include <cstddef>

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

// Page id -> place. Digits of the id in the tensor's mixed radix are split into a grid
// digit (c / S[d]) and an in-shard digit (c % S[d]); dim 0 needs no division because
// a valid id leaves a remainder < T[0] there.
// [3,7,5]/[2,2,2] on 6 cores: page 36 = (1,0,1) -> shard 0, in-shard offset 5, core 0, slot 0.
template <class G, class I>
constexpr page_place<I> place_page(const G& g, I id) noexcept {
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

// Page coordinate (in the geometry's rank) -> place; same digits without dividing by T.
template <class G, class I, class Coord>
constexpr page_place<I> place_coord(const G& g, const Coord& coord) noexcept {
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

}  // namespace detail
}  // namespace ndshard
