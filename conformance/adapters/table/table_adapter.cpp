// ndsc_table: a deliberately simple second implementation of the conformance C ABI.
//
// ndsc_create evaluates the spec with the naive oracle (lib/oracle: unbounded integers,
// docs/rules.md in table order) and, when accepted, asks it for the whole slot table
// (oracle::slot_table) and every shard's home (oracle::shard_location). Every query is
// then a lookup in those tables; nothing here computes a placement.
//
// Domain: everything the ABI can carry. Acceptance and rejection come from the oracle
// for every spec. An accepted spec is tabulated when its slot table (effective cores x
// reserved pages per core) has at most kMaxSlots entries - every spec the laws walk page
// by page is that small. ndsc_info (ABI v1) cannot declare a size limit, and the runner
// counts NDSC_UNSUPPORTED for a spec inside the declared domain as a failure, so a larger
// accepted spec (the address-limit law's huge pages and shards) is answered by the
// oracle's direct functions instead (oracle::locate, shard_location, local_pages).
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "adapter_support.hpp"
#include "ndshard/conformance.h"
#include "ndshard/oracle/oracle.hpp"

namespace {

namespace oracle = ndshard::oracle;
constexpr std::uint64_t kMaxSlots = std::uint64_t{1} << 16;

std::uint64_t u64(const oracle::big& v) { return v.convert_to<std::uint64_t>(); }

struct slot_ref {
    std::uint32_t core;    // index into the effective core list
    std::uint64_t offset;  // device page offset in that core
};

}  // namespace

struct ndsc_handle {
    std::vector<std::uint64_t> tensor_pages;       // page grid in the tensor's rank
    std::vector<std::uint32_t> core_x, core_y;     // effective core list
    std::vector<std::vector<std::uint64_t>> held;  // per core: real pages in slot order
    std::vector<slot_ref> page_home;               // per page id
    std::vector<slot_ref> shard_home;              // per shard id: its first slot
    std::uint64_t shard_volume = 0;
    std::uint64_t aligned_page_size = 0;
    std::uint64_t bank_base = 0;
    bool grid_2d = false;
    ndsc_core_range listed{};                      // grid_2d: the one range given (trimmed cores hold nothing)
    std::optional<ndshard::oracle::model> direct;  // set instead of the tables above kMaxSlots

    [[nodiscard]] std::uint64_t address(std::uint64_t offset) const { return bank_base + offset * aligned_page_size; }
};

namespace {

oracle::spec to_oracle(const ndsc_spec& c) {
    oracle::spec s;
    // A rank above 8 is rejected by the oracle's rank rule; entries past the C array are not read.
    for (std::uint32_t d = 0; d < c.rank; ++d) s.tensor.emplace_back(d < NDSC_MAX_RANK ? c.tensor[d] : 0);
    for (std::uint32_t d = 0; d < c.shard_rank; ++d) s.shard.emplace_back(d < NDSC_MAX_RANK ? c.shard[d] : 1);
    s.page = c.page_kind == NDSC_TILE              ? oracle::page_kind::tile
             : c.page_kind == NDSC_ROW_MAJOR_PAGES ? oracle::page_kind::row_major
                                                   : oracle::page_kind::pages;
    s.tile_h = c.tile_h;
    s.tile_w = c.tile_w;
    s.element_size = c.element_size;
    s.alignment = c.alignment;
    for (std::uint32_t i = 0; i < c.num_ranges; ++i)
        s.cores.push_back({c.ranges[i].x0, c.ranges[i].y0, c.ranges[i].x1, c.ranges[i].y1});
    s.orient = c.orientation == NDSC_COL_MAJOR ? oracle::orientation::col_major : oracle::orientation::row_major;
    s.strat = c.strategy == NDSC_CONTIGUOUS_1D ? oracle::strategy::contiguous_1d
              : c.strategy == NDSC_GRID_2D     ? oracle::strategy::grid_2d
                                               : oracle::strategy::round_robin_1d;
    s.bank_base = c.bank_base;
    return s;
}

// The tables of an accepted model that fits kMaxSlots.
void fill(ndsc_handle& h, const oracle::model& m) {
    for (const oracle::big& d : m.tensor_pages) h.tensor_pages.push_back(u64(d));
    for (const oracle::core_xy& c : m.cores) {
        h.core_x.push_back(static_cast<std::uint32_t>(u64(c.x)));
        h.core_y.push_back(static_cast<std::uint32_t>(u64(c.y)));
    }
    h.shard_volume = u64(m.shard_volume);
    h.aligned_page_size = u64(m.aligned_page_size);
    h.bank_base = u64(m.bank_base);
    h.page_home.assign(u64(m.num_pages), slot_ref{0, 0});
    h.held.resize(m.cores.size());
    const auto table = oracle::slot_table(m);
    for (std::size_t core = 0; core < table.size(); ++core)
        for (std::size_t offset = 0; offset < table[core].size(); ++offset)
            if (const auto& page = table[core][offset]) {
                h.page_home.at(u64(*page)) = {static_cast<std::uint32_t>(core), offset};
                h.held[core].push_back(u64(*page));
            }
    for (oracle::big s = 0; s < m.num_shards; ++s) {
        const oracle::shard_home home = oracle::shard_location(m, s);
        h.shard_home.push_back({static_cast<std::uint32_t>(u64(home.core_index)), u64(home.device_offset)});
    }
}

}  // namespace

