// `ndshard locate`: one page's place or one address's content (see locate.hpp).
#include "ndshard/cli/locate.hpp"

#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>

#include "ndshard/cli/spec_input.hpp"
#include "ndshard/layout.hpp"
#include "ndshard/specio/text.hpp"

namespace ndshard::cli {

namespace {

using specio::hex;

std::string list_text(const std::vector<std::uint64_t>& v) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
    return out + "]";
}

std::string core_text(core_coord c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

std::uint64_t core_index_of(const distribution& d, core_coord core) {
    const auto at = std::find(d.cores.begin(), d.cores.end(), core);
    if (at == d.cores.end())
        throw usage_error("--at core " + core_text(core) + ": not one of the " + std::to_string(d.cores.size()) +
                          " cores of this distribution" +
                          (d.spec.strat == strategy::grid_2d ? " (grid_2d keeps only the cores its shards use)" : ""));
    return static_cast<std::uint64_t>(at - d.cores.begin());
}

std::uint64_t parse_address(std::string_view text, std::string_view whole, std::string_view what) {
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), v, 16);
        if (ec == std::errc::result_out_of_range)
            throw usage_error(std::string(what) + " " + quote_value(whole) + ": address does not fit 64 bits");
        if (ec != std::errc() || end != text.data() + text.size())
            throw usage_error(std::string(what) + " " + quote_value(whole) + ": address " + quote_value(text) +
                              " is not a hex number (0x...) or a decimal one");
        return v;
    }
    return parse_u64(text, std::string(what) + " address");
}

// A page's NoC address: its core and byte address in the chip's encoding (the address is
// below 2^32 by the rule address_32bit).
std::uint64_t noc_address(const page_location& p, tt_arch arch) {
    return tt_noc_xy_addr(arch, p.core.x, p.core.y, static_cast<std::uint32_t>(p.address));
}

nlohmann::ordered_json location_json(const page_location& p, std::optional<tt_arch> arch) {
    nlohmann::ordered_json j;
    j["page"] = p.page;
    j["coord"] = p.coord;
    j["shard"] = p.shard;
    j["shard_coord"] = p.shard_coord;
    j["core"] = {{"x", p.core.x}, {"y", p.core.y}};
    j["core_index"] = p.core_index;
    j["slot"] = p.slot;
    j["in_shard_offset"] = p.in_shard_offset;
    j["device_offset"] = p.device_offset;
    j["address"] = p.address;
    if (arch) {
        j["arch"] = arch_info(*arch).name;
        j["noc_addr"] = hex64(noc_address(p, *arch));
    }
    return j;
}

void write_location_text(const distribution& d, const page_location& p, std::optional<tt_arch> arch,
                         std::ostream& out) {
    const page_layout& l = d.layout;
    out << "page         " << p.page << " of " << l.num_pages << "\n";
    out << "coordinate   " << list_text(p.coord) << " in the " << to_string(d.tensor_pages) << " page grid\n";
    out << "shard        " << p.shard << " at " << list_text(p.shard_coord) << " in the " << to_string(l.grid)
        << " shard grid\n";
    out << "core         " << core_text(p.core) << ", index " << p.core_index << " of " << d.cores.size() << "\n";
    out << "slot         " << p.slot << " of " << l.max_shards_per_core << "\n";
    out << "offset       page " << p.in_shard_offset << " of the shard's " << l.shard_volume << ", page "
        << p.device_offset << " from the bank base\n";
    out << "address      " << p.address << " (" << hex(p.address) << ")\n";
    if (arch) out << "noc address  " << hex64(noc_address(p, *arch)) << " (" << arch_info(*arch).name << ")\n";
}

const char* kind_name(address_kind k) {
    return k == address_kind::page ? "page" : k == address_kind::padding ? "padding" : "not in the buffer";
}

}  // namespace

page_location locate_page(const distribution& d, std::uint64_t page) {
    if (page >= d.num_pages())
        throw usage_error("--page-id " + std::to_string(page) + ": past the last page; the tensor has " +
                          std::to_string(d.num_pages()) + " pages (ids 0.." +
                          (d.num_pages() ? std::to_string(d.num_pages() - 1) : std::string("none")) + ")");
    const page_layout& l = d.layout;
    const page_place<std::uint64_t> at = l.locate(page);
    page_location p;
    p.page = page;
    const shape coord = d.page_coord_of(page);
    p.coord.assign(coord.begin(), coord.end());
    p.shard = at.shard_id;
    const shape q = l.shard_coord(at.shard_id);
    p.shard_coord.assign(q.begin(), q.end());
    p.core_index = at.core;
    p.core = d.cores[at.core];
    p.slot = at.slot;
    p.in_shard_offset = at.in_shard_offset;
    p.device_offset = at.device_offset;
    p.address = d.byte_address(at.device_offset);
    return p;
}

