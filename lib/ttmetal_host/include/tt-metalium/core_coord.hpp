// tt-metalium/core_coord.hpp - tt-metal's core coordinates, at tt-metal's path and in its
// (global) names: CoreCoord, CoreRange (inclusive corners), CoreRangeSet (ranges that do not
// overlap), corerange_to_cores. Header-only, for program factories checked by ndshard.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct CoreCoord {
    std::size_t x = 0;
    std::size_t y = 0;
    constexpr CoreCoord() = default;
    constexpr CoreCoord(std::size_t x_in, std::size_t y_in) : x(x_in), y(y_in) {}
    friend constexpr bool operator==(const CoreCoord&, const CoreCoord&) = default;
    friend constexpr bool operator<(const CoreCoord& a, const CoreCoord& b) {
        return a.x < b.x || (a.x == b.x && a.y < b.y);
    }
    [[nodiscard]] std::string str() const { return "(x=" + std::to_string(x) + ",y=" + std::to_string(y) + ")"; }
};

// Every core with start.x <= x <= end.x and start.y <= y <= end.y.
class CoreRange {
public:
    CoreCoord start_coord;
    CoreCoord end_coord;

    explicit CoreRange(CoreCoord point) : start_coord(point), end_coord(point) {}
    CoreRange(CoreCoord start, CoreCoord end) : start_coord(start), end_coord(end) {
        if (end.x < start.x || end.y < start.y)
            throw std::invalid_argument("CoreRange: end " + end.str() + " is before start " + start.str());
    }
    friend bool operator==(const CoreRange&, const CoreRange&) = default;

    [[nodiscard]] CoreCoord grid_size() const {
        return {end_coord.x - start_coord.x + 1, end_coord.y - start_coord.y + 1};
    }
    [[nodiscard]] std::size_t size() const { return grid_size().x * grid_size().y; }
    [[nodiscard]] bool contains(const CoreCoord& c) const {
        return c.x >= start_coord.x && c.x <= end_coord.x && c.y >= start_coord.y && c.y <= end_coord.y;
    }
    [[nodiscard]] bool contains(const CoreRange& r) const { return contains(r.start_coord) && contains(r.end_coord); }
    [[nodiscard]] bool intersects(const CoreRange& r) const {
        return start_coord.x <= r.end_coord.x && r.start_coord.x <= end_coord.x && start_coord.y <= r.end_coord.y &&
               r.start_coord.y <= end_coord.y;
    }
    [[nodiscard]] std::string str() const { return "[" + start_coord.str() + " - " + end_coord.str() + "]"; }
};

// Ranges in the order given; they may not overlap.
class CoreRangeSet {
public:
    CoreRangeSet() = default;
    CoreRangeSet(const CoreRange& r) : ranges_{r} {}  // NOLINT: implicit, as tt-metal's
    explicit CoreRangeSet(std::vector<CoreRange> ranges) : ranges_(std::move(ranges)) {
        for (std::size_t i = 0; i < ranges_.size(); ++i)
            for (std::size_t j = i + 1; j < ranges_.size(); ++j)
                if (ranges_[i].intersects(ranges_[j]))
                    throw std::invalid_argument("CoreRangeSet: ranges " + ranges_[i].str() + " and " +
                                                ranges_[j].str() + " overlap");
    }
    friend bool operator==(const CoreRangeSet&, const CoreRangeSet&) = default;

    [[nodiscard]] const std::vector<CoreRange>& ranges() const { return ranges_; }
    [[nodiscard]] std::size_t size() const { return ranges_.size(); }
    [[nodiscard]] bool empty() const { return ranges_.empty(); }
    [[nodiscard]] std::uint32_t num_cores() const {
        std::size_t n = 0;
        for (const CoreRange& r : ranges_) n += r.size();
        return static_cast<std::uint32_t>(n);
    }
    [[nodiscard]] bool contains(const CoreCoord& c) const {
        return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& r) { return r.contains(c); });
    }
    [[nodiscard]] bool contains(const CoreRange& c) const {
        return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& r) { return r.contains(c); });
    }
    // The smallest range holding every range; std::invalid_argument for an empty set.
    [[nodiscard]] CoreRange bounding_box() const {
        if (ranges_.empty()) throw std::invalid_argument("CoreRangeSet::bounding_box: the set is empty");
        CoreCoord lo = ranges_[0].start_coord, hi = ranges_[0].end_coord;
        for (const CoreRange& r : ranges_) {
            lo = {std::min(lo.x, r.start_coord.x), std::min(lo.y, r.start_coord.y)};
            hi = {std::max(hi.x, r.end_coord.x), std::max(hi.y, r.end_coord.y)};
        }
        return {lo, hi};
    }
    [[nodiscard]] std::string str() const {
        std::string s = "{";
        for (const CoreRange& r : ranges_) s += (s.size() > 1 ? ", " : "") + r.str();
        return s + "}";
    }

private:
    std::vector<CoreRange> ranges_;
};

// The cores of `set`, range by range; inside a range along rows (x fastest) when row_wise,
// else along columns (y fastest); at most max_cores of them.
inline std::vector<CoreCoord> corerange_to_cores(const CoreRangeSet& set, std::optional<std::uint32_t> max_cores = {},
                                                 bool row_wise = false) {
    std::vector<CoreCoord> out;
    const std::size_t limit = max_cores ? *max_cores : set.num_cores();
    for (const CoreRange& r : set.ranges()) {
        const CoreCoord g = r.grid_size();
        for (std::size_t i = 0; i < r.size() && out.size() < limit; ++i)
            out.push_back(row_wise ? CoreCoord{r.start_coord.x + i % g.x, r.start_coord.y + i / g.x}
                                   : CoreCoord{r.start_coord.x + i / g.y, r.start_coord.y + i % g.y});
    }
    return out;
}
