// The writer of copy_reader.cpp: pages out of circular buffer 0 into the output.
#include "dataflow_api.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t start = get_arg_val<uint32_t>(1);
    const uint32_t count = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb = get_compile_time_arg_val(0);
    constexpr auto args = TensorAccessorArgs<1>();
    const auto dst = TensorAccessor(args, dst_addr);
    for (uint32_t i = start; i < start + count; ++i) {
        cb_wait_front(cb, 1);
        noc_async_write(get_read_ptr(cb), get_noc_addr(i, dst), dst.get_aligned_page_size());
        noc_async_writes_flushed();
        cb_pop_front(cb, 1);
    }
    noc_async_write_barrier();
}
