// Defect semaphore_never_set: ops/copy/writer.cpp that first waits for a "ready" semaphore
// on its core to reach 1. Nobody sets it: copy's reader has no such handshake. The op gives
// the kernel a semaphore (initially 0) and its id as runtime arg [3].
// The mistake: a writer taken from a variant of the op whose reader (or a sender core)
// signals a semaphore, launched with a reader that does not; on hardware, a hang.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);
    const uint32_t ready_semaphore = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    constexpr uint32_t dst_page_size = get_compile_time_arg_val(2);
    constexpr auto dst_args = TensorAccessorArgs<3, 0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, dst_page_size);

    volatile tt_l1_ptr uint32_t* ready = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(ready_semaphore));
    noc_semaphore_wait(ready, 1);

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_wait_front(cb_id, 1);
        noc_async_write_page(page, dst, get_read_ptr(cb_id), page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, 1);
    }
    noc_async_write_barrier();
}
