// Example handshake_writer (copy writer, correct): ops/copy/writer.cpp that, once its write
// barrier has seen every output write acknowledged, signals its core's reader by
// incrementing the op's semaphore (id in runtime arg [3]) through the NoC, and waits for
// that increment with an atomic barrier before it ends: the signal follows the writes it
// announces.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);
    const uint32_t done_semaphore = get_arg_val<uint32_t>(3);

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
    noc_async_write_barrier();
    noc_semaphore_inc(get_noc_addr(get_semaphore(done_semaphore)), 1);
    noc_async_atomic_barrier();
}
