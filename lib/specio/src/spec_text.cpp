// Spec fields from flags and JSON, the spec they describe, and back (see spec_text.hpp).
#include "ndshard/specio/spec_text.hpp"

#include <set>

#include <nlohmann/json.hpp>

#include "ndshard/specio/values.hpp"
#include "ndshard/distribution.hpp"

namespace ndshard::specio {

namespace {

using json = nlohmann::json;

// The value as JSON text, shortened, for an error message.
std::string shown(const json& value) {
    std::string text = value.dump();
    if (text.size() > 64) text = text.substr(0, 61) + "...";
    return text;
}

[[noreturn]] void wrong_type(const std::string& label, const char* expected, const json& value) {
    throw input_error(label + ": expected " + expected + ", got " + shown(value));
}

std::uint64_t json_u64(const json& value, const std::string& label) {
    if (value.is_number_unsigned()) return value.get<std::uint64_t>();
    if (value.is_string()) return parse_u64(value.get_ref<const std::string&>(), label);
    if (value.is_number_integer())
        throw input_error(label + ": " + shown(value) + ": negative numbers are not allowed");
    wrong_type(label, "a non-negative integer below 2^64", value);
}

shape json_shape(const json& value, const std::string& label) {
    if (value.is_string()) return parse_shape(value.get_ref<const std::string&>(), label);
    if (!value.is_array()) wrong_type(label, "a list of dims like [3,7,5] or \"3,7,5\"", value);
    if (value.empty()) throw input_error(label + ": empty shape; give dims like [3,7,5]");
    if (value.size() > max_rank)
        throw input_error(label + ": " + std::to_string(value.size()) + " dims; a shape has rank 1..8");
    shape out;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const json& dim = value[i];
        if (!dim.is_number_unsigned()) {
            const std::string why =
                dim.is_number_integer() ? "negative numbers are not allowed" : "not a non-negative integer below 2^64";
            throw input_error(label + ": dim " + std::to_string(i + 1) + " " + shown(dim) + ": " + why);
        }
        out.push_back(dim.get<std::uint64_t>());
    }
    return out;
}

const std::string& json_string(const json& value, const std::string& label, const char* expected) {
    if (!value.is_string()) wrong_type(label, expected, value);
    return value.get_ref<const std::string&>();
}

core_range json_grid(const json& value, const std::string& label) {
    if (value.is_string()) return parse_grid(value.get_ref<const std::string&>(), label);
    if (!value.is_array() || value.size() != 2) wrong_type(label, "a grid \"XxY\" or [X,Y]", value);
    const std::uint64_t x = json_u64(value[0], label), y = json_u64(value[1], label);
    return parse_grid(std::to_string(x) + "x" + std::to_string(y), label);
}

// One CoreCoord as ttnn writes it: {"x":3,"y":2}, exactly those two keys.
core_coord json_core_coord(const json& value, const std::string& label) {
    if (!value.is_object() || value.size() != 2 || !value.contains("x") || !value.contains("y"))
        wrong_type(label, "a CoreCoord {\"x\":X,\"y\":Y}", value);
    core_coord c;
    for (auto [axis, into] : {std::pair<const char*, std::uint32_t*>{"x", &c.x}, {"y", &c.y}}) {
        const std::uint64_t v = json_u64(value[axis], label + "." + axis);
        if (v > 0xffffffffu) throw input_error(label + "." + axis + ": " + std::to_string(v) + " does not fit 32 bits");
        *into = static_cast<std::uint32_t>(v);
    }
    return c;
}

// One item of a core list: a string of ranges, or a CoreRange as ttnn's to_json writes it,
// {"start":{"x":0,"y":0},"end":{"x":3,"y":2}} (both corners included).
void append_core_item(const json& item, const std::string& label, std::vector<core_range>& out) {
    if (item.is_string()) {
        const auto part = parse_cores(item.get_ref<const std::string&>(), label);
        out.insert(out.end(), part.begin(), part.end());
        return;
    }
    if (!item.is_object() || item.size() != 2 || !item.contains("start") || !item.contains("end"))
        wrong_type(label,
                   "a core range string like \"(0,0)-(1,1)\" or a CoreRange "
                   "{\"start\":{\"x\":0,\"y\":0},\"end\":{\"x\":1,\"y\":1}}",
                   item);
    out.push_back({json_core_coord(item["start"], label + ".start"), json_core_coord(item["end"], label + ".end")});
}

// "(0,0)-(1,1),(3,3)"; a list of such strings; a CoreRangeSet as ttnn serialises it (a list
// of CoreRange objects, see append_core_item), bare or as {"ranges":[...]}.
std::vector<core_range> json_cores(const json& value, const std::string& label) {
    if (value.is_string()) return parse_cores(value.get_ref<const std::string&>(), label);
    const bool wrapped = value.is_object() && value.size() == 1 && value.contains("ranges");
    const json& list = wrapped ? value["ranges"] : value;
    const std::string at = wrapped ? label + ".ranges" : label;
    if (!list.is_array() || list.empty())
        wrong_type(at,
                   "core ranges \"(0,0)-(1,1),(3,3)\", a list of them, or a CoreRangeSet "
                   "[{\"start\":{\"x\":0,\"y\":0},\"end\":{\"x\":1,\"y\":1}},...]",
                   value);
    std::vector<core_range> out;
    for (std::size_t i = 0; i < list.size(); ++i) append_core_item(list[i], at + "[" + std::to_string(i) + "]", out);
    return out;
}

// What json::parse(text, callback) builds a document with, except that a syntax error is
// kept, not thrown: a text that is not JSON then costs one exception (input_error), not
// two. An exception costs tens of thousands of instructions, and most texts a fuzzer
// makes are not JSON.
struct dom_keeping_error : nlohmann::detail::json_sax_dom_callback_parser<json> {
    using json_sax_dom_callback_parser::json_sax_dom_callback_parser;
    std::string error;  // the parse_error's what(), when there was one
    template <class Exception>
    bool parse_error(std::size_t, const std::string&, const Exception& e) {
        error = e.what();
        return false;
    }
};

// Depth limits and repeated keys are caught while parsing, before any value is built:
// a spec is one object of scalars and flat lists.
json parse_object(std::string_view text) {
    if (text.size() > max_spec_bytes)
        throw input_error("spec JSON: " + std::to_string(text.size()) + " bytes; a spec is at most 1 MiB");
    std::set<std::string> seen;
    std::string key;  // the top-level key whose value is being read
    auto guard = [&seen, &key](int depth, json::parse_event_t event, json& parsed) {
        // "cores" alone may hold ttnn's CoreRangeSet: {"ranges":[{"start":{"x":0,..},..}]}
        // nests containers 4 deep below the spec object; nothing else nests at all.
        const bool core_set = key == "cores" && depth > 0;
        if (event == json::parse_event_t::object_start && depth > (core_set ? 4 : 0))
            throw input_error(core_set ? "spec JSON: \"cores\" nests deeper than a CoreRangeSet "
                                         "[{\"start\":{\"x\":0,\"y\":0},\"end\":{\"x\":1,\"y\":1}}]"
                                       : "spec JSON: nested objects are not part of a spec (only \"cores\" takes "
                                         "a CoreRangeSet as ttnn writes it)");
        if (event == json::parse_event_t::array_start && depth > (core_set ? 2 : 1))
            throw input_error(core_set ? "spec JSON: \"cores\" nests deeper than a CoreRangeSet "
                                         "[{\"start\":{\"x\":0,\"y\":0},\"end\":{\"x\":1,\"y\":1}}]"
                                       : "spec JSON: nested lists are not part of a spec");
        if (event == json::parse_event_t::key && depth == 1) {
            key = parsed.get_ref<const std::string&>();
            if (!seen.insert(key).second) throw input_error("spec JSON: key " + quote_value(key) + " appears twice");
        }
        return true;
    };
    // json::parse(text, guard), except that a syntax error is kept rather than thrown (see
    // dom_keeping_error).
    json doc;
    dom_keeping_error dom(doc, guard, false);
    if (!json::sax_parse(text.begin(), text.end(), &dom)) {
        std::string why = dom.error.empty() ? std::string("not a JSON text") : dom.error;
        if (const auto close = why.find("] "); why.rfind("[json.exception", 0) == 0 && close != std::string::npos)
            why.erase(0, close + 2);
        throw input_error("spec JSON: " + why);
    }
    if (doc.is_discarded()) doc = nullptr;  // as json::parse leaves a value its callback discarded
    if (!doc.is_object())
        throw input_error("spec JSON: expected an object like {\"tensor\":[3,7,5],...}, got " + shown(doc));
    return doc;
}

std::uint64_t cores_in(const std::vector<core_range>& cores, bool& well_formed) {
    std::uint64_t n = 0;
    well_formed = true;
    for (const core_range& r : cores) {
        if (r.start.x > r.end.x || r.start.y > r.end.y) {
            well_formed = false;
            return 0;
        }
        n += (std::uint64_t{r.end.x} - r.start.x + 1) * (std::uint64_t{r.end.y} - r.start.y + 1);
    }
    return n;
}

// The element shape of one page, so that every shard is exactly one page.
shape one_page_shard(const shape& tensor, const page_config& page) {
    shape s;
    const std::size_t r = tensor.rank();
    switch (page.kind) {
        case page_kind::pages:
            for (std::size_t d = 0; d < r; ++d) s.push_back(1);
            break;
        case page_kind::tile:
            if (r < 2) throw input_error("interleaved tile pages need a tensor of rank >= 2, got " + to_string(tensor));
            for (std::size_t d = 0; d + 2 < r; ++d) s.push_back(1);
            s.push_back(page.tile_h);
            s.push_back(page.tile_w);
            break;
        case page_kind::row_major:  // a page is one whole row of the tensor
            for (std::size_t d = 0; d + 1 < r; ++d) s.push_back(1);
            s.push_back(tensor.back() == 0 ? 1 : tensor.back());
            break;
    }
    return s;
}

std::string join(const shape& s) {
    std::string out;
    for (std::size_t d = 0; d < s.rank(); ++d) out += (d ? "," : "") + std::to_string(s[d]);
    return out;
}

}  // namespace

