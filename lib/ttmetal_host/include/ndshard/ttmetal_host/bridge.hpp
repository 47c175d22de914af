// ndshard/ttmetal_host/bridge.hpp - tt-metal's host API (include/tt-metalium/...) over the
// simulator: a Buffer for a buffer of a sim::device, a Program turned into a ttsim::program
// (launch.hpp runs it), and an op whose program is made by a factory function written with
// tt-metal's host calls, for ttsim::check_kernel.
//
//   tt::tt_metal::Program make_program(tt::tt_metal::Buffer& input, tt::tt_metal::Buffer& output);
//   const ttsim::op_desc op = ttmetal_host::program_op(kernels::copy_op(), make_program);
//   ttsim::check_kernel(op);
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ndshard/sim/device.hpp"
#include "ndshard/ttsim/kcheck.hpp"
#include "ndshard/ttsim/program.hpp"
#include "tt-metalium/host_api.hpp"

namespace ndshard::ttmetal_host {

// A Buffer viewing `id` of `dev`. TensorAccessorArgs(buffer) gives the words of `case_mix`
// (tt::flag Runtime bits), in word layout `layout`; device()->compute_with_storage_grid_size()
// is `grid`.
::tt::tt_metal::Buffer make_buffer(const sim::device& dev, sim::buffer_id id, std::uint32_t case_mix = 0,
                                   unsigned layout = tt::default_layout, CoreCoord grid = {1, 1});

// The ttsim::program a Program describes, its kernel paths relative to `source_dir` unless
// absolute. spec_error naming the call and the value for what the device refuses: a core
// outside the worker grid, two CBs of one index on a core, a CB page count of 0. A CB given
// a buffer (set_globally_allocated_address) is placed at its address; the launch checks it
// lies inside the buffer on each core.
ttsim::program to_ttsim(const ::tt::tt_metal::Program& program, const sim::device& dev,
                        const std::filesystem::path& source_dir = {});

// The reference op's parameters as a factory sees them: the numbers after the ':' of its
// name ("permute:2,0,1" -> {2, 0, 1}, "reduce:1" -> {1}, "copy" -> {}).
using op_params = std::vector<std::uint32_t>;
op_params params_of(const std::string& op_name);

// A factory: the program for one input and one output buffer and the op's parameters.
using program_factory =
    std::function<::tt::tt_metal::Program(::tt::tt_metal::Buffer&, ::tt::tt_metal::Buffer&, const op_params&)>;
// One that takes no parameters.
using plain_program_factory = std::function<::tt::tt_metal::Program(::tt::tt_metal::Buffer&, ::tt::tt_metal::Buffer&)>;

// The Program `factory` makes for case `c`: its input and output as Buffers (TensorAccessorArgs'
// default the case's mix), its cores as the device's grid (the largest rectangle of them
// from (0,0)). std::invalid_argument for an op of more than one input.
::tt::tt_metal::Program run_factory(const ttsim::op_case& c, const program_factory& factory,
                                    const op_params& params = {});

// `reference` (its name, ranks, output grid and dense result) with its program made by
// `factory`: the case's buffers as Buffers, its cores as the device's grid (the largest
// rectangle of them from (0,0)), its accessor mix as TensorAccessorArgs' default, the
// reference's parameters (params_of its name) as the factory's third argument.
ttsim::op_desc program_op(ttsim::op_desc reference, program_factory factory, std::filesystem::path source_dir = {});
ttsim::op_desc program_op(ttsim::op_desc reference, plain_program_factory factory,
                          std::filesystem::path source_dir = {});

// A factory source file: one function, either
//   tt::tt_metal::Program make_program(tt::tt_metal::Buffer& input, tt::tt_metal::Buffer& output);
//   tt::tt_metal::Program make_program(tt::tt_metal::Buffer& input, tt::tt_metal::Buffer& output,
//                                      const std::vector<std::uint32_t>& params);
// (the second for an op with parameters: permute's order, reduce's dim), compiled (with the
// tt-metalium headers) into a shared object in `cache` and loaded, once per content.
// std::runtime_error with the compiler's first lines when it does not compile or does not
// define make_program.
program_factory load_factory(const std::filesystem::path& source, const std::filesystem::path& cache = {});

}  // namespace ndshard::ttmetal_host
