// A tt-metal reader as kernel writers write it: pages [start, start + count) of the input,
// one at a time, into circular buffer 0.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t start = get_arg_val<uint32_t>(1);
    const uint32_t count = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb = get_compile_time_arg_val(0);
    constexpr auto args = TensorAccessorArgs<1>();
    const auto src = TensorAccessor(args, src_addr);
    for (uint32_t i = start; i < start + count; ++i) {
        cb_reserve_back(cb, 1);
        noc_async_read_page(i, src, get_write_ptr(cb));
        noc_async_read_barrier();
        cb_push_back(cb, 1);
    }
}
