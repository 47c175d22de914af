// ndshard/layout.hpp - the page-level layout: shapes in pages, P cores, a strategy.
//
// A page_layout is what all mapping questions are answered from on the host. It is a
// constexpr value with no allocation, so the conformance vectors of docs/semantics.md are
// proven at compile time (props/conformance.cpp static_asserts them). Its formulas come from
// detail/place.hpp; the accessor instantiates the same ones for the device.
#pragma once

#include <cstdint>
#include <optional>

#include "ndshard/checked.hpp"
#include "ndshard/detail/place.hpp"
#include "ndshard/shape.hpp"
#include "ndshard/spec.hpp"

namespace ndshard {

// How shards are dealt once the core list is fixed. grid_2d deals like round robin over
// its trimmed core list (one shard per core), so two rules cover all three strategies.
enum class deal_rule : std::uint8_t { round_robin, contiguous };

struct page_layout {
    shape tensor;  // folded page grid: rank == rank(shard)
    shape shard;   // shard shape in pages
    shape grid;    // G[d] = ceil(T[d]/S[d])
    shape tensor_stride, shard_stride, grid_stride;
    std::uint64_t num_pages = 0;
    std::uint64_t num_shards = 0;
    std::uint64_t shard_volume = 0;
    std::uint64_t num_cores = 0;  // P: the effective core list's length
    deal_rule rule = deal_rule::round_robin;
    std::uint64_t shards_per_block = 0;     // contiguous: k = ceil(vol(G)/P)
    std::uint64_t max_shards_per_core = 0;  // slots every core reserves

    [[nodiscard]] constexpr std::size_t rank() const noexcept { return tensor.rank(); }
    [[nodiscard]] constexpr std::uint64_t reserved_pages_per_core() const noexcept {
        return max_shards_per_core * shard_volume;
    }

    // --- questions (arguments must be in range: page < num_pages etc.) ---

    // [3,7,5]/[2,2,2], 6 cores: locate(20) -> shard 6, core 0, slot 1, device offset 8.
    [[nodiscard]] constexpr page_place<std::uint64_t> locate(std::uint64_t page) const;
    // Coordinate in the folded rank.
    template <class Coord>
    [[nodiscard]] constexpr page_place<std::uint64_t> locate_coord(const Coord& c) const;

    // Shard id -> its coordinate in the shard grid G, row-major:
    // [3,7,5]/[2,2,2] (G = [2,4,3]): shard 6 -> [0,2,0], shard 23 -> [1,3,2].
    [[nodiscard]] constexpr shape shard_coord(std::uint64_t s) const noexcept;
    // The real (non-padding) extent of shard s along each dim, min(S[d], T[d] - q[d] * S[d]):
    // [3,7,5]/[2,2,2]: shard 6 -> [2,2,2], shard 23 (the far corner) -> [1,1,1].
    [[nodiscard]] constexpr shape real_shard_shape(std::uint64_t s) const noexcept;

    // The page at in-shard coordinate r of the shard at grid coordinate q, or nullopt for
    // padding (q[d]*S[d] + r[d] >= T[d] along some d): the inverse of locate's digits.
    // [3,7,5]/[2,2,2]: q [0,2,0], r [1,0,1] -> page 56; q [1,3,2], r [0,1,0] -> padding.
    template <class Coord>
    [[nodiscard]] constexpr std::optional<std::uint64_t> page_in_shard(const shape& q, const Coord& r) const noexcept;

    // Shard id -> (core, slot); its first page sits at slot * vol(S).
    [[nodiscard]] constexpr deal_result<std::uint64_t> shard_home(std::uint64_t s) const;

    // Inverse map: (core, device page offset) -> page id, or nullopt for a padding slot
    // (also for an offset past the core's reservation).
    // @post for every page p: page_at(locate(p).core, locate(p).device_offset) == p
    [[nodiscard]] constexpr std::optional<std::uint64_t> page_at(std::uint64_t core, std::uint64_t offset) const;

