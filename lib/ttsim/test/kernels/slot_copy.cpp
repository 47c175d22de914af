// tt-metal's copy-via-bank-base pattern: this core's whole range of one buffer (every shard
// slot, padding and alignment gaps included) written to the same range of another buffer
// laid out alike, in one NoC write from L1 to L1.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t bank = get_arg_val<uint32_t>(0);
    const uint32_t src_base = get_arg_val<uint32_t>(1);
    const uint32_t dst_base = get_arg_val<uint32_t>(2);
    const uint32_t bytes = get_arg_val<uint32_t>(3);
    noc_async_write(src_base, get_noc_addr_from_bank_id<false>(bank, dst_base), bytes);
    noc_async_write_barrier();
}
