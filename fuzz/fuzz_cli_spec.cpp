// fuzz_cli_spec: bytes -> what a user types at the `ndshard` command line.
//
// The first byte picks what the rest is:
//   0  a JSON spec (--spec '{...}'): parse_spec_json returns a spec or throws usage_error /
//      spec_error with one line, and a spec it returns survives spec_to_json unchanged
//   1  a command line, arguments separated by NUL bytes: parse_args never throws, gives a
//      command, help, or exit 2 with one non-empty line; small valid commands then run
//      (map, show, explain, svg, convert, sim) and end with 0/1 or 2 and one line, never 3
//   2  one flag value for one strict parser (second byte picks it): a value or a one-line
//      usage_error, and values print back to text that parses to the same value
//   3  a spec from the testkit generator written as JSON: read back, it is the same spec
// Arguments that would make the CLI read a file or stdin (--spec, --in, --out without an
// inline '{') are turned into inline JSON, so an input never touches the file system.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <ndshard/cli/commands.hpp>
#include <ndshard/cli/spec_input.hpp>
#include <ndshard/cli/values.hpp>
#include <ndshard/ndshard.hpp>
#include <ndshard/testkit/entropy.hpp>
#include <ndshard/testkit/spec_gen.hpp>

#include "fuzz_common.hpp"

