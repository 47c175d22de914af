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
    const KernelHandle reader =
        CreateKernel(program, "reader.cpp", all_cores, ReaderDataMovementConfig(r.compile_time));
    const KernelHandle writer =
        CreateKernel(program, "../copy/writer.cpp", all_cores, WriterDataMovementConfig(w.compile_time));
    SetCommonRuntimeArgs(program, reader, r.common_runtime);
    SetCommonRuntimeArgs(program, writer, w.common_runtime);

    std::uint32_t first = 0;
    for (const CoreCoord& core : corerange_to_cores(all_cores)) {
        const std::uint32_t count = group_1.contains(core) ? pages_1 : pages_2;
        std::vector<std::uint32_t> args{input.address(), first, count};
        args.insert(args.end(), grid.begin(), grid.end());
        SetRuntimeArgs(program, reader, core, args);
        SetRuntimeArgs(program, writer, core, {output.address(), first, count});
        first += count;
    }
    return program;
}
