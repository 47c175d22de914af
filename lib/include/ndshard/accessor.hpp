// ndshard/accessor.hpp - the device-side accessor: page -> (bank, offset, NoC address).
//
// accessor<CT> is built from compile-time words CT (a std::array, see args.hpp) and a
// span of runtime words. Construction validates the runtime words once (length, rank,
// shapes, checksum, 32-bit address limits) and throws spec_error on anything malformed;
// afterwards every query assumes a valid argument (page id < num_pages, ...) and does
// 32-bit arithmetic only, with no division instruction: a page id's digits come from one
// widening multiply each (a fixed-point fraction, see for_each_digit), each digit's shard
// quotient from a reciprocal (a multiply-and-shift for compile-time dims), and shard id and
// offset accumulate packed in one 64-bit word (detail/place.hpp, packed_terms). A runtime
// rank is dispatched once per query to code unrolled for that rank. The mapping formulas
// are detail/place.hpp's, shared with the host layout.
//
// Runtime words are borrowed, not copied: they must outlive the accessor.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "ndshard/args.hpp"
#include "ndshard/detail/place.hpp"
#include "ndshard/fast_divider.hpp"

namespace ndshard {

struct bank_and_offset {
    std::uint32_t bank;         // index into the bank (core) list
    std::uint32_t page_offset;  // pages from the buffer's base in that bank
    friend constexpr bool operator==(const bank_and_offset&, const bank_and_offset&) = default;
};

struct noc_addr {
    std::uint32_t x;
    std::uint32_t y;
    std::uint32_t addr;  // byte address inside core (x, y)
    friend constexpr bool operator==(const noc_addr&, const noc_addr&) = default;
    // tt-metal style 64-bit form: x in bits 48..63, y in 32..47, address below.
    [[nodiscard]] constexpr std::uint64_t packed() const noexcept {
        return (std::uint64_t{x} << 48) | (std::uint64_t{y} << 32) | addr;
    }
};

// What the iterators yield. `core` is the bank's coordinate, which the iterators look up
// once per run of pages in one bank rather than per page: noc_address_of(page_ref) then
// needs no lookup at all.
struct page_ref {
    std::uint32_t page_id;
    std::uint32_t bank;
    std::uint32_t page_offset;
    core_coord core;
    friend constexpr bool operator==(const page_ref&, const page_ref&) = default;
};

inline constexpr std::array<std::uint32_t, 1> runtime_round_robin{arg::magic};
inline constexpr std::array<std::uint32_t, 1> runtime_contiguous{arg::magic | arg::contiguous};

namespace detail {

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
        reject_args("args_config", "compile-time word 0 is not an ndshard config word");
    a.config = w[0];
    const std::uint32_t mask = a.config & arg::all_static;
    if (!is_valid_static_mask(mask)) reject_args("args_config", "invalid static mask");
    std::size_t i = 1;
    auto next = [&]() {
        if (i >= N) reject_args("args_length", "compile-time words end early");
        return w[i++];
    };
    if (mask & arg::rank) {
        a.rank = next();
        if (a.rank < 1 || a.rank > max_rank) reject_args("args_rank", "compile-time rank not in 1..8");
    }
    if (mask & arg::num_banks) a.num_banks = next();
    if (mask & arg::tensor_shape)
        for (std::uint32_t d = 0; d < a.rank; ++d) a.tensor[d] = next();
    if (mask & arg::shard_shape)
        for (std::uint32_t d = 0; d < a.rank; ++d) a.shard[d] = next();
    a.coords_at = i;
    if (mask & arg::bank_coords)
        for (std::uint32_t b = 0; b < a.num_banks; ++b) (void)next();
    if (i != N) reject_args("args_length", "compile-time words are longer than their config says");
    if (mask & arg::shard_shape)
        for (std::uint32_t d = 0; d < a.rank; ++d)
            if (a.shard[d] == 0) reject_args("args_shape", "compile-time shard dim is 0");
    a.checksum.add_all(w);
    return a;
}

// Rejections build their messages out of line, so the constructor carries no string code.
[[noreturn]] NDSHARD_COLD inline void reject_with(const char* rule, const char* text) { reject_args(rule, text); }
[[noreturn]] NDSHARD_COLD inline void reject_with(const char* rule, const char* before, std::uint64_t value,
                                                  const char* after) {
    reject_args(rule, before + std::to_string(value) + after);
}
[[noreturn]] NDSHARD_COLD inline void reject_short(const char* what, std::size_t have) {
    reject_args("args_length", std::string("runtime words end before ") + what + " (have " + std::to_string(have) + ")");
}
[[noreturn]] NDSHARD_COLD inline void reject_length(std::size_t expected, std::size_t have) {
    reject_args("args_length", "expected " + std::to_string(expected) + " runtime words, got " + std::to_string(have));
}
[[noreturn]] NDSHARD_COLD inline void reject_address(std::uint32_t bank_base, std::uint32_t page_size) {
    reject_args("address_32bit", "bank base " + std::to_string(bank_base) + " + reserved pages x " +
                                     std::to_string(page_size) + " bytes ends past 2^32");
}

// Everything derived from (rank, T, S, P, deal rule) that the queries need. Filled
// completely by make_geometry (dims past the rank with zeros), written once.
struct dim_state {
    std::uint64_t tensor;       // T[d], 64-bit: the operand of a digit multiply
    std::uint64_t shard_recip;  // reciprocal_of(S[d]); 0 for S[d] == 1, whose quotient is never needed
    packed_terms terms;
    std::uint32_t shard, grid;
    std::uint32_t tensor_stride, shard_stride, grid_stride;
};
struct geometry_state {
    std::uint32_t rank, num_banks;
    std::uint32_t shard_volume, num_shards, num_pages, max_shards_per_core;
    std::uint64_t page_recip;      // page id -> its digits (for_each_digit)
    std::uint64_t shard_id_recip;  // shard id -> its digits (for_each_shard_digit)
    fast_divider deal_div;         // P (round robin) or k (contiguous); 1 when that is 0
    std::array<dim_state, max_rank> dims;
};

constexpr std::uint32_t nonzero(std::uint32_t v) noexcept { return v == 0 ? 1 : v; }

[[noreturn]] NDSHARD_COLD inline void reject_no_banks(std::uint32_t rank, const std::uint32_t* tensor,
                                                      const std::uint32_t* shard) {
    std::uint64_t shards = 1;
    for (std::uint32_t d = 0; d < rank; ++d) shards = sat_mul(shards, ceil_div(tensor[d], shard[d]));
    reject_with("args_banks", "0 banks for ", shards, " shards");
}

// Validates the shapes (the rules of check_arg_shapes, in its order) and builds the
// geometry in `g`. Divides only here, once per reciprocal (R + 3 or R + 4 divisions),
// so that no query ever divides. tensor and shard point at rank words each.
constexpr void make_geometry(geometry_state& g, std::uint32_t rank, const std::uint32_t* tensor,
                             const std::uint32_t* shard, std::uint32_t banks, bool contiguous) {
    std::uint64_t span = 1, volume = 1;
    bool any_shard = true;
    for (std::uint32_t d = 0; d < rank; ++d) {
        if (shard[d] == 0) reject_with("args_shape", "shard dim ", d, " is 0");
        span = sat_mul(span, nonzero(tensor[d]));
        volume = sat_mul(volume, shard[d]);
        any_shard = any_shard && tensor[d] != 0;
    }
    if (span >= two_pow_32) reject_with("args_shape", "tensor spans ", span, " page ids, past 2^32-1");
    if (volume >= two_pow_32) reject_with("args_shape", "shard holds ", volume, " pages, past 2^32-1");
    if (banks > max_cores) reject_with("args_banks", "", banks, " banks; at most 65536");
    if (banks == 0 && any_shard) reject_no_banks(rank, tensor, shard);

    // Every product below is bounded by span or volume (< 2^32), so nothing wraps.
    g.rank = rank;
    g.num_banks = banks;
    std::uint64_t pages = 1, shards = 1;
    std::uint32_t ts = 1, ss = 1, gs = 1;
    for (std::uint32_t d = rank; d-- > 0;) {
        const std::uint32_t t = tensor[d], s = shard[d];
        const std::uint64_t recip = reciprocal_of(s);
        const std::uint64_t q = s == 1 ? t : mulhi64(recip, t);  // t / s, exact
        const auto grid = static_cast<std::uint32_t>(q + (q * s != t ? 1 : 0));
        g.dims[d].tensor = t;
        g.dims[d].shard = s;
        g.dims[d].grid = grid;
        g.dims[d].shard_recip = recip;
        g.dims[d].tensor_stride = ts;
        g.dims[d].shard_stride = ss;
        g.dims[d].grid_stride = gs;
        g.dims[d].terms = packed_terms_of(s, gs, ss);
        ts *= nonzero(t);
        ss *= s;
        gs *= nonzero(grid);  // grid <= max(t, 1)
        pages *= t;
        shards *= grid;
    }
    for (std::uint32_t d = rank; d < max_rank; ++d) g.dims[d] = {};
    const fast_divider by_banks(nonzero(banks));
    const std::uint32_t whole = by_banks.divide(static_cast<std::uint32_t>(shards));
    const std::uint32_t per_core = banks == 0 ? 0 : whole + (std::uint64_t{whole} * banks != shards ? 1 : 0);
    g.num_pages = static_cast<std::uint32_t>(pages);
    g.num_shards = static_cast<std::uint32_t>(shards);
    g.shard_volume = static_cast<std::uint32_t>(volume);
    g.max_shards_per_core = per_core;
    g.page_recip = reciprocal_of(pages);
    g.shard_id_recip = reciprocal_of(shards);
    g.deal_div = contiguous ? fast_divider(nonzero(per_core)) : by_banks;
}

struct no_state {};

}  // namespace detail

