// ndshard/detail/decode.hpp - word decoding for the accessor: compile-time words at
// compile time, runtime words once when an accessor is built, into the geometry every
// query reads. Freestanding, 32-bit: a refused list becomes an args_status (words.hpp);
// the caller turns it into an exception (host) or the device trap hook.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "ndshard/config.hpp"
#include "ndshard/detail/place.hpp"
#include "ndshard/fast_divider.hpp"
#include "ndshard/limits.hpp"
#include "ndshard/words.hpp"

#if NDSHARD_HOSTED
#include "ndshard/error.hpp"
#endif

namespace ndshard::detail {

// A bad compile-time word list must not compile. On the host the rejection is the usual
// spec_error (props call decode_static at run time too); in a kernel build it is a call
// to a function that is not constexpr, which is an error in a constant expression.
#if NDSHARD_HOSTED
[[noreturn]] inline void compile_time_reject(const char* rule, const char* text) { reject_args(rule, text); }
#else
[[noreturn]] inline void compile_time_reject(const char*, const char*) { __builtin_trap(); }
#endif

// The compile-time words, decoded (at compile time: a bad list is a compile error).
template <std::size_t N>
struct static_args {
    std::uint32_t config = 0;
    std::uint32_t rank = 0;
    std::uint32_t num_banks = 0;
    std::array<std::uint32_t, max_rank> tensor{};
    std::array<std::uint32_t, max_rank> shard{};
    std::size_t coords_at = 0;
    std::array<std::uint32_t, N> words{};
    checksum_state checksum;  // after the compile-time words
};

template <std::size_t N>
constexpr static_args<N> decode_static(const std::array<std::uint32_t, N>& w) {
    static_args<N> a;
    a.words = w;
    if (N == 0 || (w[0] & arg::magic_mask) != arg::magic || (w[0] & ~arg::known_bits) != 0)
        compile_time_reject("args_config", "compile-time word 0 is not an ndshard config word");
    a.config = w[0];
    const std::uint32_t mask = a.config & arg::all_static;
    if (!is_valid_static_mask(mask)) compile_time_reject("args_config", "invalid static mask");
    std::size_t i = 1;
    auto next = [&]() {
        if (i >= N) compile_time_reject("args_length", "compile-time words end early");
        return w[i++];
    };
    if (mask & arg::rank) {
        a.rank = next();
        if (a.rank < 1 || a.rank > max_rank) compile_time_reject("args_rank", "compile-time rank not in 1..8");
    }
    if (mask & arg::num_banks) a.num_banks = next();
    if (mask & arg::tensor_shape)
        for (std::uint32_t d = 0; d < a.rank; ++d) a.tensor[d] = next();
    if (mask & arg::shard_shape)
        for (std::uint32_t d = 0; d < a.rank; ++d) a.shard[d] = next();
    a.coords_at = i;
    if (mask & arg::bank_coords)
        for (std::uint32_t b = 0; b < a.num_banks; ++b) (void)next();
    if (i != N) compile_time_reject("args_length", "compile-time words are longer than their config says");
    if (mask & arg::shard_shape)
        for (std::uint32_t d = 0; d < a.rank; ++d)
            if (a.shard[d] == 0) compile_time_reject("args_shape", "compile-time shard dim is 0");
    a.checksum.add_all(w);
    return a;
}

// How a query's quotients are taken (fast_divider.hpp), decided once per accessor:
// one_mulhu when every divisor of a page query (T[d] for d >= 1, S[d], the deal's) is at
// least 2 and exact below its numerators' bound; with_addend when some is 1 (its
// reciprocal needs the +1 of approx); corrected otherwise (tensors of more than about
// 2^32 / T[d] pages).
enum class quotients : std::uint8_t { one_mulhu, with_addend, corrected };

// Everything derived from (rank, T, S, P, deal rule) that the queries need, 32-bit.
// Dims past the rank are never read. by_tensor and by_grid of dim 0 are never used (a valid
// id or shard id is its own dim-0 digit).
struct dim_geometry {
    fast_divider by_tensor, by_shard, by_grid;
    std::uint32_t tensor, grid;  // T[d] and G[d] (may be 0; the dividers hold max(., 1))
    std::uint32_t tensor_stride, shard_stride, grid_stride;
};
struct geometry_state {
    std::uint32_t rank, num_banks;
    std::uint32_t shard_volume, num_shards, num_pages, max_shards_per_core;
    std::uint32_t shards_per_bank_floor;  // vol(G) / P
    fast_divider deal_div;                // P (round robin) or k (contiguous); 1 when that is 0
    quotients mode;
    std::array<dim_geometry, max_rank> dims;
};

constexpr std::uint32_t nonzero(std::uint32_t v) noexcept { return v == 0 ? 1 : v; }

// Whether fast_divider `by` is exact for every numerator below `bound` (exact_below), with
// e = m*d + addend: the rounding error of m (0 for d == 1, whose m is 2^32 - 1 on n + 1).
NDSHARD_INLINE constexpr bool exact_for(const fast_divider& by, std::uint32_t bound) noexcept {
    const std::uint32_t e = by.multiplier() * by.divisor() + by.addend();
    return mulhi32(bound - (bound != 0 ? 1U : 0U), e) == 0;
}

// build_shape's builder for the device: 32-bit, a fast_divider per divisor (one 32-bit
// division each, none per query), each wrap of the tensor span or the shard volume noted by
// its high word; the other products are bounded by those two.
struct geometry_builder {
    geometry_state& g;
    const std::uint32_t* tensor_;
    const std::uint32_t* shard_;
    std::uint32_t span_over = 0, volume_over = 0;
    std::uint32_t zero_dim = max_rank;  // the first shard dim that is 0, if any
    bool exact = true, unit = false;

