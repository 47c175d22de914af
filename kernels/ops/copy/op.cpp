// kernels/ops/copy/op.cpp - copy's op for ndshard::kernels: the program of program.cpp, the
// factory written with tt-metal's host API only (the example a user copies, and what
// `ndshard kcheck --program kernels/ops/copy/program.cpp --reference copy` checks), compiled
// in here under a name of its own, with a kernel_swap applied (host_program, factory.hpp).
#define make_program copy_make_program
#include "program.cpp"
#undef make_program

#include "ops/factory.hpp"

namespace ndshard::kernels::detail {

ttsim::program build_copy(const ttsim::op_case& c, const kernel_swap& swap) {
    const ttmetal_host::program_factory factory = [](::tt::tt_metal::Buffer& in, ::tt::tt_metal::Buffer& out,
                                                     const ttmetal_host::op_params&) {
        return copy_make_program(in, out);
    };
    return host_program(c, factory, "ops/copy", swap);
}

}  // namespace ndshard::kernels::detail
