// `explain`: the facts a kernel writer needs (see render.hpp).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

#include "ndshard/args.hpp"
#include "ndshard/cli/render.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/specio/text.hpp"
#include "ndshard/squeeze.hpp"
#include "ndshard/cli/tt_args.hpp"

#include <nlohmann/json.hpp>

namespace ndshard::cli {

namespace {

using specio::hex;

constexpr std::size_t label_width = 22;
constexpr std::size_t max_listed = 64;  // longer per-core lists are summarised

std::string plural(std::uint64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

void row(std::ostream& out, const std::string& label, const std::string& text) {
    out << label << std::string(label_width > label.size() ? label_width - label.size() : 1, ' ') << text << "\n";
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%",
                  whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
    return buf;
}

std::string word_list(const std::vector<std::uint32_t>& words) {
    std::string out = "{";
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i == 32 && words.size() > 40) {
            out += ", ... " + std::to_string(words.size() - 36) + " more ...";
            i = words.size() - 4;
        }
        out += (i ? ", " : "") + hex(words[i]);
    }
    return out + "}  (" + plural(words.size(), "word") + ")";
}

std::string index_range(std::uint64_t first, std::uint64_t last) {
    return first == last ? std::to_string(first) : std::to_string(first) + ".." + std::to_string(last);
}

std::string core_list(const std::vector<core_range>& cores) {
    std::string out;
    std::size_t shown = 0;
    for (const core_range& r : cores) {
        if (shown++ == 8) return out + ",... (" + std::to_string(cores.size()) + " ranges)";
        out += (out.empty() ? "" : ",") + to_string(r);
    }
    return out;
}

std::string describe_legacy(const legacy_spec& l) {
    const auto [h, w] = legacy_view(l.tensor);
    std::string what;
    switch (l.layout) {
        case legacy_layout::interleaved:
            return "interleaved over " + plural(l.cores.size(), "bank") + " in the order " + core_list(l.cores) +
                   "; every page keeps its core and offset";
        case legacy_layout::height:
            what = "HEIGHT sharded, shards [" + std::to_string(l.shard_height) + "," + std::to_string(w) + "]";
            break;
        case legacy_layout::width:
            what = "WIDTH sharded, shards [" + std::to_string(h) + "," + std::to_string(l.shard_width) + "]";
            break;
        case legacy_layout::block:
            what = "BLOCK sharded, shards [" + std::to_string(l.shard_height) + "," + std::to_string(l.shard_width) +
                   "], " + to_string(l.orient);
            break;
    }
    return what + " of the 2D view [" + std::to_string(h) + "," + std::to_string(w) + "] pages, cores " +
           core_list(l.cores) + "; every page keeps its core and offset";
}

}  // namespace

std::string legacy_to_json(const legacy_spec& l) {
    nlohmann::ordered_json out;
    out["from"] = to_string(l.layout);
    out["tensor"] = std::vector<std::uint64_t>(l.tensor.begin(), l.tensor.end());
    if (l.layout == legacy_layout::height || l.layout == legacy_layout::block) out["shard_height"] = l.shard_height;
    if (l.layout == legacy_layout::width || l.layout == legacy_layout::block) out["shard_width"] = l.shard_width;
    out["cores"] = format_cores(l.cores);
    out["orientation"] = to_string(l.orient);
    out["page_size"] = l.page_size;
    out["alignment"] = l.alignment;
    out["bank_base"] = l.bank_base;
    return out.dump();
}

