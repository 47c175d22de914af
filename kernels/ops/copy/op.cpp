// kernels/ops/copy/op.cpp - copy's program factory: output page i = input page i.
//
// One CB (id 0) of two pages, each slot as large as the larger of the two buffers' aligned
// page sizes (the reader reads an input's aligned page into it, the writer writes the
// page's bytes out of it). The output pages are split over the op's cores (split_pages);
// reader and writer of a core get the same [first, first + count).
#include <algorithm>

#include "ndshard/sim/error.hpp"
#include "ops/factory.hpp"

namespace ndshard::kernels::detail {

ttsim::program build_copy(const ttsim::op_case& c, const kernel_swap& swap) {
    const sim::buffer_info& in = c.dev.buffer(c.inputs.at(0));
    const sim::buffer_info& out = c.dev.buffer(c.output);
    if (in.dist.page_size != out.dist.page_size)
        throw sim::op_error("copy: input pages of " + std::to_string(in.dist.page_size) + " bytes, output pages of " +
                            std::to_string(out.dist.page_size));
    const std::uint32_t page_bytes = word(in.dist.page_size, "page size");
    const std::uint32_t in_page = word(in.dist.aligned_page_size, "input aligned page size");
    const std::uint32_t out_page = word(out.dist.aligned_page_size, "output aligned page size");
    const std::vector<core_share> shares = split_pages(out.dist.num_pages(), c.cores);
    if (shares.empty()) return {};  // no output pages: nothing to run

    ttsim::program p;
    constexpr std::uint32_t cb = 0;
    p.add_circular_buffer(int32_cb(cb, std::max(in_page, out_page), page_bytes, 2, cores_of(shares)));

    kernel_plan reader("ops/copy/reader.cpp", {cb, page_bytes, in_page});
    reader.append_accessor(c, c.inputs[0]);
    kernel_plan writer("ops/copy/writer.cpp", {cb, page_bytes, out_page});
    writer.append_accessor(c, c.output);
    const std::uint32_t in_base = word(in.dist.bank_base, "input bank base");
    const std::uint32_t out_base = word(out.dist.bank_base, "output bank base");
    for (const core_share& s : shares) {
        reader.runtime.push_back({s.core, {in_base, s.first, s.count}});
        writer.runtime.push_back({s.core, {out_base, s.first, s.count}});
    }
    add_reader_writer(p, std::move(reader), std::move(writer), swap);
    return p;
}

}  // namespace ndshard::kernels::detail
