// Cases in child processes, several at once (check_options::jobs): a crash, a sanitizer
// report or a hang fails its case only, and the cores are kept busy while one case waits on
// its compiler. Internal to lib/ttsim (kcheck.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "ndshard/ttsim/kcheck.hpp"

namespace ndshard::ttsim::detail {

// What a child does with its case: run it (run_case) with these launch options, whose
// on_compiled the child has set to tell the parent that its kernels are compiled.
using case_runner = std::function<case_result(const case_spec&, const launch_options&)>;

// Runs `cases` in index order, each in a child process of its own process group, at most
// `o.jobs` at once. A child says when its kernels are compiled; the case's timeout
// (o.case_timeout_s) starts only then, so a compile slowed by a busy machine is never a hang
// (compiling has compile_limit_s). A child out of time is killed with its whole process
// group (the compilers it started included).
// With `stop_at_failure`, no case after the first failing one starts, those after it that
// already run are killed, and the results end with that failure; otherwise there is one
// result per case. Results are in case order, whatever order the children finish in.
std::vector<case_result> run_isolated(std::span<const case_spec> cases, const case_runner& run, const check_options& o,
                                      bool stop_at_failure);

// The time a case's kernels may take to compile: 10 case timeouts, at least 10 minutes.
inline std::uint64_t compile_limit_s(const check_options& o) {
    return std::max<std::uint64_t>(600, 10ULL * o.case_timeout_s);
}

}  // namespace ndshard::ttsim::detail
