// `ndshard kcheck`'s flags as the command line reads them (raw text), the subcommand that
// reads them, and the command they make once the strict parsers have checked every value.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "ndshard/cli/kcheck.hpp"

namespace ndshard::cli {

struct kcheck_flags {
    std::string op;
    std::optional<std::string> reader, writer, cases, seed, max_pages, cores, page_bytes, static_percent, one_case,
        timeout, cache, grid, dram_banks, contract, program, reference, hard_every, jobs, schedules;
    std::vector<std::string> include;
    bool semaphore = false, no_isolate = false, json = false, keep_going = false;
};

// Adds `kcheck` to `app`, its flags writing into `f` (which must outlive the app).
CLI::App* add_kcheck_command(CLI::App& app, kcheck_flags& f);

// The command, every value checked; usage_error naming the flag, the value and the rule,
// spec_error for a bad --case. `allow_files` false refuses --reader, --writer, --program and
// --cache.
kcheck_command kcheck_of(const kcheck_flags& f, bool allow_files);

}  // namespace ndshard::cli