void merge_into(spec_fields& base, const spec_fields& over) {
    // Field by field over the two lists of spec_fields::all(): a set field of `over` wins.
    std::apply(
        [&over](auto&... into) {
            std::apply([&into...](const auto&... from) { ((from ? void(into = from) : void()), ...); }, over.all());
        },
        base.all());
    // A grid or core list given later replaces the other form given earlier.
    if (over.grid) base.cores.reset();
    if (over.cores) base.grid.reset();
}

spec_fields fields_from_flags(const spec_flag_text& f) {
    spec_fields out;
    if (f.tensor) out.tensor = parse_shape(*f.tensor, "--tensor");
    if (f.shard) out.shard = parse_shape(*f.shard, "--shard");
    if (f.grid) out.grid = parse_grid(*f.grid, "--grid");
    if (f.cores) out.cores = parse_cores(*f.cores, "--cores");
    if (f.page) out.page = parse_page(*f.page, "--page");
    if (f.orientation) out.orient = parse_orientation(*f.orientation, "--orientation");
    if (f.strategy) out.strat = parse_strategy(*f.strategy, "--strategy");
    if (f.element_size) out.element_size = parse_u64(*f.element_size, "--element-size");
    if (f.alignment) out.alignment = parse_u64(*f.alignment, "--alignment");
    if (f.bank_base) out.bank_base = parse_u64(*f.bank_base, "--bank-base");
    if (f.banks) out.banks = parse_u64(*f.banks, "--banks");
    if (f.interleaved) out.interleaved = true;
    if (f.grid && f.cores)
        throw input_error("--grid " + quote_value(*f.grid) + " and --cores " + quote_value(*f.cores) +
                          ": give one core list, not both");
    return out;
}

