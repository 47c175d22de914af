// kernels/ops/copy_shards/op.cpp - copy_shards' program factory: output page i = input page
// i, each core writing whole output shards.
//
// The op's first n cores each take the output shards k, k + n, ... (an interleaved output:
// its pages), n = min(cores, shards); reader and writer walk the same sequence
// (ops/copy_shards/shard_walk.h), the reader with the output's accessor args after the
// input's. One CB (id 0) of two pages sized from the larger aligned page size.
#include <algorithm>

#include "ndshard/sim/error.hpp"
#include "ops/factory.hpp"

namespace ndshard::kernels::detail {

ttsim::program build_copy_shards(const ttsim::op_case& c, const kernel_swap& swap) {
    const sim::buffer_info& in = c.dev.buffer(c.inputs.at(0));
    const sim::buffer_info& out = c.dev.buffer(c.output);
    if (in.dist.page_size != out.dist.page_size)
        throw sim::op_error("copy_shards: input pages of " + std::to_string(in.dist.page_size) +
                            " bytes, output pages of " + std::to_string(out.dist.page_size));
    const std::uint32_t page_bytes = word(in.dist.page_size, "page size");
    const std::uint32_t in_page = word(in.dist.aligned_page_size, "input aligned page size");
    const std::uint32_t out_page = word(out.dist.aligned_page_size, "output aligned page size");
    const std::uint32_t num_pages = word(out.dist.num_pages(), "page count");
    const std::uint64_t units = is_sharded(c, c.output) ? out.dist.num_shards() : out.dist.num_pages();
    const std::size_t n = std::min<std::uint64_t>(c.cores.size(), units);
    if (n == 0) return {};  // no output pages: nothing to run
    const std::vector<core_coord> cores(c.cores.begin(), c.cores.begin() + static_cast<std::ptrdiff_t>(n));

    ttsim::program p;
    constexpr std::uint32_t cb = 0;
    p.add_circular_buffer(int32_cb(cb, std::max(in_page, out_page), page_bytes, 2, cores));

    kernel_plan reader("ops/copy_shards/reader.cpp", {cb, page_bytes, in_page, out_page});
    reader.append_accessor(c, c.inputs[0]);
    reader.append_accessor(c, c.output);
    kernel_plan writer("ops/copy_shards/writer.cpp", {cb, page_bytes, out_page});
    writer.append_accessor(c, c.output);
    const std::uint32_t in_base = word(in.dist.bank_base, "input bank base");
    const std::uint32_t out_base = word(out.dist.bank_base, "output bank base");
    const auto num_cores = static_cast<std::uint32_t>(n);
    for (std::uint32_t k = 0; k < num_cores; ++k) {
        reader.runtime.push_back({cores[k], {in_base, out_base, k, num_cores, num_pages}});
        writer.runtime.push_back({cores[k], {out_base, k, num_cores, num_pages}});
    }
    add_reader_writer(p, std::move(reader), std::move(writer), swap);
    return p;
}

}  // namespace ndshard::kernels::detail
