// Defect skip_every_second_shard: ops/copy_shards/writer.cpp whose shard walk steps by 2n
// instead of n: core k writes shards k, k + 2n, ... and nobody writes the shards between.
// It still takes its pages from the CB in the reader's order, so the shards it does write
// get the skipped shards' data, and the pages left over stay in the CB (or, when they are
// more than it holds, block the reader).
// The mistake: a walk written for two data-movement RISCs sharing the shards (k * 2 + riscv,
// stride 2n) launched as the only writer, or a stride doubled by a loop that also advances
// its index.
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
        for (uint32_t shard = core; shard < num_shards; shard += 2 * num_cores) {
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
