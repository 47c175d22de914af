// Small shape helpers shared by the oracle's sources (not installed, not public).
#pragma once

#include <array>
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

// What the enumerations (walk_shard) count slots and page ids in: Boost's checked 64-bit
// unsigned integer, one native word - past 2^64 - 1 it throws, as big does past 2^128 - 1,
// at a quarter of big's cost per operation. Bound: in an accepted model every folded tensor
// dim, shard dim and page id is below 2^32 (rules tensor_pages_32bit, shard_pages_32bit), a
// slot's folded coordinate is below G[d]*S[d] < 2^33, and a real page's coordinate times its
// stride is at most its page id: nothing a walk forms comes near 2^64.
using count = boost::multiprecision::number<boost::multiprecision::cpp_int_backend<
    64, 64, boost::multiprecision::unsigned_magnitude, boost::multiprecision::checked, void>>;

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

// A coordinate held in place: every accepted model has rank <= 8 (rule rank), and the
// mapping forms a few coordinates per page, so they live on the stack, not the heap.
inline constexpr std::size_t max_rank = 8;
using coord = std::array<big, max_rank>;  // dims past the rank in use are unused

// The rank of a model's shape, which is at most 8 for any model evaluate() accepts.
inline std::size_t rank_of(const std::vector<big>& shape) {
  if (shape.size() > max_rank)
    throw std::logic_error("oracle: a shape of rank " + std::to_string(shape.size()) + " (at most 8)");
  return shape.size();
}

// Row-major strides of shape[0..n), the LAST dim fastest: stride[d] = product of
// shape[d+1..n), formed on the way from the last dim.  [3,7,5] -> [35,5,1].
inline coord row_major_strides(const big* shape, std::size_t n) {
  coord stride;
  big product = 1;
  for (std::size_t d = n; d-- > 0;) {
    stride[d] = product;
    product *= shape[d];
  }
  return stride;
}

// sum(c[d] * stride[d]) over the first n dims.
inline big dot(const big* c, const coord& stride, std::size_t n) {
  big index = 0;
  for (std::size_t d = 0; d < n; ++d) index += c[d] * stride[d];
  return index;
}

// Linear index of c[0..n) in shape[0..n), row-major.  [1,2,3] in [3,7,5] -> 35+10+3 = 48.
inline big row_major_index(const big* c, const big* shape, std::size_t n) {
  return dot(c, row_major_strides(shape, n), n);
}
inline big row_major_index(const std::vector<big>& c, const std::vector<big>& shape) {
  return row_major_index(c.data(), shape.data(), shape.size());
}

// Inverse of row_major_index by repeated division, last dim first, into out[0..n); index <
// vol(shape[0..n)).  48 in [3,7,5] -> [1,2,3].
inline void row_major_coord(big index, const big* shape, std::size_t n, big* out) {
  for (std::size_t d = n; d-- > 0;) {
    if (shape[d] <= 0) throw std::logic_error("oracle: coordinate in a shape with an empty dim");
    if (index < shape[d]) {  // index / shape[d] is 0: nothing left to divide
      out[d] = index;
      index = 0;
      continue;
    }
    big quotient;
    boost::multiprecision::divide_qr(index, shape[d], quotient, out[d]);  // out[d] = index % shape[d]
    index = quotient;
  }
}
inline coord row_major_coord(const big& index, const std::vector<big>& shape) {
  coord c;
  row_major_coord(index, shape.data(), rank_of(shape), c.data());
  return c;
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
