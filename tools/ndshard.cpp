// ndshard: see how an N-d tensor is sharded over accelerator cores.
// Everything lives in ndshard::cli (tools/cli); this is only the process boundary.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "ndshard/cli/commands.hpp"

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    const std::vector<std::string> args(argv + 1, argv + argc);
    ndshard::cli::run_context ctx;
    ctx.stdout_is_terminal = ::isatty(STDOUT_FILENO) == 1;
    const int code = ndshard::cli::run(args, std::cout, std::cerr, ctx);
    std::cout.flush();
    return code;
}
