// ndshard/interleaved.hpp - the interleaved address generator: the baseline.
//
// Page i lives in bank i % B at page offset i / B. It is ND sharding with an all-ones
// shard (props/interleaved.cpp checks that address for address), kept as its own small
// type because it is what every ND accessor is measured against (bench/). Freestanding:
// a bad argument throws spec_error on the host and calls the device trap hook in a kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>

#include "ndshard/accessor.hpp"
#include "ndshard/config.hpp"
#include "ndshard/fast_divider.hpp"

#if NDSHARD_HOSTED
#include <string>

#include "ndshard/args.hpp"
#endif

namespace ndshard {

// A borrowed list of bank coordinates: any contiguous container of core_coord
// (std::span, std::vector, std::array, a C array) or a pointer and a count.
struct core_span {
    const core_coord* cores = nullptr;
    std::size_t count = 0;
    constexpr core_span() noexcept = default;
    constexpr core_span(const core_coord* c, std::size_t n) noexcept : cores(c), count(n) {}
    template <class C, class = decltype(std::data(std::declval<const C&>())),
              class = decltype(std::size(std::declval<const C&>()))>
    constexpr core_span(const C& c) noexcept : cores(std::data(c)), count(std::size(c)) {}  // NOLINT: implicit
    [[nodiscard]] constexpr std::size_t size() const noexcept { return count; }
    [[nodiscard]] constexpr bool empty() const noexcept { return count == 0; }
    [[nodiscard]] constexpr const core_coord* data() const noexcept { return cores; }
    constexpr const core_coord& operator[](std::size_t i) const noexcept { return cores[i]; }
};

class interleaved_addr_gen {
public:
    // Checked: 1..65536 banks, and base + ceil(num_pages/B) * page_size must fit 32 bits.
    // `banks` (core coordinates, bank order) are borrowed and must outlive the generator.
    interleaved_addr_gen(std::uint64_t num_pages, core_span banks, std::uint32_t bank_base, std::uint32_t page_size)
        : banks_(banks.data()), base_(bank_base), page_size_(page_size) {
        if (banks.empty() || banks.size() > max_cores) {
#if NDSHARD_HOSTED
            detail::reject_args("args_banks", std::to_string(banks.size()) + " banks; interleaving needs 1..65536");
#else
            detail::device_reject({args_error::too_many_banks, static_cast<std::uint32_t>(banks.size()), 0});
#endif
        }
        if (page_size == 0) {
#if NDSHARD_HOSTED
            detail::reject_args("args_page_size", "aligned page size 0");
#else
            detail::device_reject({args_error::page_size, 0, 0});
#endif
        }
        const auto count = static_cast<std::uint32_t>(banks.size());
        bool fits = num_pages < (std::uint64_t{1} << 32);
        if (fits) {
            const auto pages = static_cast<std::uint32_t>(num_pages);
            const std::uint32_t rows = pages / count + (pages % count != 0 ? 1U : 0U);
            fits = std::uint64_t{rows} * page_size <= (std::uint64_t{1} << 32) - bank_base;
        }
        if (!fits) {
#if NDSHARD_HOSTED
            detail::reject_args("address_32bit", std::to_string(num_pages) + " pages over " +
                                                     std::to_string(banks.size()) + " banks end past 2^32");
#else
            detail::device_reject({args_error::address, bank_base, page_size});
#endif
        }
        div_ = fast_divider(count);
        num_pages_ = static_cast<std::uint32_t>(num_pages);
        exact_ = count >= 2 && div_.exact_below(num_pages_);  // one bank takes the corrected path
    }

    [[nodiscard]] std::uint32_t num_banks() const noexcept { return div_.divisor(); }
    // get_bank_and_offset(13) over 12 banks == {1, 1}.
    [[nodiscard]] NDSHARD_INLINE bank_and_offset get_bank_and_offset(std::uint32_t page_id) const noexcept {
        const std::uint32_t q = NDSHARD_LIKELY(exact_) ? div_.approx_nonunit(page_id) : div_.divide(page_id);
        return {page_id - q * div_.divisor(), q};
    }
    [[nodiscard]] NDSHARD_INLINE std::uint32_t bank_address(std::uint32_t page_offset,
                                                            std::uint32_t byte_offset = 0) const noexcept {
        return base_ + page_offset * page_size_ + byte_offset;
    }
    [[nodiscard]] NDSHARD_INLINE noc_addr noc_address(bank_and_offset bo,
                                                      std::uint32_t byte_offset = 0) const noexcept {
        const core_coord c = banks_[bo.bank];
        return {c.x, c.y, bank_address(bo.page_offset, byte_offset)};
    }
    [[nodiscard]] noc_addr noc_address_of(const page_ref& r, std::uint32_t byte_offset = 0) const noexcept {
        return {r.core.x, r.core.y, bank_address(r.page_offset, byte_offset)};
    }
    [[nodiscard]] NDSHARD_INLINE noc_addr get_noc_addr(std::uint32_t page_id,
                                                       std::uint32_t byte_offset = 0) const noexcept {
        return noc_address(get_bank_and_offset(page_id), byte_offset);
    }

    // Every page in id order with its bank, offset and core: the bank steps by one and
    // carries into the offset, so no step divides (the core is looked up per page: every
    // page is in another bank).
    class page_iterator {
    public:
        using value_type = page_ref;
        using difference_type = std::ptrdiff_t;
        page_iterator() = default;
        page_iterator(std::uint32_t num_pages, const core_coord* banks, std::uint32_t count) noexcept
            : cores_(banks), end_(num_pages), banks_(count) {}
        page_ref operator*() const noexcept { return {page_, bank_, offset_, cores_[bank_]}; }
        page_iterator& operator++() noexcept {
            ++page_;
            if (++bank_ == banks_) {
                bank_ = 0;
                ++offset_;
            }
            return *this;
        }
        void operator++(int) noexcept { ++*this; }
        friend bool operator==(const page_iterator& it, page_sentinel) noexcept { return it.page_ >= it.end_; }
        friend bool operator!=(const page_iterator& it, page_sentinel) noexcept { return it.page_ < it.end_; }

    private:
        const core_coord* cores_ = nullptr;
        std::uint32_t page_ = 0, bank_ = 0, offset_ = 0, end_ = 0, banks_ = 1;
    };
    struct page_range {
        page_iterator first;
        page_iterator begin() const noexcept { return first; }
        static page_sentinel end() noexcept { return {}; }
    };
    [[nodiscard]] page_range pages() const noexcept { return {page_iterator(num_pages_, banks_, div_.divisor())}; }

private:
    const core_coord* banks_;
    fast_divider div_{};
    std::uint32_t base_;
    std::uint32_t page_size_;
    std::uint32_t num_pages_ = 0;
    bool exact_ = true;
};

}  // namespace ndshard
