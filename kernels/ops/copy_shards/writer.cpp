// copy_shards writer (riscv_1, NoC 1): the output shards k, k + n, k + 2n, ... of core k of
// n, each shard's real pages in slot order, written where the shard's page iterator says
// (an interleaved output: its pages k, k + n, ...; shard_walk.h). The reader pushes the
// same sequence.
//
// compile-time args: [0] CB id, [1] page bytes, [2] the output's aligned page size,
//                    [3..] the output's TensorAccessorArgs
// common runtime args: the output's accessor words (from 0)
// runtime args: [0] the output's bank base address, [1] this core's index k, [2] the number
//               of cores n, [3] the number of pages
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"
#include "shard_walk.h"

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
