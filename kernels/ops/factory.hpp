// kernels/ops/factory.hpp - what the program factories of kernels/ops share: the work split,
// circular buffers of int32 pages, argument words, adding a reader and a writer (with a
// kernel_swap applied), a program made with tt-metal's host API, and the op's output grid and
// reference from lib/sim. Internal to ndshard::kernels.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/sim/device.hpp"
#include "ndshard/sim/op.hpp"
#include "ndshard/ttmetal_host/bridge.hpp"
#include "ndshard/ttsim/kcheck.hpp"
#include "ops/ops.hpp"

namespace ndshard::kernels::detail {

// One core's share of an op's output pages: [first, first + count).
struct core_share {
    core_coord core;
    std::uint32_t first = 0;
    std::uint32_t count = 0;
};

// `pages` over `cores` as tt-metal's split_work_to_cores deals them: the first pages % n
// cores get one page more, cores left without work are left out. 10 pages on 4 cores ->
// [0,3) [3,6) [6,8) [8,10); 2 pages on 4 cores -> two cores.
std::vector<core_share> split_pages(std::uint64_t pages, const std::vector<core_coord>& cores);
std::vector<core_coord> cores_of(const std::vector<core_share>& shares);

// A value as one argument word; sim::op_error naming it when it needs more than 32 bits.
std::uint32_t word(std::uint64_t value, const char* what);

// A CB of int32 pages of `page_bytes` in slots of `slot_bytes`: DataFormat Int32 and
// tile_hw = the page's elements, so get_tile_size(cb) is page_bytes (as for a tile CB).
ttsim::circular_buffer_desc int32_cb(std::uint32_t id, std::uint32_t slot_bytes, std::uint32_t page_bytes,
                                     std::uint32_t num_pages, std::vector<core_coord> cores);

// A kernel before it joins a program: its source (relative to kernels_dir()), its argument
// words and its cores (those it has runtime args for).
struct kernel_plan {
    kernel_plan(std::string source_in, std::vector<std::uint32_t> compile_time_in)
        : source(std::move(source_in)), compile_time(std::move(compile_time_in)) {}

    std::string source;
    std::vector<std::uint32_t> compile_time;
    std::vector<std::uint32_t> common_runtime;
    std::vector<std::pair<core_coord, std::vector<std::uint32_t>>> runtime;

    // Appends the buffer's TensorAccessorArgs words (compile-time and common runtime) for the case's mix and layout.
    void append_accessor(const ttsim::op_case& c, sim::buffer_id buffer);
};

// Adds `reader` on riscv_0 and `writer` on riscv_1, with `swap`'s sources and semaphore.
void add_reader_writer(ttsim::program& p, kernel_plan reader, kernel_plan writer, const kernel_swap& swap);

// Whether the buffer travels as a sharded accessor (else interleaved: no shard grid).
bool is_sharded(const ttsim::op_case& c, sim::buffer_id buffer);

// The program a factory written with tt-metal's host API (ndshard/ttmetal_host/bridge.hpp)
// makes for the case, its kernel paths relative to kernels_dir() / folder, with `swap`
// applied: the first kernel is the reader, the second the writer.
ttsim::program host_program(const ttsim::op_case& c, const ttmetal_host::program_factory& factory,
                            const std::string& folder, const kernel_swap& swap);

// An op_desc whose output grid and reference are lib/sim's `op`, built by `build`.
ttsim::op_desc sim_op_desc(std::string name, const sim::op_spec& op, std::size_t min_rank, std::size_t max_rank,
                           std::function<ttsim::program(const ttsim::op_case&)> build);

// The program factories, one per op folder.
ttsim::program build_copy(const ttsim::op_case& c, const kernel_swap& swap);
ttsim::program build_copy_shards(const ttsim::op_case& c, const kernel_swap& swap);
ttsim::program build_permute(const ttsim::op_case& c, const std::vector<std::size_t>& order, const kernel_swap& swap);
ttsim::program build_reduce(const ttsim::op_case& c, std::size_t dim, const kernel_swap& swap);

}  // namespace ndshard::kernels::detail
