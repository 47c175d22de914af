// kernels/ops/copy/program.cpp - copy's program factory written with tt-metal's host API
// only, as a user brings one: `ndshard kcheck --program kernels/ops/copy/program.cpp
// --reference copy` checks it with this folder's reader.cpp and writer.cpp over every
// distribution. Output page i = input page i.
//
// The output pages are split over the device's grid with split_work_to_cores (column by
// column, group 1 one page more); a core's reader and writer get the same first page and
// count. One CB (c_0) of two slots, each as large as the larger aligned page.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/work_split.hpp>

using namespace tt::tt_metal;

Program make_program(Buffer& input, Buffer& output) {
    if (input.page_size() != output.page_size()) throw not_applicable("copy: input and output pages differ in size");
    const auto page_bytes = static_cast<std::uint32_t>(input.page_size());
    const auto in_page = static_cast<std::uint32_t>(input.aligned_page_size());
    const auto out_page = static_cast<std::uint32_t>(output.aligned_page_size());
    const std::uint32_t slot = std::max(in_page, out_page);

    const auto [num_cores, all_cores, group_1, group_2, pages_1, pages_2] =
        split_work_to_cores(input.device()->compute_with_storage_grid_size(), output.num_pages());
    Program program = CreateProgram();
    if (num_cores == 0) return program;

    constexpr std::uint32_t cb = tt::CBIndex::c_0;
    CreateCircularBuffer(program, all_cores,
                         CircularBufferConfig(2 * slot, {{cb, tt::DataFormat::Int32}}).set_page_size(cb, slot));

    // reader: [0] CB, [1] page bytes, [2] input aligned page, then the input's accessor words.
    std::vector<std::uint32_t> reader_cta{cb, page_bytes, in_page}, reader_crta;
    TensorAccessorArgs(input).append_to(reader_cta, reader_crta);
    std::vector<std::uint32_t> writer_cta{cb, page_bytes, out_page}, writer_crta;
    TensorAccessorArgs(output).append_to(writer_cta, writer_crta);

    const KernelHandle reader = CreateKernel(
        program, "reader.cpp", all_cores,
        DataMovementConfig{
            .processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default, .compile_args = reader_cta});
    const KernelHandle writer = CreateKernel(
        program, "writer.cpp", all_cores,
        DataMovementConfig{
            .processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default, .compile_args = writer_cta});
    SetCommonRuntimeArgs(program, reader, reader_crta);
    SetCommonRuntimeArgs(program, writer, writer_crta);

    std::uint32_t first = 0;
    for (const CoreCoord& core : corerange_to_cores(all_cores)) {
        const std::uint32_t count = group_1.contains(core) ? pages_1 : pages_2;
        SetRuntimeArgs(program, reader, core, {input.address(), first, count});
        SetRuntimeArgs(program, writer, core, {output.address(), first, count});
        first += count;
    }
    return program;
}
