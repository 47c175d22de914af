// ndshard/host_mapping.hpp - the whole mapping, per core, for host-side transfers.
//
// slot_table materialises every slot (O(pages)); page_runs produces the compressed form
// directly, one run per contiguous stretch, in O(runs) time and memory. page_runs
// expands to slot_table exactly (props/iterators.cpp).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/squeeze.hpp"

namespace ndshard {

inline constexpr std::uint64_t padding_slot = std::numeric_limits<std::uint64_t>::max();

// table[core][slot-page] = page id, or padding_slot. Every core of the effective list
// has reserved_pages_per_core entries. V1: core 1 of [2,2,3]/[1,1,2] -> {2, padding}.
inline std::vector<std::vector<std::uint64_t>> slot_table(const distribution& d) {
    const page_layout& l = d.layout;
    std::vector<std::vector<std::uint64_t>> table(
        l.num_cores, std::vector<std::uint64_t>(l.reserved_pages_per_core(), padding_slot));
    for (std::uint64_t p = 0; p < l.num_pages; ++p) {
        const auto at = l.locate(p);
        table[at.core][at.device_offset] = p;
    }
    return table;
}

struct page_run {
    std::uint64_t device_offset;  // first slot, pages from the bank base
    std::uint64_t first_page;     // page id there; the run covers consecutive ids
    std::uint64_t count;
    friend constexpr bool operator==(const page_run&, const page_run&) = default;
};

// runs[core] in device order; consecutive runs never touch (they would have merged).
// [3,7,5]/[2,2,2] on 6 cores, core 0 starts {0,0,2},{2,5,2},{4,35,2},...
inline std::vector<std::vector<page_run>> page_runs(const distribution& d) {
    const page_layout l = squeeze(d.layout);  // longest rows, same mapping
    const std::size_t r = l.rank();
    std::vector<std::vector<page_run>> runs(l.num_cores);
    for (std::uint64_t core = 0; core < l.num_cores; ++core) {
        std::vector<page_run>& out = runs[core];
        for (std::uint64_t slot = 0;; ++slot) {
            const auto s = l.shard_in_slot(core, slot);
            if (!s) break;
            shape q = l.grid;
            detail::shard_coord_of(l, *s, q);
            shape limit = l.shard;
            for (std::size_t k = 0; k < r; ++k) {
                const std::uint64_t rest = l.tensor[k] - q[k] * l.shard[k];
                limit[k] = rest < l.shard[k] ? rest : l.shard[k];
            }
            // Odometer over the shard's real rows (every dim but the last).
            shape row = l.shard;
            for (std::size_t k = 0; k < r; ++k) row[k] = 0;
            for (;;) {
                std::uint64_t offset = slot * l.shard_volume, page = 0;
                for (std::size_t k = 0; k < r; ++k) {
                    offset += row[k] * l.shard_stride[k];
                    page += (q[k] * l.shard[k] + row[k]) * l.tensor_stride[k];
                }
                const std::uint64_t count = limit[r - 1];
                if (!out.empty() && out.back().device_offset + out.back().count == offset &&
                    out.back().first_page + out.back().count == page)
                    out.back().count += count;
                else out.push_back({offset, page, count});
                std::size_t k = r - 1;
                while (k-- > 0) {
                    if (++row[k] < limit[k]) break;
                    row[k] = 0;
                }
                if (k == static_cast<std::size_t>(-1)) break;
            }
        }
    }
    return runs;
}

}  // namespace ndshard
