// kernels/ops/permute/program.cpp - permute's program factory written with tt-metal's host
// API: `ndshard kcheck --program kernels/ops/permute/program.cpp --reference permute:2,0,1`
// checks it with this folder's reader.cpp and copy's writer (../copy/writer.cpp).
//
// The order is the reference's parameter (make_program's third argument); the input page
// grid is ndshard's Buffer::ndshard_tensor_shape_in_pages (what a tt-metal factory reads off
// its input Tensor). Output pages split over the grid with split_work_to_cores; the reader
// walks its output pages and reads each from the input page it comes from: [0] CB, [1] page
// bytes, [2] input aligned page, [3] rank, the order, the input's accessor words; runtime
// input address, first page, count, the input page grid.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <tt-metalium/work_split.hpp>

#include "../host_program.hpp"

using namespace tt::tt_metal;

Program make_program(Buffer& input, Buffer& output, const std::vector<std::uint32_t>& order) {
    const ops_host::page_sizes page = ops_host::pages_of("permute", input, output);
    const std::vector<std::uint32_t> grid = input.ndshard_tensor_shape_in_pages();
    if (order.size() != grid.size()) throw not_applicable("permute: the order's rank is not the input's");
    const auto [num_cores, all_cores, group_1, group_2, pages_1, pages_2] =
        split_work_to_cores(input.device()->compute_with_storage_grid_size(), output.num_pages());
    Program program = CreateProgram();
    if (num_cores == 0) return program;

    constexpr std::uint8_t cb = tt::CBIndex::c_0;
    ops_host::int32_cb(program, all_cores, cb, std::max(page.in, page.out), 2);
    std::vector<std::uint32_t> own{cb, page.bytes, page.in, static_cast<std::uint32_t>(order.size())};
    own.insert(own.end(), order.begin(), order.end());
    const ops_host::kernel_words r = ops_host::words(own, {&input});
    const ops_host::kernel_words w = ops_host::words({cb, page.bytes, page.out}, {&output});
    const ops_host::reader_writer k =
        ops_host::create_reader_writer(program, all_cores, "reader.cpp", r, "../copy/writer.cpp", w);
    ops_host::for_each_share(all_cores, group_1, pages_1, pages_2,
                             [&](const CoreCoord& core, std::uint32_t first, std::uint32_t count) {
                                 std::vector<std::uint32_t> args{input.address(), first, count};
                                 args.insert(args.end(), grid.begin(), grid.end());
                                 SetRuntimeArgs(program, k.reader, core, args);
                                 SetRuntimeArgs(program, k.writer, core, {output.address(), first, count});
                             });
    return program;
}
