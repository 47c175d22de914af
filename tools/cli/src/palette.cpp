// Core colours: greedy farthest-point sampling in CIELAB (see palette.hpp).
#include "ndshard/cli/palette.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace ndshard::cli {

namespace {

struct lab {
    double l, a, b;
};

// HSL (h in degrees, s and l in 0..1) to 8-bit RGB.
rgb from_hsl(double h, double s, double l) {
    const double c = (1 - std::fabs(2 * l - 1)) * s;
    const double hp = std::fmod(h, 360.0) / 60.0;
    const double x = c * (1 - std::fabs(std::fmod(hp, 2.0) - 1));
    double r = 0, g = 0, b = 0;
    if (hp < 1) r = c, g = x;
    else if (hp < 2) r = x, g = c;
    else if (hp < 3) g = c, b = x;
    else if (hp < 4) g = x, b = c;
    else if (hp < 5) r = x, b = c;
    else r = c, b = x;
    const double m = l - c / 2;
    auto byte = [m](double v) {
        return static_cast<std::uint8_t>(std::lround(std::clamp((v + m) * 255.0, 0.0, 255.0)));
    };
    return {byte(r), byte(g), byte(b)};
}

// sRGB (D65) to CIELAB.
lab to_lab(rgb c) {
    auto linear = [](std::uint8_t v) {
        const double s = v / 255.0;
        return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    const double r = linear(c.r), g = linear(c.g), b = linear(c.b);
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double distance(const lab& p, const lab& q) {
    return std::sqrt((p.l - q.l) * (p.l - q.l) + (p.a - q.a) * (p.a - q.a) + (p.b - q.b) * (p.b - q.b));
}

std::array<rgb, palette_size> make_palette() {
    // Candidates: 36 hues x 3 saturations x 3 lightnesses, neither too dark nor too pale
    // for labels drawn on them.
    std::vector<rgb> candidates;
    for (int h = 0; h < 360; h += 10)
        for (double s : {0.50, 0.65, 0.80})
            for (double l : {0.42, 0.56, 0.70}) candidates.push_back(from_hsl(h + 5, s, l));
    std::vector<lab> where(candidates.size());
    std::transform(candidates.begin(), candidates.end(), where.begin(), to_lab);

    std::array<rgb, palette_size> out{};
    std::vector<double> nearest(candidates.size(), 1e9);
    // Start from a mid blue (hue 215, saturation 0.65, lightness 0.56).
    std::size_t pick = (21 * 3 + 1) * 3 + 1;
    for (std::size_t i = 0; i < palette_size; ++i) {
        out[i] = candidates[pick];
        for (std::size_t c = 0; c < candidates.size(); ++c)
            nearest[c] = std::min(nearest[c], distance(where[c], where[pick]));
        pick = static_cast<std::size_t>(std::max_element(nearest.begin(), nearest.end()) - nearest.begin());
    }
    return out;
}

}  // namespace

rgb core_colour(std::size_t core_index) {
    static const std::array<rgb, palette_size> palette = make_palette();
    return palette[core_index % palette_size];
}

double colour_distance(rgb a, rgb b) { return distance(to_lab(a), to_lab(b)); }

rgb shade(rgb colour, double t) {
    const double target = t > 0 ? 255.0 : 0.0;
    const double a = std::fabs(t);
    auto mix = [&](std::uint8_t v) { return static_cast<std::uint8_t>(std::lround(v + (target - v) * a)); };
    return {mix(colour.r), mix(colour.g), mix(colour.b)};
}

std::string hex(rgb colour) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out = "#";
    for (std::uint8_t v : {colour.r, colour.g, colour.b}) {
        out += digits[v >> 4];
        out += digits[v & 0xf];
    }
    return out;
}

bool prefers_dark_text(rgb colour) {
    // Rec. 709 luma on 0..255.
    return 0.2126 * colour.r + 0.7152 * colour.g + 0.0722 * colour.b > 140.0;
}

}  // namespace ndshard::cli
