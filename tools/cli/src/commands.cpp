// The ndshard command line: CLI11 collects raw flag text, the strict parsers of
// lib/specio (through spec_input.hpp) gives it meaning, and execute() runs the renderers.
#include "ndshard/cli/commands.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <random>
#include <new>
#include <sstream>
#include <string_view>

#include <CLI/CLI.hpp>

#include "ndshard/cli/render.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/conform/runner.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/specio/text.hpp"
#include "ndshard/version.hpp"
#include "flag_help.hpp"
#include "kcheck_flags.hpp"
#include "sim_glue.hpp"

namespace ndshard::cli {

namespace {

using specio::one_line;

const char* const spec_keys_help =
    "SPEC keys are the flag names: tensor, shard, grid, cores, page, orientation, strategy,\n"
    "element_size, alignment, bank_base, interleaved, banks. Shapes are in elements\n"
    "(in pages with page = pages, the default). An interleaved spec has no shard: every page\n"
    "is its own shard, dealt round robin over the banks; the banks are --grid/--cores when\n"
    "given, otherwise --banks B stands for the row (0,0)-(B-1,0). Values may be spelled as tt-metal\n"
    "and ttnn write them, in any case (COL_MAJOR, ShardDistributionStrategy::GRID_2D, Layout::TILE),\n"
    "and \"cores\" in JSON may be a CoreRangeSet: [{\"start\":{\"x\":0,\"y\":0},\"end\":{\"x\":3,\"y\":2}}].\n";

// The raw text of every spec flag of one subcommand. CLI11 only collects text; the strict
// parsers run afterwards, so their one-line messages (not CLI11's) name a bad value, and
// --spec JSON and flags go through the same parsers.
struct spec_flags {
    spec_flag_text text;
    std::optional<std::string> spec;
};

void add_spec_flags(CLI::App* app, spec_flags& f) {
    add_text(app, "--spec", f.spec,
             "a JSON spec: inline ({...}), a file, or - for stdin; flags given as well override its keys", "SPEC");
    add_text(app, "--tensor", f.text.tensor, "tensor shape, e.g. 3,7,5", "DIMS");
    add_text(app, "--shard", f.text.shard, "shard shape, rank <= the tensor's, e.g. 2,2,2", "DIMS");
    add_text(app, "--grid", f.text.grid, "the cores of an XxY grid: the range (0,0)-(X-1,Y-1)", "XxY");
    add_text(app, "--cores", f.text.cores, "core ranges (x0,y0)-(x1,y1) and cores (x,y), comma separated, in order",
             "RANGES");
    add_text(app, "--page", f.text.page, "pages (default: shapes are in pages) | tile | tile:HxW | row", "KIND");
    add_text(app, "--orientation", f.text.orientation, "row_major (default: x fastest in a range) | col_major",
             "ORDER");
    add_text(app, "--strategy", f.text.strategy, "round_robin_1d (default) | contiguous_1d | grid_2d", "NAME");
    add_text(app, "--element-size,--element_size", f.text.element_size,
             "bytes per element (per page with --page pages); default 1", "BYTES");
    add_text(app, "--alignment", f.text.alignment, "pages are padded to this power of two; default 1", "BYTES");
    add_text(app, "--bank-base,--bank_base", f.text.bank_base, "byte address of the buffer in every core; default 0",
             "ADDR");
    app->add_flag("--interleaved", f.text.interleaved, "interleaved: every page its own shard, round robin");
    add_text(app, "--banks", f.text.banks, "interleaved over B banks: the cores (0,0)-(B-1,0)", "B");
}

// A --spec (if any) first, then the flags on top: a stored spec file can be tweaked from
// the command line without editing it.
distribution_spec spec_of(const spec_flags& f, bool allow_files) {
    spec_fields fields;
    if (f.spec) merge_into(fields, parse_spec_fields_json(read_spec_argument(*f.spec, allow_files)));
    merge_into(fields, fields_from_flags(f.text));
    return to_spec(fields);
}

// --level of the commands that draw (show, svg): page by page up to the renderer's own limit,
// then whole shards; the help quotes that constant, so it cannot drift from it.
void add_level_flag(CLI::App* app, std::optional<std::string>& into, const char* page_view, const char* shard_view,
                    std::uint64_t limit, const char* unit) {
    add_text(app, "--level", into,
             std::string("page: ") + page_view + " | shard: " + shard_view + " (default: page up to " +
                 std::to_string(limit) + " " + unit + ")",
             "LEVEL");
}

// A command that reads a spec: the subcommand, its spec flags and its --help footer (what it
// prints, then examples). The caller adds the command's own flags.
CLI::App* add_spec_command(CLI::App& app, const char* name, const char* summary, spec_flags& flags,
                           const std::string& about, std::initializer_list<const char*> example_lines) {
    CLI::App* command = app.add_subcommand(name, summary);
    add_spec_flags(command, flags);
    command->footer(about + examples(example_lines));
    return command;
}

// "height", or tt-metal's TensorMemoryLayout spelling "HEIGHT_SHARDED" (any case, qualified or not).
legacy_layout parse_legacy_layout(const std::string& text) {
    std::string word = enum_spelling(text, "TensorMemoryLayout");
    if (word.ends_with("_sharded") && word != "interleaved_sharded") word.resize(word.size() - 8);
    for (legacy_layout k :
         {legacy_layout::interleaved, legacy_layout::height, legacy_layout::width, legacy_layout::block})
        if (word == to_string(k)) return k;
    throw usage_error("--from " + quote_value(text) + ": expected interleaved, height, width, block or tt-args");
}

struct convert_flags {
    std::optional<std::string> from, to, shard_height, shard_width, page_size;
    std::optional<std::string> ct, crta, runtime, arch, tt_layout;  // tt-args
    bool dram = false;
};

// `convert --from tt-args --ct WORDS [--crta WORDS] [--tt-layout L] [--page-size B] [--bank-base A]`:
// the words say everything else, so the spec flags are refused rather than ignored.
tt_convert tt_from_words(const convert_flags& c, const spec_flags& f) {
    const spec_flag_text& t = f.text;
    for (const auto* v : {&t.tensor, &t.shard, &t.grid, &t.cores, &t.page, &t.orientation, &t.strategy, &t.element_size,
                          &t.alignment, &t.banks})
        if (*v)
            throw usage_error(quote_value(**v) +
                              ": with --from tt-args the words give the spec; only --page-size and --bank-base add "
                              "to them");
    if (t.interleaved || f.spec) throw usage_error("--from tt-args takes words (--ct, --crta), not a spec");
    if (!c.ct) throw usage_error("--from tt-args needs --ct WORDS: the compile-time words, config word first");
    if (c.runtime || c.dram) throw usage_error("--runtime/--dram choose the words of --to tt-args; --from reads them");
    tt_convert tc;
    tc.from_words = true;
    if (c.tt_layout) tc.layout = parse_tt_layout(*c.tt_layout, "--tt-layout");
    tc.ct = parse_tt_words(*c.ct, "--ct");
    if (c.crta) tc.crta = parse_tt_words(*c.crta, "--crta");
    if (c.page_size) tc.page_size = parse_u64(*c.page_size, "--page-size");
    if (t.bank_base) tc.bank_base = parse_u64(*t.bank_base, "--bank-base");
    if (c.arch) tc.arch = parse_tt_arch(*c.arch, "--arch");
    return tc;
}

legacy_spec legacy_of(const convert_flags& c, const spec_flags& f) {
    legacy_spec l;
    l.layout = parse_legacy_layout(*c.from);
    const spec_flag_text& t = f.text;
    auto refuse = [&](const std::optional<std::string>& v, const char* flag, const char* why) {
        if (v) throw usage_error(std::string(flag) + " " + quote_value(*v) + ": " + why);
    };
    refuse(t.shard, "--shard", "a legacy layout takes --shard-height / --shard-width, in pages");
    refuse(t.page, "--page", "legacy shapes are in pages; give the page size with --page-size");
    refuse(t.strategy, "--strategy", "a legacy layout implies its strategy");
    refuse(t.element_size, "--element-size", "legacy shapes are in pages; give --page-size");
    if (t.interleaved) throw usage_error("--interleaved: with --from, say --from interleaved");
    if (!t.tensor) throw usage_error("no tensor shape: give --tensor, in pages");
    if (t.grid && t.cores) throw usage_error("--grid and --cores: give one core list, not both");
    // The flags a legacy layout shares with an ND spec are read by the same parsers.
    const spec_fields s = fields_from_flags(t);
    l.tensor = *s.tensor;
    if (s.grid) l.cores = {*s.grid};
    else if (s.cores) l.cores = *s.cores;
    else if (s.banks) l.cores = banks_row(*s.banks, "--banks");
    else throw usage_error("no cores: give --grid XxY, --cores (x0,y0)-(x1,y1) or --banks B");
    if ((t.grid || t.cores) && t.banks) throw usage_error("--banks: give the banks as --banks or as --grid/--cores");
    const bool wants_height = l.layout == legacy_layout::height || l.layout == legacy_layout::block;
    const bool wants_width = l.layout == legacy_layout::width || l.layout == legacy_layout::block;
    if (wants_height != c.shard_height.has_value())
        throw usage_error(std::string("--from ") + to_string(l.layout) +
                          (wants_height ? " needs --shard-height (pages)" : " takes no --shard-height"));
    if (wants_width != c.shard_width.has_value())
        throw usage_error(std::string("--from ") + to_string(l.layout) +
                          (wants_width ? " needs --shard-width (pages)" : " takes no --shard-width"));
    if (c.shard_height) l.shard_height = parse_u64(*c.shard_height, "--shard-height");
    if (c.shard_width) l.shard_width = parse_u64(*c.shard_width, "--shard-width");
    if (c.page_size) l.page_size = parse_u64(*c.page_size, "--page-size");
    l.orient = s.orient.value_or(l.orient);
    l.alignment = s.alignment.value_or(l.alignment);
    l.bank_base = s.bank_base.value_or(l.bank_base);
    return l;
}

// A legacy layout given as JSON (what `convert --to legacy` prints): its keys are the
// --from flags; flags given on the command line as well win.
void legacy_flags_from_json(const std::string& text, convert_flags& c, spec_flags& f) {
    for (auto& [key, value] : json_as_flag_text(text)) {
        std::optional<std::string>* slot = key == "from"           ? &c.from
                                           : key == "tensor"       ? &f.text.tensor
                                           : key == "shard_height" ? &c.shard_height
                                           : key == "shard_width"  ? &c.shard_width
                                           : key == "cores"        ? &f.text.cores
                                           : key == "grid"         ? &f.text.grid
                                           : key == "banks"        ? &f.text.banks
                                           : key == "orientation"  ? &f.text.orientation
                                           : key == "page_size"    ? &c.page_size
                                           : key == "alignment"    ? &f.text.alignment
                                           : key == "bank_base"    ? &f.text.bank_base
                                                                   : nullptr;
        if (!slot)
            throw usage_error("legacy spec JSON: unknown key " + quote_value(key) +
                              " (keys: from, tensor, shard_height, shard_width, cores, grid, banks, orientation, "
                              "page_size, alignment, bank_base)");
        if (!*slot) *slot = std::move(value);
    }
    if (f.text.grid && f.text.cores) f.text.grid.reset();  // the flags' list replaces the JSON's
}

draw_level parse_draw_level(const std::string& text, const char* flag) {
    if (text == "shard") return draw_level::shard;
    if (text == "page") return draw_level::page;
    if (text == "auto") return draw_level::automatic;
    throw usage_error(std::string(flag) + " " + quote_value(text) + ": expected shard, page or auto");
}

// The subcommands, in the order of the `command` variant: every list of them that a
// message prints, and every "ndshard NAME: " prefix, is taken from here.
constexpr std::array<const char*, std::variant_size_v<command>> command_names = {
    "map", "show", "explain", "svg", "convert", "sim", "conform", "locate", "kcheck"};

const char* name_of(const command& cmd) { return command_names[cmd.index()]; }

bool is_command(const std::string& word) {
    return std::find(command_names.begin(), command_names.end(), word) != command_names.end();
}

// "map, show, ..., locate or kcheck" (joined with `last` before the final name).
std::string command_list(const char* last) {
    std::string out;
    for (std::size_t i = 0; i < command_names.size(); ++i)
        out += std::string(i == 0 ? "" : i + 1 == command_names.size() ? last : ", ") + command_names[i];
    return out;
}

// The one error line format: "ndshard svg: " once, then the message. Messages thrown below
// the command line (renderers, parsers) never carry a command name of their own.
std::string error_line(const std::string& who, const std::string& message) { return who + ": " + one_line(message); }

int run_map(const map_command& c, std::ostream& out) {
    const distribution d = make_distribution(c.spec);
    if (c.format == map_format::csv) write_map_csv(d, out);
    else write_map_json(d, out);
    return 0;
}

int run_convert(const convert_command& c, std::ostream& out, std::ostream& err) {
    if (c.tt) return run_tt_convert(*c.tt, c.spec, out, err);
    if (c.from_legacy) {
        const distribution_spec spec = to_nd(*c.from_legacy);
        (void)make_distribution(spec);  // the ND spec must be valid too
        out << spec_to_json(spec) << "\n";
        return 0;
    }
    const legacy_result legacy = from_nd(make_distribution(c.spec));
    if (!legacy.spec) {
        err << "ndshard convert: not expressible as a legacy layout: " << one_line(legacy.reason) << "\n";
        return 1;
    }
    out << legacy_to_json(*legacy.spec) << "\n";
    return 0;
}

int run_conform(const conform_command& c, std::ostream& out) {
    conform::run_options o;
    o.impl_path = c.impl;
    o.cases = c.cases;
    o.seed = c.seed;
    o.law_filter = c.law;
    o.timeout_ms = c.timeout_ms;
    conform::run_report report;
    try {
        report = conform::run_conformance(o);
    } catch (const std::invalid_argument& e) {  // a --law regex that is invalid or matches no law
        throw usage_error(e.what());
    }
    if (c.json) conform::write_json(report, out);
    else conform::write_text(report, out);
    return report.count(conform::law_status::failed) == 0 ? 0 : 1;
}

// What CLI11 writes into while it reads one command line: the raw text of every flag of
// every command, set back to these defaults before each parse.
struct flag_values {
    spec_flags map_flags, show_flags, explain_flags, svg_flags, convert_spec_flags;
    std::optional<std::string> format, color, highlight, show_level, svg_level, explain_format, explain_arch;
    convert_flags convert;

