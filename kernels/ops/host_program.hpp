// kernels/ops/host_program.hpp - what the ops' program factories written with tt-metal's host
// API (kernels/ops/*/program.cpp, checked by `ndshard kcheck --program`) share, itself in
// tt-metal's host names only: the page sizes a case gives (input and output pages of one size,
// else the case is declined), a CB of int32 pages, a kernel's argument words with the
// buffers' TensorAccessorArgs appended, a reader and a writer made with them, and the walk
// over split_work_to_cores' cores with each one's first page and count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

namespace ops_host {

// A case's page sizes in bytes: a page's, and the input's and output's aligned slots.
struct page_sizes {
    std::uint32_t bytes = 0;
    std::uint32_t in = 0;
    std::uint32_t out = 0;
};

// Declines (not_applicable) a case whose input and output pages differ in size.
inline page_sizes pages_of(const char* op, const tt::tt_metal::Buffer& input, const tt::tt_metal::Buffer& output) {
    if (input.page_size() != output.page_size())
        throw tt::tt_metal::not_applicable(std::string(op) + ": input and output pages differ in size");
    return {static_cast<std::uint32_t>(input.page_size()), static_cast<std::uint32_t>(input.aligned_page_size()),
            static_cast<std::uint32_t>(output.aligned_page_size())};
}

// CB `index` on `cores`: `slots` pages of `slot_bytes`, of int32 data.
inline void int32_cb(tt::tt_metal::Program& program, const tt::tt_metal::CoreRangeSet& cores, std::uint8_t index,
                     std::uint32_t slot_bytes, std::uint32_t slots) {
    tt::tt_metal::CreateCircularBuffer(
        program, cores,
        tt::tt_metal::CircularBufferConfig(slots * slot_bytes, {{index, tt::DataFormat::Int32}})
            .set_page_size(index, slot_bytes));
}

// A kernel's words: its own compile-time words, then each buffer's TensorAccessorArgs (their
// common runtime words in the same order).
struct kernel_words {
    std::vector<std::uint32_t> compile_time;
    std::vector<std::uint32_t> common_runtime;
};
inline kernel_words words(std::vector<std::uint32_t> own, std::initializer_list<const tt::tt_metal::Buffer*> buffers) {
    kernel_words w{std::move(own), {}};
    for (const tt::tt_metal::Buffer* b : buffers)
        tt::tt_metal::TensorAccessorArgs(*b).append_to(w.compile_time, w.common_runtime);
    return w;
}

// A reader (tt-metal's ReaderDataMovementConfig) and a writer (WriterDataMovementConfig) on
// `cores`, sources relative to the factory's folder, each given its words' compile-time and
// common runtime parts.
struct reader_writer {
    tt::tt_metal::KernelHandle reader;
    tt::tt_metal::KernelHandle writer;
};
inline reader_writer create_reader_writer(tt::tt_metal::Program& program, const tt::tt_metal::CoreRangeSet& cores,
                                          const std::string& reader_source, const kernel_words& r,
                                          const std::string& writer_source, const kernel_words& w) {
    using namespace tt::tt_metal;
    const reader_writer k{CreateKernel(program, reader_source, cores, ReaderDataMovementConfig(r.compile_time)),
                          CreateKernel(program, writer_source, cores, WriterDataMovementConfig(w.compile_time))};
    SetCommonRuntimeArgs(program, k.reader, r.common_runtime);
    SetCommonRuntimeArgs(program, k.writer, w.common_runtime);
    return k;
}

// Calls visit(core, first page, page count) for each core of a split_work_to_cores result, in
// its order: the cores of group 1 take pages_1 pages, the others pages_2, ranges back to back.
template <typename Visit>
void for_each_share(const tt::tt_metal::CoreRangeSet& all_cores, const tt::tt_metal::CoreRangeSet& group_1,
                    std::uint32_t pages_1, std::uint32_t pages_2, Visit&& visit) {
    std::uint32_t first = 0;
    for (const tt::tt_metal::CoreCoord& core : corerange_to_cores(all_cores)) {
        const std::uint32_t count = group_1.contains(core) ? pages_1 : pages_2;
        visit(core, first, count);
        first += count;
    }
}

}  // namespace ops_host