namespace {

// Every figure explain prints, computed once for the text and the JSON alike.
struct explain_facts {
    std::uint64_t with_data = 0;
    struct group {
        std::uint64_t shards, first, last;
    };
    std::vector<group> groups;  // runs of consecutive cores holding the same shard count
    std::uint64_t reserved = 0, slots = 0, padding = 0, edge_padding = 0;
    std::vector<std::uint64_t> per_core;
    std::uint64_t bytes = 0;
    std::vector<std::pair<legacy_layout, legacy_result>> legacy;
    page_layout squeezed;
    bool minimal = true;
    std::optional<std::uint64_t> l1;  // the named architecture's L1 per core
    std::string warning;
};

explain_facts facts_of(const distribution& d, const explain_options& options) {
    const page_layout& l = d.layout;
    const std::uint64_t P = l.num_cores;
    explain_facts f;
    f.with_data = l.cores_with_data();
    for (std::uint64_t c = 0; c < P;) {
        const std::uint64_t n = l.shards_on_core(c);
        std::uint64_t last = c;
        while (last + 1 < P && l.shards_on_core(last + 1) == n) ++last;
        f.groups.push_back({n, c, last});
        c = last + 1;
    }
    f.reserved = l.reserved_pages_per_core();
    f.slots = f.reserved * P;
    f.padding = f.slots - l.num_pages;
    f.edge_padding = l.num_shards * l.shard_volume - l.num_pages;
    f.per_core = real_pages_per_core(l);
    f.bytes = f.reserved * d.aligned_page_size;
    for (legacy_layout kind :
         {legacy_layout::interleaved, legacy_layout::height, legacy_layout::width, legacy_layout::block})
        f.legacy.emplace_back(kind, from_nd_as(d, kind));
    f.squeezed = squeeze(l);
    f.minimal = f.squeezed.tensor == l.tensor && f.squeezed.shard == l.shard;
    if (options.arch) {
        const tt_arch_info& a = arch_info(*options.arch);
        f.l1 = a.l1_bytes;
        if (d.bank_base + f.bytes > a.l1_bytes)
            f.warning = "the reservation ends at byte " + std::to_string(d.bank_base + f.bytes) +
                        " of every core, past " + a.name + "'s " + std::to_string(a.l1_bytes) + "-byte L1 (" +
                        percent(d.bank_base + f.bytes, a.l1_bytes) + "); it fits only in DRAM banks";
    }
    return f;
}

void write_explain_json(const distribution& d, const explain_facts& f, const explain_options& options,
                        std::ostream& out) {
    const distribution_spec& spec = d.spec;
    const page_layout& l = d.layout;
    using json = nlohmann::ordered_json;
    auto dims = [](const shape& s) { return std::vector<std::uint64_t>(s.begin(), s.end()); };
    json j;
    j["spec"] = json::parse(spec_to_json(spec));
    j["tensor_pages"] = dims(d.tensor_pages);
    j["shard_pages"] = dims(d.shard_pages);
    j["page_size"] = d.page_size;
    j["aligned_page_size"] = d.aligned_page_size;
    j["num_cores"] = l.num_cores;
    json cores = json::array();
    for (const core_coord& c : d.cores) cores.push_back({c.x, c.y});
    j["core_list"] = cores;
    j["num_pages"] = l.num_pages;
    j["folded_tensor"] = dims(l.tensor);
    j["folded_shard"] = dims(l.shard);
    j["shard_grid"] = dims(l.grid);
    j["num_shards"] = l.num_shards;
    j["shard_volume"] = l.shard_volume;
    j["cores_with_data"] = f.with_data;
    json groups = json::array();
    for (const auto& g : f.groups)
        groups.push_back({{"shards", g.shards}, {"first_core", g.first}, {"last_core", g.last}});
    j["core_groups"] = groups;
    j["max_shards_per_core"] = l.max_shards_per_core;
    j["reserved_pages_per_core"] = f.reserved;
    j["slots"] = f.slots;
    j["padding_slots"] = f.padding;
    j["padding_in_edge_shards"] = f.edge_padding;
    j["padding_in_unused_slots"] = f.padding - f.edge_padding;
    j["real_pages_per_core"] = f.per_core;
    j["bytes_per_core"] = f.bytes;
    j["reserved_bytes"] = {d.bank_base, d.bank_base + f.bytes};
    if (options.arch) {
        const tt_arch_info& a = arch_info(*options.arch);
        j["arch"] = {{"name", a.name}, {"l1_bytes", a.l1_bytes}, {"fits_l1", f.warning.empty()}};
    }
    json legacy;
    for (const auto& [kind, r] : f.legacy)
        legacy[to_string(kind)] = r.spec ? json{{"expressible", true}, {"legacy", json::parse(legacy_to_json(*r.spec))}}
                                         : json{{"expressible", false}, {"reason", r.reason}};
    j["legacy"] = legacy;
    j["squeezed"] = {{"tensor", dims(f.squeezed.tensor)}, {"shard", dims(f.squeezed.shard)}, {"minimal", f.minimal}};
    json accessor = json::array();
    auto words_for = [&](const page_layout* layout, const char* name) {
        const page_layout& w = layout ? *layout : l;
        const accessor_words rt = make_accessor_words(d, arg::all_runtime, layout);
        const accessor_words ct = make_accessor_words(d, arg::all_static, layout);
        accessor.push_back({{"layout", name},
                            {"rank", w.rank()},
                            {"banks", l.num_cores},
                            {"tensor", dims(w.tensor)},
                            {"shard", dims(w.shard)},
                            {"all_runtime", {{"compile_time", rt.compile_time}, {"runtime", rt.runtime}}},
                            {"all_compile_time", {{"compile_time", ct.compile_time}, {"runtime", ct.runtime}}}});
    };
    words_for(nullptr, "as_given");
    if (!f.minimal) words_for(&f.squeezed, "squeezed");
    j["accessor_words"] = accessor;
    j["warnings"] = f.warning.empty() ? json::array() : json::array({f.warning});
    out << j.dump() << "\n";
}

}  // namespace

