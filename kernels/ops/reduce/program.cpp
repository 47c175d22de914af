// kernels/ops/reduce/program.cpp - reduce's program factory written with tt-metal's host API:
// `ndshard kcheck --program kernels/ops/reduce/program.cpp --reference reduce:1` checks it
// with this folder's reader.cpp and writer.cpp.
//
// The dim is the reference's parameter (make_program's third argument); the input page grid
// is ndshard's Buffer::ndshard_tensor_shape_in_pages. K = the reduced dim's extent, inner =
// the product of the dims after it. CB c_0 carries input pages (two slots of the input's
// aligned page), CB c_1 is the writer's running sum (one slot of the output's). Output pages
// split over the grid with split_work_to_cores.
#include <cstdint>
#include <vector>

#include <tt-metalium/work_split.hpp>

#include "../host_program.hpp"

using namespace tt::tt_metal;

Program make_program(Buffer& input, Buffer& output, const std::vector<std::uint32_t>& params) {
    const ops_host::page_sizes page = ops_host::pages_of("reduce", input, output);
    const std::vector<std::uint32_t> grid = input.ndshard_tensor_shape_in_pages();
    if (params.size() != 1 || params[0] >= grid.size()) throw not_applicable("reduce: no such dim in the input");
    const std::uint32_t dim = params[0];
    std::uint32_t inner = 1;
    for (std::size_t d = dim + 1; d < grid.size(); ++d) inner *= grid[d];
    const auto [num_cores, all_cores, group_1, group_2, pages_1, pages_2] =
        split_work_to_cores(input.device()->compute_with_storage_grid_size(), output.num_pages());
    Program program = CreateProgram();
    if (num_cores == 0) return program;

    constexpr std::uint8_t cb_in = tt::CBIndex::c_0;
    constexpr std::uint8_t cb_sum = tt::CBIndex::c_1;
    ops_host::int32_cb(program, all_cores, cb_in, page.in, 2);
    ops_host::int32_cb(program, all_cores, cb_sum, page.out, 1);
    const ops_host::kernel_words r = ops_host::words({cb_in, page.bytes, page.in}, {&input});
    const ops_host::kernel_words w = ops_host::words({cb_in, page.bytes, page.out, cb_sum}, {&output});
    const ops_host::reader_writer k =
        ops_host::create_reader_writer(program, all_cores, "reader.cpp", r, "writer.cpp", w);
    ops_host::for_each_share(
        all_cores, group_1, pages_1, pages_2, [&](const CoreCoord& core, std::uint32_t first, std::uint32_t count) {
            SetRuntimeArgs(program, k.reader, core, {input.address(), first, count, grid[dim], inner});
            SetRuntimeArgs(program, k.writer, core, {output.address(), first, count, grid[dim]});
        });
    return program;
}
