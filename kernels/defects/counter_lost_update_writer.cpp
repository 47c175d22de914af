// Defect counter_lost_update (writer): ops/copy/writer.cpp that counts its pages in the L1
// word its reader counts in too (the op's semaphore, id in runtime arg [3]), then waits
// until the word says both kernels did every page (2 x its page count) before it ends, as a
// kernel does before it tells another core the data is complete. See
// counter_lost_update_reader.cpp: with one update lost, the wait never ends (on hardware, a
// hang). The two kernels interleave differently from run to run; kcheck --schedules tries
// several interleavings of each case.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);
    const uint32_t count_semaphore = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    constexpr uint32_t dst_page_size = get_compile_time_arg_val(2);
    constexpr auto dst_args = TensorAccessorArgs<3, 0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, dst_page_size);
    volatile tt_l1_ptr uint32_t* count = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(count_semaphore));

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_wait_front(cb_id, 1);
        const uint32_t seen = *count;
        noc_async_write_page(page, dst, get_read_ptr(cb_id), page_bytes);
        noc_async_writes_flushed();
        *count = seen + 1;
        cb_pop_front(cb_id, 1);
    }
    noc_async_write_barrier();
    noc_semaphore_wait(count, 2 * num_pages);
}
