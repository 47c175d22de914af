// `explain`: the facts a kernel writer needs (see render.hpp).
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "ndshard/args.hpp"
#include "ndshard/cli/render.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/squeeze.hpp"

#include <nlohmann/json.hpp>

namespace ndshard::cli {

namespace {

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

std::string hex_word(std::uint32_t w) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", w);
    return buf;
}

std::string word_list(const std::vector<std::uint32_t>& words) {
    std::string out = "{";
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (i == 32 && words.size() > 40) {
            out += ", ... " + std::to_string(words.size() - 36) + " more ...";
            i = words.size() - 4;
        }
        out += (i ? ", " : "") + hex_word(words[i]);
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

void write_explain(const distribution& d, std::ostream& out) {
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
    const std::uint64_t with_data = l.cores_with_data();
    row(out, "cores with data", std::to_string(with_data) + " of " + std::to_string(P));
    std::string groups;
    int group = 0;
    for (std::uint64_t c = 0; c < P;) {
        const std::uint64_t n = l.shards_on_core(c);
        std::uint64_t last = c;
        while (last + 1 < P && l.shards_on_core(last + 1) == n) ++last;
        if (!groups.empty()) groups += "; ";
        groups += (n == 0 ? std::string("no shards") : "group " + std::to_string(++group) + ": " + plural(n, "shard")) +
                  " on " + plural(last - c + 1, "core") + " [" + index_range(c, last) + "]";
        c = last + 1;
    }
    row(out, "shards per core", groups.empty() ? "no cores" : groups);
    const std::uint64_t reserved = l.reserved_pages_per_core();
    row(out, "max shards per core",
        std::to_string(l.max_shards_per_core) + " -> " + plural(reserved, "reserved page") + " per core");
    const std::uint64_t slots = reserved * P;
    const std::uint64_t edge = l.num_shards * l.shard_volume - l.num_pages;
    row(out, "padding",
        std::to_string(slots - l.num_pages) + " of " + std::to_string(slots) + " slots (" +
            percent(slots - l.num_pages, slots) + "): " + std::to_string(edge) + " in edge shards, " +
            std::to_string(slots - l.num_pages - edge) + " in unused slots");
    std::string per_core;
    if (P <= max_listed) {
        for (std::uint64_t c = 0; c < P; ++c) per_core += (c ? " " : "") + std::to_string(l.pages_on_core(c));
    } else {
        std::uint64_t lo = l.pages_on_core(0), hi = lo;
        for (std::uint64_t c = 1; c < P; ++c) {
            const std::uint64_t n = l.pages_on_core(c);
            lo = std::min(lo, n);
            hi = std::max(hi, n);
        }
        per_core = "between " + std::to_string(lo) + " and " + std::to_string(hi) + " (" + plural(P, "core") + ")";
    }
    row(out, "real pages per core", per_core);
    const std::uint64_t bytes = reserved * d.aligned_page_size;
    row(out, "bytes per core",
        std::to_string(bytes) + " reserved at [" + std::to_string(d.bank_base) + ", " +
            std::to_string(d.bank_base + bytes) + ") in every core");

    // Legacy and squeezed forms.
    for (legacy_layout kind :
         {legacy_layout::interleaved, legacy_layout::height, legacy_layout::width, legacy_layout::block}) {
        const legacy_result r = from_nd_as(d, kind);
        row(out, std::string("as ") + to_string(kind), r.spec ? "yes: " + describe_legacy(*r.spec) : "no: " + r.reason);
    }
    const page_layout sq = squeeze(l);
    const bool same = sq.tensor == l.tensor && sq.shard == l.shard;
    row(out, "squeezed",
        to_string(l.tensor) + " / " + to_string(l.shard) +
            (same ? " (already minimal)" : " -> " + to_string(sq.tensor) + " / " + to_string(sq.shard)));

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
    if (!same) words_for(&sq, "(squeezed)");
}

}  // namespace ndshard::cli