template <auto CT = runtime_round_robin>
class accessor {
    static constexpr auto S = detail::decode_static(CT);
    static constexpr std::uint32_t mask = S.config & arg::all_static;

public:
    static constexpr bool static_rank = (mask & arg::rank) != 0;
    static constexpr bool static_banks = (mask & arg::num_banks) != 0;
    static constexpr bool static_tensor = (mask & arg::tensor_shape) != 0;
    static constexpr bool static_shard = (mask & arg::shard_shape) != 0;
    static constexpr bool static_coords = (mask & arg::bank_coords) != 0;
    static constexpr bool contiguous = (S.config & arg::contiguous) != 0;
    // Everything but the coordinates known at compile time: no geometry is stored.
    static constexpr bool static_geometry = static_rank && static_banks && static_tensor && static_shard;

private:
    static constexpr detail::geometry_state make_static_geometry() {
        detail::geometry_state g{};
        if constexpr (static_geometry)
            detail::make_geometry(g, S.rank, S.tensor.data(), S.shard.data(), S.num_banks, contiguous);
        return g;
    }
    static constexpr detail::geometry_state SG = make_static_geometry();

    // Compile-time divisors as multiply-and-shift for the numerators they can meet.
    struct static_dividers {
        std::array<bounded_divider, max_rank> shard{};
        bounded_divider deal{};
    };
    static constexpr static_dividers make_static_dividers() {
        static_dividers v;
        if constexpr (static_shard)
            for (std::uint32_t d = 0; d < S.rank; ++d)
                v.shard[d] = bounded_divider_for(S.shard[d], static_tensor ? detail::nonzero(S.tensor[d]) : two_pow_32);
        if constexpr (static_geometry)
            v.deal = bounded_divider_for(detail::nonzero(contiguous ? SG.max_shards_per_core : S.num_banks),
                                         std::uint64_t{SG.num_shards} + 1);  // shards_in_bank divides num_shards itself
        else if constexpr (static_banks && !contiguous)
            v.deal = bounded_divider_for(detail::nonzero(S.num_banks), two_pow_32);
        return v;
    }
    static constexpr static_dividers SD = make_static_dividers();

