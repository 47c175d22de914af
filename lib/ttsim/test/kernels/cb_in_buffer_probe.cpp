// Prints where circular buffer 0 is and the first word of its first page, which a sharded
// op's reader announces without moving a byte (the CB's memory is the buffer's shard).
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr uint32_t cb = 0;
    cb_reserve_back(cb, 1);
    const uint32_t at = get_write_ptr(cb);
    cb_push_back(cb, 1);
    cb_wait_front(cb, 1);
    const uint32_t word = *reinterpret_cast<volatile uint32_t*>(get_read_ptr(cb));
    DPRINT << "cb 0 at " << at << ", first word " << word << ENDL();
    cb_pop_front(cb, 1);
}
