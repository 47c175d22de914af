// cb_in_shard writer: waits for the core's slots of the CB that is the input's shard memory,
// then writes each real page of the shards held here from its slot (the page's offset in the
// input's bytes on this core) to the output page of the same id.
//
// compile-time args: [0] CB id, [1] page bytes, [2] the input's and [3] the output's aligned
//                    page size, [4..] the input's TensorAccessorArgs, then the output's
// common runtime args: the input's accessor words, then the output's
// runtime args: [0] the input's and [1] the output's bank base address, [2] the slot count
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t slots = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    constexpr auto src_args = TensorAccessorArgs<4, 0>();
    const auto dst_args =
        TensorAccessorArgs<src_args.next_compile_time_args_offset()>(src_args.next_common_runtime_args_offset());
    const auto src = TensorAccessor(src_args, src_addr, get_compile_time_arg_val(2));
    const auto dst = TensorAccessor(dst_args, dst_addr, get_compile_time_arg_val(3));

    cb_wait_front(cb_id, slots);
    const uint32_t cb_base = get_read_ptr(cb_id);
    const auto spec = src.dspec();
    uint32_t num_shards = 1;
    for (uint32_t d = 0; d < spec.rank(); ++d) num_shards *= spec.shard_grid()[d];
    for (uint32_t shard = 0; shard < num_shards; ++shard) {
        for (const auto& page : src.shard_pages(shard)) {
            if (!src.is_local_addr(page.noc_addr())) break;  // the shard is on another core
            const uint32_t offset = NOC_LOCAL_ADDR_OFFSET(page.noc_addr()) - src_addr;
            noc_async_write(cb_base + offset, dst.get_noc_addr(page.page_id()), page_bytes);
        }
    }
    noc_async_write_barrier();
    cb_pop_front(cb_id, slots);
}
