// ndshard/cli/kcheck.hpp - `ndshard kcheck`: a tt-metal reader and writer, run by one of
// kernels/ops' programs on the simulated device over generated distributions
// (ndshard/ttsim/kcheck.hpp), the first failure shrunk and printed with its replay.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ndshard::cli {

// `kcheck OP [--reader FILE] [--writer FILE] [--cases N] [--seed S] ... [--case TEXT]`: a
// tt-metal kernel pair run by an op's program on the simulated device over generated
// distributions (kcheck.hpp). Exit 0 when every case passes, 1 when one fails (printed
// shrunk, with its replay), 2 for a bad flag or op.
struct kcheck_command {
    std::string op;              // "copy", "permute:2,0,1", ... (kernels/ops/ops.hpp)
    std::string reader, writer;  // absolute paths; empty: the op's own kernel
    // --program: a factory source (absolute path) written with tt-metal's host API, whose
    // program runs in place of the op's; `op` (--reference) is then the reference only.
    std::string program;
    bool semaphore = false;                 // one semaphore id appended to both kernels' runtime args
    std::vector<std::string> include_dirs;  // --include: absolute paths, for both kernels
    std::uint64_t cases = 100;
    std::uint64_t seed = 1;
    std::uint32_t max_pages = 4096;
    std::uint32_t max_cores = 8;
    std::uint32_t static_percent = 30;
    std::vector<std::uint32_t> page_bytes;  // empty: three drawn per run
    std::optional<std::string> one_case;    // --case: run this case only
    bool isolate = true;
    std::uint32_t timeout_s = 60;
    std::uint32_t jobs = 0;         // cases at once (check_options::jobs); 0: one a core of this machine
    std::uint32_t schedules = 1;    // interleavings each case runs under (launch_options::schedules)
    std::uint32_t hard_every = 10;  // every n-th case a hard one (check_options::hard_every); 0: none
    std::string cache;              // empty: launch_options' default
    bool json = false;
    bool keep_going = false;                               // every case runs; the failures are counted
    std::uint32_t grid_x = 4, grid_y = 2, dram_banks = 4;  // the case device (--grid, --dram-banks)
    // --contract: the cases the kernels take (contract_terms()), narrowing the op's own.
    std::vector<std::string> contract;
};

// The terms --contract takes: same-spec, same-aligned-page, compile-time, runtime, l1,
// dram, interleaved, sharded.
std::vector<std::string> contract_terms();

// Runs the check; text (or one JSON object with --json) on `out`. Exit 0 when every case
// passes, 1 when one fails. Throws spec_error for an unknown op or a bad --case text.
int run_kcheck(const kcheck_command& c, std::ostream& out);

}  // namespace ndshard::cli