    // Compile-time coordinates, unpacked once: a bank's (x, y) is one load.
    static constexpr auto make_static_coords() {
        std::array<core_coord, static_coords ? S.num_banks : 0> c{};
        if constexpr (static_coords)
            for (std::uint32_t b = 0; b < S.num_banks; ++b) c[b] = unpack_core(S.words[S.coords_at + b]);
        return c;
    }
    static constexpr auto static_coord_table = make_static_coords();

    // Written completely by the constructor (make_geometry), so it needs no initializer.
    [[no_unique_address]] std::conditional_t<static_geometry, detail::no_state, detail::geometry_state> g_;
    const std::uint32_t* coords_ = nullptr;
    std::uint32_t base_ = 0;
    std::uint32_t page_size_ = 1;

    NDSHARD_INLINE constexpr const detail::geometry_state& geo() const noexcept {
        if constexpr (static_geometry) return SG;
        else return g_;
    }

public:
    // Runtime words as made by make_accessor_words (checksum last). bank_base is the
    // buffer's address in every bank; aligned_page_size the byte stride of pages.
    // Validates everything; its few divisions (one per reciprocal) and the checksum's four
    // chains of multiplies (args.hpp) do not depend on each other, so they overlap.
    constexpr explicit accessor(std::span<const std::uint32_t> rt, std::uint32_t bank_base = 0,
                                std::uint32_t aligned_page_size = 1)
        : base_(bank_base), page_size_(aligned_page_size) {
        std::size_t i = 0;
        auto need = [&](std::size_t n, const char* what) {
            if (rt.size() < i + n)
                detail::reject_short(what, rt.size());
        };
        std::uint32_t rank = S.rank;
        if constexpr (!static_rank) {
            need(1, "the rank");
            rank = rt[i++];
            if (rank < 1 || rank > max_rank)
                detail::reject_with("args_rank", "runtime rank ", rank, " is not in 1..8");
        }
        std::uint32_t banks = S.num_banks;
        if constexpr (!static_banks) {
            need(1, "the bank count");
            banks = rt[i++];
        }
        const std::uint32_t* tensor = S.tensor.data();
        const std::uint32_t* shard = S.shard.data();
        if constexpr (!static_tensor) {
            need(rank, "the tensor shape");
            tensor = rt.data() + i;
            i += rank;
        }
        if constexpr (!static_shard) {
            need(rank, "the shard shape");
            shard = rt.data() + i;
            i += rank;
        }
        if constexpr (!static_coords) {
            if (banks > max_cores) detail::reject_with("args_banks", "", banks, " banks; at most 65536");
            need(banks, "the bank coordinates");
            coords_ = rt.data() + i;
            i += banks;
        }
        need(1, "the checksum");
        if (rt.size() != i + 1) detail::reject_length(i + 1, rt.size());
        if (checksum_state(S.checksum).add_all(rt.data(), i).value() != rt[i])
            detail::reject_with("args_checksum", "runtime words fail their checksum");
        if constexpr (!static_geometry)
            detail::make_geometry(g_, rank, tensor, shard, banks, contiguous);
        if (aligned_page_size == 0) detail::reject_with("args_page_size", "aligned page size 0");
        // reserved pages < 2^64 and the page size < 2^32: the 128-bit product is exact.
        const uint128_t end = uint128_t{bank_base} + static_cast<uint128_t>(std::uint64_t{geo().max_shards_per_core} *
                                                                             geo().shard_volume) *
                                                         aligned_page_size;
        if (end > two_pow_32) detail::reject_address(bank_base, aligned_page_size);
    }

