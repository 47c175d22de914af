// A test implementation of ndshard/conformance.h built on the oracle, for the runner's own
// tests. NDSC_TESTIMPL_DEFECT (read at every ndsc_create) plants one defect:
//   col_major_ignored   orientation treated as row_major
//   contiguous_as_rr    contiguous_1d dealt round robin
//   wrap32              addresses past 2^32 accepted and wrapped
//   dedup_cores         a core listed twice silently kept once
//   accept_invalid      every spec accepted (invalid ones answer page 0's location... of nothing)
//   iter_skip_last      ndsc_core_pages leaves out each core's last page
//   crash               SIGSEGV in ndsc_locate_page on page 3 of a spec with 2+ cores
//   hang                ndsc_locate_page never returns for page 5
// It leaves out the version-2 queries (ndsc_page_run, ndsc_thread_pages): their laws report
// themselves unavailable. NDSC_TESTIMPL_DESCRIBE (read by ndsc_describe) misdeclares them:
//   v1_page_run         abi_version 1 with NDSC_Q_PAGE_RUN (a bit of version 2)
//   v2_thread_pages     abi_version 2 with NDSC_Q_THREAD_PAGES, whose symbol is not exported
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/conformance.h"

namespace {

using ndshard::oracle::big;
namespace oracle = ndshard::oracle;

std::string defect() {
    const char* d = std::getenv("NDSC_TESTIMPL_DEFECT");
    return d ? d : "";
}

}  // namespace

struct ndsc_handle {
    oracle::model m;
    std::string defect;
    big wrap_base = 0;  // wrap32: the base added modulo 2^32
    bool grid_2d = false;
    ndsc_core_range range{};  // grid_2d: the one range (its cores trimmed off the grid hold no page)
};

namespace {

void fill(ndsc_location* out, const oracle::core_xy& core, const big& address) {
    out->core_x = static_cast<std::uint32_t>(core.x);
    out->core_y = static_cast<std::uint32_t>(core.y);
    out->address = static_cast<std::uint64_t>(address);
}

big adjust(const ndsc_handle* h, const big& address) {
    if (h->defect != "wrap32") return address;
    return (address + h->wrap_base) % (big(1) << 32);
}

}  // namespace

