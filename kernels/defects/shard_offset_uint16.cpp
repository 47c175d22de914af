// Defect shard_offset_uint16: ops/copy_shards/writer.cpp that addresses each page of a shard
// as the shard's base plus the page's byte offset in the shard, the offset kept in a
// uint16_t. In a shard of more than 64 KiB the offsets past 65535 wrap, and those pages are
// written over the shard's first ones. Right for every shard of at most 64 KiB (interleaved
// outputs too: one-page shards), so only a case past that catches it (kcheck's hard class
// shard>64KiB).
// The mistake: 16-bit address offsets in kernels written for small shards (an L1 offset
// packed into 16 bits of a runtime arg, or a uint16_t running offset).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

template <typename Accessor, typename Visit>
void for_each_output_page(const Accessor& dst, uint32_t core, uint32_t num_cores, uint32_t num_pages, Visit&& visit) {
    if constexpr (Accessor::DSpec::is_interleaved) {
        for (uint32_t page = core; page < num_pages; page += num_cores) visit(page, dst.get_noc_addr(page));
    } else {
        const auto spec = dst.dspec();
        uint32_t num_shards = 1;
        for (uint32_t d = 0; d < spec.rank(); ++d) num_shards *= spec.shard_grid()[d];
        for (uint32_t shard = core; shard < num_shards; shard += num_cores) {
            const uint64_t base = dst.get_shard_noc_addr(shard);
            for (const auto& page : dst.shard_pages(shard)) {
                const uint16_t offset = static_cast<uint16_t>(page.noc_addr() - base);  // the mistake: 16 bits
                visit(page.page_id(), dst.get_shard_noc_addr(shard, offset));
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

    for_each_output_page(dst, core, num_cores, num_pages, [&](uint32_t, uint64_t dst_noc_addr) {
        cb_wait_front(cb_id, 1);
        noc_async_write(get_read_ptr(cb_id), dst_noc_addr, page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, 1);
    });
    noc_async_write_barrier();
}