    // --- sizes ---
    [[nodiscard]] constexpr std::uint32_t rank() const noexcept { return static_rank ? S.rank : geo().rank; }
    [[nodiscard]] NDSHARD_INLINE constexpr std::uint32_t num_banks() const noexcept {
        return static_banks ? S.num_banks : geo().num_banks;
    }
    [[nodiscard]] constexpr std::uint32_t num_pages() const noexcept { return geo().num_pages; }
    [[nodiscard]] constexpr std::uint32_t num_shards() const noexcept { return geo().num_shards; }
    [[nodiscard]] constexpr std::uint32_t shard_volume() const noexcept { return geo().shard_volume; }
    [[nodiscard]] constexpr std::uint32_t max_shards_per_core() const noexcept { return geo().max_shards_per_core; }
    [[nodiscard]] constexpr std::uint32_t bank_base() const noexcept { return base_; }
    [[nodiscard]] constexpr std::uint32_t page_size() const noexcept { return page_size_; }
    [[nodiscard]] NDSHARD_INLINE constexpr core_coord bank_coord(std::uint32_t bank) const noexcept {
        if constexpr (static_coords) return static_coord_table[bank];
        else return unpack_core(coords_[bank]);
    }

    // --- page queries ---

    // [3,7,5]/[2,2,2] over 6 banks: get_bank_and_offset(36) == {0, 5}.
    [[nodiscard]] NDSHARD_INLINE constexpr bank_and_offset get_bank_and_offset(std::uint32_t page_id) const noexcept {
        const auto p = detail::place_page(*this, page_id);
        return {p.core, p.device_offset};
    }
    // Page coordinate in the accessor's rank (the folded, possibly squeezed shapes).
    template <class Coord>
    [[nodiscard]] NDSHARD_INLINE constexpr bank_and_offset get_bank_and_offset_at(const Coord& coord) const noexcept {
        const auto p = detail::place_coord<accessor, std::uint32_t>(*this, coord);
        return {p.core, p.device_offset};
    }
    // Byte address inside the bank of a page offset (+ a byte offset inside the page).
    [[nodiscard]] NDSHARD_INLINE constexpr std::uint32_t bank_address(std::uint32_t page_offset,
                                                       std::uint32_t byte_offset = 0) const noexcept {
        return base_ + page_offset * page_size_ + byte_offset;
    }
    [[nodiscard]] NDSHARD_INLINE constexpr noc_addr noc_address(bank_and_offset bo, std::uint32_t byte_offset = 0) const noexcept {
        const core_coord c = bank_coord(bo.bank);
        return {c.x, c.y, bank_address(bo.page_offset, byte_offset)};
    }
    [[nodiscard]] NDSHARD_INLINE constexpr noc_addr get_noc_addr(std::uint32_t page_id, std::uint32_t byte_offset = 0) const noexcept {
        return noc_address(get_bank_and_offset(page_id), byte_offset);
    }
    // A page an iterator yielded: its core coordinate is already there.
    [[nodiscard]] NDSHARD_INLINE constexpr noc_addr noc_address_of(const page_ref& r, std::uint32_t byte_offset = 0) const noexcept {
        return {r.core.x, r.core.y, bank_address(r.page_offset, byte_offset)};
    }
    template <class Coord>
    [[nodiscard]] NDSHARD_INLINE constexpr noc_addr get_noc_addr_at(const Coord& coord, std::uint32_t byte_offset = 0) const noexcept {
        return noc_address(get_bank_and_offset_at(coord), byte_offset);
    }

    // --- shard queries: address of the shard's first slot ---
    [[nodiscard]] NDSHARD_INLINE constexpr bank_and_offset shard_bank_and_offset(std::uint32_t shard_id) const noexcept {
        const auto h = deal(shard_id);
        return {h.core, h.slot * geo().shard_volume};
    }
    [[nodiscard]] constexpr noc_addr get_shard_noc_addr(std::uint32_t shard_id, std::uint32_t byte_offset = 0) const noexcept {
        return noc_address(shard_bank_and_offset(shard_id), byte_offset);
    }
    template <class Coord>
    [[nodiscard]] constexpr std::uint32_t shard_id_at(const Coord& shard_coord) const noexcept {
        return detail::shard_id_of<accessor, std::uint32_t>(*this, shard_coord);
    }
    template <class Coord>
    [[nodiscard]] constexpr noc_addr get_shard_noc_addr_at(const Coord& shard_coord, std::uint32_t byte_offset = 0) const noexcept {
        return get_shard_noc_addr(shard_id_at(shard_coord), byte_offset);
    }

    // --- locality ---
    [[nodiscard]] constexpr bool is_local_bank(std::uint32_t bank, core_coord me) const noexcept {
        return bank_coord(bank) == me;
    }
    [[nodiscard]] constexpr bool is_local_page(std::uint32_t page_id, core_coord me) const noexcept {
        return is_local_bank(get_bank_and_offset(page_id).bank, me);
    }
    [[nodiscard]] constexpr bool is_local_shard(std::uint32_t shard_id, core_coord me) const noexcept {
        return is_local_bank(deal(shard_id).core, me);
    }
    [[nodiscard]] static constexpr bool is_local_addr(noc_addr a, core_coord me) noexcept {
        return a.x == me.x && a.y == me.y;
    }
    // Shards dealt to a bank (its real shards, not its reserved slots).
    [[nodiscard]] constexpr std::uint32_t shards_in_bank(std::uint32_t bank) const noexcept {
        const std::uint32_t n = geo().num_shards, p = num_banks();
        if (bank >= p) return 0;
        if constexpr (contiguous) {
            const std::uint64_t first = std::uint64_t{bank} * geo().max_shards_per_core;
            if (first >= n) return 0;
            const std::uint64_t left = n - first;
            return static_cast<std::uint32_t>(left < geo().max_shards_per_core ? left : geo().max_shards_per_core);
        } else {
            const std::uint32_t q = deal_divide(n);
            return q + (bank < n - q * p ? 1U : 0U);
        }
    }
    // The shard in a bank's slot (slot < shards_in_bank(bank)).
    [[nodiscard]] constexpr std::uint32_t shard_in_slot(std::uint32_t bank, std::uint32_t slot) const noexcept {
        if constexpr (contiguous) return bank * geo().max_shards_per_core + slot;
        else return slot * num_banks() + bank;
    }

