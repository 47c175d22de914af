// kernels/ops/permute/op.cpp - permute's program factory: output dim i = input dim order[i].
//
// The reader (ops/permute/reader.cpp) walks its output pages and reads each from the input
// page it comes from, so the writer is copy's (ops/copy/writer.cpp): pages arrive in output
// id order. The input page grid and the order are compile-time args; one CB (id 0) of two
// pages sized from the larger aligned page size; output pages split over the op's cores.
#include <algorithm>

#include "ndshard/sim/error.hpp"
#include "ops/factory.hpp"

namespace ndshard::kernels::detail {

ttsim::program build_permute(const ttsim::op_case& c, const std::vector<std::size_t>& order, const kernel_swap& swap) {
    const sim::buffer_info& in = c.dev.buffer(c.inputs.at(0));
    const sim::buffer_info& out = c.dev.buffer(c.output);
    const shape& grid = in.dist.tensor_pages;
    if (grid.rank() != order.size())
        throw sim::op_error("permute: an order of " + std::to_string(order.size()) + " dims on a rank-" +
                            std::to_string(grid.rank()) + " input");
    if (in.dist.page_size != out.dist.page_size)
        throw sim::op_error("permute: input pages of " + std::to_string(in.dist.page_size) +
                            " bytes, output pages of " + std::to_string(out.dist.page_size));
    const std::uint32_t page_bytes = word(in.dist.page_size, "page size");
    const std::uint32_t in_page = word(in.dist.aligned_page_size, "input aligned page size");
    const std::uint32_t out_page = word(out.dist.aligned_page_size, "output aligned page size");
    const std::vector<core_share> shares = split_pages(out.dist.num_pages(), c.cores);
    if (shares.empty()) return {};  // no output pages: nothing to run

    ttsim::program p;
    constexpr std::uint32_t cb = 0;
    p.add_circular_buffer(int32_cb(cb, std::max(in_page, out_page), page_bytes, 2, cores_of(shares)));

    kernel_plan reader("ops/permute/reader.cpp", {cb, page_bytes, in_page});
    reader.compile_time.push_back(static_cast<std::uint32_t>(grid.rank()));
    for (const std::size_t o : order) reader.compile_time.push_back(static_cast<std::uint32_t>(o));
    reader.append_accessor(c, c.inputs[0]);
    kernel_plan writer("ops/copy/writer.cpp", {cb, page_bytes, out_page});
    writer.append_accessor(c, c.output);
    const std::uint32_t in_base = word(in.dist.bank_base, "input bank base");
    const std::uint32_t out_base = word(out.dist.bank_base, "output bank base");
    // The grid travels as runtime args: one compiled reader per order serves every shape.
    std::vector<std::uint32_t> grid_words;
    for (const std::uint64_t extent : grid) grid_words.push_back(word(extent, "input page grid extent"));
    for (const core_share& s : shares) {
        std::vector<std::uint32_t> args{in_base, s.first, s.count};
        args.insert(args.end(), grid_words.begin(), grid_words.end());
        reader.runtime.push_back({s.core, std::move(args)});
        writer.runtime.push_back({s.core, {out_base, s.first, s.count}});
    }
    add_reader_writer(p, std::move(reader), std::move(writer), swap);
    return p;
}

}  // namespace ndshard::kernels::detail