page_location locate_coord(const distribution& d, const std::vector<std::uint64_t>& coord) {
    const shape& t = d.tensor_pages;
    if (coord.size() != t.rank())
        throw usage_error("--coord " + list_text(coord) + ": " + std::to_string(coord.size()) +
                          " dims; a page coordinate has the tensor's rank, " + std::to_string(t.rank()) + " (pages " +
                          to_string(t) + ")");
    for (std::size_t k = 0; k < coord.size(); ++k)
        if (coord[k] >= t[k])
            throw usage_error("--coord " + list_text(coord) + ": dim " + std::to_string(k) + " is " +
                              std::to_string(coord[k]) + ", past the page grid " + to_string(t) + " (0.." +
                              (t[k] ? std::to_string(t[k] - 1) : std::string("none")) + ")");
    return locate_page(d, d.page_id_of(coord));
}

address_content locate_address(const distribution& d, core_coord core, std::uint64_t address) {
    const page_layout& l = d.layout;
    address_content a;
    a.core = core;
    a.core_index = core_index_of(d, core);
    a.address = address;
    const std::uint64_t page_bytes = d.aligned_page_size;
    const std::uint64_t end = d.byte_address(d.reserved_pages_per_core());  // <= 2^32: rule address_32bit
    if (address < d.bank_base || address >= end) {
        a.reason = end == d.bank_base
                       ? std::string("the buffer is empty: the tensor has no pages")
                       : "the buffer is bytes " + std::to_string(d.bank_base) + ".." + std::to_string(end - 1) +
                             " of every core (" + std::to_string(d.reserved_pages_per_core()) + " reserved pages x " +
                             std::to_string(page_bytes) + " bytes from the bank base)";
        return a;
    }
    const std::uint64_t offset = (address - d.bank_base) / page_bytes;  // device page offset
    const std::uint64_t slot = offset / l.shard_volume;
    const auto shard = l.shard_in_slot(a.core_index, slot);
    a.kind = address_kind::padding;
    if (!shard) {
        a.reason = "slot " + std::to_string(slot) + " of core " + core_text(core) + " holds no shard: the core has " +
                   std::to_string(l.shards_on_core(a.core_index)) + " of the " + std::to_string(l.max_shards_per_core) +
                   " slots every core reserves";
        return a;
    }
    const auto page = l.page_at(a.core_index, offset);
    if (!page) {
        a.reason = "slot " + std::to_string(slot) + " holds shard " + std::to_string(*shard) +
                   ", an edge shard; its page " + std::to_string(offset % l.shard_volume) +
                   " lies past the tensor's edge";
        return a;
    }
    a.page = locate_page(d, *page);
    a.byte_in_page = address - a.page->address;
    if (a.byte_in_page >= d.page_size) {
        a.reason = "byte " + std::to_string(a.byte_in_page) + " of page " + std::to_string(*page) +
                   "'s slot is alignment padding: the page has " + std::to_string(d.page_size) + " bytes, padded to " +
                   std::to_string(page_bytes);
        return a;
    }
    a.kind = address_kind::page;
    return a;
}

address_query parse_at(std::string_view text, std::string_view what) {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos)
        throw usage_error(std::string(what) + " " + quote_value(text) +
                          ": expected X,Y:ADDR (a core and a byte address), e.g. 1,0:0x40");
    address_query q;
    q.core = parse_core(text.substr(0, colon), std::string(what) + " core");
    std::string_view addr = text.substr(colon + 1);
    while (!addr.empty() && addr.front() == ' ') addr.remove_prefix(1);
    q.address = parse_address(addr, text, what);
    return q;
}

void write_locate(const distribution& d, const locate_query& q, bool json, std::optional<tt_arch> arch,
                  std::ostream& out) {
    if (const auto* at = std::get_if<address_query>(&q)) {
        const address_content a = locate_address(d, at->core, at->address);
        if (json) {
            nlohmann::ordered_json j;
            j["core"] = {{"x", a.core.x}, {"y", a.core.y}};
            j["core_index"] = a.core_index;
            j["address"] = a.address;
            j["holds"] = a.kind == address_kind::page      ? "page"
                         : a.kind == address_kind::padding ? "padding"
                                                           : "outside";
            if (a.page) {
                j["byte_in_page"] = a.byte_in_page;
                j["location"] = location_json(*a.page, arch);
            } else {
                j["location"] = nullptr;
            }
            j["reason"] = a.reason;
            out << j.dump() << "\n";
            return;
        }
        out << "at           core " << core_text(a.core) << " (index " << a.core_index << "), address " << a.address
            << " (" << hex(a.address) << ")\n";
        out << "holds        " << kind_name(a.kind);
        if (a.page)
            out << (a.kind == address_kind::page ? " " : " in page ") << a.page->page << ", byte " << a.byte_in_page;
        if (!a.reason.empty()) out << ": " << a.reason;
        out << "\n";
        if (a.page) write_location_text(d, *a.page, arch, out);
        return;
    }
    const page_location p = std::holds_alternative<page_id_query>(q)
                                ? locate_page(d, std::get<page_id_query>(q).page)
                                : locate_coord(d, std::get<page_coord_query>(q).coord);
    if (json) out << location_json(p, arch).dump() << "\n";
    else write_location_text(d, p, arch, out);
}

}  // namespace ndshard::cli
