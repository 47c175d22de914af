// ndshard/accessor.hpp - the device-side accessor: page -> (bank, offset, NoC address).
//
// accessor<CT> is built from compile-time words CT (a std::array; C++17 kernels pass its
// address, accessor<&words>) and runtime words. Construction validates the runtime words
// once (length, rank, shapes, checksum, 32-bit address limits); a malformed list throws
// spec_error on the host, and in a kernel build is reported through an args_status (the
// constructor taking one) or the device trap hook (words.hpp). Afterwards every query
// assumes a valid argument (page id < num_pages, ...) and does 32-bit arithmetic only,
// with no division instruction and no library call: a quotient is one mulhu by a
// reciprocal made at construction (fast_divider.hpp), or a compile-time multiply-and-shift.
// The mapping formulas are detail/place.hpp's, shared with the host layout; the runtime
// words' decoding is detail/decode.hpp; the iterators are detail/iterators.hpp.
//
// Runtime words are borrowed, not copied: they must outlive the accessor.
// Freestanding, C++17 and C++20.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

#include "ndshard/config.hpp"
#include "ndshard/detail/decode.hpp"
#include "ndshard/detail/place.hpp"
#include "ndshard/fast_divider.hpp"
#include "ndshard/limits.hpp"
#include "ndshard/words.hpp"

#if NDSHARD_CPP20
#include <span>
#endif
#if NDSHARD_HOSTED
#include "ndshard/args.hpp"  // a refused word list's message (detail::throw_args_status)
#endif

namespace ndshard {

struct bank_and_offset {
    std::uint32_t bank;         // index into the bank (core) list
    std::uint32_t page_offset;  // pages from the buffer's base in that bank
    friend constexpr bool operator==(const bank_and_offset& a, const bank_and_offset& b) noexcept {
        return a.bank == b.bank && a.page_offset == b.page_offset;
    }
    friend constexpr bool operator!=(const bank_and_offset& a, const bank_and_offset& b) noexcept { return !(a == b); }
};

// tt-metal's NoC unicast address layout (NOC_XY_ADDR of each architecture's
// noc_parameters.h): the address in the low local_bits, then x, then y, id_bits each.
struct noc_encoding {
    std::uint32_t local_bits;
    std::uint32_t id_bits;
};
inline constexpr noc_encoding noc_grayskull{32, 6};
inline constexpr noc_encoding noc_wormhole_b0{36, 6};
inline constexpr noc_encoding noc_blackhole{36, 6};

struct noc_addr {
    std::uint32_t x;
    std::uint32_t y;
    std::uint32_t addr;  // byte address inside core (x, y)
    friend constexpr bool operator==(const noc_addr& a, const noc_addr& b) noexcept {
        return a.x == b.x && a.y == b.y && a.addr == b.addr;
    }
    friend constexpr bool operator!=(const noc_addr& a, const noc_addr& b) noexcept { return !(a == b); }
    // The 64-bit address a NoC read or write of this core takes, in tt-metal's unicast
    // encoding for one architecture (noc_encoding above): y above x above the address.
    // noc_addr{1, 2, 0x10200}.encoded(noc_wormhole_b0) == 0x810'0001'0200 (2 << 42 | 1 << 36 | ...).
    // The caller keeps x and y below 2^id_bits.
    [[nodiscard]] constexpr std::uint64_t encoded(noc_encoding e) const noexcept {
        return (std::uint64_t{y} << (e.local_bits + e.id_bits)) | (std::uint64_t{x} << e.local_bits) | addr;
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
    friend constexpr bool operator==(const page_ref& a, const page_ref& b) noexcept {
        return a.page_id == b.page_id && a.bank == b.bank && a.page_offset == b.page_offset && a.core == b.core;
    }
    friend constexpr bool operator!=(const page_ref& a, const page_ref& b) noexcept { return !(a == b); }
};

// The end of every range of this header.
#if NDSHARD_CPP20
using page_sentinel = std::default_sentinel_t;
inline constexpr page_sentinel page_end = std::default_sentinel;
#else
struct page_sentinel {};
inline constexpr page_sentinel page_end{};
#endif

// A borrowed list of 32-bit words: from a pointer and a count, or from any contiguous
// container (std::span, std::vector, std::array, a C array).
struct word_span {
    const std::uint32_t* words = nullptr;
    std::uint32_t count = 0;
    constexpr word_span() noexcept = default;
    constexpr word_span(const std::uint32_t* w, std::size_t n) noexcept
        : words(w), count(static_cast<std::uint32_t>(n)) {}
    template <class C, class = decltype(std::data(std::declval<const C&>())),
              class = decltype(std::size(std::declval<const C&>()))>
    constexpr word_span(const C& c) noexcept  // NOLINT: implicit, like std::span
        : words(std::data(c)), count(static_cast<std::uint32_t>(std::size(c))) {}
    [[nodiscard]] constexpr std::uint32_t size() const noexcept { return count; }
    [[nodiscard]] constexpr const std::uint32_t* data() const noexcept { return words; }
    constexpr std::uint32_t operator[](std::uint32_t i) const noexcept { return words[i]; }
};

inline constexpr std::array<std::uint32_t, 1> runtime_round_robin{{arg::magic}};
inline constexpr std::array<std::uint32_t, 1> runtime_contiguous{{arg::magic | arg::contiguous}};

namespace detail {

// accessor<words> (C++20) or accessor<&words> (C++17 and C++20): the words either way.
template <auto CT>
constexpr const auto& ct_words() noexcept {
    if constexpr (std::is_pointer<decltype(CT)>::value) return *CT;
    else return CT;
}

// f(integral_constant<d>) for d = R-1 .. 0.
template <std::size_t R, class F, std::size_t... I>
NDSHARD_INLINE constexpr void for_each_reversed(F& f, std::index_sequence<I...>) {
    (f(std::integral_constant<std::size_t, R - 1 - I>{}), ...);
}

[[noreturn]] NDSHARD_COLD inline void device_reject(const args_status& s) {
    if (trap_hook != nullptr) trap_hook(s);
    __builtin_trap();
}

template <class A, std::size_t R, quotients Mode>
struct accessor_view;

}  // namespace detail

#if NDSHARD_CPP20
template <auto CT = runtime_round_robin>
#else
template <auto CT = &runtime_round_robin>
#endif
class accessor {
    static constexpr auto S = detail::decode_static(detail::ct_words<CT>());
    static constexpr std::uint32_t mask = S.config & arg::all_static;

public:
    static constexpr bool static_rank = (mask & arg::rank) != 0;
    static constexpr bool static_banks = (mask & arg::num_banks) != 0;
    static constexpr bool static_tensor = (mask & arg::tensor_shape) != 0;
    static constexpr bool static_shard = (mask & arg::shard_shape) != 0;
    static constexpr bool static_coords = (mask & arg::bank_coords) != 0;
    static constexpr bool contiguous = (S.config & arg::contiguous) != 0;
    // Runtime words in tt-metal's dialect (words.hpp, arg::tt_dialect): coordinates two to a
    // word, no checksum, a list that may go on past the accessor's words.
    static constexpr bool tt_dialect = (S.config & arg::tt_dialect) != 0;
    // The runtime words carry the geometry made on the host (words.hpp, arg::precomputed).
    static constexpr bool precomputed = (S.config & arg::precomputed) != 0;
    // Everything but the coordinates known at compile time: no geometry is stored.
    static constexpr bool static_geometry = static_rank && static_banks && static_tensor && static_shard;

private:
    template <class, std::size_t, detail::quotients>
    friend struct detail::accessor_view;

