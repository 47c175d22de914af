// kernels/ops/copy_shards/op.cpp - copy_shards' op for ndshard::kernels: the program of
// program.cpp (the factory in tt-metal's host names, what `ndshard kcheck --program
// kernels/ops/copy_shards/program.cpp --reference copy_shards` checks), compiled in here under
// a name of its own, with a kernel_swap applied (host_program, factory.hpp).
#define make_program copy_shards_make_program
#include "program.cpp"
#undef make_program

#include "ops/factory.hpp"

namespace ndshard::kernels::detail {

ttsim::program build_copy_shards(const ttsim::op_case& c, const kernel_swap& swap) {
    const ttmetal_host::program_factory factory = [](::tt::tt_metal::Buffer& in, ::tt::tt_metal::Buffer& out,
                                                     const ttmetal_host::op_params&) {
        return copy_shards_make_program(in, out);
    };
    return host_program(c, factory, "ops/copy_shards", swap);
}

}  // namespace ndshard::kernels::detail
