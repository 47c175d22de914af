// tt-metalium/core_coord.hpp - tt-metal's core coordinates, at tt-metal's path and in its
// (global) names: CoreCoord, CoreRange (inclusive corners), CoreRangeSet (ranges that do not
// overlap; merge, intersection, subtract), corerange_to_cores, grid_to_cores. Header-only,
// for program factories checked by ndshard.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
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
    friend bool operator<(const CoreRange& a, const CoreRange& b) {
        return a.start_coord < b.start_coord || (a.start_coord == b.start_coord && a.end_coord < b.end_coord);
    }

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
    CoreRangeSet(const CoreRange& r) : ranges_{r} {}                            // NOLINT: implicit, as tt-metal's
    CoreRangeSet(std::vector<CoreRange> ranges) : ranges_(std::move(ranges)) {  // NOLINT: implicit, as tt-metal's
        check();
    }
    CoreRangeSet(const std::set<CoreRange>& ranges)  // NOLINT: implicit, as tt-metal's
        : CoreRangeSet(std::vector<CoreRange>(ranges.begin(), ranges.end())) {}
    // One range per core.
    CoreRangeSet(std::span<const CoreCoord> cores) {  // NOLINT: implicit, as tt-metal's
        for (const CoreCoord& c : cores) ranges_.emplace_back(c);
        check();
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
    [[nodiscard]] bool contains(const CoreRangeSet& other) const {
        return std::all_of(other.ranges_.begin(), other.ranges_.end(),
                           [&](const CoreRange& r) { return is_subset(cores_of(CoreRangeSet(r)), cores_of(*this)); });
    }
    [[nodiscard]] bool intersects(const CoreCoord& c) const { return contains(c); }
    [[nodiscard]] bool intersects(const CoreRange& r) const {
        return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& m) { return m.intersects(r); });
    }
    [[nodiscard]] bool intersects(const CoreRangeSet& other) const {
        return std::any_of(other.ranges_.begin(), other.ranges_.end(),
                           [&](const CoreRange& r) { return intersects(r); });
    }

    // The cores of both, or of either, or of this one and not the other. The result's ranges
    // cover the same cores as tt-metal's, not always cut into the same rectangles: rows of
    // cores from the lowest (y, x) first, each as wide and then as tall as the cores allow.
    [[nodiscard]] CoreRangeSet intersection(const CoreRangeSet& other) const {
        std::set<CoreCoord> mine = cores_of(*this), both;
        for (const CoreCoord& c : cores_of(other))
            if (mine.count(c) != 0) both.insert(c);
        return from_cores(both);
    }
    template <class T>
    [[nodiscard]] CoreRangeSet merge(const T& other) const {
        std::set<CoreCoord> all = cores_of(*this);
        const CoreRangeSet more = [&] {
            if constexpr (std::is_same_v<T, CoreCoord>) return CoreRangeSet(CoreRange(other));
            else return CoreRangeSet(other);
        }();
        for (const CoreCoord& c : cores_of(more)) all.insert(c);
        return from_cores(all);
    }
    [[nodiscard]] CoreRangeSet merge_ranges() const { return from_cores(cores_of(*this)); }
    [[nodiscard]] CoreRangeSet subtract(const CoreRangeSet& other) const {
        std::set<CoreCoord> rest = cores_of(*this);
        for (const CoreCoord& c : cores_of(other)) rest.erase(c);
        return from_cores(rest);
    }

    [[nodiscard]] std::string str() const {
        std::string s = "{";
        for (const CoreRange& r : ranges_) s += (s.size() > 1 ? ", " : "") + r.str();
        return s + "}";
    }

private:
    static std::set<CoreCoord> cores_of(const CoreRangeSet& set) {
        std::set<CoreCoord> out;
        for (const CoreRange& r : set.ranges_)
            for (std::size_t x = r.start_coord.x; x <= r.end_coord.x; ++x)
                for (std::size_t y = r.start_coord.y; y <= r.end_coord.y; ++y) out.insert({x, y});
        return out;
    }
    static bool is_subset(const std::set<CoreCoord>& a, const std::set<CoreCoord>& b) {
        return std::includes(b.begin(), b.end(), a.begin(), a.end());
    }
    static CoreRangeSet from_cores(std::set<CoreCoord> left) {
        auto row_major = [](const CoreCoord& a, const CoreCoord& b) { return a.y < b.y || (a.y == b.y && a.x < b.x); };
        std::vector<CoreRange> out;
        while (!left.empty()) {
            const CoreCoord s = *std::min_element(left.begin(), left.end(), row_major);
            std::size_t x1 = s.x, y1 = s.y;
            while (left.count({x1 + 1, s.y}) != 0) ++x1;
            auto row_free = [&](std::size_t y) {
                for (std::size_t x = s.x; x <= x1; ++x)
                    if (left.count({x, y}) == 0) return false;
                return true;
            };
            while (row_free(y1 + 1)) ++y1;
            for (std::size_t x = s.x; x <= x1; ++x)
                for (std::size_t y = s.y; y <= y1; ++y) left.erase({x, y});
            out.emplace_back(s, CoreCoord{x1, y1});
        }
        return CoreRangeSet(std::move(out));
    }
    void check() const {
        for (std::size_t i = 0; i < ranges_.size(); ++i)
            for (std::size_t j = i + 1; j < ranges_.size(); ++j)
                if (ranges_[i].intersects(ranges_[j]))
                    throw std::invalid_argument("CoreRangeSet: ranges " + ranges_[i].str() + " and " +
                                                ranges_[j].str() + " overlap");
    }
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

// The first num_cores cores of a grid_size_x x grid_size_y grid from (0,0), along rows when
// row_wise, else along columns.
inline std::vector<CoreCoord> grid_to_cores(std::uint32_t num_cores, std::uint32_t grid_size_x,
                                            std::uint32_t grid_size_y, bool row_wise = false) {
    if (num_cores > std::size_t{grid_size_x} * grid_size_y)
        throw std::invalid_argument("grid_to_cores: " + std::to_string(num_cores) + " cores on a " +
                                    std::to_string(grid_size_x) + "x" + std::to_string(grid_size_y) + " grid");
    if (num_cores == 0) return {};
    return corerange_to_cores(CoreRange({0, 0}, {grid_size_x - 1, grid_size_y - 1}), num_cores, row_wise);
}
// Every core from start to end (inclusive), along rows when row_wise, else along columns.
inline std::vector<CoreCoord> grid_to_cores(CoreCoord start, CoreCoord end, bool row_wise = false) {
    return corerange_to_cores(CoreRange(start, end), std::nullopt, row_wise);
}

namespace tt::tt_metal {
using ::CoreCoord;
using ::CoreRange;
using ::CoreRangeSet;
}  // namespace tt::tt_metal
