// Example two_pages_per_barrier_writer (copy writer, correct): ops/copy/writer.cpp that waits
// for write acknowledgements only every second page and once at the end. Pages are popped
// after their flush (the source has left L1); the barrier every two pages bounds the writes
// in flight and the last one makes sure none is in flight when the kernel ends.
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

    for (uint32_t i = 0; i < num_pages; ++i) {
        cb_wait_front(cb_id, 1);
        noc_async_write_page(first_page + i, dst, get_read_ptr(cb_id), page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, 1);
        if (i % 2 == 1) noc_async_write_barrier();
    }
    noc_async_write_barrier();
}