    // --- iteration (see the range types below) ---
    class page_iterator;
    class shard_iterator;
    class local_iterator;
    template <class It>
    struct range {
        It first;
        constexpr It begin() const { return first; }
        static constexpr std::default_sentinel_t end() { return {}; }
    };
    // Every page, in page id order, with its bank and offset; no division per step.
    [[nodiscard]] constexpr range<page_iterator> pages() const { return {page_iterator(*this)}; }
    // One shard's real pages in device order (padding skipped).
    [[nodiscard]] constexpr range<shard_iterator> shard_pages(std::uint32_t shard_id) const {
        return {shard_iterator(*this, shard_id)};
    }
    // One bank's real pages in device order: its slots in turn, padding skipped.
    [[nodiscard]] constexpr range<local_iterator> local_pages(std::uint32_t bank) const {
        return {local_iterator(*this, bank)};
    }

    // --- geometry interface for detail/place.hpp ---
    // f(std::integral_constant<std::size_t, rank>): a runtime rank is dispatched once, so
    // every per-dim loop below is unrolled for the rank at hand.
    template <class F>
    NDSHARD_INLINE constexpr decltype(auto) with_rank(F&& f) const {
        if constexpr (static_rank) {
            return f(std::integral_constant<std::size_t, S.rank>{});
        } else {
            switch (geo().rank) {
                case 1: return f(std::integral_constant<std::size_t, 1>{});
                case 2: return f(std::integral_constant<std::size_t, 2>{});
                case 3: return f(std::integral_constant<std::size_t, 3>{});
                case 4: return f(std::integral_constant<std::size_t, 4>{});
                case 5: return f(std::integral_constant<std::size_t, 5>{});
                case 6: return f(std::integral_constant<std::size_t, 6>{});
                case 7: return f(std::integral_constant<std::size_t, 7>{});
                default: return f(std::integral_constant<std::size_t, 8>{});  // validated: 1..8
            }
        }
    }
    template <class F>
    NDSHARD_INLINE constexpr void for_each_dim_reversed(F&& f) const {
        with_rank([&](auto r) NDSHARD_INLINE_LAMBDA {
            [&]<std::size_t... I>(std::index_sequence<I...>) NDSHARD_INLINE_LAMBDA {
                (f(std::integral_constant<std::size_t, r() - 1 - I>{}), ...);
            }(std::make_index_sequence<r()>{});
        });
    }
    // Digits of a page id, outermost first, one widening multiply each: frac = id * ceil(2^64/N)
    // is id/N as a 0.64 fixed-point fraction, and frac * T[d] puts digit d in the high
    // word and the rest, as a fraction of the inner dims, in the low word. Exact for every
    // id < N < 2^32: the fraction starts below id units of 2^-64 too high and each step
    // multiplies that by T[d], which stays below N units of what the inner dims span,
    // too little to carry into a digit. [3,7,5]: 36 -> 1, 0, 1.
    template <class R, class F>
    NDSHARD_INLINE constexpr void for_each_digit(R rank, std::uint32_t id, F&& f) const noexcept {
        if constexpr (rank() == 1) {
            f(std::integral_constant<std::size_t, 0>{}, id);
        } else {
            std::uint64_t frac = std::uint64_t{id} * geo().page_recip;
            detail::for_each_index<rank()>([&](auto d) NDSHARD_INLINE_LAMBDA {
                const uint128_t p = static_cast<uint128_t>(frac) * geo().dims[d].tensor;
                f(d, static_cast<std::uint32_t>(p >> 64));
                frac = static_cast<std::uint64_t>(p);
            });
        }
    }
    // The same for a shard id in the radix G.
    template <class F>
    NDSHARD_INLINE constexpr void for_each_shard_digit(std::uint32_t shard, F&& f) const noexcept {
        with_rank([&](auto rank) NDSHARD_INLINE_LAMBDA {
            if constexpr (rank() == 1) {
                f(std::integral_constant<std::size_t, 0>{}, shard);
            } else {
                std::uint64_t frac = std::uint64_t{shard} * geo().shard_id_recip;
                detail::for_each_index<rank()>([&](auto d) NDSHARD_INLINE_LAMBDA {
                    const uint128_t p = static_cast<uint128_t>(frac) * grid_extent(d);
                    f(d, static_cast<std::uint32_t>(p >> 64));
                    frac = static_cast<std::uint64_t>(p);
                });
            }
        });
    }
    template <class D>
    NDSHARD_INLINE constexpr detail::packed_terms packed_terms_of_dim(D d) const noexcept { return geo().dims[d].terms; }
    template <class D>
    NDSHARD_INLINE constexpr std::uint32_t packed_quotient(D d, std::uint32_t c) const noexcept {
        if constexpr (static_shard) return SD.shard[d].divide(c);
        else return static_cast<std::uint32_t>(mulhi64(geo().dims[d].shard_recip, c));  // 0 for S[d] == 1
    }
    // n / T[d] and friends: exact, but not on any hot path (the digits above replace them).
    template <class D>
    constexpr std::uint32_t tensor_div(D d, std::uint32_t n) const noexcept { return n / detail::nonzero(tensor_extent(d)); }
    template <class D>
    NDSHARD_INLINE constexpr std::uint32_t tensor_extent(D d) const noexcept {
        if constexpr (static_tensor) return S.tensor[d];
        else return static_cast<std::uint32_t>(geo().dims[d].tensor);
    }
    // c / S[d] for a digit c < T[d], exact also when S[d] == 1.
    template <class D>
    NDSHARD_INLINE constexpr std::uint32_t digit_quotient(D d, std::uint32_t c) const noexcept {
        if constexpr (static_shard) return SD.shard[d].divide(c);
        else return geo().dims[d].shard == 1 ? c : static_cast<std::uint32_t>(mulhi64(geo().dims[d].shard_recip, c));
    }
    template <class D>
    constexpr std::uint32_t shard_div(D d, std::uint32_t n) const noexcept {
        if constexpr (static_shard) return n / S.shard[d];
        else return geo().dims[d].shard == 1 ? n : static_cast<std::uint32_t>(mulhi64(geo().dims[d].shard_recip, n));
    }
    template <class D>
    NDSHARD_INLINE constexpr std::uint32_t shard_extent(D d) const noexcept {
        if constexpr (static_shard) return S.shard[d];
        else return geo().dims[d].shard;
    }
    template <class D>
    constexpr std::uint32_t grid_div(D d, std::uint32_t n) const noexcept { return n / detail::nonzero(grid_extent(d)); }
    template <class D>
    NDSHARD_INLINE constexpr std::uint32_t grid_extent(D d) const noexcept { return geo().dims[d].grid; }
    template <class D>
    constexpr std::uint32_t grid_stride_of(D d) const noexcept { return geo().dims[d].grid_stride; }
    template <class D>
    constexpr std::uint32_t shard_stride_of(D d) const noexcept { return geo().dims[d].shard_stride; }
    NDSHARD_INLINE constexpr std::uint32_t shard_volume_of() const noexcept { return geo().shard_volume; }
    NDSHARD_INLINE constexpr std::uint32_t deal_divide(std::uint32_t s) const noexcept {
        if constexpr (static_geometry || (static_banks && !contiguous)) return SD.deal.divide(s);
        else return geo().deal_div.divide(s);
    }
    NDSHARD_INLINE constexpr deal_result<std::uint32_t> deal(std::uint32_t s) const noexcept {
        const std::uint32_t q = deal_divide(s);
        if constexpr (contiguous) return {q, s - q * geo().max_shards_per_core};
        else return {s - q * num_banks(), q};
    }

};

