// kernels/ops/ops.hpp - ops whose kernels are written against tt-metal's published
// data-movement API, as op descriptions for ndshard's kernel simulator (ttsim::op_desc,
// ndshard/ttsim/kcheck.hpp). Each op is a reader and a writer joined by a circular buffer,
// made by the op's program factory (kernels/ops/<op>/program.cpp, written with tt-metal's
// host API: the example a user copies), which sizes the CBs from the buffers' aligned page
// sizes, gives every kernel its buffer's TensorAccessorArgs words and splits the output
// pages over the device's grid. copy places its reader on RISCV_0 (NoC 0) and its writer on
// RISCV_1 (NoC 1); the others use tt-metal's Reader/WriterDataMovementConfig (reader on
// RISCV_1 with NoC 0, writer on RISCV_0 with NoC 1). The grid is the largest rectangle from
// (0,0) in the case's cores (ttmetal_host::run_factory).
//
//   "copy"           output page i = input page i, any two distributions of one page grid
//   "copy_shards"    the same, each core writing whole output shards k, k + n, ... (a shard walk)
//   "permute:2,0,1"  output dim i = input dim order[i]: [2,3,4] -> [4,2,3]
//   "reduce:1"       the sum over one dim of the page grid, int32 wrapping: [2,3,4] -> [2,4]
//
// The kernels are in the folders beside this header (kernels/README.md says what each does);
// the output grid and the dense reference are lib/sim's (ndshard/sim/op.hpp), so the kernels
// are checked against the same oracle as the simulator's own kernels.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "ndshard/ttsim/kcheck.hpp"

namespace ndshard::kernels {

// The folder of the kernel sources (kernels/), as CMake configured NDSHARD_KERNELS_DIR.
std::filesystem::path kernels_dir();

// Kernels a program is built with in place of the op's own: how a defect (defects.hpp)
// breaks a good op. Sources are relative to kernels_dir(): "defects/push_before_read_barrier.cpp".
struct kernel_swap {
    std::string reader;  // empty: the op's own
    std::string writer;  // empty: the op's own
    // One semaphore (initially 0) on the kernels' cores, its id appended to the runtime args
    // of both kernels.
    bool semaphore = false;
    // Extra include directories for both kernels (kernel_desc::include_dirs).
    std::vector<std::string> include_dirs;
};

const ttsim::op_desc& copy_op();
const ttsim::op_desc& copy_shards_op();
// `order` is a permutation of 0..rank-1; the op applies to inputs of that rank only.
ttsim::op_desc permute_op(std::vector<std::size_t> order);
ttsim::op_desc reduce_op(std::size_t dim);

// An op by name, with `swap`'s kernels: make_op("permute:2,0,1"). spec_error (rule "op")
// naming the text for anything else.
ttsim::op_desc make_op(std::string_view name, const kernel_swap& swap = {});
// The names make_op takes, as patterns: "copy", "copy_shards", "permute:a,b,...", "reduce:D".
std::vector<std::string> op_patterns();

}  // namespace ndshard::kernels
