// Internal: the `sim` subcommand's entry point (sim_run.cpp).
#pragma once

#include <ostream>

#include "ndshard/cli/commands.hpp"

namespace ndshard::cli {

// Runs the op, prints one JSON object, returns 0 when verified and 1 when not.
// Throws usage_error for an unknown op or mismatched shapes, spec_error for a bad spec.
int run_sim(const sim_command& cmd, std::ostream& out, std::ostream& err);

}  // namespace ndshard::cli
