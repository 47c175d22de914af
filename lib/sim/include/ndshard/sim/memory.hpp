// ndshard/sim/memory.hpp - one NoC endpoint's memory: a byte array and its live buffers.
//
// The byte array is real but grows on demand up to the highest live allocation, so a
// large device with a few busy cores stays cheap. Bytes outside every live allocation
// are never read or written: the device checks each access against `find` first.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ndshard/spec.hpp"
#include "ndshard/specio/text.hpp"

namespace ndshard::sim {

enum class memory_kind : std::uint8_t { l1, dram };

constexpr const char* to_string(memory_kind k) noexcept { return k == memory_kind::l1 ? "L1" : "DRAM"; }

// A live buffer's byte range [begin, end) in one memory.
struct allocation {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint32_t buffer = 0;  // buffer_id value
    std::string name;
};

// "buffer 'b' #3 [0x40, 0x80)"
std::string describe(const allocation& a);
// "0x1f40" (specio's hex, the form every message prints)
using specio::hex;

class memory {
public:
    // `bank`: a DRAM bank's number, for its label (L1 memories are named by their core).
    // Addresses run from `base` to base + capacity.
    memory(memory_kind kind, core_coord where, std::uint64_t capacity, std::uint32_t bank = 0, std::uint64_t base = 0);

    [[nodiscard]] memory_kind kind() const noexcept { return kind_; }
    [[nodiscard]] core_coord coord() const noexcept { return where_; }
    [[nodiscard]] std::uint64_t capacity() const noexcept { return capacity_; }
    [[nodiscard]] std::uint64_t base() const noexcept { return base_; }
    [[nodiscard]] std::uint64_t end() const noexcept { return base_ + capacity_; }
    // "L1 of core (2,1)", "DRAM bank 3 at (6,3)": for messages, so made when asked for.
    [[nodiscard]] std::string label() const;
    // Sorted by address, never overlapping.
    [[nodiscard]] const std::vector<allocation>& live() const noexcept { return live_; }

    // True when [begin, end) is inside [base, end()) and overlaps no live allocation.
    [[nodiscard]] bool is_free(std::uint64_t begin, std::uint64_t end) const noexcept;
    // The live allocation holding byte `addr`, or nullptr. (Inline: every NoC access asks.)
    [[nodiscard]] const allocation* find(std::uint64_t addr) const noexcept {
        // First allocation starting past addr; the one before it is the only candidate.
        auto it = std::upper_bound(live_.begin(), live_.end(), addr,
                                   [](std::uint64_t v, const allocation& a) { return v < a.begin; });
        if (it == live_.begin()) return nullptr;
        --it;
        return addr < it->end ? &*it : nullptr;
    }
    // The closest live allocation below `addr` (for messages), or nullptr.
    [[nodiscard]] const allocation* below(std::uint64_t addr) const noexcept;

    // Records an allocation (the caller checked is_free) and fills it with `fill`.
    // Empty ranges are not recorded: they hold no byte to access.
    void reserve(allocation a, std::byte fill);
    void release(std::uint32_t buffer) noexcept;

    // Unchecked views of bytes inside a live allocation (the caller checked with find).
    [[nodiscard]] std::span<std::byte> bytes(std::uint64_t addr, std::uint64_t size) noexcept;
    [[nodiscard]] std::span<const std::byte> bytes(std::uint64_t addr, std::uint64_t size) const noexcept;

private:
    memory_kind kind_;
    core_coord where_;
    std::uint64_t capacity_;
    std::uint32_t bank_;
    std::uint64_t base_;
    std::vector<allocation> live_;
    std::vector<std::byte> bytes_;  // [base, high-water mark of live allocations)
};

}  // namespace ndshard::sim
