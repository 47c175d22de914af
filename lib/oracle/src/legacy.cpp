// Interleaved and legacy 2D sharding, each written straight from its docs/semantics.md
// formula, apart from the ND model, so property tests can check that ND sharding really
// has them as special cases. Also the core-range expansion of docs/semantics.md.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "detail.hpp"

namespace ndshard::oracle {
namespace {

using detail::ceil_div;

void check_below(const big& v, const big& end, const std::string& what) {
  if (v < 0 || v >= end)
    throw std::out_of_range("oracle: " + what + " " + to_string(v) + " is not in [0, " + to_string(end) + ")");
}

void check_positive(const big& v, const std::string& what) {
  if (v < 1) throw std::out_of_range("oracle: " + what + " " + to_string(v) + " is not >= 1");
}

void check_range_shape(const core_range& r) {
  if (r.x0 < 0 || r.y0 < 0 || r.x0 > r.x1 || r.y0 > r.y1)
    throw std::out_of_range("oracle: core range " + detail::range_string(r) +
                            " is not a range (needs 0 <= x0 <= x1, 0 <= y0 <= y1)");
}

}  // namespace

bank_offset interleaved(const big& page_id, const big& num_banks) {
  check_positive(num_banks, "num_banks");
  if (page_id < 0) throw std::out_of_range("oracle: page id " + to_string(page_id) + " is negative");
  // Page i -> bank i % B, offset i / B.
  return {page_id % num_banks, page_id / num_banks};
}

legacy_place legacy_height(const big& r, const big& c, const big& H, const big& W, const big& sh) {
  check_positive(sh, "shard height");
  check_below(r, H, "row");
  check_below(c, W, "column");
  // HEIGHT: shard [sh, W]; (r, c) -> core r / sh, offset (r % sh) * W + c.
  return {r / sh, (r % sh) * W + c};
}

legacy_place legacy_width(const big& r, const big& c, const big& H, const big& W, const big& sw) {
  check_positive(sw, "shard width");
  check_below(r, H, "row");
  check_below(c, W, "column");
  // WIDTH: shard [H, sw]; (r, c) -> core c / sw, offset r * sw + c % sw.
  return {c / sw, r * sw + c % sw};
}

legacy_place legacy_block(const big& r, const big& c, const big& H, const big& W, const big& sh, const big& sw,
                          orientation orient, core_range range, core_xy* core_out) {
  check_positive(sh, "shard height");
  check_positive(sw, "shard width");
  check_below(r, H, "row");
  check_below(c, W, "column");
  check_range_shape(range);
  // BLOCK: shard [sh, sw]; the 2D shard grid is [Gh, Gw] = [ceil(H/sh), ceil(W/sw)].
  const big Gh = ceil_div(H, sh), Gw = ceil_div(W, sw);
  const big width = range.x1 - range.x0 + 1, height = range.y1 - range.y0 + 1;
  const bool row = orient == orientation::row_major;
  // ROW_MAJOR trims the range to Gw columns by Gh rows; COL_MAJOR puts i along x, j along y.
  if (row ? (Gw > width || Gh > height) : (Gh > width || Gw > height))
    throw std::out_of_range("oracle: core range " + detail::range_string(range) + " is too small for the " +
                            to_string(Gh) + " x " + to_string(Gw) + " shard grid");
  const big i = r / sh, j = c / sw;
  if (core_out != nullptr) *core_out = row ? core_xy{range.x0 + j, range.y0 + i} : core_xy{range.x0 + i, range.y0 + j};
  // One shard per core; cores in shard order. Offset (r % sh) * sw + c % sw.
  return {i * Gw + j, (r % sh) * sw + c % sw};
}

core_xy core_list::at(std::size_t i) const {
  if (i >= size())
    throw std::out_of_range("oracle: core index " + std::to_string(i) + " is not in [0, " + std::to_string(size()) +
                            ")");
  // The range holding core i is the first whose running count passes i.
  const auto range = static_cast<std::size_t>(std::upper_bound(ends_.begin(), ends_.end(), i) - ends_.begin());
  return core_in(range, i - first_of(range));
}

core_xy core_list::core_in(std::size_t range, std::size_t k) const {
  const range16& r = ranges_[range];
  const std::size_t width = std::size_t{r.x1} - r.x0 + 1, height = std::size_t{r.y1} - r.y0 + 1;
  if (orient_ == orientation::row_major) return {r.x0 + k % width, r.y0 + k / width};  // x fastest
  return {r.x0 + k / height, r.y0 + k % height};                                       // col_major: y fastest
}

void core_list::add_range(const core_range& r) {
  check_range_shape(r);
  for (const big& v : {r.x1, r.y1})
    if (v > 65535)
      throw std::out_of_range("oracle: core range " + detail::range_string(r) +
                              " has a coordinate past 65535 (rule core_coord)");
  const big cores = big(size()) + (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1);
  if (cores > 65536) throw std::length_error("oracle: " + to_string(cores) + " cores in a core list, more than 65536");
  ranges_.push_back({static_cast<std::uint16_t>(r.x0), static_cast<std::uint16_t>(r.y0),
                     static_cast<std::uint16_t>(r.x1), static_cast<std::uint16_t>(r.y1)});
  ends_.push_back(static_cast<std::uint32_t>(cores));
}

core_list expand_core_list(const std::vector<core_range>& ranges, orientation orient) {
  core_list cores(orient);
  for (const core_range& r : ranges) cores.add_range(r);
  return cores;
}

std::vector<core_xy> expand_cores(const std::vector<core_range>& ranges, orientation orient) {
  const core_list list = expand_core_list(ranges, orient);
  std::vector<core_xy> cores;
  cores.reserve(list.size());
  for (const core_xy& c : list) cores.push_back(c);
  return cores;
}

std::string to_string(const big& v) { return v.str(); }

}  // namespace ndshard::oracle
