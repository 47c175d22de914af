// kernels/ops/factory.hpp - what the ops of kernels/ops share on ndshard's side: the program
// their factory (kernels/ops/*/program.cpp, written with tt-metal's host API) makes, with a
// kernel_swap applied, and the op's output grid and reference from lib/sim. Internal to
// ndshard::kernels.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "ndshard/sim/device.hpp"
#include "ndshard/sim/op.hpp"
#include "ndshard/ttmetal_host/bridge.hpp"
#include "ndshard/ttsim/kcheck.hpp"
#include "ops/ops.hpp"

namespace ndshard::kernels::detail {

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