    // Shards dealt to a core: round robin gives vol(G)/P + (c < vol(G)%P).
    [[nodiscard]] constexpr std::uint64_t shards_on_core(std::uint64_t core) const noexcept;
    // The shard id held in a core's slot, or nullopt past the last shard.
    [[nodiscard]] constexpr std::optional<std::uint64_t> shard_in_slot(std::uint64_t core,
                                                                       std::uint64_t slot) const noexcept;
    // Real (non-padding) pages of one shard: prod_d of detail::real_extent along d.
    [[nodiscard]] constexpr std::uint64_t pages_in_shard(std::uint64_t s) const noexcept;
    // Real pages of one core.
    [[nodiscard]] constexpr std::uint64_t pages_on_core(std::uint64_t core) const noexcept;
    // Cores holding at least one shard.
    [[nodiscard]] constexpr std::uint64_t cores_with_data() const noexcept;
};

namespace detail {

// page_layout as detail/place.hpp's geometry: 64-bit, plain division.
struct layout_view {
    const page_layout& l;
    template <class F>
    constexpr void for_each_dim_reversed(F&& f) const {
        for (std::size_t d = l.rank(); d-- > 0;) f(d);
    }
    constexpr std::uint64_t tensor_div(std::size_t d, std::uint64_t n) const { return n / l.tensor[d]; }
    constexpr std::uint64_t tensor_extent(std::size_t d) const { return l.tensor[d]; }
    constexpr std::uint64_t shard_div(std::size_t d, std::uint64_t n) const { return n / l.shard[d]; }
    constexpr std::uint64_t shard_extent(std::size_t d) const { return l.shard[d]; }
    constexpr std::uint64_t grid_div(std::size_t d, std::uint64_t n) const { return n / l.grid[d]; }
    constexpr std::uint64_t grid_extent(std::size_t d) const { return l.grid[d]; }
    constexpr std::uint64_t grid_stride_of(std::size_t d) const { return l.grid_stride[d]; }
    constexpr std::uint64_t shard_stride_of(std::size_t d) const { return l.shard_stride[d]; }
    constexpr std::uint64_t shard_volume_of() const { return l.shard_volume; }
    constexpr std::uint64_t num_cores_of() const { return l.num_cores; }
    constexpr std::uint64_t num_shards_of() const { return l.num_shards; }
    constexpr std::uint64_t max_slots() const { return l.max_shards_per_core; }
    constexpr std::uint64_t deal_block() const { return l.shards_per_block; }
    constexpr bool contiguous_deal() const { return l.rule == deal_rule::contiguous; }
    constexpr std::uint64_t deal_div(std::uint64_t s) const {
        return s / (contiguous_deal() ? l.shards_per_block : l.num_cores);
    }
    constexpr std::uint64_t shards_per_core_floor() const { return l.num_cores == 0 ? 0 : l.num_shards / l.num_cores; }
};

}  // namespace detail

// Row-major strides: strides_of([3,7,5]) == [35,5,1].
constexpr shape strides_of(const shape& s) noexcept {
    shape st = s;
    std::uint64_t acc = 1;
    for (std::size_t d = s.rank(); d-- > 0;) {
        st[d] = acc;
        acc = sat_mul(acc, s[d]);
    }
    return st;
}

// Fold leading dims so the rank becomes r: fold_to_rank([2,3,4,5], 2) == [24,5]. Saturates.
constexpr shape fold_to_rank(const shape& t, std::size_t r) noexcept {
    shape out;
    const std::size_t extra = t.rank() - r;
    std::uint64_t lead = 1;
    for (std::size_t d = 0; d <= extra; ++d) lead = sat_mul(lead, t[d]);
    out.push_back(lead);
    for (std::size_t d = extra + 1; d < t.rank(); ++d) out.push_back(t[d]);
    return out;
}

// Shard grid: grid_of([3,7,5],[2,2,2]) == [2,4,3]; a zero tensor dim gives a zero grid dim.
constexpr shape grid_of(const shape& tensor, const shape& shard) noexcept {
    shape g;
    for (std::size_t d = 0; d < tensor.rank(); ++d) g.push_back(ceil_div(tensor[d], shard[d]));
    return g;
}

namespace detail {

// detail::build_shape's builder for the host: 64-bit, plain division, saturating products.
struct layout_builder {
    page_layout& l;
    constexpr std::uint64_t tensor(std::size_t d) const noexcept { return l.tensor[d]; }
    constexpr std::uint64_t shard(std::size_t d) const noexcept { return l.shard[d]; }
    constexpr std::uint64_t grid(std::size_t, std::uint64_t t, std::uint64_t s) const noexcept {
        return ceil_div(t, s);
    }
    constexpr std::uint64_t mul(product, std::uint64_t a, std::uint64_t x) const noexcept { return sat_mul(a, x); }
    constexpr void dim(std::size_t d, const dim_shape<std::uint64_t>& x) noexcept {
        l.grid[d] = x.grid;
        l.tensor_stride[d] = x.tensor_stride;
        l.shard_stride[d] = x.shard_stride;
        l.grid_stride[d] = x.grid_stride;
    }
};

}  // namespace detail

// Unchecked: expects page shapes that passed make_distribution's rules (or, in
// compile-time tests, shapes known to be valid). rank(tensor) == rank(shard).
// [3,7,5]/[2,2,2] on 6 cores round robin -> 24 shards, 4 per core.
constexpr page_layout make_page_layout(const shape& tensor, const shape& shard, std::uint64_t num_cores, deal_rule rule,
                                       bool one_shard_per_core = false) noexcept {
    page_layout l;
    l.tensor = tensor;
    l.shard = shard;
    l.grid = l.tensor_stride = l.shard_stride = l.grid_stride = tensor;  // rank(tensor) dims, each set below
    detail::layout_builder b{l};
    const auto n = detail::build_shape<std::uint64_t>(b, tensor.rank(), num_cores, rule == deal_rule::contiguous);
    l.num_pages = n.num_pages;
    l.num_shards = n.num_shards;
    l.shard_volume = n.shard_volume;
    l.num_cores = num_cores;
    l.rule = rule;
    l.shards_per_block = rule == deal_rule::contiguous ? n.deal_divisor : 0;
    l.max_shards_per_core = one_shard_per_core ? (l.num_shards == 0 ? 0 : 1) : n.shards_per_core;
    return l;
}

constexpr page_place<std::uint64_t> page_layout::locate(std::uint64_t page) const {
    return detail::place_page(detail::layout_view{*this}, page);
}

constexpr deal_result<std::uint64_t> page_layout::shard_home(std::uint64_t s) const {
    return detail::deal(detail::layout_view{*this}, s);
}

template <class Coord>
constexpr page_place<std::uint64_t> page_layout::locate_coord(const Coord& c) const {
    return detail::place_coord<detail::layout_view, std::uint64_t>(detail::layout_view{*this}, c);
}

constexpr std::optional<std::uint64_t> page_layout::shard_in_slot(std::uint64_t core,
                                                                  std::uint64_t slot) const noexcept {
    if (core >= num_cores || slot >= max_shards_per_core) return std::nullopt;
    const std::uint64_t s = detail::shard_in_slot(detail::layout_view{*this}, core, slot);
    if (s >= num_shards) return std::nullopt;
    return s;
}

constexpr shape page_layout::shard_coord(std::uint64_t s) const noexcept {
    shape q = grid;
    detail::shard_coord_of(detail::layout_view{*this}, s, q);
    return q;
}

constexpr shape page_layout::real_shard_shape(std::uint64_t s) const noexcept {
    shape e = shard_coord(s);
    for (std::size_t d = 0; d < rank(); ++d) e[d] = detail::real_extent(tensor[d], shard[d], e[d]);
    return e;
}

constexpr std::optional<std::uint64_t> page_layout::page_at(std::uint64_t core, std::uint64_t offset) const {
    if (shard_volume == 0 || offset >= reserved_pages_per_core()) return std::nullopt;
    const auto s = shard_in_slot(core, offset / shard_volume);
    if (!s) return std::nullopt;
    shape r = shard;
    std::uint64_t in = offset % shard_volume;
    for (std::size_t d = rank(); d-- > 0;) {
        r[d] = in % shard[d];
        in /= shard[d];
    }
    return page_in_shard(shard_coord(*s), r);
}

template <class Coord>
constexpr std::optional<std::uint64_t> page_layout::page_in_shard(const shape& q, const Coord& r) const noexcept {
    std::uint64_t page = 0;
    for (std::size_t d = 0; d < rank(); ++d) {
        if (r[d] >= detail::real_extent(tensor[d], shard[d], q[d])) return std::nullopt;  // padding: past the edge
        page += detail::page_digit<std::uint64_t>(q[d], shard[d], r[d], tensor_stride[d]);
    }
    return page;
}

constexpr std::uint64_t page_layout::shards_on_core(std::uint64_t core) const noexcept {
    return detail::shards_on_core(detail::layout_view{*this}, core);
}

constexpr std::uint64_t page_layout::pages_in_shard(std::uint64_t s) const noexcept {
    return detail::pages_in_shard(detail::layout_view{*this}, s);
}

constexpr std::uint64_t page_layout::pages_on_core(std::uint64_t core) const noexcept {
    std::uint64_t n = 0;
    for (std::uint64_t slot = 0; slot < max_shards_per_core; ++slot)
        if (auto s = shard_in_slot(core, slot)) n += pages_in_shard(*s);
    return n;
}

constexpr std::uint64_t page_layout::cores_with_data() const noexcept {
    if (num_shards == 0) return 0;
    if (rule == deal_rule::round_robin) return num_shards < num_cores ? num_shards : num_cores;
    return ceil_div(num_shards, shards_per_block);
}

}  // namespace ndshard
