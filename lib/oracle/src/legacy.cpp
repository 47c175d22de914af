// Interleaved and legacy 2D sharding, each written straight from its SEMANTICS section 4
// formula, apart from the ND model, so property tests can check that ND sharding really
// has them as special cases. Also the core-range expansion of SEMANTICS section 3.
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

std::vector<core_xy> expand_cores(const std::vector<core_range>& ranges, orientation orient) {
  std::vector<core_xy> cores;
  big count = 0;  // the cores to come, to allocate once (up to rule too_many_cores' 65536)
  for (const core_range& r : ranges) {
    check_range_shape(r);
    count += (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1);
  }
  cores.reserve(count < 65536 ? static_cast<std::size_t>(count) : 65536);
  for (const core_range& r : ranges) {  // ranges in the order given
    // Coordinates are below 2^32 (a spec's are 32-bit, rule core_coord keeps them <= 65535),
    // so the walk counts in 64 bits without overflow: y1 + 1 <= 2^32.
    for (const big& v : {r.x1, r.y1})
      if (v >= (big(1) << 32))
        throw std::out_of_range("oracle: core range " + detail::range_string(r) + " has a coordinate past 2^32 - 1");
    const auto x0 = static_cast<std::uint64_t>(r.x0), x1 = static_cast<std::uint64_t>(r.x1);
    const auto y0 = static_cast<std::uint64_t>(r.y0), y1 = static_cast<std::uint64_t>(r.y1);
    if (orient == orientation::row_major) {  // x varies fastest
      for (std::uint64_t y = y0; y <= y1; ++y)
        for (std::uint64_t x = x0; x <= x1; ++x) cores.push_back({big(x), big(y)});
    } else {  // col_major: y varies fastest
      for (std::uint64_t x = x0; x <= x1; ++x)
        for (std::uint64_t y = y0; y <= y1; ++y) cores.push_back({big(x), big(y)});
    }
  }
  return cores;
}

std::string to_string(const big& v) { return v.str(); }

}  // namespace ndshard::oracle
