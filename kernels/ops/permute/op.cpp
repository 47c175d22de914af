// kernels/ops/permute/op.cpp - permute's op for ndshard::kernels: the program of program.cpp
// (the factory in tt-metal's host names, what `ndshard kcheck --program
// kernels/ops/permute/program.cpp --reference permute:2,0,1` checks), compiled in here under a
// name of its own, given the order as its parameters, with a kernel_swap applied
// (host_program, factory.hpp).
#define make_program permute_make_program
#include "program.cpp"
#undef make_program

#include "ops/factory.hpp"

namespace ndshard::kernels::detail {

ttsim::program build_permute(const ttsim::op_case& c, const std::vector<std::size_t>& order, const kernel_swap& swap) {
    const ttmetal_host::op_params params(order.begin(), order.end());
    const ttmetal_host::program_factory factory = [params](::tt::tt_metal::Buffer& in, ::tt::tt_metal::Buffer& out,
                                                           const ttmetal_host::op_params&) {
        return permute_make_program(in, out, params);
    };
    return host_program(c, factory, "ops/permute", swap);
}

}  // namespace ndshard::kernels::detail