    NDSHARD_INLINE constexpr std::uint32_t tensor(std::size_t d) const noexcept { return tensor_[d]; }
    NDSHARD_INLINE constexpr std::uint32_t shard(std::size_t d) const noexcept { return shard_[d]; }
    NDSHARD_INLINE constexpr std::uint32_t grid(std::size_t d, std::uint32_t t, std::uint32_t s) noexcept {
        if (s == 0) zero_dim = static_cast<std::uint32_t>(d);
        fast_divider& by = g.dims[d].by_shard;
        by = fast_divider(s);
        const std::uint32_t q = by.divide(t);
        return q + (q * s != t ? 1U : 0U);
    }
    NDSHARD_INLINE constexpr std::uint32_t mul(product p, std::uint32_t a, std::uint32_t x) noexcept {
        if (p == product::tensor_span) span_over |= mulhi32(a, x);
        if (p == product::shard_volume) volume_over |= mulhi32(a, x);
        return a * x;
    }
    NDSHARD_INLINE constexpr void dim(std::size_t d, const dim_shape<std::uint32_t>& s) noexcept {
        dim_geometry& x = g.dims[d];
        x.by_tensor = fast_divider(d != 0 ? s.tensor : 1);
        x.by_grid = fast_divider(d != 0 ? s.grid : 1);
        x.tensor = s.tensor;
        x.grid = s.grid;
        x.tensor_stride = s.tensor_stride;
        x.shard_stride = s.shard_stride;
        x.grid_stride = s.grid_stride;
        exact = exact && exact_for(x.by_shard, s.tensor);
        unit = unit || s.shard <= 1 || (d != 0 && s.tensor <= 1);
    }
};

// Validates the shapes (zero shard dim, tensor span, shard volume, banks: in that order) and
// builds `g` through build_shape, the host layout's builder too.
constexpr args_status make_geometry(geometry_state& g, std::uint32_t rank, const std::uint32_t* tensor,
                                    const std::uint32_t* shard, std::uint32_t banks, bool contiguous) noexcept {
    g.rank = rank;
    g.num_banks = banks;
    geometry_builder b{g, tensor, shard};
    const shape_totals<std::uint32_t> n = build_shape<std::uint32_t>(b, rank, banks, contiguous);
    if (b.zero_dim != max_rank) return {args_error::zero_shard_dim, b.zero_dim, 0};
    if (b.span_over != 0) return {args_error::tensor_span, 0, 0};
    if (b.volume_over != 0) return {args_error::shard_volume, 0, 0};
    if (banks > max_cores) return {args_error::too_many_banks, banks, 0};
    if (banks == 0 && n.num_shards != 0) return {args_error::no_banks, 0, 0};

    // Every product is bounded by the span or the volume (< 2^32): nothing wrapped.
    g.num_pages = n.num_pages;
    g.num_shards = n.num_shards;
    g.shard_volume = n.shard_volume;
    g.max_shards_per_core = n.shards_per_core;
    g.shards_per_bank_floor = n.whole_shards_per_core;
    g.deal_div = fast_divider(nonzero(n.deal_divisor));
    bool exact = b.exact && exact_for(g.deal_div, n.num_shards);
    for (std::uint32_t d = 1; d < rank; ++d)  // dim 0's by_tensor and by_grid divide by 1
        exact = exact && exact_for(g.dims[d].by_tensor, n.num_pages) && exact_for(g.dims[d].by_grid, n.num_shards);
    const bool unit = b.unit || g.deal_div.divisor() == 1;
    g.mode = !exact ? quotients::corrected : unit ? quotients::with_addend : quotients::one_mulhu;
    return {};
}

// The precomputed geometry (arg::precomputed): everything make_geometry derives, as runtime
// words after the parts and before the checksum. 9 words, then 14 per dim:
//   num_pages, num_shards, shard_volume, max_shards_per_core, shards_per_bank_floor,
//   the deal's divider (multiplier, addend, divisor), the quotient mode;
//   per dim: by_tensor, by_shard, by_grid (multiplier, addend, divisor each), T[d], G[d],
//   and the tensor, shard and grid strides.
// The host writes it from the geometry make_geometry built (one builder for both sides);
// a trusting accessor copies it back, a validating one builds its own and compares.
inline constexpr std::uint32_t image_header_words = 9;
inline constexpr std::uint32_t image_dim_words = 14;
constexpr std::uint32_t image_words(std::uint32_t rank) noexcept { return image_header_words + image_dim_words * rank; }

template <class Out>
constexpr void write_image(const geometry_state& g, Out& out) {
    auto divider = [&](const fast_divider& f) {
        out.push_back(f.multiplier());
        out.push_back(f.addend());
        out.push_back(f.divisor());
    };
    out.push_back(g.num_pages);
    out.push_back(g.num_shards);
    out.push_back(g.shard_volume);
    out.push_back(g.max_shards_per_core);
    out.push_back(g.shards_per_bank_floor);
    divider(g.deal_div);
    out.push_back(static_cast<std::uint32_t>(g.mode));
    for (std::uint32_t d = 0; d < g.rank; ++d) {
        const dim_geometry& x = g.dims[d];
        divider(x.by_tensor);
        divider(x.by_shard);
        divider(x.by_grid);
        out.push_back(x.tensor);
        out.push_back(x.grid);
        out.push_back(x.tensor_stride);
        out.push_back(x.shard_stride);
        out.push_back(x.grid_stride);
    }
}

// Copies an image (write_image's words at w) into g: loads and stores only.
NDSHARD_INLINE constexpr void read_image(geometry_state& g, const std::uint32_t* w, std::uint32_t rank,
                                         std::uint32_t banks) noexcept {
    g.rank = rank;
    g.num_banks = banks;
    g.num_pages = w[0];
    g.num_shards = w[1];
    g.shard_volume = w[2];
    g.max_shards_per_core = w[3];
    g.shards_per_bank_floor = w[4];
    g.deal_div = fast_divider::from_parts(w[5], w[6], w[7]);
    g.mode = static_cast<quotients>(w[8]);
    w += image_header_words;
    for (std::uint32_t d = 0; d < rank; ++d, w += image_dim_words) {
        dim_geometry& x = g.dims[d];
        x.by_tensor = fast_divider::from_parts(w[0], w[1], w[2]);
        x.by_shard = fast_divider::from_parts(w[3], w[4], w[5]);
        x.by_grid = fast_divider::from_parts(w[6], w[7], w[8]);
        x.tensor = w[9];
        x.grid = w[10];
        x.tensor_stride = w[11];
        x.shard_stride = w[12];
        x.grid_stride = w[13];
    }
}

// The index of the first word of an image that differs from g's own, or image_words(rank)
// when none does (write_image's words compared as they are made).
constexpr std::uint32_t image_mismatch(const geometry_state& g, const std::uint32_t* w) noexcept {
    struct comparer {
        const std::uint32_t* w;
        std::uint32_t at, first;
        constexpr void push_back(std::uint32_t v) noexcept {
            if (first == ~0U && w[at] != v) first = at;
            ++at;
        }
    } c{w, 0, ~0U};
    write_image(g, c);
    return c.first == ~0U ? c.at : c.first;
}

// base + reserved pages * page size must end at or below 2^32; 32 x 32 -> 64-bit products
// only (mul and mulhu on rv32im).
constexpr args_status check_address(std::uint32_t per_core, std::uint32_t volume, std::uint32_t base,
                                    std::uint32_t page_size) noexcept {
    if (page_size == 0) return {args_error::page_size, 0, 0};
    const std::uint64_t reserved = std::uint64_t{per_core} * volume;
    const std::uint64_t room = (std::uint64_t{1} << 32) - base;  // bytes from base to 2^32
    bool fits = false;
    if ((reserved >> 32) == 0) {
        fits = std::uint64_t{static_cast<std::uint32_t>(reserved)} * page_size <= room;
    } else {
        fits = reserved == (std::uint64_t{1} << 32) && page_size == 1 && base == 0;  // exactly 2^32 bytes
    }
    if (!fits) return {args_error::address, base, page_size};
    return {};
}

}  // namespace ndshard::detail
