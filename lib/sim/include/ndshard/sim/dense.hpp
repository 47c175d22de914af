// ndshard/sim/dense.hpp - plain host tensors and the dense oracle of the kernels.
//
// A tensor is a grid of pages (row-major page ids, as in docs/semantics.md), each page
// `page_elems` int32 values. The oracle functions compute each op naively over the
// dense grid and share nothing with the device path (no accessor, no mapping): they are
// what the simulated kernels are checked against. Arithmetic wraps modulo 2^32, so
// results compare bit for bit whatever the data.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ndshard/shape.hpp"

namespace ndshard::sim {

struct dense_tensor {
    shape pages;                     // the page grid
    std::uint32_t page_elems = 1;    // int32 values per page
    std::vector<std::int32_t> data;  // page after page, in page id order

    // [2,3] pages x 4 elems, every value v.
    static dense_tensor filled(const shape& pages, std::uint32_t page_elems, std::int32_t v);
    // Deterministic pseudo-random values over the whole int32 range (same seed, same data).
    static dense_tensor random(const shape& pages, std::uint32_t page_elems, std::uint64_t seed);

    [[nodiscard]] std::uint64_t num_pages() const noexcept;
    [[nodiscard]] std::span<std::int32_t> page(std::uint64_t id) noexcept;
    [[nodiscard]] std::span<const std::int32_t> page(std::uint64_t id) const noexcept;

    friend bool operator==(const dense_tensor&, const dense_tensor&) = default;
};

// The dense oracle. Each throws std::invalid_argument for arguments outside its domain
// (it is also used to check a request before anything runs on the device).
namespace dense {

// a + b, element-wise; shapes and page sizes must be equal.
dense_tensor eltwise_add(const dense_tensor& a, const dense_tensor& b);
// Sum over page-grid dim `dim`: [2,3,4] over dim 1 -> [2,4] (keep_dim: [2,1,4]).
// A rank-1 input always keeps its dim: [5] -> [1].
dense_tensor reduce_sum(const dense_tensor& in, std::size_t dim, bool keep_dim = false);
// out dim i = in dim order[i]: [2,3,4] with {2,0,1} -> [4,2,3].
dense_tensor permute(const dense_tensor& in, std::span<const std::size_t> order);

}  // namespace dense

// First difference between two tensors ("page 7 elem 2: 5 != 6", "shape [2,3] != [3,2]"),
// empty when equal; for test messages.
std::string first_difference(const dense_tensor& got, const dense_tensor& want);

}  // namespace ndshard::sim