    struct static_state {
        detail::geometry_state g{};
        args_status status{};
    };
    static constexpr static_state make_static_geometry() {
        static_state st{};
        if constexpr (static_geometry)
            st.status = detail::make_geometry(st.g, S.rank, S.tensor.data(), S.shard.data(), S.num_banks, contiguous);
        return st;
    }
    static constexpr static_state SS = make_static_geometry();
    static_assert(SS.status.ok(), "the compile-time words describe an invalid geometry (see args_status)");
    static constexpr const detail::geometry_state& SG = SS.g;

    // Compile-time divisors as multiply-and-shift for the numerators they can meet.
    struct static_dividers {
        std::array<bounded_divider, max_rank> tensor{}, shard{}, grid{};
        bounded_divider deal{};
    };
    static constexpr static_dividers make_static_dividers() {
        static_dividers v;
        if constexpr (static_geometry) {
            for (std::uint32_t d = 0; d < S.rank; ++d) {
                v.tensor[d] = bounded_divider_for(detail::nonzero(SG.dims[d].tensor), SG.num_pages);
                v.shard[d] = bounded_divider_for(S.shard[d], SG.dims[d].tensor);
                v.grid[d] = bounded_divider_for(detail::nonzero(SG.dims[d].grid), SG.num_shards);
            }
            v.deal =
                bounded_divider_for(detail::nonzero(contiguous ? SG.max_shards_per_core : S.num_banks), SG.num_shards);
        }
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

    struct no_state {};
    // Written completely by the constructor (make_geometry), so it needs no initializer:
    // zeroing it first would cost more than building it.
    NDSHARD_NO_UNIQUE_ADDRESS std::conditional_t<static_geometry, no_state, detail::geometry_state> g_;
    const std::uint32_t* coords_ = nullptr;
    std::uint32_t base_ = 0;
    std::uint32_t page_size_ = 1;

    NDSHARD_INLINE constexpr const detail::geometry_state& geo() const noexcept {
        if constexpr (static_geometry) return SG;
        else return g_;
    }

    // Decodes and checks the runtime words; on failure the accessor stays empty (no pages).
    // `trust`: precomputed words (arg::precomputed) are copied, not checked (but for the
    // checksum and the address limit under NDSHARD_CHECK_WORDS).
    constexpr args_status init(word_span rt, std::uint32_t bank_base, std::uint32_t aligned_page_size,
                               std::uint32_t& rank_out, const std::uint32_t*& tensor_out,
                               const std::uint32_t*& shard_out, bool trust) noexcept {
        base_ = bank_base;
        page_size_ = aligned_page_size;
        std::uint32_t i = 0;
        const std::uint32_t have = rt.size();
        // The next n words are `part`: at points at them, or the list is too short.
        [[maybe_unused]] const auto take = [&](std::uint32_t n, args_part part,
                                               const std::uint32_t*& at) NDSHARD_INLINE_LAMBDA {
            if (have - i < n) return args_status{args_error::short_words, have, static_cast<std::uint32_t>(part)};
            at = rt.data() + i;
            i += n;
            return args_status{};
        };
        [[maybe_unused]] const std::uint32_t* w = nullptr;
        std::uint32_t rank = S.rank;
        if constexpr (!static_rank) {
            if (const args_status s = take(1, args_part::rank, w); !s.ok()) return s;
            rank = *w;
            if (rank < 1 || rank > max_rank) return {args_error::rank, rank, 0};
        }
        rank_out = rank;
        std::uint32_t banks = S.num_banks;
        if constexpr (!static_banks) {
            if (const args_status s = take(1, args_part::bank_count, w); !s.ok()) return s;
            banks = *w;
            if constexpr (tt_dialect) {
                if ((banks >> 31) != 0) return {args_error::deal_flag, banks, 0};
            }
        }
        const std::uint32_t* tensor = S.tensor.data();
        const std::uint32_t* shard = S.shard.data();
        if constexpr (!static_tensor) {
            if (const args_status s = take(rank, args_part::tensor_shape, tensor); !s.ok()) return s;
        }
        tensor_out = tensor;
        if constexpr (!static_shard) {
            if (const args_status s = take(rank, args_part::shard_shape, shard); !s.ok()) return s;
        }
        shard_out = shard;
        if constexpr (!static_coords) {
            if (banks > max_cores) return {args_error::too_many_banks, banks, 0};
            const std::uint32_t coord_words = tt_dialect ? banks / 2 + (banks & 1U) : banks;
            if (const args_status s = take(coord_words, args_part::bank_coords, coords_); !s.ok()) return s;
        }
        [[maybe_unused]] const std::uint32_t* image = nullptr;
        if constexpr (precomputed && !static_geometry) {
            if (const args_status s = take(detail::image_words(rank), args_part::image, image); !s.ok()) return s;
        }
        const bool copy = precomputed && trust;
        if constexpr (!tt_dialect) {
            if (!copy || NDSHARD_CHECK_WORDS) {
                if (have - i < 1)
                    return {args_error::short_words, have, static_cast<std::uint32_t>(args_part::checksum)};
                if (have != i + 1) return {args_error::length, i + 1, have};
                if (checksum_state(S.checksum).add_all(rt.data(), i).value() != rt[i])
                    return {args_error::checksum, 0, 0};
            }
        }
        if constexpr (precomputed) {
            if (copy) {
                if constexpr (!static_geometry) detail::read_image(g_, image, rank, banks);
                if (!NDSHARD_CHECK_WORDS) return {};
                return detail::check_address(geo().max_shards_per_core, geo().shard_volume, bank_base,
                                             aligned_page_size);
            }
        }
        if constexpr (!static_geometry) {
            const args_status s = detail::make_geometry(g_, rank, tensor, shard, banks, contiguous);
            if (!s.ok()) {
                g_ = {};
                return s;
            }
            if constexpr (precomputed) {
                if (const std::uint32_t at = detail::image_mismatch(g_, image); at != detail::image_words(rank)) {
                    g_ = {};
                    return {args_error::image, at, 0};
                }
            }
        }
        const args_status a =
            detail::check_address(geo().max_shards_per_core, geo().shard_volume, bank_base, aligned_page_size);
        if (!a.ok()) {
            if constexpr (!static_geometry) g_ = {};
            return a;
        }
        return {};
    }

    // The trusting constructor's whole work on precomputed words without NDSHARD_CHECK_WORDS:
    // find the coordinates and the geometry (one length check, and the rank kept in 1..8 so
    // that the copy stays inside the geometry) and copy the geometry: no division, no
    // reciprocal, no validation.
    NDSHARD_INLINE constexpr args_status copy_geometry(word_span rt, std::uint32_t bank_base,
                                                       std::uint32_t aligned_page_size) noexcept {
        base_ = bank_base;
        page_size_ = aligned_page_size;
        const std::uint32_t* w = rt.data();
        const std::uint32_t have = rt.size();
        std::uint32_t at = 0, rank = S.rank, banks = S.num_banks;
        if constexpr (!static_rank) {
            if (have == 0) return {args_error::short_words, have, static_cast<std::uint32_t>(args_part::rank)};
            rank = w[at++];
            if (rank - 1 >= max_rank) return {args_error::rank, rank, 0};
        }
        if constexpr (!static_banks) {
            if (have <= at) return {args_error::short_words, have, static_cast<std::uint32_t>(args_part::bank_count)};
            banks = w[at++];
            if (banks > max_cores) return {args_error::too_many_banks, banks, 0};
        }
        if constexpr (!static_tensor) at += rank;
        if constexpr (!static_shard) at += rank;
        if constexpr (!static_coords) {
            coords_ = w + at;
            at += banks;
        }
        // The list holds the geometry (the checksum after it is not read).
        const std::uint32_t image = static_geometry ? 0 : detail::image_words(rank);
        if (at > have || have - at < image)
            return {args_error::short_words, have, static_cast<std::uint32_t>(args_part::image)};
        if constexpr (!static_geometry) detail::read_image(g_, w + at, rank, banks);
        return {};
    }

public:
    // Runtime words as made by make_accessor_words (checksum last). bank_base is the
    // buffer's address in every bank; aligned_page_size the byte stride of pages.
    // A malformed list throws spec_error on the host and calls the trap hook on a device.
    // Precomputed words (arg::precomputed, from ndshard's host builder) are trusted: their
    // geometry is copied, with no division and no validation; NDSHARD_CHECK_WORDS (on by
    // default) still checks their checksum and the address limit.
    NDSHARD_CONSTEXPR20 explicit accessor(word_span rt, std::uint32_t bank_base = 0,
                                          std::uint32_t aligned_page_size = 1) {
        if constexpr (precomputed && !NDSHARD_CHECK_WORDS) {
            const args_status s = copy_geometry(rt, bank_base, aligned_page_size);
            if (NDSHARD_UNLIKELY(!s.ok())) {
#if NDSHARD_HOSTED
                detail::throw_args_status(s, 0, nullptr, nullptr);
#else
                detail::device_reject(s);
#endif
            }
            return;
        }
        std::uint32_t rank = 0;
        const std::uint32_t* tensor = nullptr;
        const std::uint32_t* shard = nullptr;
        const args_status s = init(rt, bank_base, aligned_page_size, rank, tensor, shard, true);
        if (NDSHARD_UNLIKELY(!s.ok())) {
#if NDSHARD_HOSTED
            detail::throw_args_status(s, rank, tensor, shard);
#else
            detail::device_reject(s);
#endif
        }
    }
    // The same for words of unknown origin, reporting a malformed list in `status` instead
    // (never throws or traps): every word is checked, precomputed constants against the
    // geometry of the shapes. An accessor whose status is not ok() must not be queried.
    NDSHARD_CONSTEXPR20 accessor(word_span rt, std::uint32_t bank_base, std::uint32_t aligned_page_size,
                                 args_status& status) noexcept {
        std::uint32_t rank = 0;
        const std::uint32_t* tensor = nullptr;
        const std::uint32_t* shard = nullptr;
        status = init(rt, bank_base, aligned_page_size, rank, tensor, shard, false);
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
    // T[d], S[d] and G[d] of the accessor's (folded) rank.
    [[nodiscard]] constexpr std::uint32_t tensor_extent(std::uint32_t d) const noexcept { return geo().dims[d].tensor; }
    [[nodiscard]] constexpr std::uint32_t shard_extent(std::uint32_t d) const noexcept {
        return geo().dims[d].by_shard.divisor();
    }
    [[nodiscard]] constexpr std::uint32_t grid_extent(std::uint32_t d) const noexcept { return geo().dims[d].grid; }
    // Row-major strides of T, S and G in the accessor's rank (the last dim's are 1).
    [[nodiscard]] constexpr std::uint32_t tensor_stride(std::uint32_t d) const noexcept {
        return geo().dims[d].tensor_stride;
    }
    [[nodiscard]] constexpr std::uint32_t shard_stride(std::uint32_t d) const noexcept {
        return geo().dims[d].shard_stride;
    }
    [[nodiscard]] constexpr std::uint32_t grid_stride(std::uint32_t d) const noexcept {
        return geo().dims[d].grid_stride;
    }
    [[nodiscard]] NDSHARD_INLINE constexpr core_coord bank_coord(std::uint32_t bank) const noexcept {
        if constexpr (static_coords) {
            return static_coord_table[bank];
        } else if constexpr (tt_dialect) {  // bank 2k in the low half of word k, (x << 8) | y
            const std::uint32_t half = (coords_[bank >> 1] >> ((bank & 1U) * 16)) & 0xFFFFU;
            return {half >> 8, half & 0xFFU};
        } else {
            return unpack_core(coords_[bank]);
        }
    }

    // --- page queries ---

    // [3,7,5]/[2,2,2] over 6 banks: get_bank_and_offset(36) == {0, 5}.
    [[nodiscard]] NDSHARD_INLINE constexpr bank_and_offset get_bank_and_offset(std::uint32_t page_id) const noexcept {
        return with_view([&](const auto& v) NDSHARD_INLINE_LAMBDA {
            const page_place<std::uint32_t> p = detail::place_page(v, page_id);
            return bank_and_offset{p.core, p.device_offset};
        });
    }
    // Page coordinate in the accessor's rank (the folded, possibly squeezed shapes).
    template <class Coord>
    [[nodiscard]] NDSHARD_INLINE constexpr bank_and_offset get_bank_and_offset_at(const Coord& coord) const noexcept {
        return with_view([&](const auto& v) NDSHARD_INLINE_LAMBDA {
            const page_place<std::uint32_t> p = detail::place_coord<std::decay_t<decltype(v)>, std::uint32_t>(v, coord);
            return bank_and_offset{p.core, p.device_offset};
        });
    }
    // Byte address inside the bank of a page offset (+ a byte offset inside the page).
    [[nodiscard]] NDSHARD_INLINE constexpr std::uint32_t bank_address(std::uint32_t page_offset,
                                                                      std::uint32_t byte_offset = 0) const noexcept {
        return base_ + page_offset * page_size_ + byte_offset;
    }
    [[nodiscard]] NDSHARD_INLINE constexpr noc_addr noc_address(bank_and_offset bo,
                                                                std::uint32_t byte_offset = 0) const noexcept {
        const core_coord c = bank_coord(bo.bank);
        return {c.x, c.y, bank_address(bo.page_offset, byte_offset)};
    }
    [[nodiscard]] NDSHARD_INLINE constexpr noc_addr get_noc_addr(std::uint32_t page_id,
                                                                 std::uint32_t byte_offset = 0) const noexcept {
        return noc_address(get_bank_and_offset(page_id), byte_offset);
    }
    // A page an iterator yielded: its core coordinate is already there.
    [[nodiscard]] NDSHARD_INLINE constexpr noc_addr noc_address_of(const page_ref& r,
                                                                   std::uint32_t byte_offset = 0) const noexcept {
        return {r.core.x, r.core.y, bank_address(r.page_offset, byte_offset)};
    }
    template <class Coord>
    [[nodiscard]] NDSHARD_INLINE constexpr noc_addr get_noc_addr_at(const Coord& coord,
                                                                    std::uint32_t byte_offset = 0) const noexcept {
        return noc_address(get_bank_and_offset_at(coord), byte_offset);
    }

    // Pages from page_id on that lie at consecutive offsets of the same bank, page_id
    // included: one bulk transfer of that many pages replaces as many page reads. They are
    // the rest of the page's row inside its shard (the last dim), and, when a shard row
    // spans the whole last dim (and so on outwards), the rows after it too.
    // [3,7,5]/[2,2,2]: contiguous_pages(36) == 1 (page 37 is in the next shard);
    // [4,6]/[2,6] on 2 banks: contiguous_pages(1) == 11 (the rest of the 2x6 shard).
    [[nodiscard]] constexpr std::uint32_t contiguous_pages(std::uint32_t page_id) const noexcept {
        return with_view([&](const auto& v) { return v.contiguous_run(page_id); });
    }

    // --- shard queries: address of the shard's first slot ---
    [[nodiscard]] NDSHARD_INLINE constexpr bank_and_offset shard_bank_and_offset(
        std::uint32_t shard_id) const noexcept {
        const auto h = deal(shard_id);
        return {h.core, h.slot * geo().shard_volume};
    }
    [[nodiscard]] constexpr noc_addr get_shard_noc_addr(std::uint32_t shard_id,
                                                        std::uint32_t byte_offset = 0) const noexcept {
        return noc_address(shard_bank_and_offset(shard_id), byte_offset);
    }
    template <class Coord>
    [[nodiscard]] constexpr std::uint32_t shard_id_at(const Coord& shard_coord) const noexcept {
        return with_view([&](const auto& v) {
            return detail::shard_id_of<std::decay_t<decltype(v)>, std::uint32_t>(v, shard_coord);
        });
    }
    template <class Coord>
    [[nodiscard]] constexpr noc_addr get_shard_noc_addr_at(const Coord& shard_coord,
                                                           std::uint32_t byte_offset = 0) const noexcept {
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
        return with_view([&](const auto& v) { return detail::shards_on_core(v, bank); });
    }
    // The shard in a bank's slot (slot < shards_in_bank(bank)).
    [[nodiscard]] constexpr std::uint32_t shard_in_slot(std::uint32_t bank, std::uint32_t slot) const noexcept {
        return with_view([&](const auto& v) { return detail::shard_in_slot(v, bank, slot); });
    }
    // Shard id -> (bank, slot) by the deal rule.
    [[nodiscard]] NDSHARD_INLINE constexpr deal_result<std::uint32_t> deal(std::uint32_t shard_id) const noexcept {
        return with_view([&](const auto& v) NDSHARD_INLINE_LAMBDA { return detail::deal(v, shard_id); });
    }

    // --- iteration (detail/iterators.hpp) ---
    class page_iterator;
    class shard_iterator;
    class local_iterator;
    // A shard's or a bank's range makes its iterator when begin() is called, in place (a
    // shard of few pages must not pay for copying the iterator's per-dim arrays): it refers
    // to the accessor, which must outlive it.
    template <class It>
    struct range {
        const accessor* a;
        std::uint32_t first;  // the shard or the bank
        NDSHARD_INLINE constexpr It begin() const { return It(*a, first); }
        static constexpr page_sentinel end() { return {}; }
    };
    // The whole tensor's range holds its iterator, made once (measured: GCC keeps a copy of
    // it in registers, not an iterator made in place).
    struct page_range {
        page_iterator first;
        constexpr page_iterator begin() const { return first; }
        static constexpr page_sentinel end() { return {}; }
    };
    // Every page, in page id order, with its bank and offset; no division per step.
    [[nodiscard]] constexpr page_range pages() const { return {page_iterator(*this)}; }
    // Every `threads`-th page starting at page `thread` (thread < threads): the share of
    // one of `threads` data-movement threads that split the tensor between them.
    [[nodiscard]] constexpr page_range pages(std::uint32_t thread, std::uint32_t threads) const {
        return {page_iterator(*this, thread, threads)};
    }
    // One shard's real pages in device order (padding skipped).
    [[nodiscard]] constexpr range<shard_iterator> shard_pages(std::uint32_t shard_id) const { return {this, shard_id}; }
    // One bank's real pages in device order: its slots in turn, padding skipped.
    [[nodiscard]] constexpr range<local_iterator> local_pages(std::uint32_t bank) const { return {this, bank}; }

private:
    // f(view) with the view of the accessor's rank (and exactness) as compile-time facts:
    // a runtime rank is dispatched once, so every per-dim loop is unrolled for it.
    template <class F>
    NDSHARD_INLINE constexpr decltype(auto) with_view(F&& f) const {
        if constexpr (static_geometry) {
            return f(detail::accessor_view<accessor, S.rank, detail::quotients::one_mulhu>{*this});
        } else if constexpr (static_rank) {
            switch (geo().mode) {
                case detail::quotients::one_mulhu:
                    return f(detail::accessor_view<accessor, S.rank, detail::quotients::one_mulhu>{*this});
                case detail::quotients::with_addend:
                    return f(detail::accessor_view<accessor, S.rank, detail::quotients::with_addend>{*this});
                default:
                    return f(detail::accessor_view<accessor, S.rank, detail::quotients::corrected>{*this});
            }
        } else {
            using q = detail::quotients;
            switch (geo().rank + max_rank * static_cast<std::uint32_t>(geo().mode)) {
                case 1:
                    return f(detail::accessor_view<accessor, 1, q::one_mulhu>{*this});
                case 2:
                    return f(detail::accessor_view<accessor, 2, q::one_mulhu>{*this});
                case 3:
                    return f(detail::accessor_view<accessor, 3, q::one_mulhu>{*this});
                case 4:
                    return f(detail::accessor_view<accessor, 4, q::one_mulhu>{*this});
                case 5:
                    return f(detail::accessor_view<accessor, 5, q::one_mulhu>{*this});
                case 6:
                    return f(detail::accessor_view<accessor, 6, q::one_mulhu>{*this});
                case 7:
                    return f(detail::accessor_view<accessor, 7, q::one_mulhu>{*this});
                case 8:
                    return f(detail::accessor_view<accessor, 8, q::one_mulhu>{*this});
                case 9:
                    return f(detail::accessor_view<accessor, 1, q::with_addend>{*this});
                case 10:
                    return f(detail::accessor_view<accessor, 2, q::with_addend>{*this});
                case 11:
                    return f(detail::accessor_view<accessor, 3, q::with_addend>{*this});
                case 12:
                    return f(detail::accessor_view<accessor, 4, q::with_addend>{*this});
                case 13:
                    return f(detail::accessor_view<accessor, 5, q::with_addend>{*this});
                case 14:
                    return f(detail::accessor_view<accessor, 6, q::with_addend>{*this});
                case 15:
                    return f(detail::accessor_view<accessor, 7, q::with_addend>{*this});
                case 16:
                    return f(detail::accessor_view<accessor, 8, q::with_addend>{*this});
                case 17:
                    return f(detail::accessor_view<accessor, 1, q::corrected>{*this});
                case 18:
                    return f(detail::accessor_view<accessor, 2, q::corrected>{*this});
                case 19:
                    return f(detail::accessor_view<accessor, 3, q::corrected>{*this});
                case 20:
                    return f(detail::accessor_view<accessor, 4, q::corrected>{*this});
                case 21:
                    return f(detail::accessor_view<accessor, 5, q::corrected>{*this});
                case 22:
                    return f(detail::accessor_view<accessor, 6, q::corrected>{*this});
                case 23:
                    return f(detail::accessor_view<accessor, 7, q::corrected>{*this});
                default:
                    return f(detail::accessor_view<accessor, 8, q::corrected>{*this});  // validated: 1..8
            }
        }
    }
};

namespace detail {

// The accessor as detail/place.hpp's geometry, for one rank R (dims are compile-time
// constants) and one kind of quotient (decode.hpp, quotients): one mulhu, one add and a
// mulhu, or a corrected quotient; or a compile-time multiply-and-shift.
template <class A, std::size_t R, quotients Mode>
struct accessor_view {
    const A& a;
    template <std::size_t D>
    using dim = std::integral_constant<std::size_t, D>;

    NDSHARD_INLINE constexpr const geometry_state& g() const noexcept { return a.geo(); }
    template <class F>
    NDSHARD_INLINE constexpr void for_each_dim_reversed(F&& f) const {
        for_each_reversed<R>(f, std::make_index_sequence<R>{});
    }
    NDSHARD_INLINE static constexpr std::uint32_t quotient(const fast_divider& by, std::uint32_t n) noexcept {
        if constexpr (Mode == quotients::corrected) return by.divide(n);
        else if constexpr (Mode == quotients::with_addend) return by.approx(n);
        else return by.approx_nonunit(n);
    }
    // n / T[d] or n / S[d]: the compile-time multiply-and-shift (Static, a member of
    // static_dividers) or the runtime reciprocal (Runtime, a member of dim_geometry).
    template <auto Static, auto Runtime, std::size_t D>
    NDSHARD_INLINE constexpr std::uint32_t dim_quotient(dim<D>, std::uint32_t n) const noexcept {
        if constexpr (A::static_geometry) return (A::SD.*Static)[D].divide(n);
        else return quotient(g().dims[D].*Runtime, n);
    }
    template <std::size_t D>
    NDSHARD_INLINE constexpr std::uint32_t tensor_div(dim<D> d, std::uint32_t n) const noexcept {
        return dim_quotient<&A::static_dividers::tensor, &dim_geometry::by_tensor>(d, n);
    }
    // T[d] and S[d]: the compile-time word when there is one (a constant), else the geometry's.
    template <std::size_t D>
    NDSHARD_INLINE constexpr std::uint32_t tensor_extent(dim<D>) const noexcept {
        return A::static_tensor ? A::S.tensor[D] : g().dims[D].tensor;
    }
    template <std::size_t D>
    NDSHARD_INLINE constexpr std::uint32_t shard_div(dim<D> d, std::uint32_t n) const noexcept {
        return dim_quotient<&A::static_dividers::shard, &dim_geometry::by_shard>(d, n);
    }
    template <std::size_t D>
    NDSHARD_INLINE constexpr std::uint32_t shard_extent(dim<D>) const noexcept {
        return A::static_shard ? A::S.shard[D] : g().dims[D].by_shard.divisor();
    }
    template <std::size_t D>
    NDSHARD_INLINE constexpr std::uint32_t grid_div(dim<D>, std::uint32_t n) const noexcept {
        if constexpr (A::static_geometry) return A::SD.grid[D].divide(n);
        else if constexpr (Mode == quotients::corrected) return g().dims[D].by_grid.divide(n);
        else return g().dims[D].by_grid.approx(n);  // G[d] may be 1 in every mode
    }
    template <std::size_t D>
    NDSHARD_INLINE constexpr std::uint32_t grid_extent(dim<D>) const noexcept {
        return g().dims[D].grid;
    }
    // Row-major strides: the last dim's are 1 (make_geometry starts there), known here.
    template <std::size_t D>
    NDSHARD_INLINE constexpr std::uint32_t grid_stride_of(dim<D>) const noexcept {
        if constexpr (D + 1 == R) return 1;
        else return g().dims[D].grid_stride;
    }
    template <std::size_t D>
    NDSHARD_INLINE constexpr std::uint32_t shard_stride_of(dim<D>) const noexcept {
        if constexpr (D + 1 == R) return 1;
        else return g().dims[D].shard_stride;
    }
    NDSHARD_INLINE constexpr std::uint32_t shard_volume_of() const noexcept { return g().shard_volume; }
    NDSHARD_INLINE constexpr std::uint32_t num_cores_of() const noexcept { return a.num_banks(); }
    NDSHARD_INLINE constexpr std::uint32_t num_shards_of() const noexcept { return g().num_shards; }
    NDSHARD_INLINE constexpr std::uint32_t max_slots() const noexcept { return g().max_shards_per_core; }
    NDSHARD_INLINE constexpr std::uint32_t deal_block() const noexcept { return g().max_shards_per_core; }
    NDSHARD_INLINE static constexpr bool contiguous_deal() noexcept { return A::contiguous; }
    NDSHARD_INLINE constexpr std::uint32_t deal_div(std::uint32_t s) const noexcept {
        if constexpr (A::static_geometry) return A::SD.deal.divide(s);
        else return quotient(g().deal_div, s);
    }
    NDSHARD_INLINE constexpr std::uint32_t shards_per_core_floor() const noexcept { return g().shards_per_bank_floor; }

    // Digits of a page id in the radix T, into c[0..R).
    NDSHARD_INLINE constexpr void digits(std::uint32_t id, std::uint32_t* c) const noexcept {
        for_each_dim_reversed([&](auto d) NDSHARD_INLINE_LAMBDA {
            if (static_cast<std::size_t>(d) != 0) {
                const std::uint32_t q = tensor_div(d, id);
                c[d] = id - q * tensor_extent(d);
                id = q;
            } else {
                c[0] = id;
            }
        });
    }
    // accessor::contiguous_pages. Inside a shard the run is the rest of the page's row,
    // continued over the following rows while every dim inside is whole (the shard spans
    // T[d] exactly from 0, so rows follow each other without padding); then, while the next
    // page id lands right after it in the same bank (a full shard whose successor is the
    // bank's next slot), the same again from there: one step per shard crossed.
    constexpr std::uint32_t contiguous_run(std::uint32_t id) const noexcept {
        const std::uint32_t n = g().num_pages;
        std::uint32_t run = 0;
        page_place<std::uint32_t> p = place_page(*this, id);
        for (;;) {
            std::uint32_t c[R] = {};
            digits(id, c);
            std::uint32_t seg = 1, inner = 1;
            bool open = true;
            for_each_dim_reversed([&](auto d) {
                if (!open) return;
                const std::uint32_t s = shard_extent(d), t = tensor_extent(d);
                const std::uint32_t r = c[d] - shard_div(d, c[d]) * s;
                const std::uint32_t first = c[d] - r;
                const std::uint32_t limit = real_extent_from(t, s, first);
                seg += (limit - r - 1) * inner;
                inner *= s;
                open = first == 0 && t == s;
            });
            run += seg;
            const std::uint32_t next = id + seg;
            if (next >= n) return run;
            const page_place<std::uint32_t> q = place_page(*this, next);
            if (q.core != p.core || q.device_offset != p.device_offset + seg) return run;
            id = next;
            p = q;
        }
    }
};

}  // namespace detail
}  // namespace ndshard

#include "ndshard/detail/iterators.hpp"  // the iterators nested in accessor<CT>, defined out of class

#if NDSHARD_HOSTED
namespace ndshard {

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
#endif
