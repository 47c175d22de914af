// ndshard/interleaved.hpp - the interleaved address generator: the baseline.
//
// Page i lives in bank i % B at page offset i / B. It is ND sharding with an all-ones
// shard (props/interleaved.cpp checks that address for address), kept as its own small
// type because it is what every ND accessor is measured against (bench/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>

#include "ndshard/accessor.hpp"
#include "ndshard/checked.hpp"
#include "ndshard/fast_divider.hpp"

namespace ndshard {

class interleaved_addr_gen {
public:
    // Checked: 1..65536 banks, and base + ceil(num_pages/B) * page_size must fit 32 bits.
    // `banks` (core coordinates, bank order) are borrowed and must outlive the generator.
    interleaved_addr_gen(std::uint64_t num_pages, std::span<const core_coord> banks, std::uint32_t bank_base,
                         std::uint32_t page_size)
        : banks_(banks), div_(1), base_(bank_base), page_size_(page_size) {
        if (banks.empty() || banks.size() > max_cores)
            detail::reject_args("args_banks", std::to_string(banks.size()) + " banks; interleaving needs 1..65536");
        if (page_size == 0) detail::reject_args("args_page_size", "aligned page size 0");
        const std::uint64_t end = sat_add(bank_base, sat_mul(ceil_div(num_pages, banks.size()), page_size));
        if (num_pages >= two_pow_32 || end > two_pow_32)
            detail::reject_args("address_32bit", std::to_string(num_pages) + " pages over " +
                                                     std::to_string(banks.size()) + " banks end past 2^32");
        div_ = fast_divider(static_cast<std::uint32_t>(banks.size()));
        num_pages_ = static_cast<std::uint32_t>(num_pages);
    }

    [[nodiscard]] std::uint32_t num_banks() const noexcept { return div_.divisor(); }
    // get_bank_and_offset(13) over 12 banks == {1, 1}.
    [[nodiscard]] bank_and_offset get_bank_and_offset(std::uint32_t page_id) const noexcept {
        const std::uint32_t q = div_.divide(page_id);
        return {page_id - q * div_.divisor(), q};
    }
    [[nodiscard]] std::uint32_t bank_address(std::uint32_t page_offset, std::uint32_t byte_offset = 0) const noexcept {
        return base_ + page_offset * page_size_ + byte_offset;
    }
    [[nodiscard]] noc_addr noc_address(bank_and_offset bo, std::uint32_t byte_offset = 0) const noexcept {
        const core_coord c = banks_[bo.bank];
        return {c.x, c.y, bank_address(bo.page_offset, byte_offset)};
    }
    [[nodiscard]] noc_addr noc_address_of(const page_ref& r, std::uint32_t byte_offset = 0) const noexcept {
        return {r.core.x, r.core.y, bank_address(r.page_offset, byte_offset)};
    }
    [[nodiscard]] noc_addr get_noc_addr(std::uint32_t page_id, std::uint32_t byte_offset = 0) const noexcept {
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
        page_iterator(std::uint32_t num_pages, std::span<const core_coord> banks) noexcept
            : cores_(banks.data()), end_(num_pages), banks_(static_cast<std::uint32_t>(banks.size())) {}
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
        bool operator==(std::default_sentinel_t) const noexcept { return page_ >= end_; }

    private:
        const core_coord* cores_ = nullptr;
        std::uint32_t page_ = 0, bank_ = 0, offset_ = 0, end_ = 0, banks_ = 1;
    };
    struct page_range {
        page_iterator first;
        page_iterator begin() const noexcept { return first; }
        static std::default_sentinel_t end() noexcept { return {}; }
    };
    [[nodiscard]] page_range pages() const noexcept { return {page_iterator(num_pages_, banks_)}; }

private:
    std::span<const core_coord> banks_;
    fast_divider div_;
    std::uint32_t base_;
    std::uint32_t page_size_;
    std::uint32_t num_pages_ = 0;
};

}  // namespace ndshard
