// kernels/ops/reduce/op.cpp - reduce's program factory: the sum over input dim `dim`.
//
// CB 0 carries input pages (two slots of the input's aligned page size) from the reader,
// which pushes the K pages of each output page in turn; CB 1 is the writer's scratch page
// for the running sum (one slot of the output's aligned page size). K is the extent of the
// reduced dim and `inner` the product of the input dims after it, both compile-time args.
// [2,3,4] over dim 1: K = 3, inner = 4, 8 output pages split over the op's cores.
#include "ndshard/checked.hpp"
#include "ndshard/sim/error.hpp"
#include "ops/factory.hpp"

namespace ndshard::kernels::detail {

ttsim::program build_reduce(const ttsim::op_case& c, std::size_t dim, const kernel_swap& swap) {
    const sim::buffer_info& in = c.dev.buffer(c.inputs.at(0));
    const sim::buffer_info& out = c.dev.buffer(c.output);
    const shape& grid = in.dist.tensor_pages;
    if (dim >= grid.rank())
        throw sim::op_error("reduce:" + std::to_string(dim) + " on a rank-" + std::to_string(grid.rank()) + " input");
    if (in.dist.page_size != out.dist.page_size)
        throw sim::op_error("reduce: input pages of " + std::to_string(in.dist.page_size) + " bytes, output pages of " +
                            std::to_string(out.dist.page_size));
    std::uint64_t inner = 1;
    for (std::size_t d = dim + 1; d < grid.rank(); ++d) inner = sat_mul(inner, grid[d]);
    const std::uint32_t page_bytes = word(in.dist.page_size, "page size");
    const std::uint32_t in_page = word(in.dist.aligned_page_size, "input aligned page size");
    const std::uint32_t out_page = word(out.dist.aligned_page_size, "output aligned page size");
    const std::vector<core_share> shares = split_pages(out.dist.num_pages(), c.cores);
    if (shares.empty()) return {};  // no output pages: nothing to run

    ttsim::program p;
    constexpr std::uint32_t cb_in = 0;
    constexpr std::uint32_t cb_sum = 1;
    p.add_circular_buffer(int32_cb(cb_in, in_page, page_bytes, 2, cores_of(shares)));
    p.add_circular_buffer(int32_cb(cb_sum, out_page, page_bytes, 1, cores_of(shares)));

    const std::uint32_t reduced = word(grid[dim], "reduced extent");
    const std::uint32_t inner_pages = word(inner, "inner page count");
    // K and inner travel as runtime args: one compiled reader and writer serve every shape.
    kernel_plan reader("ops/reduce/reader.cpp", {cb_in, page_bytes, in_page});
    reader.append_accessor(c, c.inputs[0]);
    kernel_plan writer("ops/reduce/writer.cpp", {cb_in, page_bytes, out_page, cb_sum});
    writer.append_accessor(c, c.output);
    const std::uint32_t in_base = word(in.dist.bank_base, "input bank base");
    const std::uint32_t out_base = word(out.dist.bank_base, "output bank base");
    for (const core_share& s : shares) {
        reader.runtime.push_back({s.core, {in_base, s.first, s.count, reduced, inner_pages}});
        writer.runtime.push_back({s.core, {out_base, s.first, s.count, reduced}});
    }
    add_reader_writer(p, std::move(reader), std::move(writer), swap);
    return p;
}

}  // namespace ndshard::kernels::detail
