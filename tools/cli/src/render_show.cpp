// `show`: a terminal view of every core's slots (see render.hpp).
#include <algorithm>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "ndshard/cli/palette.hpp"
#include "ndshard/cli/render.hpp"
#include "ndshard/cli/spec_input.hpp"

namespace ndshard::cli {

namespace {

std::string plural(std::uint64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

struct ansi {
    bool on;
    std::string colour(rgb c) const {
        return on ? "\x1b[38;2;" + std::to_string(c.r) + ";" + std::to_string(c.g) + ";" + std::to_string(c.b) + "m"
                  : "";
    }
    std::string bold() const { return on ? "\x1b[1m" : ""; }
    std::string dim() const { return on ? "\x1b[2m" : ""; }
    std::string reset() const { return on ? "\x1b[0m" : ""; }
};

}  // namespace

shape display_shape(const shape& s) {
    shape out;
    for (auto d : s)
        if (d != 1) out.push_back(d);
    if (out.empty()) out.push_back(1);
    return out;
}

std::string describe_units(const distribution_spec& spec) {
    switch (spec.page.kind) {
        case page_kind::pages:
            return "pages";
        case page_kind::tile:
            return "elements, tile " + std::to_string(spec.page.tile_h) + "x" + std::to_string(spec.page.tile_w) +
                   " pages";
        case page_kind::row_major:
            return "elements, row pages";
    }
    return "?";
}

void write_show(const distribution& d, std::ostream& out, bool color, draw_level level) {
    const page_layout& l = d.layout;
    const std::uint64_t slots = l.reserved_pages_per_core();
    const std::uint64_t total_slots = slots * l.num_cores;
    if (slots != 0 && total_slots / slots != l.num_cores) throw usage_error("too many slots to show");
    // Shard slots: one line each at shard level. k * P <= 65536 * 2^32 cannot overflow.
    const std::uint64_t shard_slots = l.max_shards_per_core * l.num_cores;
    const bool by_shard =
        level == draw_level::shard || (level == draw_level::automatic && total_slots > show_slot_limit);
    if (!by_shard && total_slots > show_slot_limit)
        throw usage_error(std::to_string(total_slots) + " slots are more than the " + std::to_string(show_slot_limit) +
                          " a terminal view shows page by page; use --level shard or map --format csv");
    if (by_shard && shard_slots > show_slot_limit)
        throw usage_error(std::to_string(shard_slots) + " shard slots are more than the " +
                          std::to_string(show_slot_limit) + " a terminal view shows; use explain or map --format csv");
    const ansi fx{color};

    // Header: one line of facts.
    out << "tensor " << to_string(d.spec.tensor) << ", shard " << to_string(d.spec.shard) << " ("
        << describe_units(d.spec) << ")";
    if (d.spec.page.kind != page_kind::pages)
        out << " -> tensor " << to_string(d.tensor_pages) << " pages, shard " << to_string(d.shard_pages);
    if (l.tensor.rank() != d.tensor_pages.rank()) out << ", folded to " << to_string(l.tensor);
    out << "; shard grid " << to_string(l.grid) << " = " << plural(l.num_shards, "shard") << " on "
        << plural(l.num_cores, "core") << " (" << to_string(d.spec.strat) << "), up to " << l.max_shards_per_core
        << " per core; " << plural(l.num_pages, "page") << " in " << total_slots << " slots, "
        << (total_slots - l.num_pages) << " padding\n";

    if (by_shard) {
        // One line per slot: the shard, its grid coordinate, and its real pages out of
        // vol(S) as a bar of bar_width cells ('#' real, '.' padding).
        constexpr std::uint64_t bar_width = 20;
        out << "one line per shard slot: shard id, grid coordinate, real pages of " << l.shard_volume << "\n";
        const std::vector<std::uint64_t> per_core = real_pages_per_core(l);
        for (std::size_t c = 0; c < d.cores.size(); ++c) {
            const rgb tint = core_colour(c);
            out << fx.bold() << fx.colour(tint) << "core " << c << " " << to_string(d.cores[c]) << fx.reset() << ": "
                << plural(l.shards_on_core(c), "shard") << ", " << plural(per_core[c], "page") << "\n";
            for (std::uint64_t slot = 0; slot < l.max_shards_per_core; ++slot) {
                const auto shard_id = l.shard_in_slot(c, slot);
                if (!shard_id) {
                    out << "  slot " << slot << "  no shard  " << fx.dim() << std::string(bar_width, '.') << fx.reset()
                        << "  0/" << l.shard_volume << "\n";
                    continue;
                }
                const shape coord = l.shard_coord(*shard_id);
                const std::uint64_t real = l.pages_in_shard(*shard_id);
                // Rounded up, so a shard with any page shows at least one '#'.
                const std::uint64_t filled = (real * bar_width + l.shard_volume - 1) / l.shard_volume;
                out << "  slot " << slot << "  shard " << *shard_id << " at " << to_string(coord) << "  "
                    << fx.colour(tint) << std::string(filled, '#') << fx.reset() << fx.dim()
                    << std::string(bar_width - filled, '.') << fx.reset() << "  " << real << "/" << l.shard_volume
                    << "\n";
            }
        }
        return;
    }

    const shape block = display_shape(l.shard);
    const std::size_t n = block.rank();
    const std::uint64_t cols = block[n - 1];
    const std::uint64_t rows = n >= 2 ? block[n - 2] : 1;
    const std::uint64_t planes = l.shard_volume / std::max<std::uint64_t>(rows * cols, 1);
    const std::size_t width = std::to_string(l.num_pages == 0 ? 0 : l.num_pages - 1).size();
    const std::uint64_t plane_chars = cols * (width + 1) + 2;
    const std::uint64_t planes_per_band = std::max<std::uint64_t>(1, 96 / plane_chars);

    for (std::size_t c = 0; c < d.cores.size(); ++c) {
        const rgb tint = core_colour(c);
        out << fx.bold() << fx.colour(tint) << "core " << c << " " << to_string(d.cores[c]) << fx.reset() << ": "
            << plural(l.shards_on_core(c), "shard") << ", " << plural(l.pages_on_core(c), "page") << "\n";
        for (std::uint64_t slot = 0; slot < l.max_shards_per_core; ++slot) {
            const auto shard_id = l.shard_in_slot(c, slot);
            if (!shard_id) {
                out << "  slot " << slot << "  no shard (" << plural(l.shard_volume, "padding page") << ")\n";
                continue;
            }
            const shape coord = l.shard_coord(*shard_id);
            out << "  slot " << slot << "  shard " << *shard_id << " at " << to_string(coord) << "\n";
            for (std::uint64_t band = 0; band < planes; band += planes_per_band) {
                const std::uint64_t band_end = std::min(planes, band + planes_per_band);
                for (std::uint64_t r = 0; r < rows; ++r) {
                    std::ostringstream line;
                    line << "   ";
                    for (std::uint64_t p = band; p < band_end; ++p) {
                        if (p != band) line << " |";
                        for (std::uint64_t col = 0; col < cols; ++col) {
                            const std::uint64_t offset = slot * l.shard_volume + (p * rows + r) * cols + col;
                            const auto page = l.page_at(c, offset);
                            const std::string cell = page ? std::to_string(*page) : ".";
                            line << ' ' << std::string(width - std::min(width, cell.size()), ' ');
                            if (page) line << fx.colour(tint) << cell << fx.reset();
                            else line << fx.dim() << cell << fx.reset();
                        }
                    }
                    out << line.str() << "\n";
                }
            }
        }
    }
}

}  // namespace ndshard::cli
