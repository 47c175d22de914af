// shard_walk.h - the order copy_shards' reader and writer agree on: core k of n takes the
// output's shards k, k + n, k + 2n, ... of the whole shard grid (vol(grid) shards, edge
// shards included), and within a shard its real pages in slot order; an interleaved output
// (no shard grid) its pages k, k + n, ... . Written only against tt-metal's TensorAccessor.
#pragma once

#include <cstdint>

// Calls visit(page id, NoC address of the page in `dst`) for each page of that sequence.
template <typename Accessor, typename Visit>
void for_each_output_page(const Accessor& dst, uint32_t core, uint32_t num_cores, uint32_t num_pages, Visit&& visit) {
    if constexpr (Accessor::DSpec::is_interleaved) {
        for (uint32_t page = core; page < num_pages; page += num_cores) visit(page, dst.get_noc_addr(page));
    } else {
        const auto spec = dst.dspec();
        uint32_t num_shards = 1;
        for (uint32_t d = 0; d < spec.rank(); ++d) num_shards *= spec.shard_grid()[d];
        for (uint32_t shard = core; shard < num_shards; shard += num_cores) {
            for (const auto& page : dst.shard_pages(shard)) visit(page.page_id(), page.noc_addr());
        }
    }
}
