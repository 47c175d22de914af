// kernels/ops/copy_shards/program.cpp - copy_shards' program factory written with tt-metal's
// host API only: `ndshard kcheck --program kernels/ops/copy_shards/program.cpp --reference
// copy_shards` checks it with this folder's reader.cpp and writer.cpp.
//
// The first n cores of the grid, row by row (num_cores_to_corerangeset), n = min(cores,
// output shards; output pages for an interleaved output): core k takes the output shards
// k, k + n, ... as the shard walk (shard_walk.h) deals them. The reader gets the input's and
// the output's accessor words, the writer the output's; one CB (c_0) of two slots, each as
// large as the larger aligned page. Reader and writer in tt-metal's default places
// (ReaderDataMovementConfig, WriterDataMovementConfig).
#include <algorithm>
#include <cstdint>

#include "../host_program.hpp"

using namespace tt::tt_metal;

Program make_program(Buffer& input, Buffer& output) {
    const ops_host::page_sizes page = ops_host::pages_of("copy_shards", input, output);
    const auto& spec = output.buffer_distribution_spec();
    const std::uint32_t units = spec ? static_cast<std::uint32_t>(spec->num_shards()) : output.num_pages();
    const CoreCoord grid = input.device()->compute_with_storage_grid_size();
    const auto num_cores = static_cast<std::uint32_t>(std::min<std::size_t>(grid.x * grid.y, units));
    Program program = CreateProgram();
    if (num_cores == 0) return program;
    const CoreRangeSet cores = num_cores_to_corerangeset(num_cores, grid, true);

    constexpr std::uint8_t cb = tt::CBIndex::c_0;
    ops_host::int32_cb(program, cores, cb, std::max(page.in, page.out), 2);
    // reader: [0] CB, [1] page bytes, [2] input and [3] output aligned page, the accessors' words
    const ops_host::kernel_words r = ops_host::words({cb, page.bytes, page.in, page.out}, {&input, &output});
    const ops_host::kernel_words w = ops_host::words({cb, page.bytes, page.out}, {&output});
    const ops_host::reader_writer kernels =
        ops_host::create_reader_writer(program, cores, "reader.cpp", r, "writer.cpp", w);

    std::uint32_t k = 0;
    for (const CoreCoord& core : corerange_to_cores(cores, std::nullopt, true)) {
        SetRuntimeArgs(program, kernels.reader, core,
                       {input.address(), output.address(), k, num_cores, output.num_pages()});
        SetRuntimeArgs(program, kernels.writer, core, {output.address(), k, num_cores, output.num_pages()});
        ++k;
    }
    return program;
}
