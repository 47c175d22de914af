// ndshard/cli/palette.hpp - one colour per core, shared by `show --color` and `svg`.
//
// 64 colours picked greedily from a grid of hues, saturations and lightnesses so that
// each new colour is as far as possible (CIELAB distance) from all earlier ones: the
// first cores get the most distinct colours and 64 cores stay distinguishable. Past 64
// the palette repeats (the legend stays exact).
#pragma once

#include <cstdint>
#include <string>

namespace ndshard::cli {

struct rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    friend constexpr bool operator==(const rgb&, const rgb&) = default;
};

inline constexpr std::size_t palette_size = 64;

// core_colour(i + 64) == core_colour(i).
rgb core_colour(std::size_t core_index);

// CIELAB distance (delta E 1976) between two colours: about 2.3 is "just noticeable".
double colour_distance(rgb a, rgb b);

// Lighter (t > 0) or darker (t < 0) by mixing with white or black: shade(c, 0.3).
rgb shade(rgb colour, double t);

// "#rrggbb"
std::string hex(rgb colour);

// True when black text reads better than white on this colour.
bool prefers_dark_text(rgb colour);

}  // namespace ndshard::cli
