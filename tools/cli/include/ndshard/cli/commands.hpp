// ndshard/cli/commands.hpp - the `ndshard` command line as a library.
//
// parse_args turns arguments into a command (or help text, or one error line) without
// printing, exiting or throwing; execute runs a command; run does both and is all that
// main() calls. Exit codes: 0 success, 1 a valid "no" (convert: not expressible; sim:
// not verified; conform: a law failed; kcheck: a case failed), 2 a bad flag, value or spec (one line on stderr, naming
// the value and the rule), 3 an internal error.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "ndshard/cli/kcheck.hpp"
#include "ndshard/cli/locate.hpp"
#include "ndshard/cli/render.hpp"
#include "ndshard/cli/svg.hpp"
#include "ndshard/cli/tt_args.hpp"
#include "ndshard/legacy.hpp"
#include "ndshard/spec.hpp"

namespace ndshard::cli {

enum class map_format : std::uint8_t { json, csv };
enum class color_mode : std::uint8_t { automatic, always, never };

struct map_command {
    distribution_spec spec;
    map_format format = map_format::json;
};
struct show_command {
    distribution_spec spec;
    color_mode color = color_mode::automatic;
    draw_level level = draw_level::automatic;  // --level shard|page
};
struct explain_command {
    distribution_spec spec;
    explain_options options;  // --format json, --arch
};
struct svg_command {
    distribution_spec spec;
    svg_options options;
};
// `convert --from LAYOUT ...` (legacy -> ND spec JSON) or `convert --to legacy ...`;
// `convert --from tt-args` / `--to tt-args`: tt-metal's accessor words (tt_args.hpp).
struct convert_command {
    std::optional<legacy_spec> from_legacy;  // set: legacy -> ND
    std::optional<tt_convert> tt;            // set: tt-metal words <-> ND
    distribution_spec spec;                  // otherwise: ND -> legacy
};
// `sim --op OP --in SPEC [--in SPEC] --out SPEC`; run by lib/sim when it is built.
struct sim_command {
    std::string op;
    std::vector<distribution_spec> inputs;
    distribution_spec output;
    std::uint64_t seed = 0;
    std::uint64_t page_elems = 16;
};

// `conform --impl PATH.so [--cases N] [--seed S] [--law REGEX] [--json] [--timeout-ms MS]`:
// the laws of lib/conform against an implementation of ndshard/conformance.h. Exit 0 when
// every applicable law passes, 1 when one fails, 2 for a bad flag or an impl that cannot
// be loaded.
struct conform_command {
    std::string impl;
    std::uint64_t cases = 1000;
    std::uint64_t seed = 0;
    std::string law;  // regex; empty: every law
    bool json = false;
    std::uint32_t timeout_ms = 2000;
};

// `locate SPEC (--page-id N | --coord I,J,K | --at X,Y:ADDR) [--format json] [--arch A]`:
// where one page lives (with --arch, its NoC address too), or what lives at one byte
// address of one core (locate.hpp).
struct locate_command {
    distribution_spec spec;
    locate_query query;
    bool json = false;
    std::optional<tt_arch> arch;
};

using command = std::variant<map_command, show_command, explain_command, svg_command, convert_command, sim_command,
                             conform_command, locate_command, kcheck_command>;

struct parse_result {
    std::optional<command> cmd;  // set when there is work to do
    int exit_code = 0;           // otherwise: 0 after --help, 2 for a bad command line
    std::string output;          // help text
    std::string error;           // one line, without its newline
};

struct parse_options {
    bool allow_files = true;  // --spec FILE and --spec - (stdin); a fuzz target turns them off
};

// Arguments without the program name: {"map", "--tensor", "3,7,5", ...}. Never throws,
// never exits; reads a --spec FILE (or stdin for "-") unless options say not to.
parse_result parse_args(std::vector<std::string> args, const parse_options& options = {});

struct run_context {
    bool stdout_is_terminal = false;  // show --color auto colours only a terminal
};

// Runs a parsed command; errors become one line on `err` and exit code 2 (or 3).
int execute(const command& cmd, std::ostream& out, std::ostream& err, const run_context& ctx = {});

// parse_args + execute.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const run_context& ctx = {});

}  // namespace ndshard::cli
