#include "ndshard/sim/memory.hpp"

#include <algorithm>
#include <cstdio>

namespace ndshard::sim {

std::string describe(const allocation& a) {
    return "buffer '" + a.name + "' #" + std::to_string(a.buffer) + " [" + hex(a.begin) + ", " + hex(a.end) + ")";
}

memory::memory(memory_kind kind, core_coord where, std::uint64_t capacity, std::uint32_t bank, std::uint64_t base)
    : kind_(kind), where_(where), capacity_(capacity), bank_(bank), base_(base) {}

std::string memory::label() const {
    return kind_ == memory_kind::l1 ? "L1 of core " + to_string(where_)
                                    : "DRAM bank " + std::to_string(bank_) + " at " + to_string(where_);
}

bool memory::is_free(std::uint64_t begin, std::uint64_t end) const noexcept {
    if (begin > end || begin < base_ || end > base_ + capacity_) return false;
    if (begin == end) return true;
    return std::none_of(live_.begin(), live_.end(),
                        [&](const allocation& a) { return a.begin < end && begin < a.end; });
}

const allocation* memory::below(std::uint64_t addr) const noexcept {
    auto it = std::upper_bound(live_.begin(), live_.end(), addr,
                               [](std::uint64_t v, const allocation& a) { return v < a.begin; });
    return it == live_.begin() ? nullptr : &*std::prev(it);
}

void memory::reserve(allocation a, std::byte fill) {
    if (a.begin == a.end) return;
    // Bytes past the old end are made with `fill`; those below it are overwritten.
    const std::uint64_t old_end = base_ + bytes_.size();
    if (old_end < a.end) bytes_.resize(a.end - base_, fill);
    if (a.begin < old_end)
        std::fill(bytes_.begin() + static_cast<std::ptrdiff_t>(a.begin - base_),
                  bytes_.begin() + static_cast<std::ptrdiff_t>(std::min(a.end, old_end) - base_), fill);
    auto at = std::lower_bound(live_.begin(), live_.end(), a.begin,
                               [](const allocation& x, std::uint64_t v) { return x.begin < v; });
    live_.insert(at, std::move(a));
}

void memory::release(std::uint32_t buffer) noexcept {
    std::erase_if(live_, [&](const allocation& a) { return a.buffer == buffer; });
    const std::uint64_t high =
        live_.empty()
            ? base_
            : std::max_element(live_.begin(), live_.end(), [](auto& x, auto& y) { return x.end < y.end; })->end;
    if (high - base_ < bytes_.size()) {
        bytes_.resize(high - base_);
        bytes_.shrink_to_fit();
    }
}

std::span<std::byte> memory::bytes(std::uint64_t addr, std::uint64_t size) noexcept {
    return std::span<std::byte>(bytes_).subspan(addr - base_, size);
}

std::span<const std::byte> memory::bytes(std::uint64_t addr, std::uint64_t size) const noexcept {
    return std::span<const std::byte>(bytes_).subspan(addr - base_, size);
}

}  // namespace ndshard::sim
