// Small shape helpers shared by the oracle's sources (not installed, not public).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

namespace ndshard::oracle::detail {

// What evaluate() computes before its 32-bit limit rules: shapes, volumes and sizes of a
// spec whose inputs are below 2^64, up to a volume of 8 dims < (2^64)^8 = 2^512 (the
// folded leading dim of a rank-8 tensor with a rank-1 shard, or Gh of grid_2d); the tile
// page size tile_h*tile_w*element_size < 2^192. Checked: past 2^512 - 1 it throws.
using wide = boost::multiprecision::checked_int512_t;

// A wide value known to fit `big` (a quantity of an accepted spec, or a bounded index).
inline big narrow(const wide& v) {
  if (v >= (wide(1) << 128) || v <= -(wide(1) << 128))
    throw std::logic_error("oracle: " + v.str() + " does not fit 128 bits");
  return static_cast<big>(v);
}
inline std::vector<big> narrow(const std::vector<wide>& v) {
  std::vector<big> out;
  for (const wide& e : v) out.push_back(narrow(e));
  return out;
}

// ceil(a / b) for a >= 0, b >= 1.  ceil_div(7, 2) -> 4, ceil_div(0, 2) -> 0.
template <class Int>
Int ceil_div(const Int& a, const Int& b) {
  if (b <= 0) throw std::logic_error("oracle: ceil_div by " + b.str());
  return (a + b - 1) / b;
}

// vol(X): product of the extents; 1 for an empty shape.  [3,7,5] -> 105.
template <class Int>
Int volume(const std::vector<Int>& shape) {
  Int v = 1;
  for (const Int& e : shape) v *= e;
  return v;
}

// Linear index sum(coord[d] * stride[d]) with row-major strides, the LAST dim fastest:
// stride[d] = product of shape[d+1..], formed on the way from the last dim (no stride
// vector: this runs per page).  [3,7,5] has strides [35,5,1]; [1,2,3] -> 35+10+3 = 48.
inline big row_major_index(const std::vector<big>& coord, const std::vector<big>& shape) {
  big index = 0, stride = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    index += coord[d] * stride;
    stride *= shape[d];
  }
  return index;
}

// Inverse of row_major_index by repeated division, last dim first; index < vol(shape).
// 48 in [3,7,5] -> [1,2,3].
inline std::vector<big> row_major_coord(big index, const std::vector<big>& shape) {
  std::vector<big> coord(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (shape[d] <= 0) throw std::logic_error("oracle: coordinate in a shape with an empty dim");
    coord[d] = index % shape[d];
    index /= shape[d];
  }
  return coord;
}

// A big known to be a small, non-negative index (a rank, a core index) as a size_t.
inline std::size_t to_index(const big& v) { return static_cast<std::size_t>(v); }

// "[2,64,96]"
template <class Int>
std::string shape_string(const std::vector<Int>& shape) {
  std::string s = "[";
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (d > 0) s += ",";
    s += shape[d].str();
  }
  return s + "]";
}

// "(0,0)-(3,3)"
inline std::string range_string(const core_range& r) {
  return "(" + to_string(r.x0) + "," + to_string(r.y0) + ")-(" + to_string(r.x1) + "," + to_string(r.y1) + ")";
}

}  // namespace ndshard::oracle::detail