namespace {

using namespace ndshard;

// Commands run only on small specs: rendering is proportional to the slots.
constexpr std::uint64_t run_slot_limit = 4096;
constexpr std::uint64_t run_core_limit = 64;
constexpr std::uint64_t sim_page_limit = 256;

// Tile sides mean something only for tile pages; the CLI writes them only then.
distribution_spec normalised(distribution_spec s) {
    if (s.page.kind != page_kind::tile) s.page = page_config{s.page.kind};
    return s;
}

void check_one_line(const std::string& message, const std::string& where) {
    NDSHARD_FUZZ_CHECK(!message.empty(), where << ": an empty error message");
    NDSHARD_FUZZ_CHECK(message.find('\n') == std::string::npos, where << ": a multi-line error message: " << message);
}

void check_rule_named(const spec_error& e) {
    const std::string what = e.what();
    NDSHARD_FUZZ_CHECK(what.find("[rule " + e.rule() + "]") != std::string::npos,
                       "spec_error does not name its rule: " << what);
}

// A spec the CLI produced: JSON round trip, then validation.
void check_spec(const distribution_spec& spec) {
    const std::string json = cli::spec_to_json(spec);
    distribution_spec back;
    try {
        back = cli::parse_spec_json(json);
    } catch (const std::exception& e) {
        fuzz::fail("spec_to_json output is not readable: " + json + ": " + e.what());
    }
    NDSHARD_FUZZ_CHECK(back == normalised(spec), "spec_to_json round trip changes the spec: " << json << " reads back as "
                                                                                  << fuzz::describe(back));
    try {
        (void)make_distribution(spec);
    } catch (const spec_error& e) {
        check_rule_named(e);
    }
}

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

void json_mode(std::string_view text) {
    fuzz::note_input("json " + std::string(text.substr(0, 400)));
    distribution_spec spec;
    try {
        spec = cli::parse_spec_json(text);
    } catch (const cli::usage_error& e) {
        check_one_line(e.what(), "parse_spec_json");
        return;
    } catch (const spec_error& e) {
        check_one_line(e.what(), "parse_spec_json");
        check_rule_named(e);
        return;
    }
    check_spec(spec);
}

void args_mode(std::string_view text) {
    std::vector<std::string> args;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == '\0') {
            args.emplace_back(text.substr(start, i - start));
            start = i + 1;
        }
    args = without_files(std::move(args));  // belt and braces: allow_files is off as well
    std::string shown = "args";
    for (const std::string& a : args) shown += " '" + a.substr(0, 80) + "'";
    fuzz::note_input(shown);

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
    if (const auto* c = std::get_if<cli::map_command>(&*r.cmd)) check_spec(c->spec);
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

template <class T, class Parse, class Print>
void round_trip(std::string_view text, Parse parse, Print print, bool spec_error_allowed = false) {
    T value;
    try {
        value = parse(text);
    } catch (const cli::usage_error& e) {
        check_one_line(e.what(), "value parser");
        return;
    } catch (const spec_error& e) {
        NDSHARD_FUZZ_CHECK(spec_error_allowed, "a value parser throws spec_error: " << e.what());
        check_rule_named(e);
        return;
    }
    const std::string printed = print(value);
    T again;
    try {
        again = parse(printed);
    } catch (const std::exception& e) {
        fuzz::fail("printed value '" + printed + "' does not parse: " + e.what());
    }
    NDSHARD_FUZZ_CHECK(again == value, "'" << printed << "' parses to a different value");
}

void value_mode(std::uint8_t which, std::string_view text) {
    fuzz::note_input("value parser " + std::to_string(which % 8) + " '" + std::string(text.substr(0, 200)) + "'");
    constexpr std::string_view what = "--flag";
    switch (which % 8) {
        case 0:
            round_trip<std::uint64_t>(
                text, [&](std::string_view t) { return cli::parse_u64(t, what); },
                [](std::uint64_t v) { return std::to_string(v); });
            break;
        case 1:
            round_trip<shape>(
                text, [&](std::string_view t) { return cli::parse_shape(t, what); },
                [](const shape& s) { return to_string(s); }, true);
            break;
        case 2:
            round_trip<core_range>(
                text, [&](std::string_view t) { return cli::parse_grid(t, what); },
                [](const core_range& r) {
                    return std::to_string(std::uint64_t{r.end.x} + 1) + "x" + std::to_string(std::uint64_t{r.end.y} + 1);
                });
            break;
        case 3:
            round_trip<std::vector<core_range>>(
                text, [&](std::string_view t) { return cli::parse_cores(t, what); },
                [](const std::vector<core_range>& c) { return cli::format_cores(c); });
            break;
        case 4:
            round_trip<core_coord>(
                text, [&](std::string_view t) { return cli::parse_core(t, what); },
                [](core_coord c) { return std::to_string(c.x) + "," + std::to_string(c.y); });
            break;
        case 5:
            round_trip<page_config>(
                text, [&](std::string_view t) { return cli::parse_page(t, what); },
                [](const page_config& p) { return cli::format_page(p); });
            break;
        case 6:
            round_trip<orientation>(
                text, [&](std::string_view t) { return cli::parse_orientation(t, what); },
                [](orientation o) { return std::string(to_string(o)); });
            break;
        default:
            round_trip<strategy>(
                text, [&](std::string_view t) { return cli::parse_strategy(t, what); },
                [](strategy s) { return std::string(to_string(s)); });
            break;
    }
}

void generated_mode(std::span<const std::uint8_t> bytes) {
    testkit::byte_entropy e(bytes);
    const distribution_spec spec = testkit::generate_spec(e, fuzz::spec_fuzz_options());
    fuzz::note_input("generated " + fuzz::describe(spec));
    const std::string json = cli::spec_to_json(spec);
    bool valid = true;
    try {
        (void)make_distribution(spec);
    } catch (const spec_error&) {
        valid = false;
    }
    try {
        const distribution_spec back = cli::parse_spec_json(json);
        NDSHARD_FUZZ_CHECK(back == normalised(spec), json << " reads back as " << fuzz::describe(back));
    } catch (const cli::usage_error& e) {
        // A spec outside what flags can say (rank 0, a shard dim 0...) may be refused,
        // but a valid spec must always be readable.
        NDSHARD_FUZZ_CHECK(!valid, "the JSON of a valid spec is refused: " << json << ": " << e.what());
        check_one_line(e.what(), "parse_spec_json");
    } catch (const spec_error& e) {
        NDSHARD_FUZZ_CHECK(!valid, "the JSON of a valid spec is refused: " << json << ": " << e.what());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        switch (data[0] % 4) {
            case 0: json_mode(rest); break;
            case 1: args_mode(rest); break;
            case 2:
                if (!rest.empty()) value_mode(static_cast<std::uint8_t>(rest[0]), rest.substr(1));
                break;
            default: generated_mode(std::span<const std::uint8_t>(data + 1, size - 1)); break;
        }
    } catch (const std::exception& e) {
        fuzz::fail(std::string("an exception escapes: ") + e.what());
    }
    return 0;
}
