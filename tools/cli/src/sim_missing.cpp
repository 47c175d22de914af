// `ndshard sim` in a build without lib/sim: the command exists and says why it cannot run.
#include "ndshard/cli/values.hpp"
#include "sim_glue.hpp"

namespace ndshard::cli {

bool sim_available() { return false; }

int run_sim(const sim_command&, std::ostream&, std::ostream&) {
    throw usage_error("this build has no simulator (lib/sim was not found when it was configured)");
}

}  // namespace ndshard::cli
