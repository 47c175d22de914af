// fuzz_cli_args: bytes -> a command line of the `ndshard` program, arguments separated by
// NUL bytes. parse_args never throws and gives a command, help, or exit 2 with one
// non-empty line starting with "ndshard"; small valid commands then run (map, show,
// explain, svg, convert, sim) and end with 0, 1 (only convert's valid "no") or 2 and one
// line, never 3 (an internal error).
//
// The spec flags of the same inputs are fuzz/fuzz_cli_spec.cpp's mode 1 (lib/specio);
// this target holds the program around them. Arguments that would make it read a file or
// stdin (--spec, --in, --out without an inline '{') are turned into inline JSON, and
// allow_files is off, so an input never touches the file system.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <ndshard/cli/commands.hpp>
#include <ndshard/ndshard.hpp>
#include <ndshard/testkit/finding.hpp>

namespace {

using namespace ndshard;
using testkit::check_one_line;

// Commands run only on small specs: rendering is proportional to the slots.
constexpr std::uint64_t run_slot_limit = 4096;
constexpr std::uint64_t run_core_limit = 64;
constexpr std::uint64_t sim_page_limit = 256;

bool small_enough_to_run(const distribution_spec& spec, std::uint64_t page_limit = run_slot_limit) {
    try {
        const distribution d = make_distribution(spec);
        return d.num_pages() <= page_limit && d.layout.num_cores <= run_core_limit &&
               d.layout.num_cores * d.reserved_pages_per_core() <= run_slot_limit;
    } catch (const spec_error&) {
        return true;  // runs straight into the one-line error path
    }
}

bool small_enough_to_run(const cli::command& cmd) {
    if (const auto* c = std::get_if<cli::map_command>(&cmd)) return small_enough_to_run(c->spec);
    if (const auto* c = std::get_if<cli::show_command>(&cmd)) return small_enough_to_run(c->spec);
    if (const auto* c = std::get_if<cli::explain_command>(&cmd)) return small_enough_to_run(c->spec);
    if (const auto* c = std::get_if<cli::svg_command>(&cmd)) return small_enough_to_run(c->spec);
    if (const auto* c = std::get_if<cli::convert_command>(&cmd)) return c->from_legacy || small_enough_to_run(c->spec);
    if (const auto* c = std::get_if<cli::sim_command>(&cmd)) {
        if (c->page_elems > 64) return false;
        for (const distribution_spec& s : c->inputs)
            if (!small_enough_to_run(s, sim_page_limit)) return false;
        return small_enough_to_run(c->output, sim_page_limit);
    }
    return false;
}

// --spec/--in/--out name a file or stdin unless their value starts with '{'.
std::vector<std::string> without_files(std::vector<std::string> args) {
    auto inline_json = [](std::string& value) {
        const std::size_t first = value.find_first_not_of(" \t\r\n");
        if (first == std::string::npos || value[first] != '{') value.insert(0, "{");
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string& a = args[i];
        for (const char* flag : {"--spec", "--in", "--out"}) {
            const std::string f = flag;
            if (a == f && i + 1 < args.size()) {
                inline_json(args[i + 1]);
            } else if (a.rfind(f + "=", 0) == 0) {
                std::string value = a.substr(f.size() + 1);
                inline_json(value);
                a = f + "=" + value;
            }
        }
    }
    return args;
}

void args_mode(std::string_view text) {
    std::vector<std::string> args = testkit::nul_separated(text);
    args = without_files(std::move(args));  // belt and braces: allow_files is off as well
    testkit::note_input(testkit::shown_args("args", args));

    cli::parse_options options;
    options.allow_files = false;
    const cli::parse_result r = cli::parse_args(args, options);
    if (!r.cmd) {
        if (r.exit_code == 0) {
            NDSHARD_FUZZ_CHECK(!r.output.empty() && r.error.empty(), "exit 0 without a command or help");
            return;
        }
        NDSHARD_FUZZ_CHECK(r.exit_code == 2, "parse_args exits " << r.exit_code << ": " << r.error);
        check_one_line(r.error, "parse_args");
        NDSHARD_FUZZ_CHECK(r.error.rfind("ndshard", 0) == 0, "the error does not start with the command: " << r.error);
        return;
    }
    NDSHARD_FUZZ_CHECK(r.exit_code == 0 && r.error.empty(), "a command with exit " << r.exit_code << " " << r.error);
    if (!small_enough_to_run(*r.cmd)) return;
    std::ostringstream out, err;
    const int code = cli::execute(*r.cmd, out, err);
    NDSHARD_FUZZ_CHECK(code == 0 || code == 1 || code == 2,
                       "execute exits " << code << " (3 is an internal error): " << err.str());
    if (code == 0) return;
    std::string line = err.str();
    NDSHARD_FUZZ_CHECK(!line.empty() && line.back() == '\n', "exit " << code << " without one line on stderr");
    line.pop_back();
    check_one_line(line, "execute");
    if (code == 1)
        NDSHARD_FUZZ_CHECK(std::holds_alternative<cli::convert_command>(*r.cmd),
                           "exit 1 (a valid 'no') from a command other than convert: " << line);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        args_mode(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const std::exception& e) {
        testkit::fail(std::string("an exception escapes: ") + e.what());
    }
    return 0;
}
