// kernels/ops/reduce/op.cpp - reduce's op for ndshard::kernels: the program of program.cpp
// (the factory in tt-metal's host names, what `ndshard kcheck --program
// kernels/ops/reduce/program.cpp --reference reduce:1` checks), compiled in here under a name
// of its own, given the dim as its parameter, with a kernel_swap applied (host_program,
// factory.hpp).
#define make_program reduce_make_program
#include "program.cpp"
#undef make_program

#include "ops/factory.hpp"

namespace ndshard::kernels::detail {

ttsim::program build_reduce(const ttsim::op_case& c, std::size_t dim, const kernel_swap& swap) {
    const ttmetal_host::op_params params{static_cast<std::uint32_t>(dim)};
    const ttmetal_host::program_factory factory = [params](::tt::tt_metal::Buffer& in, ::tt::tt_metal::Buffer& out,
                                                           const ttmetal_host::op_params&) {
        return reduce_make_program(in, out, params);
    };
    return host_program(c, factory, "ops/reduce", swap);
}

}  // namespace ndshard::kernels::detail