// ---------------------------------------------------------------------------------
// Iterators. All three walk runs: consecutive pages along the last dim inside one shard,
// which are consecutive page ids at consecutive device offsets in one bank. A step inside
// a run is three increments; at a run's end the per-dim counters carry like an odometer
// with deltas worked out when the iterator was made. None divides per step
// (shard_iterator and local_iterator divide once per shard, to find it).

template <auto CT>
class accessor<CT>::page_iterator {
public:
    using value_type = page_ref;
    using difference_type = std::ptrdiff_t;
    constexpr page_iterator() = default;
    constexpr explicit page_iterator(const accessor& a) : a_(&a), rank_(a.rank()), end_(a.num_pages()) {
        const auto& g = a.geo();
        divisor_ = a.num_banks();
        if constexpr (contiguous) divisor_ = g.max_shards_per_core;
        divisor_ = detail::nonzero(divisor_);
        for (std::uint32_t d = 0; d < rank_; ++d) {
            step_[d] = split(g.dims[d].grid_stride);
            wrap_[d] = split((g.dims[d].grid == 0 ? 0 : g.dims[d].grid - 1) * g.dims[d].grid_stride);
            const auto t = static_cast<std::uint32_t>(g.dims[d].tensor);
            wrap_offset_[d] = (t == 0 ? 0 : (t - 1) % g.dims[d].shard) * g.dims[d].shard_stride;
        }
        shard_volume_ = g.shard_volume;
        if (end_ != 0) {
            const std::uint32_t last = rank_ - 1;
            t_last_ = static_cast<std::uint32_t>(g.dims[last].tensor);
            s_last_ = g.dims[last].shard;
            step_last_ = step_[last];
            wrap_last_ = wrap_[last];
            run_ = run_length_ = t_last_ < s_last_ ? t_last_ : s_last_;
            page_end_ = device_end_ = run_;  // page 0 is slot 0 of bank 0
            core_ = a.bank_coord(0);
        }
    }
    // Inside a run, page and offset are the run's ends minus the pages left in it.
    constexpr page_ref operator*() const noexcept { return {page_end_ - run_, bank_, device_end_ - run_, core_}; }
    constexpr page_iterator& operator++() noexcept {
        if (--run_ != 0) [[likely]] return *this;
        if (page_end_ != end_) next_run();  // else run_ == 0: past the last page
        return *this;
    }
    constexpr void operator++(int) noexcept { ++*this; }
    constexpr bool operator==(std::default_sentinel_t) const noexcept { return run_ == 0; }

private:
    struct split_delta {
        std::uint32_t major, minor;
    };
    // shard ids are tracked as major * divisor + minor, so (bank, slot) needs no division.
    constexpr split_delta split(std::uint32_t delta) const noexcept { return {delta / divisor_, delta % divisor_}; }
    constexpr void add(split_delta s) noexcept {
        major_ += s.major;
        minor_ += s.minor;
        if (minor_ >= divisor_) {
            minor_ -= divisor_;
            ++major_;
        }
    }
    constexpr void sub(split_delta s) noexcept {
        if (minor_ < s.minor) {
            minor_ += divisor_ - s.minor;
            major_ -= s.major + 1;
        } else {
            minor_ -= s.minor;
            major_ -= s.major;
        }
    }
    // The run that just ended covered run_length_ pages of the last dim from p_last_:
    // move past it, into the next shard along the last dim or, at the tensor's edge,
    // back to that dim's start with a carry into the outer dims. A run always starts at
    // the first slot of a shard along the last dim.
    constexpr void next_run() noexcept {
        p_last_ += run_length_;
        if (p_last_ != t_last_) [[likely]] {
            add(step_last_);
        } else {
            p_last_ = 0;
            sub(wrap_last_);
            carry_outer();
        }
        const std::uint32_t left = t_last_ - p_last_;
        run_ = run_length_ = left < s_last_ ? left : s_last_;
        bank_ = contiguous ? major_ : minor_;
        core_ = a_->bank_coord(bank_);
        page_end_ += run_;
        device_end_ = (contiguous ? minor_ : major_) * shard_volume_ + offset_ + run_;
    }
    constexpr void carry_outer() noexcept {
        const auto& g = a_->geo();
        for (std::uint32_t d = rank_ - 1; d-- > 0;) {
            if (++p_[d] == g.dims[d].tensor) {  // this dim wraps too: back to its first shard
                offset_ -= wrap_offset_[d];
                sub(wrap_[d]);
                p_[d] = 0;
                r_[d] = 0;
                continue;
            }
            if (++r_[d] == g.dims[d].shard) {  // into the next shard along d
                r_[d] = 0;
                offset_ -= (g.dims[d].shard - 1) * g.dims[d].shard_stride;
                add(step_[d]);
            } else {
                offset_ += g.dims[d].shard_stride;
            }
            return;
        }
    }

