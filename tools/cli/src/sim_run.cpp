// `ndshard sim`: run_sim_op (sim_op.cpp) runs the op on the simulated device and checks
// it against the dense oracle; this file only adapts its result to the command's contract.
#include <limits>

#include "ndshard/cli/sim_op.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/error.hpp"
#include "sim_glue.hpp"

namespace ndshard::cli {

int run_sim(const sim_command& cmd, std::ostream& out, std::ostream& err) {
    if (cmd.page_elems > std::numeric_limits<std::uint32_t>::max())
        throw usage_error("--page-elems " + std::to_string(cmd.page_elems) + ": does not fit 32 bits");
    sim_op_result result;
    try {
        result = run_sim_op(cmd.op, cmd.inputs, cmd.output, static_cast<std::uint32_t>(cmd.page_elems), cmd.seed);
    } catch (const spec_error&) {
        throw;  // reported as an invalid spec, with its rule
    } catch (const std::invalid_argument& e) {
        throw usage_error(e.what());  // a bad request: unknown op, shape mismatch, too large
    }
    out << to_json(result) << "\n";
    if (!result.verified) {
        err << "ndshard sim: not verified: " << result.detail << "\n";
        return 1;
    }
    return 0;
}

}  // namespace ndshard::cli