void write_explain(const distribution& d, std::ostream& out, const explain_options& options) {
    const explain_facts f = facts_of(d, options);
    if (options.json) {
        write_explain_json(d, f, options, out);
        return;
    }
    const distribution_spec& spec = d.spec;
    const page_layout& l = d.layout;
    const std::uint64_t P = l.num_cores;

    // What was asked for.
    if (spec.page.kind == page_kind::pages) {
        row(out, "tensor", to_string(spec.tensor) + " pages");
        row(out, "shard", to_string(spec.shard) + " pages");
        row(out, "page size",
            plural(d.page_size, "byte") + ", aligned to " + std::to_string(spec.alignment) + " -> " +
                plural(d.aligned_page_size, "byte"));
    } else {
        const std::string unit =
            spec.page.kind == page_kind::tile
                ? "tile " + std::to_string(spec.page.tile_h) + "x" + std::to_string(spec.page.tile_w) + " pages"
                : "row pages (a page is " + std::to_string(spec.shard.back()) + " elements)";
        row(out, "tensor", to_string(spec.tensor) + " elements -> " + to_string(d.tensor_pages) + " " + unit);
        row(out, "shard", to_string(spec.shard) + " elements -> " + to_string(d.shard_pages) + " pages");
        row(out, "page size",
            plural(d.page_size, "byte") + " (" + plural(spec.element_size, "byte") + " per element), aligned to " +
                std::to_string(spec.alignment) + " -> " + plural(d.aligned_page_size, "byte"));
    }
    row(out, "cores",
        core_list(spec.cores) + ", " + to_string(spec.orient) + " -> " + plural(P, "core") +
            (spec.strat == strategy::grid_2d ? " (the range trimmed to the shard grid)" : ""));
    row(out, "strategy", to_string(spec.strat));

    // Pages and shards.
    row(out, "pages", std::to_string(l.num_pages) + ", ids row-major over " + to_string(d.tensor_pages));
    if (l.tensor.rank() != d.tensor_pages.rank())
        row(out, "folded",
            "tensor " + to_string(l.tensor) + " for the rank-" + std::to_string(l.rank()) +
                " shard (leading dims multiplied)");
    row(out, "shard grid",
        to_string(l.grid) + " = " + plural(l.num_shards, "shard") + " of " + plural(l.shard_volume, "page"));

    // How the shards land on cores.
    row(out, "cores with data", std::to_string(f.with_data) + " of " + std::to_string(P));
    std::string groups;
    int group = 0;
    for (const auto& g : f.groups) {
        if (!groups.empty()) groups += "; ";
        groups += (g.shards == 0 ? std::string("no shards")
                                 : "group " + std::to_string(++group) + ": " + plural(g.shards, "shard")) +
                  " on " + plural(g.last - g.first + 1, "core") + " [" + index_range(g.first, g.last) + "]";
    }
    row(out, "shards per core", groups.empty() ? "no cores" : groups);
    row(out, "max shards per core",
        std::to_string(l.max_shards_per_core) + " -> " + plural(f.reserved, "reserved page") + " per core");
    row(out, "padding",
        std::to_string(f.padding) + " of " + std::to_string(f.slots) + " slots (" + percent(f.padding, f.slots) +
            "): " + std::to_string(f.edge_padding) + " in edge shards, " + std::to_string(f.padding - f.edge_padding) +
            " in unused slots");
    std::string per_core;
    if (P <= max_listed) {
        for (std::uint64_t c = 0; c < P; ++c) per_core += (c ? " " : "") + std::to_string(f.per_core[c]);
    } else {
        const auto [lo, hi] = std::minmax_element(f.per_core.begin(), f.per_core.end());
        per_core = "between " + std::to_string(*lo) + " and " + std::to_string(*hi) + " (" + plural(P, "core") + ")";
    }
    row(out, "real pages per core", per_core);
    row(out, "bytes per core",
        std::to_string(f.bytes) + " reserved at [" + std::to_string(d.bank_base) + ", " +
            std::to_string(d.bank_base + f.bytes) + ") in every core");
    if (options.arch) {
        const tt_arch_info& a = arch_info(*options.arch);
        row(out, std::string("L1 (") + a.name + ")",
            plural(a.l1_bytes, "byte") + " per core; the reservation ends at " +
                percent(d.bank_base + f.bytes, a.l1_bytes) + " of it");
    }

    // Legacy and squeezed forms.
    for (const auto& [kind, r] : f.legacy)
        row(out, std::string("as ") + to_string(kind), r.spec ? "yes: " + describe_legacy(*r.spec) : "no: " + r.reason);
    row(out, "squeezed",
        to_string(l.tensor) + " / " + to_string(l.shard) +
            (f.minimal ? " (already minimal)"
                       : " -> " + to_string(f.squeezed.tensor) + " / " + to_string(f.squeezed.shard)));

    // Accessor arguments, for the layout as given and for the squeezed one.
    auto words_for = [&](const page_layout* layout, const std::string& name) {
        const page_layout& w = layout ? *layout : l;
        row(out, "accessor " + name,
            "rank " + std::to_string(w.rank()) + ", " + plural(P, "bank") + ", tensor " + to_string(w.tensor) +
                ", shard " + to_string(w.shard) + " (word layout: ndshard/args.hpp)");
        const accessor_words rt = make_accessor_words(d, arg::all_runtime, layout);
        row(out, "  all runtime", "compile-time " + word_list(rt.compile_time));
        row(out, "", "runtime      " + word_list(rt.runtime));
        const accessor_words ct = make_accessor_words(d, arg::all_static, layout);
        row(out, "  all compile-time", "compile-time " + word_list(ct.compile_time));
        row(out, "", "runtime      " + word_list(ct.runtime));
    };
    words_for(nullptr, "(as given)");
    if (!f.minimal) words_for(&f.squeezed, "(squeezed)");
    if (!f.warning.empty()) out << "warning: " << f.warning << "\n";
}

}  // namespace ndshard::cli
