// conformance/adapters/common/adapter_support.hpp - small helpers the C++ adapters of
// this folder share: copying a rejection reason into the runner's buffer, filling a
// location, checking a spec's enumerators and core-pages capacity. No address math.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ndshard/conformance.h"

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

}  // namespace ndsc_support
