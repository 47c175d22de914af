// ndshard/sim/kernels.hpp - kernels written only against the accessor and the NoC.
//
// A kernel runs once per bank of its output distribution (on that core, or for a DRAM
// output on the worker device::executor_for picks) and produces exactly that bank's
// pages: it walks them with the output accessor's local_pages iterator, finds every
// input page with the input accessor's get_noc_addr, reads it over the NoC, and writes
// the result to its own page. Nothing else of the library is used on the device side,
// so one kernel serves every distribution - interleaved, HEIGHT / WIDTH / BLOCK and ND.
//
// The launchers (reshard, eltwise_add, reduce_sum, permute) are the host side: they
// check the request (op_error), build each tensor's accessor arguments, and run the
// kernel on every output bank in an order shuffled by `seed` and by a per-launch counter.
// They return the run's NoC traffic.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "ndshard/accessor.hpp"
#include "ndshard/sim/device.hpp"

namespace ndshard::sim {

// What a kernel gets for one tensor: its buffer and its accessor arguments (runtime
// words as made by make_accessor_words(dist, arg::all_runtime)).
struct tensor_arg {
    buffer_id buffer;
    accessor_words words;
    std::uint32_t bank_base = 0;
    std::uint32_t aligned_page_size = 1;
    std::uint32_t page_elems = 0;  // int32 values per page

    static tensor_arg of(const buffer_info& b);
};

// An op's logical page grid (a kernel argument, as a tensor shape is in tt-metal's
// compile-time arguments): row-major page id <-> coordinate. [2,3,4]: id 17 <-> (1,1,1).
struct page_grid {
    using coord = std::array<std::uint32_t, max_rank>;
    std::uint32_t rank = 0;
    coord extent{};

    static page_grid of(const shape& s);
    [[nodiscard]] coord coord_of(std::uint32_t page_id) const noexcept;
    [[nodiscard]] std::uint32_t id_of(const coord& c) const noexcept;
};

// The one core's view of the device while its kernel runs.
class core_context {
public:
    core_context(device& dev, core_coord me, std::uint32_t bank) : dev_(dev), me_(me), bank_(bank) {}
    // The core running the kernel.
    [[nodiscard]] core_coord me() const noexcept { return me_; }
    // The output bank (index into the output distribution's cores) it produces.
    [[nodiscard]] std::uint32_t bank() const noexcept { return bank_; }
    // One page of `t` at `src` into `page` (t.page_elems values); must land in t's buffer.
    void read(const tensor_arg& t, noc_addr src, std::span<std::int32_t> page);
    void write(const tensor_arg& t, noc_addr dst, std::span<const std::int32_t> page);

private:
    device& dev_;
    core_coord me_;
    std::uint32_t bank_;
};

// --- device code: one call per output bank ---
void reshard_kernel(core_context& core, const tensor_arg& in, const tensor_arg& out);
void eltwise_add_kernel(core_context& core, const tensor_arg& a, const tensor_arg& b, const tensor_arg& out);
// out_grid is in_grid without `dim`, or with it as 1.
void reduce_sum_kernel(core_context& core, const tensor_arg& in, const page_grid& in_grid, std::uint32_t dim,
                       const tensor_arg& out, const page_grid& out_grid);
// out dim i is in dim order[i].
void permute_kernel(core_context& core, const tensor_arg& in, const page_grid& in_grid, const tensor_arg& out,
                    const page_grid& out_grid, const page_grid::coord& order);

// --- host side: check, then launch on every output bank ---
// All: inputs and output live, the output distinct from every input, equal page sizes.
// out = in; equal page grids.
traffic_stats reshard(device& dev, buffer_id in, buffer_id out, std::uint64_t seed = 0);
// out = a + b; three equal page grids (a and b may be the same buffer).
traffic_stats eltwise_add(device& dev, buffer_id a, buffer_id b, buffer_id out, std::uint64_t seed = 0);
// out = sum over in's page-grid dim `dim`; out's grid is in's without dim ([2,3,4], 1 ->
// [2,4]) or with dim as 1 ([2,1,4]).
traffic_stats reduce_sum(device& dev, buffer_id in, buffer_id out, std::size_t dim, std::uint64_t seed = 0);
// out dim i = in dim order[i]: [2,3,4] with {2,0,1} -> [4,2,3].
traffic_stats permute(device& dev, buffer_id in, buffer_id out, std::span<const std::size_t> order,
                      std::uint64_t seed = 0);

}  // namespace ndshard::sim
