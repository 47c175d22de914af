// copy_shards reader (riscv_0, NoC 0): the pages of the output shards this core writes, in
// the order its writer writes them, read from the input page of the same id.
//
// Core k of n takes the output's shards k, k + n, k + 2n, ... of the whole shard grid, and
// within a shard its real pages in slot order (an edge shard's padding slots are skipped).
// An interleaved output has no shard grid: its pages k, k + n, ... instead (shard_walk.h).
// The reader walks exactly the writer's sequence, so it needs the output's accessor too.
//
// compile-time args: [0] CB id, [1] page bytes, [2] the input's aligned page size,
//                    [3] the output's aligned page size, [4..] the input's
//                    TensorAccessorArgs, then the output's
// common runtime args: the input's accessor words, then the output's
// runtime args: [0] the input's bank base address, [1] the output's, [2] this core's index
//               k, [3] the number of cores n, [4] the number of pages
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"
#include "shard_walk.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t core = get_arg_val<uint32_t>(2);
    const uint32_t num_cores = get_arg_val<uint32_t>(3);
    const uint32_t num_pages = get_arg_val<uint32_t>(4);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t src_page_size = get_compile_time_arg_val(2);
    constexpr uint32_t dst_page_size = get_compile_time_arg_val(3);
    constexpr auto src_args = TensorAccessorArgs<4, 0>();
    const auto dst_args =
        TensorAccessorArgs<src_args.next_compile_time_args_offset()>(src_args.next_common_runtime_args_offset());
    const auto src = TensorAccessor(src_args, src_addr, src_page_size);
    const auto dst = TensorAccessor(dst_args, dst_addr, dst_page_size);

    for_each_output_page(dst, core, num_cores, num_pages, [&](uint32_t page, uint64_t) {
        cb_reserve_back(cb_id, 1);
        noc_async_read_page(page, src, get_write_ptr(cb_id));
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    });
}
