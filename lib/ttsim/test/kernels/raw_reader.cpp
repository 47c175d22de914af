// A reader that reads where it is told, not through an accessor: `count` 64-byte pages
// from L1 bank `bank` at `addr`, `addr + stride`, ... into circular buffer 0 (a kernel
// that computed its source address wrong, e.g. into a padding slot of its input).
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t bank = get_arg_val<uint32_t>(0);
    const uint32_t addr = get_arg_val<uint32_t>(1);
    const uint32_t stride = get_arg_val<uint32_t>(2);
    const uint32_t count = get_arg_val<uint32_t>(3);
    constexpr uint32_t cb = get_compile_time_arg_val(0);
    for (uint32_t i = 0; i < count; ++i) {
        cb_reserve_back(cb, 1);
        noc_async_read(get_noc_addr_from_bank_id<false>(bank, addr + i * stride), get_write_ptr(cb), 64);
        noc_async_read_barrier();
        cb_push_back(cb, 1);
    }
}