extern "C" {

NDSC_EXPORT int ndsc_describe(ndsc_info* info) {
    info->abi_version = NDSC_ABI_VERSION;
    info->name = "conform-testimpl";
    info->version = "1";
    info->queries = NDSC_Q_PAGE_ID | NDSC_Q_PAGE_COORD | NDSC_Q_SHARD_PAGE | NDSC_Q_CORE_PAGES;
    info->strategies = 0x7;
    info->page_kinds = 0x7;
    info->min_rank = 1;
    info->max_rank = NDSC_MAX_RANK;
    const char* describe = std::getenv("NDSC_TESTIMPL_DESCRIBE");
    const std::string how = describe ? describe : "";
    if (how == "v1_page_run") {
        info->abi_version = 1;
        info->queries |= NDSC_Q_PAGE_RUN;
    } else if (how == "v2_thread_pages") {
        info->queries |= NDSC_Q_THREAD_PAGES;
    }
    return NDSC_OK;
}

NDSC_EXPORT int ndsc_create(const ndsc_spec* spec, ndsc_handle** out, char* reason, size_t reason_size) {
    const std::string d = defect();
    oracle::spec s;
    for (std::uint32_t i = 0; i < spec->rank && i < NDSC_MAX_RANK; ++i) s.tensor.emplace_back(spec->tensor[i]);
    for (std::uint32_t i = 0; i < spec->shard_rank && i < NDSC_MAX_RANK; ++i) s.shard.emplace_back(spec->shard[i]);
    s.page = spec->page_kind == NDSC_TILE              ? oracle::page_kind::tile
             : spec->page_kind == NDSC_ROW_MAJOR_PAGES ? oracle::page_kind::row_major
                                                       : oracle::page_kind::pages;
    s.tile_h = spec->tile_h;
    s.tile_w = spec->tile_w;
    s.element_size = spec->element_size;
    s.alignment = spec->alignment;
    s.orient = spec->orientation == NDSC_COL_MAJOR && d != "col_major_ignored" ? oracle::orientation::col_major
                                                                               : oracle::orientation::row_major;
    s.strat = spec->strategy == NDSC_GRID_2D                                    ? oracle::strategy::grid_2d
              : spec->strategy == NDSC_CONTIGUOUS_1D && d != "contiguous_as_rr" ? oracle::strategy::contiguous_1d
                                                                                : oracle::strategy::round_robin_1d;
    s.bank_base = spec->bank_base;
    std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
    for (std::uint32_t i = 0; i < spec->num_ranges; ++i) {
        const ndsc_core_range& r = spec->ranges[i];
        if (d == "dedup_cores" && r.x0 == r.x1 && r.y0 == r.y1 && !seen.insert({r.x0, r.y0}).second) continue;
        if (d == "dedup_cores") seen.insert({r.x0, r.y0});
        s.cores.push_back({r.x0, r.y0, r.x1, r.y1});
    }
    auto handle = new ndsc_handle;
    handle->defect = d;
    if (spec->strategy == NDSC_GRID_2D && spec->num_ranges == 1) {
        handle->grid_2d = true;
        handle->range = spec->ranges[0];
    }
    try {
        oracle::verdict v = oracle::evaluate(s);
        if (!v.accepted && d == "wrap32" && v.rule == "address_32bit") {
            handle->wrap_base = s.bank_base;
            s.bank_base = 0;
            v = oracle::evaluate(s);
        }
        if (!v.accepted && d == "accept_invalid") {
            oracle::spec tiny;
            tiny.tensor = {1};
            tiny.shard = {1};
            tiny.cores = {{0, 0, 0, 0}};
            v = oracle::evaluate(tiny);
        }
        if (!v.accepted) {
            std::snprintf(reason, reason_size, "%s", v.message.c_str());
            delete handle;
            return NDSC_REJECTED;
        }
        handle->m = std::move(*v.accepted);
    } catch (const std::exception& e) {
        std::snprintf(reason, reason_size, "%s", e.what());
        delete handle;
        return NDSC_REJECTED;
    }
    *out = handle;
    return NDSC_OK;
}

NDSC_EXPORT void ndsc_destroy(ndsc_handle* h) { delete h; }

NDSC_EXPORT int ndsc_locate_page(const ndsc_handle* h, uint64_t page_id, ndsc_location* out) {
    if (big(page_id) >= h->m.num_pages) return NDSC_OUT_OF_RANGE;
    if (h->defect == "crash" && page_id == 3 && h->m.cores.size() > 1) {
        volatile int* nowhere = nullptr;
        *nowhere = 1;
    }
    if (h->defect == "hang" && page_id == 5) {
        volatile int spin = 0;
        for (;;) spin = spin + 1;
    }
    const oracle::location l = oracle::locate(h->m, big(page_id));
    fill(out, l.core, adjust(h, l.byte_address));
    return NDSC_OK;
}

NDSC_EXPORT int ndsc_locate_coord(const ndsc_handle* h, const uint64_t* coord, uint32_t rank, ndsc_location* out) {
    if (rank != h->m.tensor_pages.size()) return NDSC_OUT_OF_RANGE;
    std::vector<big> c;
    for (uint32_t d = 0; d < rank; ++d) {
        if (big(coord[d]) >= h->m.tensor_pages[d]) return NDSC_OUT_OF_RANGE;
        c.emplace_back(coord[d]);
    }
    const oracle::location l = oracle::locate(h->m, c);
    fill(out, l.core, adjust(h, l.byte_address));
    return NDSC_OK;
}

NDSC_EXPORT int ndsc_locate_shard_page(const ndsc_handle* h, uint64_t shard_id, uint64_t page_in_shard,
                                       ndsc_location* out) {
    if (big(shard_id) >= h->m.num_shards || big(page_in_shard) >= h->m.shard_volume) return NDSC_OUT_OF_RANGE;
    const oracle::shard_home home = oracle::shard_location(h->m, big(shard_id));
    fill(out, home.core, adjust(h, home.byte_address + big(page_in_shard) * h->m.aligned_page_size));
    return NDSC_OK;
}

NDSC_EXPORT int ndsc_core_pages(const ndsc_handle* h, uint32_t core_x, uint32_t core_y, uint64_t* pages,
                                uint64_t capacity, uint64_t* count) {
    for (std::size_t i = 0; i < h->m.cores.size(); ++i) {
        if (h->m.cores[i].x != core_x || h->m.cores[i].y != core_y) continue;
        std::vector<big> local = oracle::local_pages(h->m, big(i));
        if (h->defect == "iter_skip_last" && !local.empty()) local.pop_back();
        *count = local.size();
        if (local.size() > capacity) return NDSC_BUFFER_TOO_SMALL;
        for (std::size_t j = 0; j < local.size(); ++j) pages[j] = static_cast<std::uint64_t>(local[j]);
        return NDSC_OK;
    }
    const ndsc_core_range& r = h->range;
    if (h->grid_2d && core_x >= r.x0 && core_x <= r.x1 && core_y >= r.y0 && core_y <= r.y1) {
        *count = 0;
        return NDSC_OK;
    }
    return NDSC_OUT_OF_RANGE;
}

}  // extern "C"
