// fuzz_cli_spec: bytes -> a spec as a user types it for the `ndshard` program (lib/specio).
//
// The first byte picks what the rest is:
//   0  a JSON spec (--spec '{...}'): parse_spec_json returns a spec or throws input_error /
//      spec_error with one line, and a spec it returns survives spec_to_json unchanged
//   1  an argument list, arguments separated by NUL bytes: its spec flags (and inline
//      --spec JSON) make a spec or one line (input_error / spec_error naming its rule), and
//      the spec survives spec_to_json unchanged. The program's own handling of the whole
//      list (parse_args, then running small commands) is the target fuzz_cli_args, beside
//      the program, which replays these inputs too (corpus/fuzz_cli_args)
//   2  one flag value for one strict parser (second byte picks it): a value or a one-line
//      input_error, and values print back to text that parses to the same value
//   3  a spec from the testkit generator written as JSON: read back, it is the same spec
// Nothing here reads a file or stdin: --spec is taken as inline JSON.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <ndshard/ndshard.hpp>
#include <ndshard/specio/spec_text.hpp>
#include <ndshard/specio/values.hpp>
#include <ndshard/testkit/entropy.hpp>
#include <ndshard/testkit/spec_gen.hpp>

#include "fuzz_common.hpp"

namespace {

using namespace ndshard;

// Tile sides mean something only for tile pages; spec_to_json writes them only then.
distribution_spec normalised(distribution_spec s) {
    if (s.page.kind != page_kind::tile) s.page = page_config{s.page.kind};
    return s;
}

using fuzz::check_one_line;

void check_rule_named(const spec_error& e) {
    const std::string what = e.what();
    NDSHARD_FUZZ_CHECK(what.find("[rule " + e.rule() + "]") != std::string::npos,
                       "spec_error does not name its rule: " << what);
}

// A spec read from text: JSON round trip, then validation.
void check_spec(const distribution_spec& spec) {
    const std::string json = specio::spec_to_json(spec);
    distribution_spec back;
    try {
        back = specio::parse_spec_json(json);
    } catch (const std::exception& e) {
        fuzz::fail("spec_to_json output is not readable: " + json + ": " + e.what());
    }
    NDSHARD_FUZZ_CHECK(back == normalised(spec), "spec_to_json round trip changes the spec: "
                                                     << json << " reads back as " << fuzz::describe(back));
    try {
        (void)make_distribution(spec);
    } catch (const spec_error& e) {
        check_rule_named(e);
    }
}

void json_mode(std::string_view text) {
    const fuzz::scoped_note<std::string_view> noted(
        text, [](const std::string_view& t) { return "json " + std::string(t.substr(0, 400)); });
    distribution_spec spec;
    try {
        spec = specio::parse_spec_json(text);
    } catch (const specio::input_error& e) {
        check_one_line(e.what(), "parse_spec_json");
        return;
    } catch (const spec_error& e) {
        check_one_line(e.what(), "parse_spec_json");
        check_rule_named(e);
        return;
    }
    check_spec(spec);
}

// The spec flags of an argument list (arguments separated by NUL bytes), read as a
// command reads them: --spec inline JSON first, then each flag over it. Other arguments
// are left alone.
void flags_mode(std::string_view text) {
    const std::vector<std::string> args = testkit::nul_separated(text);
    const fuzz::scoped_note<std::vector<std::string>> noted(
        args, [](const std::vector<std::string>& a) { return testkit::shown_args("spec flags", a); });

    specio::spec_flag_text flags;
    std::optional<std::string> json;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string name = args[i], value;
        if (name.rfind("--", 0) != 0) continue;
        const std::size_t eq = name.find('=');
        if (name == "--interleaved") {
            flags.interleaved = true;
            continue;
        }
        if (eq != std::string::npos) {
            value = name.substr(eq + 1);
            name.resize(eq);
        } else if (i + 1 < args.size()) {
            value = args[++i];
        } else {
            continue;
        }
        std::optional<std::string>* slot = name == "--spec"           ? &json
                                           : name == "--tensor"       ? &flags.tensor
                                           : name == "--shard"        ? &flags.shard
                                           : name == "--grid"         ? &flags.grid
                                           : name == "--cores"        ? &flags.cores
                                           : name == "--page"         ? &flags.page
                                           : name == "--orientation"  ? &flags.orientation
                                           : name == "--strategy"     ? &flags.strategy
                                           : name == "--element-size" ? &flags.element_size
                                           : name == "--alignment"    ? &flags.alignment
                                           : name == "--bank-base"    ? &flags.bank_base
                                           : name == "--banks"        ? &flags.banks
                                                                      : nullptr;
        if (slot) *slot = std::move(value);
    }
    distribution_spec spec;
    try {
        specio::spec_fields fields;
        if (json) specio::merge_into(fields, specio::parse_spec_fields_json(*json));
        specio::merge_into(fields, specio::fields_from_flags(flags));
        spec = specio::to_spec(fields);
    } catch (const specio::input_error& e) {
        check_one_line(e.what(), "spec flags");
        return;
    } catch (const spec_error& e) {
        check_one_line(e.what(), "spec flags");
        check_rule_named(e);
        return;
    }
    check_spec(spec);
}

