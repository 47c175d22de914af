// api/tensor/page.h - what tt-metal's page iterators yield: a page's NoC address and id.
// Freestanding, C++17.
#pragma once

#include <cstdint>

namespace tensor_accessor {

class Page {
public:
    constexpr Page() noexcept = default;
    constexpr Page(std::uint64_t noc_addr, std::uint32_t page_id, bool is_padding = false) noexcept
        : noc_addr_(noc_addr), page_id_(page_id), is_padding_(is_padding) {}
    [[nodiscard]] constexpr std::uint64_t noc_addr() const noexcept { return noc_addr_; }
    // tt-metal's older name.
    [[nodiscard]] constexpr std::uint64_t get_noc_addr() const noexcept { return noc_addr_; }
    [[nodiscard]] constexpr std::uint32_t page_id() const noexcept { return page_id_; }
    // ndshard's iterators never yield a padding slot.
    [[nodiscard]] constexpr bool is_padding() const noexcept { return is_padding_; }

private:
    std::uint64_t noc_addr_ = 0;
    std::uint32_t page_id_ = 0;
    bool is_padding_ = false;
};

}  // namespace tensor_accessor