    const accessor* a_ = nullptr;
    std::uint32_t rank_ = 0, end_ = 0, divisor_ = 1, shard_volume_ = 0;
    std::uint32_t page_end_ = 0, device_end_ = 0, bank_ = 0, run_ = 0, run_length_ = 0;
    core_coord core_{};
    std::uint32_t p_last_ = 0, t_last_ = 0, s_last_ = 0;
    std::uint32_t offset_ = 0, major_ = 0, minor_ = 0;  // at the current run's first page (the last dim's offset is 0)
    split_delta step_last_{}, wrap_last_{};
    std::array<std::uint32_t, max_rank> p_{}, r_{}, wrap_offset_{};
    std::array<split_delta, max_rank> step_{}, wrap_{};
};

template <auto CT>
class accessor<CT>::shard_iterator {
public:
    using value_type = page_ref;
    using difference_type = std::ptrdiff_t;
    constexpr shard_iterator() = default;
    constexpr shard_iterator(const accessor& a, std::uint32_t shard_id) { start(a, shard_id); }
    // Inside a row, page and offset are the row's ends minus the pages left in it.
    NDSHARD_INLINE constexpr page_ref operator*() const noexcept {
        return {page_end_ - run_, bank_, offset_end_ - run_, core_};
    }
    NDSHARD_INLINE constexpr shard_iterator& operator++() noexcept {
        if (--run_ != 0) [[likely]] return *this;
        if (++row_ < rows_) [[likely]] {
            start_row(row_page_step_, row_offset_step_);
            return *this;
        }
        row_ = 0;
        for (std::uint32_t d = rank_ < 2 ? 0 : rank_ - 2; d-- > 0;) {  // carry into the outer dims
            if (++r_[d] < limit_[d]) {
                start_row(page_carry_[d], offset_carry_[d]);
                return *this;
            }
            r_[d] = 0;
        }
        return *this;  // run_ == 0: past the shard's last page
    }
    constexpr void operator++(int) noexcept { ++*this; }
    NDSHARD_INLINE constexpr bool operator==(std::default_sentinel_t) const noexcept { return run_ == 0; }
    // Pages left, this one included.
    [[nodiscard]] constexpr std::uint32_t remaining() const noexcept {
        if (run_ == 0) return 0;
        std::uint32_t n = run_;
        for (std::uint32_t d = 0; d + 1 < rank_; ++d)
            n += (limit_[d] - 1 - (d + 2 == rank_ ? row_ : r_[d])) * inner_[d];
        return n;
    }

private:
    friend class local_iterator;
    // (Re)starts at a shard's first page, member by member, and inline: local_iterator
    // restarts its shard_iterator in place, so the walk keeps the hot members in registers.
    NDSHARD_INLINE constexpr void start(const accessor& a, std::uint32_t shard_id) noexcept {
        rank_ = a.rank();
        const auto& g = a.geo();
        std::array<std::uint32_t, max_rank> q{};
        detail::shard_coord_of(a, shard_id, q);
        std::uint32_t pages = 1, row_page = 0;
        for (std::uint32_t d = 0; d < rank_; ++d) {
            const auto t = static_cast<std::uint32_t>(g.dims[d].tensor);
            const std::uint32_t s = g.dims[d].shard, rest = t - q[d] * s;
            limit_[d] = rest < s ? rest : s;
            row_page += q[d] * s * g.dims[d].tensor_stride;
            pages *= limit_[d];
        }
        // From the first page of the last row of a block of inner dims (the last dim
        // excluded: a row is walked by the run) to the first page of the next index of d.
        std::uint32_t page_span = 0, offset_span = 0, inner = limit_[rank_ - 1];
        for (std::uint32_t d = rank_ - 1; d-- > 0;) {
            page_carry_[d] = g.dims[d].tensor_stride - page_span;
            offset_carry_[d] = g.dims[d].shard_stride - offset_span;
            inner_[d] = inner;
            page_span += (limit_[d] - 1) * g.dims[d].tensor_stride;
            offset_span += (limit_[d] - 1) * g.dims[d].shard_stride;
            inner *= limit_[d];
        }
        const auto home = a.deal(shard_id);
        bank_ = home.core;
        core_ = a.bank_coord(bank_);
        row_page_ = row_page;
        row_offset_ = home.slot * g.shard_volume;
        row_length_ = limit_[rank_ - 1];
        row_ = 0;
        rows_ = 1;
        row_page_step_ = row_offset_step_ = 0;
        if (rank_ >= 2) {  // the dim rows step along, kept apart from the rarer outer carries
            rows_ = limit_[rank_ - 2];
            row_page_step_ = page_carry_[rank_ - 2];
            row_offset_step_ = offset_carry_[rank_ - 2];
        }
        for (std::uint32_t d = 0; d < rank_; ++d) r_[d] = 0;
        run_ = pages == 0 ? 0 : row_length_;
        page_end_ = row_page_ + run_;
        offset_end_ = row_offset_ + run_;
    }
    NDSHARD_INLINE constexpr void start_row(std::uint32_t page_step, std::uint32_t offset_step) noexcept {
        row_page_ += page_step;
        row_offset_ += offset_step;
        run_ = row_length_;
        page_end_ = row_page_ + run_;
        offset_end_ = row_offset_ + run_;
    }

