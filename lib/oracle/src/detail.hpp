// Small shape helpers shared by the oracle's sources (not installed, not public).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

namespace ndshard::oracle::detail {

// ceil(a / b) for a >= 0, b >= 1.  ceil_div(7, 2) -> 4, ceil_div(0, 2) -> 0.
inline big ceil_div(const big& a, const big& b) {
  if (b <= 0) throw std::logic_error("oracle: ceil_div by " + to_string(b));
  return (a + b - 1) / b;
}

// vol(X): product of the extents; 1 for an empty shape.  [3,7,5] -> 105.
inline big volume(const std::vector<big>& shape) {
  big v = 1;
  for (const big& e : shape) v *= e;
  return v;
}

// Row-major strides: the LAST dim varies fastest.  [3,7,5] -> [35,5,1].
inline std::vector<big> row_major_strides(const std::vector<big>& shape) {
  std::vector<big> stride(shape.size(), big(1));
  for (std::size_t d = shape.size(); d-- > 1;) stride[d - 1] = stride[d] * shape[d];
  return stride;
}

// Linear index sum(coord[d] * stride[d]).  [1,2,3] in [3,7,5] -> 48.
inline big row_major_index(const std::vector<big>& coord, const std::vector<big>& shape) {
  const std::vector<big> stride = row_major_strides(shape);
  big index = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) index += coord[d] * stride[d];
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
inline std::string shape_string(const std::vector<big>& shape) {
  std::string s = "[";
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (d > 0) s += ",";
    s += to_string(shape[d]);
  }
  return s + "]";
}

// "(0,0)-(3,3)"
inline std::string range_string(const core_range& r) {
  return "(" + to_string(r.x0) + "," + to_string(r.y0) + ")-(" + to_string(r.x1) + "," + to_string(r.y1) + ")";
}

}  // namespace ndshard::oracle::detail
