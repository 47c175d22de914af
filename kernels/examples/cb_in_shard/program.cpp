// kernels/examples/cb_in_shard/program.cpp - a copy of an L1-sharded input whose reader's
// circular buffer is the input's shard memory itself (tt-metal's
// CircularBufferConfig::set_globally_allocated_address), written with tt-metal's host API:
// `ndshard kcheck --program kernels/examples/cb_in_shard/program.cpp --reference copy` checks
// it with this folder's reader.cpp and writer.cpp; any other input is declined.
//
// On each core that holds shards, CB c_0 covers the buffer's bytes on that core (its shards
// in slot order, a slot per aligned input page). The reader pushes the core's slots without
// reading anything (the pages are already there); the writer writes each real page of the
// core's shards from its CB slot to the output page of the same id.
#include <cstdint>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

using namespace tt::tt_metal;

Program make_program(Buffer& input, Buffer& output) {
    const auto& spec = input.buffer_distribution_spec();
    if (!input.is_l1() || !spec) throw not_applicable("cb_in_shard: the input is not sharded in L1");
    if (input.page_size() != output.page_size()) throw not_applicable("cb_in_shard: input and output pages differ");
    const auto page_bytes = static_cast<std::uint32_t>(input.page_size());
    const auto in_page = static_cast<std::uint32_t>(input.aligned_page_size());
    const auto out_page = static_cast<std::uint32_t>(output.aligned_page_size());
    std::uint32_t shard_volume = 1;
    for (const std::uint32_t extent : spec->shard_shape_in_pages()) shard_volume *= extent;
    Program program = CreateProgram();
    if (input.num_pages() == 0 || spec->num_cores_with_data() == 0) return program;
    const CoreRangeSet cores = spec->core_groups().cores_with_data;

    constexpr std::uint8_t cb = tt::CBIndex::c_0;
    CreateCircularBuffer(
        program, cores,
        CircularBufferConfig(static_cast<std::uint32_t>(input.aligned_size_per_bank()), {{cb, tt::DataFormat::Int32}})
            .set_page_size(cb, in_page)
            .set_globally_allocated_address(input));

    // writer: [0] CB, [1] page bytes, [2] input and [3] output aligned page, the input's and
    // the output's accessor words.
    std::vector<std::uint32_t> writer_cta{cb, page_bytes, in_page, out_page}, writer_crta;
    TensorAccessorArgs(input).append_to(writer_cta, writer_crta);
    TensorAccessorArgs(output).append_to(writer_cta, writer_crta);
    const KernelHandle reader = CreateKernel(program, "reader.cpp", cores, ReaderDataMovementConfig({cb}));
    const KernelHandle writer = CreateKernel(program, "writer.cpp", cores, WriterDataMovementConfig(writer_cta));
    SetCommonRuntimeArgs(program, writer, writer_crta);

    for (std::size_t i = 0; i < spec->num_cores(); ++i) {
        const CoreCoord core = spec->cores()[i];
        if (!cores.contains(core)) continue;
        const auto slots = static_cast<std::uint32_t>(spec->num_shards_per_core(i)) * shard_volume;
        SetRuntimeArgs(program, reader, core, {slots});
        SetRuntimeArgs(program, writer, core, {input.address(), output.address(), slots});
    }
    return program;
}