extern "C" {

NDSC_EXPORT int ndsc_describe(ndsc_info* info) {
    return ndsc_support::describe_full_domain(info, "ndshard-oracle-table", "0.1.0");
}

NDSC_EXPORT int ndsc_create(const ndsc_spec* spec, ndsc_handle** out, char* reason, size_t reason_size) {
    if (out == nullptr || !ndsc_support::spec_in_abi_domain(spec)) return NDSC_UNSUPPORTED;
    try {
        const oracle::verdict v = oracle::evaluate(to_oracle(*spec));
        if (!v.accepted) {
            ndsc_support::write_reason(reason, reason_size, v.message + " [rule " + v.rule + "]");
            return NDSC_REJECTED;
        }
        const oracle::model& m = *v.accepted;
        auto h = std::make_unique<ndsc_handle>();
        if (oracle::big(m.cores.size()) * m.reserved_pages_per_core > kMaxSlots) {
            for (const oracle::big& d : m.tensor_pages) h->tensor_pages.push_back(u64(d));
            for (const oracle::core_xy& c : m.cores) {
                h->core_x.push_back(static_cast<std::uint32_t>(u64(c.x)));
                h->core_y.push_back(static_cast<std::uint32_t>(u64(c.y)));
            }
            h->direct = m;
        } else {
            fill(*h, m);
        }
        if (spec->strategy == NDSC_GRID_2D) {
            h->grid_2d = true;
            h->listed = spec->ranges[0];
        }
        *out = h.release();
        return NDSC_OK;
    } catch (const std::exception& e) {
        ndsc_support::write_reason(reason, reason_size, std::string("table adapter: ") + e.what());
        return NDSC_UNSUPPORTED;
    }
}

NDSC_EXPORT void ndsc_destroy(ndsc_handle* h) { delete h; }

NDSC_EXPORT int ndsc_locate_page(const ndsc_handle* h, uint64_t page_id, ndsc_location* out) {
    if (h->direct) {
        if (page_id >= h->direct->num_pages) return NDSC_OUT_OF_RANGE;
        const oracle::location at = oracle::locate(*h->direct, oracle::big(page_id));
        return ndsc_support::put_location(out, static_cast<std::uint32_t>(u64(at.core.x)),
                                          static_cast<std::uint32_t>(u64(at.core.y)), u64(at.byte_address));
    }
    if (page_id >= h->page_home.size()) return NDSC_OUT_OF_RANGE;
    const slot_ref at = h->page_home[page_id];
    return ndsc_support::put_location(out, h->core_x[at.core], h->core_y[at.core], h->address(at.offset));
}

NDSC_EXPORT int ndsc_locate_coord(const ndsc_handle* h, const uint64_t* coord, uint32_t rank, ndsc_location* out) {
    if (coord == nullptr || rank != h->tensor_pages.size()) return NDSC_OUT_OF_RANGE;
    std::uint64_t page_id = 0;  // page ids are row-major over the page grid
    for (std::uint32_t d = 0; d < rank; ++d) {
        if (coord[d] >= h->tensor_pages[d]) return NDSC_OUT_OF_RANGE;
        page_id = page_id * h->tensor_pages[d] + coord[d];
    }
    return ndsc_locate_page(h, page_id, out);
}

NDSC_EXPORT int ndsc_locate_shard_page(const ndsc_handle* h, uint64_t shard_id, uint64_t page_in_shard,
                                       ndsc_location* out) {
    if (h->direct) {
        const oracle::model& m = *h->direct;
        if (shard_id >= m.num_shards || page_in_shard >= m.shard_volume) return NDSC_OUT_OF_RANGE;
        const oracle::shard_home home = oracle::shard_location(m, oracle::big(shard_id));
        return ndsc_support::put_location(out, static_cast<std::uint32_t>(u64(home.core.x)),
                                          static_cast<std::uint32_t>(u64(home.core.y)),
                                          u64(home.byte_address + oracle::big(page_in_shard) * m.aligned_page_size));
    }
    if (shard_id >= h->shard_home.size() || page_in_shard >= h->shard_volume) return NDSC_OUT_OF_RANGE;
    const slot_ref home = h->shard_home[shard_id];
    return ndsc_support::put_location(out, h->core_x[home.core], h->core_y[home.core],
                                      h->address(home.offset + page_in_shard));
}

NDSC_EXPORT int ndsc_core_pages(const ndsc_handle* h, uint32_t core_x, uint32_t core_y, uint64_t* pages,
                                uint64_t capacity, uint64_t* count) {
    for (std::size_t core = 0; core < h->core_x.size(); ++core)
        if (h->core_x[core] == core_x && h->core_y[core] == core_y) {
            if (!h->direct) return ndsc_support::put_pages(h->held[core], pages, capacity, count);
            try {
                std::vector<std::uint64_t> held;
                for (const oracle::big& p : oracle::local_pages(*h->direct, oracle::big(core))) held.push_back(u64(p));
                return ndsc_support::put_pages(held, pages, capacity, count);
            } catch (const std::exception&) {
                return NDSC_UNSUPPORTED;
            }
        }
    const ndsc_core_range& r = h->listed;
    if (h->grid_2d && core_x >= r.x0 && core_x <= r.x1 && core_y >= r.y0 && core_y <= r.y1)
        return ndsc_support::put_pages({}, pages, capacity, count);  // trimmed off the grid: empty
    return NDSC_OUT_OF_RANGE;
}

}  // extern "C"
