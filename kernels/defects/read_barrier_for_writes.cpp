// Defect read_barrier_for_writes: ops/copy/writer.cpp with noc_async_read_barrier where the
// write flush and the final write barrier belong. It waits for reads this kernel never issued,
// so each CB page is popped (and refilled by the reader) while its write may still be reading
// it, and the kernel ends with its writes unflushed.
// The mistake: a barrier copied from a reader kernel; on hardware the writes usually finish
// anyway, until the next op starts early or the reader overwrites a page in flight.
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
        noc_async_read_barrier();
        cb_pop_front(cb_id, 1);
    }
    noc_async_read_barrier();
}
