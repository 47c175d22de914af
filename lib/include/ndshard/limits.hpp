// ndshard/limits.hpp - the size limits every part of ndshard agrees on, and a core's
// coordinate. Freestanding (device headers include it).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <cstdint>

namespace ndshard {

inline constexpr std::size_t max_rank = 8;
inline constexpr std::uint64_t max_cores = 65536;
inline constexpr std::uint64_t max_core_coord = 0xFFFF;

struct core_coord {
    std::uint32_t x = 0;
    std::uint32_t y = 0;
    friend constexpr bool operator==(const core_coord& a, const core_coord& b) noexcept {
        return a.x == b.x && a.y == b.y;
    }
    friend constexpr bool operator!=(const core_coord& a, const core_coord& b) noexcept { return !(a == b); }
};

}  // namespace ndshard
