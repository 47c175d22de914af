// ndshard/conform/runner.hpp - `ndshard conform`: every applicable law against an
// implementation under test, each failure shrunk to a small counterexample.
//
// The implementation never runs in this process: a worker child loads it and runs a
// law's cases one after the other, reporting each over a pipe; a crash, an abort, an
// exit or a case that takes longer than the timeout is a failure of that case (the
// parent kills the worker and goes on). Shrinking runs candidates the same way, so it
// goes on through crashes and hangs.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ndshard/conform/impl.hpp"
#include "ndshard/conform/laws.hpp"

namespace ndshard::conform {

struct run_options {
    std::string impl_path;
    std::uint64_t cases = 1000;  // per law
    std::uint64_t seed = 0;
    std::string law_filter;             // ECMAScript regex searched in the law's name; empty: all
    std::uint32_t timeout_ms = 2000;    // per case
    std::uint32_t shrink_seconds = 60;  // wall-clock budget of one law's shrinking
};

enum class law_status { passed, failed, skipped };

struct counterexample {
    std::string spec;  // flags of `ndshard map`
    std::uint32_t rank = 0;
    std::uint64_t pages = 0;
    finding what;
    std::uint32_t shrink_steps = 0;
};

struct law_result {
    std::string name;
    law_status status = law_status::passed;
    std::uint64_t cases = 0;  // cases run (up to and including the first failing one)
    std::string reason;       // skipped: why; failed: one-line summary
    std::optional<counterexample> example;
    std::string replay;  // failed: the command that replays the failure
    double seconds = 0;
};

struct run_report {
    impl_info impl;
    std::uint64_t seed = 0, cases = 0;
    std::vector<law_result> laws;
    [[nodiscard]] std::size_t count(law_status s) const;
};

// Loads the implementation in a child (load_error when it cannot be used), then runs the
// laws whose names match the filter. Throws std::invalid_argument for a filter that is
// not a valid regex or matches no law.
run_report run_conformance(const run_options& options);

// `PASS|FAIL|SKIP <law> (<cases> cases)` lines, counterexamples, `N passed, N failed, N skipped`.
void write_text(const run_report& report, std::ostream& out);
// One JSON object (see tools/README.md, `ndshard conform --json`).
void write_json(const run_report& report, std::ostream& out);

// Loads the implementation in a child process and returns what it declares.
impl_info probe_impl(const std::string& path, std::uint32_t timeout_ms);

}  // namespace ndshard::conform
