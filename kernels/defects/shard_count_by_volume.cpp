// Defect shard_count_by_volume: ops/copy_shards/writer.cpp that counts the shards as
// ceil(pages / shard volume) instead of the volume of the shard grid. With edge shards the
// grid has more shards than that ([3,3] pages in [2,2] shards: 4 shards, ceil(9/4) = 3; [2,1]
// pages in [1,2] shards: 2 shards, ceil(2/2) = 1), so the last shards are never written:
// their pages stay in the CB, or fill it and block the reader.
// The mistake: tt-metal's published strided_shard_pages() counts shards this way (its
// comment says the ceiling is safe); kernels that walk shards by hand copy the formula.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

template <typename Accessor, typename Visit>
void for_each_output_page(const Accessor& dst, uint32_t core, uint32_t num_cores, uint32_t num_pages, Visit&& visit) {
    if constexpr (Accessor::DSpec::is_interleaved) {
        for (uint32_t page = core; page < num_pages; page += num_cores) visit(page, dst.get_noc_addr(page));
    } else {
        const auto spec = dst.dspec();
        const uint32_t num_shards = (spec.tensor_volume() + spec.shard_volume() - 1) / spec.shard_volume();
        for (uint32_t shard = core; shard < num_shards; shard += num_cores) {
            for (const auto& page : dst.shard_pages(shard)) visit(page.page_id(), page.noc_addr());
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

    for_each_output_page(dst, core, num_cores, num_pages, [&](uint32_t, uint64_t dst_noc_addr) {
        cb_wait_front(cb_id, 1);
        noc_async_write(get_read_ptr(cb_id), dst_noc_addr, page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, 1);
    });
    noc_async_write_barrier();
}
