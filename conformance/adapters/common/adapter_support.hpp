// conformance/adapters/common/adapter_support.hpp - small helpers the C++ adapters of
// this folder share: the C spec as ndshard's spec, copying a rejection reason into the
// runner's buffer, the create guard, filling locations, checking a spec's enumerators and
// the page lists' capacity. No address math.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "ndshard/conformance.h"
#include "ndshard/error.hpp"
#include "ndshard/spec.hpp"

namespace ndsc_support {

// Copies `why` into reason[0..size), always NUL-terminated, truncating when needed.
inline void write_reason(char* reason, std::size_t size, const std::string& why) {
    if (reason == nullptr || size == 0) return;
    const std::size_t n = why.size() < size - 1 ? why.size() : size - 1;
    std::memcpy(reason, why.data(), n);
    reason[n] = '\0';
}

// Leaves out->struct_size as the runner set it (conformance.h: out structs).
inline int put_location(ndsc_location* out, std::uint32_t x, std::uint32_t y, std::uint64_t address) {
    if (out == nullptr) return NDSC_OUT_OF_RANGE;
    out->core_x = x;
    out->core_y = y;
    out->address = address;
    return NDSC_OK;
}

// A spec whose enumerators this ABI version does not know, or that is shorter than the
// version-1 struct, is outside every adapter's domain.
inline bool spec_in_abi_domain(const ndsc_spec* spec) {
    if (spec == nullptr || spec->struct_size < sizeof(ndsc_spec)) return false;
    if (spec->page_kind > NDSC_ROW_MAJOR_PAGES) return false;
    if (spec->orientation > NDSC_COL_MAJOR) return false;
    if (spec->strategy > NDSC_GRID_2D) return false;
    if (spec->num_ranges > 0 && spec->ranges == nullptr) return false;
    return true;
}

// The C spec as ndshard's plain value. A rank above 8 reaches shape::push_back's own rank
// check (spec_error "rank") before any entry past the C array is read.
inline ndshard::distribution_spec to_spec(const ndsc_spec& c) {
    ndshard::distribution_spec s;
    for (std::uint32_t d = 0; d < c.rank; ++d) s.tensor.push_back(d < NDSC_MAX_RANK ? c.tensor[d] : 0);
    for (std::uint32_t d = 0; d < c.shard_rank; ++d) s.shard.push_back(d < NDSC_MAX_RANK ? c.shard[d] : 1);
    s.page.kind = c.page_kind == NDSC_PAGES  ? ndshard::page_kind::pages
                  : c.page_kind == NDSC_TILE ? ndshard::page_kind::tile
                                             : ndshard::page_kind::row_major;
    s.page.tile_h = c.tile_h;
    s.page.tile_w = c.tile_w;
    s.element_size = c.element_size;
    s.alignment = c.alignment;
    for (std::uint32_t i = 0; i < c.num_ranges; ++i)
        s.cores.push_back({{c.ranges[i].x0, c.ranges[i].y0}, {c.ranges[i].x1, c.ranges[i].y1}});
    s.orient = c.orientation == NDSC_COL_MAJOR ? ndshard::orientation::col_major : ndshard::orientation::row_major;
    s.strat = c.strategy == NDSC_CONTIGUOUS_1D ? ndshard::strategy::contiguous_1d
              : c.strategy == NDSC_GRID_2D     ? ndshard::strategy::grid_2d
                                               : ndshard::strategy::round_robin_1d;
    s.bank_base = c.bank_base;
    return s;
}

// describe() of an adapter that answers every query for every strategy, page kind and rank.
inline int describe_full_domain(ndsc_info* info, const char* name, const char* version) {
    info->abi_version = NDSC_ABI_VERSION;
    info->name = name;
    info->version = version;
    info->queries = NDSC_Q_PAGE_ID | NDSC_Q_PAGE_COORD | NDSC_Q_SHARD_PAGE | NDSC_Q_CORE_PAGES;
    info->strategies = (1u << NDSC_ROUND_ROBIN_1D) | (1u << NDSC_CONTIGUOUS_1D) | (1u << NDSC_GRID_2D);
    info->page_kinds = (1u << NDSC_PAGES) | (1u << NDSC_TILE) | (1u << NDSC_ROW_MAJOR_PAGES);
    info->min_rank = 1;
    info->max_rank = NDSC_MAX_RANK;
    return NDSC_OK;
}

// ndsc_core_pages' contract on a list already computed: copy what fits, report the size.
inline int put_pages(const std::vector<std::uint64_t>& held, std::uint64_t* pages, std::uint64_t capacity,
                     std::uint64_t* count) {
    if (count == nullptr) return NDSC_OUT_OF_RANGE;
    *count = held.size();
    if (held.size() > capacity) return NDSC_BUFFER_TOO_SMALL;
    if (!held.empty() && pages == nullptr) return NDSC_OUT_OF_RANGE;
    for (std::size_t i = 0; i < held.size(); ++i) pages[i] = held[i];
    return NDSC_OK;
}

// ndsc_create's contract around a builder that may throw: a spec_error's message becomes
// the rejection reason (NDSC_REJECTED); running out of memory is NDSC_UNSUPPORTED.
template <class Build>
int create_or_reject(char* reason, std::size_t reason_size, Build&& build) {
    try {
        return build();
    } catch (const ndshard::spec_error& e) {
        write_reason(reason, reason_size, e.what());
        return NDSC_REJECTED;
    } catch (const std::bad_alloc&) {
        write_reason(reason, reason_size, "out of memory");
        return NDSC_UNSUPPORTED;
    }
}

// ndsc_thread_pages' contract on a walk: walk(put) calls put(location) for each page in
// the thread's order and returns a status. The first `capacity` locations are written,
// *count gets how many there are.
template <class Walk>
int put_page_locations(ndsc_page_location* pages, std::uint64_t capacity, std::uint64_t* count, Walk&& walk) {
    std::uint64_t held = 0;
    const int status = walk([&](const ndsc_page_location& at) {
        if (held < capacity && pages != nullptr) pages[held] = at;
        ++held;
    });
    if (status != NDSC_OK) return status;
    *count = held;
    if (held > capacity) return NDSC_BUFFER_TOO_SMALL;
    return held > 0 && pages == nullptr ? NDSC_OUT_OF_RANGE : NDSC_OK;
}

}  // namespace ndsc_support