template <class T, class Parse, class Print>
void round_trip(std::string_view text, Parse parse, Print print, bool spec_error_allowed = false) {
    T value;
    try {
        value = parse(text);
    } catch (const specio::input_error& e) {
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
    using value_input = std::pair<std::uint8_t, std::string_view>;
    const value_input input{which, text};
    const fuzz::scoped_note<value_input> noted(input, [](const value_input& n) {
        return "value parser " + std::to_string(n.first % 8) + " '" + std::string(n.second.substr(0, 200)) + "'";
    });
    constexpr std::string_view what = "--flag";
    switch (which % 8) {
        case 0:
            round_trip<std::uint64_t>(
                text, [&](std::string_view t) { return specio::parse_u64(t, what); },
                [](std::uint64_t v) { return std::to_string(v); });
            break;
        case 1:
            round_trip<shape>(
                text, [&](std::string_view t) { return specio::parse_shape(t, what); },
                [](const shape& s) { return to_string(s); }, true);
            break;
        case 2:
            round_trip<core_range>(
                text, [&](std::string_view t) { return specio::parse_grid(t, what); },
                [](const core_range& r) {
                    return std::to_string(std::uint64_t{r.end.x} + 1) + "x" +
                           std::to_string(std::uint64_t{r.end.y} + 1);
                });
            break;
        case 3:
            round_trip<std::vector<core_range>>(
                text, [&](std::string_view t) { return specio::parse_cores(t, what); },
                [](const std::vector<core_range>& c) { return specio::format_cores(c); });
            break;
        case 4:
            round_trip<core_coord>(
                text, [&](std::string_view t) { return specio::parse_core(t, what); },
                [](core_coord c) { return std::to_string(c.x) + "," + std::to_string(c.y); });
            break;
        case 5:
            round_trip<page_config>(
                text, [&](std::string_view t) { return specio::parse_page(t, what); },
                [](const page_config& p) { return specio::format_page(p); });
            break;
        case 6:
            round_trip<orientation>(
                text, [&](std::string_view t) { return specio::parse_orientation(t, what); },
                [](orientation o) { return std::string(to_string(o)); });
            break;
        default:
            round_trip<strategy>(
                text, [&](std::string_view t) { return specio::parse_strategy(t, what); },
                [](strategy s) { return std::string(to_string(s)); });
            break;
    }
}

void generated_mode(std::span<const std::uint8_t> bytes) {
    testkit::byte_entropy e(bytes);
    const distribution_spec spec = testkit::generate_spec(e, fuzz::spec_fuzz_options());
    const fuzz::scoped_note<distribution_spec> noted(
        spec, [](const distribution_spec& s) { return "generated " + fuzz::describe(s); });
    const std::string json = specio::spec_to_json(spec);
    // Whether the spec is valid matters only when its JSON is refused; asking the fast
    // path only then spares its duplicate-core sort (up to 65,536 cores) on every input.
    const auto valid = [&] {
        try {
            (void)make_distribution(spec);
            return true;
        } catch (const spec_error&) {
            return false;
        }
    };
    try {
        const distribution_spec back = specio::parse_spec_json(json);
        NDSHARD_FUZZ_CHECK(back == normalised(spec), json << " reads back as " << fuzz::describe(back));
    } catch (const specio::input_error& e) {
        // A spec outside what flags can say (rank 0, a shard dim 0...) may be refused,
        // but a valid spec must always be readable.
        NDSHARD_FUZZ_CHECK(!valid(), "the JSON of a valid spec is refused: " << json << ": " << e.what());
        check_one_line(e.what(), "parse_spec_json");
    } catch (const spec_error& e) {
        NDSHARD_FUZZ_CHECK(!valid(), "the JSON of a valid spec is refused: " << json << ": " << e.what());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        switch (data[0] % 4) {
            case 0:
                json_mode(rest);
                break;
            case 1:
                flags_mode(rest);
                break;
            case 2:
                if (!rest.empty()) value_mode(static_cast<std::uint8_t>(rest[0]), rest.substr(1));
                break;
            default:
                generated_mode(std::span<const std::uint8_t>(data + 1, size - 1));
                break;
        }
    } catch (const std::exception& e) {
        fuzz::fail(std::string("an exception escapes: ") + e.what());
    }
    return 0;
}