    std::string op;
    std::vector<std::string> sim_in;
    std::string sim_out;
    std::optional<std::string> seed, page_elems;
    std::optional<std::string> impl, cases, conform_seed, law, timeout_ms;
    bool conform_json = false;
    spec_flags locate_flags;
    std::optional<std::string> locate_page_id, locate_coord, locate_at, locate_format, locate_arch;
    kcheck_flags kcheck;
};

// The CLI11 app of one command (or of every one) and the values its options write into.
// The options hold references into `values`, so a command_line never moves.
struct command_line {
    CLI::App app{"ndshard: see how an N-d tensor is sharded over accelerator cores", "ndshard"};
    flag_values values;
    CLI::App *map = nullptr, *show = nullptr, *explain = nullptr, *svg = nullptr, *conv = nullptr, *sim = nullptr,
             *conf = nullptr, *locate = nullptr, *kcheck = nullptr;
};

// CLI11 2.1.2 appends every option a parse meets to the app's parse_order(), a list its
// clear() leaves as it is: a reused app is built afresh once its lists hold 1024 entries,
// so that the memory of a thread that parses without end (a fuzzer) stays bounded.
bool worn(const command_line& cl) {
    std::size_t entries = cl.app.parse_order().size();
    for (const CLI::App* command :
         {cl.map, cl.show, cl.explain, cl.svg, cl.conv, cl.sim, cl.conf, cl.locate, cl.kcheck})
        if (command != nullptr) entries += command->parse_order().size();
    return entries > 1024;
}

// The app with the command command_names[only] (every one for only == command_names.size()).
std::unique_ptr<command_line> build_command_line(std::size_t only) {
    auto cl = std::make_unique<command_line>();
    CLI::App& app = cl->app;
    flag_values& v = cl->values;
    CLI::App *&map = cl->map, *&show = cl->show, *&explain = cl->explain, *&svg = cl->svg, *&conv = cl->conv,
             *&sim = cl->sim, *&conf = cl->conf, *&locate = cl->locate, *&kcheck = cl->kcheck;
    const auto wanted = [only](const char* name) {
        return only == command_names.size() || std::string_view(command_names[only]) == name;
    };
    app.require_subcommand(1);
    app.footer(
        "\nCommands read a distribution spec from flags or from --spec JSON.\n" + std::string(spec_keys_help) +
        examples({"ndshard map --tensor 3,7,5 --shard 2,2,2 --grid 2x3",
                  "ndshard show --tensor 2,64,96 --shard 1,32,64 --page tile --cores \"(0,0)-(3,3)\"",
                  "ndshard svg --tensor 3,7,5 --shard 2,2,2 --grid 2x3 > picture.svg", "ndshard <command> --help"}));

    if (wanted("map")) {
        map = add_spec_command(
            app, "map", "every core's slots as page ids (JSON or CSV)", v.map_flags,
            "\nJSON: {\"tensor_pages\":[..],\"shard_pages\":[..],\"num_shards\":N,\"max_shards_per_core\":M,\n"
            "\"shard_volume\":V,\"cores\":[{\"x\":X,\"y\":Y,\"pages\":[page id or null, ...]}, ...]}: every core of\n"
            "the list (grid_2d: the trimmed list) with all M*V slots in device order, null = padding.\n" +
                std::string(spec_keys_help),
            {"ndshard map --tensor 3,7,5 --shard 2,2,2 --grid 2x3",
             "ndshard map --tensor 2,64,96 --shard 1,32,64 --page tile --cores \"(0,0)-(3,3)\"",
             "ndshard map --tensor 3,2,2,3,4 --shard 1,1,2,2,4 --page row --cores \"(0,0)-(1,4)\" "
             "--orientation col_major",
             "ndshard map --format csv --spec '{\"tensor\":[4,8,8],\"interleaved\":true,\"banks\":12}'"});
        add_text(map, "--format", v.format, "json (default) | csv (core_x,core_y,slot,page; empty page = padding)",
                 "FORMAT");
    }

    if (wanted("show")) {
        show =
            add_spec_command(app, "show", "a terminal view: every core's shards as blocks of page ids", v.show_flags,
                             "\nOne header line of facts, then per core its slots: each shard as a block of page ids\n"
                             "(last dim across, the dim before it down, further dims side by side); '.' is padding.\n",
                             {"ndshard show --tensor 3,7,5 --shard 2,2,2 --grid 2x3",
                              "ndshard show --tensor 10,10,10 --shard 1,10,10 --grid 2x2 --color always | less -R"});
        add_text(show, "--color", v.color, "auto (default: when stdout is a terminal) | always | never", "WHEN");
        add_level_flag(show, v.show_level, "every slot's page id", "one line per shard", show_slot_limit, "slots");
    }

    if (wanted("explain")) {
        explain = add_spec_command(
            app, "explain", "the facts a kernel writer needs about a distribution", v.explain_flags,
            "\nPages, shard grid, shards per core (core groups), padding, bytes per core, whether a\n"
            "legacy layout (interleaved / HEIGHT / WIDTH / BLOCK) gives the same mapping, the squeezed\n"
            "shapes and the accessor's argument words (all runtime and all compile-time).\n",
            {"ndshard explain --tensor 3,7,5 --shard 2,2,2 --grid 2x3",
             "ndshard explain --tensor 2,64,96 --shard 1,32,64 --page tile --grid 4x4"});
        add_text(explain, "--format", v.explain_format, "text (default) | json (every figure and every argument word)",
                 "FORMAT");
        add_text(explain, "--arch", v.explain_arch,
                 "wormhole_b0 | blackhole | grayskull: compare the bytes per core with its L1, NoC addresses in its "
                 "encoding",
                 "ARCH");
    }

    if (wanted("svg")) {
        svg = add_spec_command(
            app, "svg", "an SVG picture of the distribution, written to stdout", v.svg_flags,
            "\nThe tensor's page grid, one cell per page coloured by its core (rank 3: a 3D block; rank 4+:\n"
            "a row of blocks; rank 1-2: a flat grid), padding as dashed outlines, the cores on the core\n"
            "grid with their stacked slots, and a legend.\n",
            {"ndshard svg --tensor 3,7,5 --shard 2,2,2 --grid 2x3 > proposal.svg",
             "ndshard svg --tensor 10,10,10 --shard 1,10,10 --grid 2x2 --highlight-core 1,0 > x.svg"});
        add_text(svg, "--highlight-core", v.highlight, "emphasise the core at X,Y and fade the others", "X,Y");
        add_level_flag(svg, v.svg_level, "one cell per page", "one cell per shard", svg_cell_limit, "pages");
    }

    if (wanted("convert")) {
        conv = add_spec_command(
            app, "convert", "legacy layout or tt-metal accessor words <-> ND spec JSON", v.convert_spec_flags,
            "\n--from prints the ND spec JSON (readable by --spec) of a legacy layout; the tensor is in\n"
            "pages, seen as 2D [H, W] with leading dims folded into H. --to legacy prints the legacy\n"
            "layout (keys = the --from flags) with exactly the same mapping, or exits 1 with the reason\n"
            "there is none. That JSON can come back through --spec: convert --spec LEGACY gives the ND spec.\n"
            "--from tt-args reads tt-metal's TensorAccessorArgs words (--ct, --crta) and prints the ND spec;\n"
            "--to tt-args prints them for a spec, with --runtime choosing the common runtime parts.\n"
            "--tt-layout 2 (the default) is tt-metal's current layout, whose compile-time word 1 is the\n"
            "aligned page size; --tt-layout 1 is its older one, without that word (docs/tt-args.md has\n"
            "both word by word). A contiguous_1d spec travels as bit 31 of a compile-time bank count.\n",
            {"ndshard convert --from height --tensor 2,64,96 --shard-height 32 --grid 1x4",
             "ndshard convert --from block --tensor 64,64 --shard-height 32 --shard-width 16 --grid 4x2",
             "ndshard convert --from interleaved --tensor 4,8,8 --banks 12",
             "ndshard convert --to legacy --tensor 8,5 --shard 2,5 --grid 4x1",
             "ndshard convert --from tt-args --ct 0x71,64,2,2 --crta 4,6,2,3,0x03040102",
             "ndshard convert --from tt-args --tt-layout 1 --ct 0x71,2,2 --crta 4,6,2,3,0x03040102 --page-size 64",
             "ndshard convert --to tt-args --tensor 4,6 --shard 2,3 --cores \"(1,2),(3,4)\" --runtime bank_coords"});
        add_text(
            conv, "--from", v.convert.from,
            "legacy -> ND: interleaved | height | width | block (shapes in pages); tt-args: tt-metal's words -> ND",
            "LAYOUT");
        add_text(conv, "--to", v.convert.to, "ND -> legacy | tt-args (tt-metal's accessor words)", "TARGET");
        add_text(conv, "--shard-height,--shard_height", v.convert.shard_height,
                 "legacy HEIGHT/BLOCK shard height, pages", "PAGES");
        add_text(conv, "--shard-width,--shard_width", v.convert.shard_width, "legacy WIDTH/BLOCK shard width, pages",
                 "PAGES");
        add_text(conv, "--page-size,--page_size", v.convert.page_size,
                 "legacy page size in bytes, default 1; --from tt-args: the page size of layout 1's words, or "
                 "a check of layout 2's own",
                 "BYTES");
        add_text(conv, "--ct", v.convert.ct,
                 "--from tt-args: tt-metal's compile-time words, config first (0x.. or decimal)", "WORDS");
        add_text(conv, "--crta", v.convert.crta, "--from tt-args: tt-metal's common runtime words", "WORDS");
        add_text(conv, "--runtime", v.convert.runtime,
                 "--to tt-args: the runtime parts: rank,num_banks,tensor_shape,shard_shape,bank_coords | all | none "
                 "(default)",
                 "PARTS");
        conv->add_flag("--dram", v.convert.dram, "--to tt-args: set IsDram in the config word");
        add_text(conv, "--tt-layout,--tt_layout", v.convert.tt_layout,
                 "tt-args: 2 (default: tt-metal today, the aligned page size is compile-time word 1) | 1 (its "
                 "older words, without it)",
                 "L");
        add_text(conv, "--arch", v.convert.arch,
                 "--to tt-args: add each bank's NoC address, in wormhole_b0 | blackhole | grayskull encoding", "ARCH");
    }

    if (wanted("sim")) {
        sim = app.add_subcommand("sim", "run a kernel on the simulated device and check it");
        sim->add_option("--op", v.op, "reshard | eltwise_add | reduce_sum:DIM | permute:D0,D1,...")->required();
        sim->add_option("--in", v.sim_in, "input spec JSON (inline, a file or -); eltwise_add takes two")->required();
        sim->add_option("--out", v.sim_out, "output spec JSON")->required();
        add_text(sim, "--seed", v.seed, "seed of the random input data and core order; default 0", "N");
        add_text(sim, "--page-elems", v.page_elems, "int32 elements per page; default 16", "K");
        sim->footer(
            "\nPrints {\"op\":..,\"verified\":..,\"pages_read\":..,...}; exits 0 only when the device result\n"
            "equals the dense oracle's.\n" +
            std::string(spec_keys_help) +
            examples({"ndshard sim --op reshard --in '{\"tensor\":[4,8,8],\"interleaved\":true,\"banks\":12}' "
                      "--out '{\"tensor\":[4,8,8],\"shard\":[4,1,1],\"grid\":\"2x3\"}'",
                      "ndshard sim --op reduce_sum:0 --in in.json --out out.json"}));
    }

    if (wanted("conform")) {
        conf = app.add_subcommand("conform", "run the conformance laws against your accessor (a shared library)");
        add_text(conf, "--impl", v.impl,
                 "the implementation under test: a shared library exporting ndshard/conformance.h", "PATH.so");
        add_text(conf, "--cases", v.cases, "cases per law, 1..100000000; default 1000", "N");
        add_text(conf, "--seed", v.conform_seed, "seed of the generated cases; default: a random one (printed)", "S");
        add_text(conf, "--law", v.law, "run only the laws whose name matches this ECMAScript regex", "REGEX");
        conf->add_flag("--json", v.conform_json, "one JSON object on stdout instead of text");
        add_text(conf, "--timeout-ms", v.timeout_ms, "a case running longer fails its law; 1..600000, default 2000",
                 "MS");
        conf->footer(
            "\nRuns every law that applies to the implementation (its ndsc_describe declares its queries,\n"
            "strategies, page kinds and ranks) against the naive oracle, each case in a child process:\n"
            "a crash or hang in the implementation fails the law it happened in and the run goes on.\n"
            "Per law: PASS|FAIL|SKIP <law> (<cases> cases); each failure with its shrunk counterexample\n"
            "(the spec as `ndshard map` flags, the query, expected, got) and the command that replays it.\n"
            "Exit 0 when every applicable law passes, 1 when one fails, 2 for a bad flag or an impl that\n"
            "cannot be loaded. Laws: acceptance, address_limit_32bit, page_placement, bijectivity, balance,\n"
            "coord_page_agreement, shard_addressing, iteration_order, contiguous_runs,\n"
            "thread_split_iteration, interleaved_equivalence, legacy_equivalence, determinism, out_of_range.\n" +
            examples({"ndshard conform --impl ./libmy_accessor.so",
                      "ndshard conform --impl ./libmy_accessor.so --law '^page_placement$' --seed 5 --cases 12",
                      "ndshard conform --impl ./libmy_accessor.so --cases 10000 --json > report.json"}));
    }

    if (wanted("locate")) {
        locate = add_spec_command(
            app, "locate", "where one page lives, or what lives at one core's address", v.locate_flags,
            "\nGive one of --page-id, --coord (where the page lives: shard and its coordinate, core and its\n"
            "index in the core list, slot, offset in the shard and from the bank base, byte address) or\n"
            "--at (the page at that address, or padding, or not in the buffer, with the reason). --page is\n"
            "the page kind, as in every command. Constant time in the size of the tensor.\n" +
                std::string(spec_keys_help),
            {"ndshard locate --tensor 3,7,5 --shard 2,2,2 --grid 2x3 --page-id 20",
             "ndshard locate --tensor 3,7,5 --shard 2,2,2 --grid 2x3 --coord 0,4,0 --format json",
             "ndshard locate --tensor 3,7,5 --shard 2,2,2 --grid 2x3 --at 0,0:8"});
        add_text(locate, "--page-id,--page_id", v.locate_page_id, "the page id (row-major over the tensor's page grid)",
                 "N");
        add_text(locate, "--coord", v.locate_coord, "the page coordinate, in the tensor's rank", "I,J,K");
        add_text(locate, "--at", v.locate_at,
                 "the reverse: what lives at core X,Y, byte address ADDR (decimal or 0x..)", "X,Y:ADDR");
        add_text(locate, "--format", v.locate_format, "text (default) | json", "FORMAT");
        add_text(locate, "--arch", v.locate_arch,
                 "also the page's NoC address in this chip's encoding: wormhole_b0 | blackhole | grayskull", "ARCH");
    }

    if (wanted("kcheck")) kcheck = add_kcheck_command(app, v.kcheck);

    app.set_version_flag("--version", std::string("ndshard ") + NDSHARD_VERSION_STRING, "print the version and exit");
    return cl;
}

}  // namespace

parse_result parse_args(std::vector<std::string> args, const parse_options& options) {
    parse_result result;
    // The first word is checked before parsing (below): a command name, or --help, -h or
    // --version. Only the command it names is built, every one for the others (help lists
    // them all): the other commands could not be reached, and building all nine with their
    // flags was most of what parsing a short command line cost. Building even one command
    // (CLI11 makes each option and checks its names against the others') costs more than
    // parsing, so a thread builds each of these apps once and reuses it: clear() makes CLI11
    // forget the previous parse, and the flag values go back to their defaults.
    const std::size_t only =
        args.empty() ? command_names.size()
                     : static_cast<std::size_t>(std::find(command_names.begin(), command_names.end(), args.front()) -
                                                command_names.begin());
    thread_local std::array<std::unique_ptr<command_line>, command_names.size() + 1> built;
    if (!built[only] || worn(*built[only])) built[only] = build_command_line(only);
    command_line& cl = *built[only];
    cl.app.clear();
    cl.values = flag_values{};
    CLI::App& app = cl.app;
    flag_values& v = cl.values;
    CLI::App *const map = cl.map, *const show = cl.show, *const explain = cl.explain, *const svg = cl.svg,
                    *const conv = cl.conv, *const sim = cl.sim, *const conf = cl.conf, *const locate = cl.locate,
                    *const kcheck = cl.kcheck;
    const auto parsed = [](const CLI::App* command) { return command != nullptr && command->parsed(); };

    auto which = [&]() -> std::string {
        const auto subs = app.get_subcommands();
        return subs.empty() ? "ndshard" : "ndshard " + subs.front()->get_name();
    };
    try {
        if (args.empty()) throw usage_error("give a command: " + command_list(" or ") + " (see --help)");
        // CLI11 would report an unknown first word as an extra positional argument; say
        // which words are commands instead.
        const std::string& first = args.front();
        const bool known = is_command(first) || first == "--help" || first == "-h" || first == "--version";
        if (!known && !first.empty() && first.front() == '-')
            throw usage_error(quote_value(first) + ": give a command first: " + command_list(" or "));
        if (!known)
            throw usage_error("unknown command " + quote_value(args.front()) + "; the commands are " +
                              command_list(" and "));
        std::reverse(args.begin(), args.end());  // CLI11 consumes the vector from the back
        app.parse(args);
        if (parsed(map)) {
            map_command c{spec_of(v.map_flags, options.allow_files), map_format::json};
            if (v.format && *v.format == "csv") c.format = map_format::csv;
            else if (v.format && *v.format != "json")
                throw usage_error("--format " + quote_value(*v.format) + ": expected json or csv");
            result.cmd = c;
        } else if (parsed(show)) {
            show_command c{spec_of(v.show_flags, options.allow_files), color_mode::automatic};
            if (v.color) {
                if (*v.color == "always") c.color = color_mode::always;
                else if (*v.color == "never") c.color = color_mode::never;
                else if (*v.color != "auto")
                    throw usage_error("--color " + quote_value(*v.color) + ": expected auto, always or never");
            }
            if (v.show_level) c.level = parse_draw_level(*v.show_level, "--level");
            result.cmd = c;
        } else if (parsed(explain)) {
            explain_command c{spec_of(v.explain_flags, options.allow_files), {}};
            if (v.explain_format && *v.explain_format == "json") c.options.json = true;
            else if (v.explain_format && *v.explain_format != "text")
                throw usage_error("--format " + quote_value(*v.explain_format) + ": expected text or json");
            if (v.explain_arch) c.options.arch = parse_tt_arch(*v.explain_arch, "--arch");
            result.cmd = c;
        } else if (parsed(svg)) {
            svg_command c{spec_of(v.svg_flags, options.allow_files), {}};
            if (v.highlight) c.options.highlight = parse_core(*v.highlight, "--highlight-core");
            if (v.svg_level) c.options.level = parse_draw_level(*v.svg_level, "--level");
            result.cmd = c;
        } else if (parsed(conv)) {
            convert_command c;
            // A --spec holding a legacy layout (key "from") is an input for --from: what
            // `convert --to legacy` prints can be fed back as it is. The argument is read once
            // (it may be stdin), then either taken apart as legacy flags or kept as text.
            const bool tt_from = v.convert.from && *v.convert.from == "tt-args";
            const bool tt_to = v.convert.to && *v.convert.to == "tt-args";
            if (!tt_to && (v.convert.runtime || v.convert.dram || (v.convert.arch && !tt_from)))
                throw usage_error("--runtime/--dram/--arch go with --to tt-args");
            if (!tt_from && !tt_to && (v.convert.ct || v.convert.crta))
                throw usage_error("--ct/--crta are tt-metal's words: give --from tt-args");
            if (!tt_from && !tt_to && v.convert.tt_layout)
                throw usage_error("--tt-layout " + quote_value(*v.convert.tt_layout) +
                                  ": the layout of tt-metal's words goes with --from tt-args or --to tt-args");
            if (!v.convert.to && !tt_from && v.convert_spec_flags.spec) {
                const std::string text = read_spec_argument(*v.convert_spec_flags.spec, options.allow_files);
                bool legacy = false;
                for (const auto& kv : json_as_flag_text(text)) legacy = legacy || kv.first == "from";
                if (legacy) {
                    legacy_flags_from_json(text, v.convert, v.convert_spec_flags);
                    v.convert_spec_flags.spec.reset();
                } else {
                    v.convert_spec_flags.spec = text;  // read once, parsed below
                }
            }
            if (v.convert.from.has_value() == v.convert.to.has_value())
                throw usage_error("give --from LAYOUT (legacy -> ND) or --to legacy (ND -> legacy)");
            if (tt_from) {
                c.tt = tt_from_words(v.convert, v.convert_spec_flags);
            } else if (tt_to) {
                if (v.convert.ct || v.convert.crta) throw usage_error("--ct/--crta are inputs of --from tt-args");
                if (v.convert.shard_height || v.convert.shard_width || v.convert.page_size)
                    throw usage_error("--shard-height/--shard-width/--page-size describe a legacy input; use --from");
                tt_convert tc;
                if (v.convert.runtime) tc.flags = parse_tt_runtime(*v.convert.runtime, "--runtime");
                if (v.convert.dram) tc.flags |= tt::flag::is_dram;
                if (v.convert.tt_layout) tc.layout = parse_tt_layout(*v.convert.tt_layout, "--tt-layout");
                if (v.convert.arch) tc.arch = parse_tt_arch(*v.convert.arch, "--arch");
                c.tt = tc;
                c.spec = spec_of(v.convert_spec_flags, options.allow_files);
            } else if (v.convert.from) {
                if (v.convert_spec_flags.spec)
                    throw usage_error(
                        "--spec: with --from give a legacy layout (keys from, tensor, shard_height, ...)");
                c.from_legacy = legacy_of(v.convert, v.convert_spec_flags);
            } else {
                if (*v.convert.to != "legacy")
                    throw usage_error("--to " + quote_value(*v.convert.to) + ": expected legacy or tt-args");
                for (const auto* given : {&v.convert.shard_height, &v.convert.shard_width, &v.convert.page_size})
                    if (*given)
                        throw usage_error(
                            "--shard-height/--shard-width/--page-size describe a legacy input; use --from");
                c.spec = spec_of(v.convert_spec_flags, options.allow_files);
            }
            result.cmd = c;
        } else if (parsed(sim)) {
            sim_command c;
            c.op = v.op;
            for (const std::string& in : v.sim_in)
                c.inputs.push_back(parse_spec_json(read_spec_argument(in, options.allow_files)));
            c.output = parse_spec_json(read_spec_argument(v.sim_out, options.allow_files));
            if (v.seed) c.seed = parse_u64(*v.seed, "--seed");
            if (v.page_elems) c.page_elems = parse_u64(*v.page_elems, "--page-elems");
            result.cmd = c;
        } else if (parsed(conf)) {
            conform_command c;
            if (!v.impl) throw usage_error("--impl: give the implementation under test, a shared library (PATH.so)");
            if (v.impl->empty()) throw usage_error("--impl \"\": give the path of a shared library");
            c.impl = *v.impl;
            if (v.cases) {
                c.cases = parse_u64(*v.cases, "--cases");
                if (c.cases < 1 || c.cases > 100000000)
                    throw usage_error("--cases " + quote_value(*v.cases) + ": must be between 1 and 100000000");
            }
            // Without --seed each run explores new cases; the report prints the seed so that a
            // failure can be replayed.
            if (v.conform_seed) c.seed = parse_u64(*v.conform_seed, "--seed");
            else c.seed = (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
            if (v.law) c.law = *v.law;
            c.json = v.conform_json;
            if (v.timeout_ms) {
                const std::uint64_t ms = parse_u64(*v.timeout_ms, "--timeout-ms");
                if (ms < 1 || ms > 600000)
                    throw usage_error("--timeout-ms " + quote_value(*v.timeout_ms) + ": must be between 1 and 600000");
                c.timeout_ms = static_cast<std::uint32_t>(ms);
            }
            result.cmd = c;
        } else if (parsed(locate)) {
            const int given = !!v.locate_page_id + !!v.locate_coord + !!v.locate_at;
            if (given != 1)
                throw usage_error(
                    std::string(given ? "--page-id, --coord and --at: give only one" : "give a question") +
                    ": --page-id N, --coord I,J,K or --at X,Y:ADDR");
            locate_command c{spec_of(v.locate_flags, options.allow_files), {}, false, {}};
            if (v.locate_arch) c.arch = parse_tt_arch(*v.locate_arch, "--arch");
            if (v.locate_page_id) c.query = page_id_query{parse_u64(*v.locate_page_id, "--page-id")};
            if (v.locate_coord) {
                const shape coord = parse_shape(*v.locate_coord, "--coord");
                c.query = page_coord_query{{coord.begin(), coord.end()}};
            }
            if (v.locate_at) c.query = parse_at(*v.locate_at, "--at");
            if (v.locate_format && *v.locate_format == "json") c.json = true;
            else if (v.locate_format && *v.locate_format != "text")
                throw usage_error("--format " + quote_value(*v.locate_format) + ": expected text or json");
            result.cmd = c;
        } else if (parsed(kcheck)) {
            result.cmd = kcheck_of(v.kcheck, options.allow_files);
        }
    } catch (const CLI::CallForVersion& e) {
        result.output = std::string(e.what()) + "\n";
        return result;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) {  // --help
            result.output = app.help();
            return result;
        }
        result.error = error_line(which(), e.what());
        result.exit_code = 2;
    } catch (const usage_error& e) {
        result.error = error_line(which(), e.what());
        result.exit_code = 2;
    } catch (const spec_error& e) {
        result.error = error_line(which(), std::string("invalid spec: ") + e.what());
        result.exit_code = 2;
    } catch (const std::bad_alloc&) {
        result.error = error_line(which(), "out of memory while reading the arguments");
        result.exit_code = 3;
    } catch (const std::exception& e) {
        // Anything else thrown while reading arguments came from the user's text (e.g. a
        // shape past rank 8): a usage error, not an internal one.
        result.error = error_line(which(), e.what());
        result.exit_code = 2;
    }
    return result;
}

int execute(const command& cmd, std::ostream& out, std::ostream& err, const run_context& ctx) {
    const std::string name = std::string("ndshard ") + name_of(cmd);
    try {
        if (const auto* c = std::get_if<map_command>(&cmd)) return run_map(*c, out);
        if (const auto* c = std::get_if<show_command>(&cmd)) {
            const bool color =
                c->color == color_mode::always || (c->color == color_mode::automatic && ctx.stdout_is_terminal);
            write_show(make_distribution(c->spec), out, color, c->level);
            return 0;
        }
        if (const auto* c = std::get_if<explain_command>(&cmd)) {
            write_explain(make_distribution(c->spec), out, c->options);
            return 0;
        }
        if (const auto* c = std::get_if<svg_command>(&cmd)) {
            out << render_svg(make_distribution(c->spec), c->options);
            return 0;
        }
        if (const auto* c = std::get_if<convert_command>(&cmd)) return run_convert(*c, out, err);
        if (const auto* c = std::get_if<sim_command>(&cmd)) return run_sim(*c, out, err);
        if (const auto* c = std::get_if<conform_command>(&cmd)) return run_conform(*c, out);
        if (const auto* c = std::get_if<kcheck_command>(&cmd)) return run_kcheck(*c, out);
        if (const auto* c = std::get_if<locate_command>(&cmd)) {
            write_locate(make_distribution(c->spec), c->query, c->json, c->arch, out);
            return 0;
        }
    } catch (const usage_error& e) {
        err << error_line(name, e.what()) << "\n";
        return 2;
    } catch (const conform::load_error& e) {
        err << error_line(name, e.what()) << "\n";
        return 2;
    } catch (const spec_error& e) {
        err << error_line(name, std::string("invalid spec: ") + e.what()) << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        err << error_line(name, "out of memory") << "\n";
        return 3;
    } catch (const std::exception& e) {
        // The arguments were valid by now, so anything else is a bug: exit 3 tells scripts
        // and the fuzz target apart from a refused input (2).
        err << error_line(name, std::string("internal error: ") + e.what()) << "\n";
        return 3;
    }
    return 3;  // a command kind without a case above
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, const run_context& ctx) {
    parse_result parsed = parse_args(args);
    if (!parsed.cmd) {
        out << parsed.output;
        if (!parsed.error.empty()) err << parsed.error << "\n";
        return parsed.exit_code;
    }
    return execute(*parsed.cmd, out, err, ctx);
}

}  // namespace ndshard::cli