spec_fields parse_spec_fields_json(std::string_view text) {
    const json doc = parse_object(text);
    spec_fields out;
    for (const auto& [key, value] : doc.items()) {
        const std::string label = "spec." + key;
        if (key == "tensor") out.tensor = json_shape(value, label);
        else if (key == "shard") out.shard = json_shape(value, label);
        else if (key == "grid") out.grid = json_grid(value, label);
        else if (key == "cores") out.cores = json_cores(value, label);
        else if (key == "page") out.page = parse_page(json_string(value, label, "pages, tile, tile:HxW or row"), label);
        else if (key == "orientation")
            out.orient = parse_orientation(json_string(value, label, "row_major or col_major"), label);
        else if (key == "strategy")
            out.strat = parse_strategy(json_string(value, label, "round_robin_1d, contiguous_1d or grid_2d"), label);
        else if (key == "element_size") out.element_size = json_u64(value, label);
        else if (key == "alignment") out.alignment = json_u64(value, label);
        else if (key == "bank_base") out.bank_base = json_u64(value, label);
        else if (key == "banks") out.banks = json_u64(value, label);
        else if (key == "interleaved") {
            if (!value.is_boolean()) wrong_type(label, "true or false", value);
            out.interleaved = value.get<bool>();
        } else {
            throw input_error("spec JSON: unknown key " + quote_value(key) +
                              " (keys: tensor, shard, grid, cores, page, orientation, strategy, element_size, "
                              "alignment, bank_base, interleaved, banks)");
        }
    }
    if (out.grid && out.cores) throw input_error("spec JSON: \"grid\" and \"cores\" both given; give one core list");
    return out;
}

std::vector<std::pair<std::string, std::string>> json_as_flag_text(std::string_view text) {
    const json doc = parse_object(text);
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [key, value] : doc.items()) {
        const std::string label = "spec." + key;
        std::string flag_text;
        if (key == "cores" && !value.is_string()) {
            flag_text = format_cores(json_cores(value, label));  // ttnn's nested form, as flag text
        } else if (value.is_string()) {
            flag_text = value.get<std::string>();
        } else if (value.is_boolean()) {
            flag_text = value.get<bool>() ? "true" : "false";
        } else if (value.is_array()) {
            for (const json& item : value) {
                if (!flag_text.empty()) flag_text += ',';
                flag_text += std::to_string(json_u64(item, label));
            }
        } else {
            flag_text = std::to_string(json_u64(value, label));
        }
        out.emplace_back(key, flag_text);
    }
    return out;
}

