// `map` output: the JSON contract and its CSV form (see render.hpp).
#include <ostream>

#include "ndshard/cli/render.hpp"

namespace ndshard::cli {

namespace {

void write_dims(std::ostream& out, const shape& s) {
    out << '[';
    for (std::size_t d = 0; d < s.rank(); ++d) out << (d ? "," : "") << s[d];
    out << ']';
}

}  // namespace

void write_map_json(const distribution& d, std::ostream& out) {
    const page_layout& l = d.layout;
    out << "{\"tensor_pages\":";
    write_dims(out, d.tensor_pages);
    out << ",\"shard_pages\":";
    write_dims(out, d.shard_pages);
    out << ",\"num_shards\":" << l.num_shards << ",\"max_shards_per_core\":" << l.max_shards_per_core
        << ",\"shard_volume\":" << l.shard_volume << ",\"cores\":[";
    const std::uint64_t slots = l.reserved_pages_per_core();
    for (std::size_t c = 0; c < d.cores.size(); ++c) {
        out << (c ? ",{" : "{") << "\"x\":" << d.cores[c].x << ",\"y\":" << d.cores[c].y << ",\"pages\":[";
        for (std::uint64_t offset = 0; offset < slots; ++offset) {
            if (offset) out << ',';
            if (const auto page = l.page_at(c, offset)) out << *page;
            else out << "null";
        }
        out << "]}";
    }
    out << "]}\n";
}

void write_map_csv(const distribution& d, std::ostream& out) {
    const page_layout& l = d.layout;
    const std::uint64_t slots = l.reserved_pages_per_core();
    out << "core_x,core_y,slot,page\n";
    for (std::size_t c = 0; c < d.cores.size(); ++c)
        for (std::uint64_t offset = 0; offset < slots; ++offset) {
            out << d.cores[c].x << ',' << d.cores[c].y << ',' << offset << ',';
            if (const auto page = l.page_at(c, offset)) out << *page;
            out << '\n';
        }
}

}  // namespace ndshard::cli
