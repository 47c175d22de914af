// Defect shard_pages_packed: ops/copy_shards/writer.cpp that writes a shard's i-th real page
// at slot position i of the shard (shard base + i aligned pages), as if a shard's pages were
// packed at the start of its slot. An edge shard cut in an inner dim has its real pages
// spread over the slot ([2,1] pages in a [2,2] shard: real at positions 0 and 2), so its
// second page goes into padding (position 1) and position 2 is never written.
// The mistake: sharded writers that advance an L1 write pointer page by page through a
// shard, right for full shards and for shards cut only in the outermost dim.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

template <typename Accessor, typename Visit>
void for_each_output_page(const Accessor& dst, uint32_t core, uint32_t num_cores, uint32_t num_pages,
                          uint32_t page_size, Visit&& visit) {
    if constexpr (Accessor::DSpec::is_interleaved) {
        for (uint32_t page = core; page < num_pages; page += num_cores) visit(page, dst.get_noc_addr(page));
    } else {
        const auto spec = dst.dspec();
        uint32_t num_shards = 1;
        for (uint32_t d = 0; d < spec.rank(); ++d) num_shards *= spec.shard_grid()[d];
        for (uint32_t shard = core; shard < num_shards; shard += num_cores) {
            uint32_t position = 0;
            for (const auto& page : dst.shard_pages(shard)) {
                visit(page.page_id(), dst.get_shard_noc_addr(shard, position * page_size));
                ++position;
            }
        }
    }
}

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t core = get_arg_val<uint32_t>(1);
    const uint32_t num_cores = get_arg_val<uint32_t>(2);
    const uint32_t num_pages = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    constexpr uint32_t dst_page_size = get_compile_time_arg_val(2);
    constexpr auto dst_args = TensorAccessorArgs<3, 0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, dst_page_size);

    for_each_output_page(dst, core, num_cores, num_pages, dst_page_size, [&](uint32_t, uint64_t dst_noc_addr) {
        cb_wait_front(cb_id, 1);
        noc_async_write(get_read_ptr(cb_id), dst_noc_addr, page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, 1);
    });
    noc_async_write_barrier();
}