    std::uint32_t rank_ = 0, bank_ = 0, run_ = 0;
    core_coord core_{};
    std::uint32_t row_page_ = 0, row_offset_ = 0, page_end_ = 0, offset_end_ = 0;
    std::uint32_t row_length_ = 0, row_ = 0, rows_ = 1, row_page_step_ = 0, row_offset_step_ = 0;
    std::array<std::uint32_t, max_rank> r_{}, limit_{}, page_carry_{}, offset_carry_{}, inner_{};
};

template <auto CT>
class accessor<CT>::local_iterator {
public:
    using value_type = page_ref;
    using difference_type = std::ptrdiff_t;
    constexpr local_iterator() = default;
    constexpr local_iterator(const accessor& a, std::uint32_t bank)
        : a_(&a), bank_(bank), slots_(a.shards_in_bank(bank)) {
        if (slots_ != 0) shard_.start(a, a.shard_in_slot(bank_, 0));
    }
    NDSHARD_INLINE constexpr page_ref operator*() const noexcept { return *shard_; }
    NDSHARD_INLINE constexpr local_iterator& operator++() noexcept {
        ++shard_;
        if (shard_ == std::default_sentinel && ++slot_ < slots_) [[unlikely]]
            shard_.start(*a_, a_->shard_in_slot(bank_, slot_));
        return *this;
    }
    constexpr void operator++(int) noexcept { ++*this; }
    NDSHARD_INLINE constexpr bool operator==(std::default_sentinel_t) const noexcept { return slot_ >= slots_; }

private:
    const accessor* a_ = nullptr;
    std::uint32_t bank_ = 0, slots_ = 0, slot_ = 0;
    shard_iterator shard_{};
};

// Runs f(accessor) for all-runtime words, choosing the deal rule from the config word.
template <class F>
decltype(auto) with_runtime_accessor(const accessor_words& w, std::uint32_t bank_base, std::uint32_t page_size, F&& f) {
    if (w.compile_time.size() != 1)
        detail::reject_args("args_length", "with_runtime_accessor needs exactly the config word at compile time");
    if (w.compile_time[0] == runtime_round_robin[0])
        return f(accessor<runtime_round_robin>(w.runtime, bank_base, page_size));
    if (w.compile_time[0] == runtime_contiguous[0])
        return f(accessor<runtime_contiguous>(w.runtime, bank_base, page_size));
    detail::reject_args("args_config", "config word is not an all-runtime config");
}

}  // namespace ndshard