distribution_spec to_spec(const spec_fields& f) {
    if (!f.tensor) throw input_error("no tensor shape: give --tensor (\"tensor\" in a spec), e.g. --tensor 3,7,5");
    distribution_spec spec;
    spec.tensor = *f.tensor;
    spec.page = f.page.value_or(page_config{});
    spec.element_size = f.element_size.value_or(1);
    spec.alignment = f.alignment.value_or(1);
    spec.orient = f.orient.value_or(orientation::row_major);
    spec.strat = f.strat.value_or(strategy::round_robin_1d);
    spec.bank_base = f.bank_base.value_or(0);
    if (f.grid) spec.cores = {*f.grid};
    else if (f.cores) spec.cores = *f.cores;

    if (!f.interleaved.value_or(false)) {
        if (f.banks)
            throw input_error("--banks " + std::to_string(*f.banks) +
                              ": banks belong to interleaved specs; add --interleaved, or give --grid/--cores");
        if (!f.shard) throw input_error("no shard shape: give --shard (\"shard\" in a spec), e.g. --shard 2,2,2");
        if (spec.cores.empty()) throw input_error("no cores: give --grid XxY or --cores (x0,y0)-(x1,y1)");
        spec.shard = *f.shard;
        return spec;
    }
    if (f.shard)
        throw input_error("--shard " + to_string(*f.shard) +
                          ": an interleaved spec makes every page its own shard; drop --shard or --interleaved");
    if (spec.strat != strategy::round_robin_1d)
        throw input_error(std::string("--strategy ") + to_string(spec.strat) +
                          ": interleaved pages are dealt round_robin_1d");
    if (spec.cores.empty()) {
        if (!f.banks) throw input_error("interleaved: give --banks B, --grid XxY or --cores for the banks");
        spec.cores = banks_row(*f.banks, "--banks");
    } else if (f.banks) {
        bool well_formed = true;
        const std::uint64_t n = cores_in(spec.cores, well_formed);
        if (well_formed && n != *f.banks)
            throw input_error("--banks " + std::to_string(*f.banks) + ": the core list " + format_cores(spec.cores) +
                              " has " + std::to_string(n) + " cores; give one or the other");
    }
    spec.shard = one_page_shard(spec.tensor, spec.page);
    return spec;
}

std::vector<core_range> banks_row(std::uint64_t banks, std::string_view what) {
    if (banks == 0 || banks > max_cores)
        throw input_error(std::string(what) + " " + std::to_string(banks) +
                          ": 1..65536 banks, laid out as one row of cores (0,0)-(B-1,0)");
    return {{{0, 0}, {static_cast<std::uint32_t>(banks - 1), 0}}};
}

distribution_spec parse_spec_json(std::string_view json_text) { return to_spec(parse_spec_fields_json(json_text)); }

std::string spec_to_json(const distribution_spec& spec) {
    nlohmann::ordered_json out;
    out["tensor"] = std::vector<std::uint64_t>(spec.tensor.begin(), spec.tensor.end());
    out["shard"] = std::vector<std::uint64_t>(spec.shard.begin(), spec.shard.end());
    out["page"] = format_page(spec.page);
    out["element_size"] = spec.element_size;
    out["alignment"] = spec.alignment;
    out["cores"] = format_cores(spec.cores);
    out["orientation"] = to_string(spec.orient);
    out["strategy"] = to_string(spec.strat);
    out["bank_base"] = spec.bank_base;
    return out.dump();
}

std::string spec_to_flags(const distribution_spec& s) {
    std::string out = "--tensor " + (s.tensor.rank() ? join(s.tensor) : std::string("''"));
    out += " --shard " + (s.shard.rank() ? join(s.shard) : std::string("''"));
    if (!s.cores.empty()) {
        out += " --cores '";
        for (std::size_t i = 0; i < s.cores.size(); ++i) out += (i ? "," : "") + to_string(s.cores[i]);
        out += "'";
    }
    out += " --page ";
    if (s.page.kind == page_kind::pages) out += "pages";
    else if (s.page.kind == page_kind::row_major) out += "row";
    else out += "tile:" + std::to_string(s.page.tile_h) + "x" + std::to_string(s.page.tile_w);
    out += std::string(" --orientation ") + to_string(s.orient) + " --strategy " + to_string(s.strat);
    out += " --element-size " + std::to_string(s.element_size) + " --alignment " + std::to_string(s.alignment);
    out += " --bank-base " + std::to_string(s.bank_base);
    return out;
}

}  // namespace ndshard::specio
