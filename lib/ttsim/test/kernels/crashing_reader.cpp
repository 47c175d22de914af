// A reader that dereferences an address outside L1 (a wild pointer): the case's process
// dies, and kcheck reports the case, not itself.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    volatile uint32_t* wild =
        reinterpret_cast<volatile uint32_t*>(static_cast<uintptr_t>(get_arg_val<uint32_t>(0) & 0xFU));
    *wild = 1;
}
