// Defect missing_final_write_barrier: ops/copy/writer.cpp without the noc_async_write_barrier
// after its loop. Each page is flushed (its source has left L1, so popping the CB page is
// safe), but a flush says nothing about the write having arrived: the kernel ends with its
// last writes unacknowledged.
// The mistake: taking noc_async_writes_flushed for a barrier; on tt-metal the next program
// (or the host) may read the output before the writes land, and debug builds assert that
// the NoC is idle when a kernel ends.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    constexpr uint32_t dst_page_size = get_compile_time_arg_val(2);
    constexpr auto dst_args = TensorAccessorArgs<3, 0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, dst_page_size);

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_wait_front(cb_id, 1);
        noc_async_write_page(page, dst, get_read_ptr(cb_id), page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, 1);
    }
}
