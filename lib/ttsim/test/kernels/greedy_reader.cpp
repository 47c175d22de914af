// A reader that waits for its own page before it pushes it: with the writer waiting for
// that page too, nobody can go on.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr uint32_t cb = get_compile_time_arg_val(0);
    cb_reserve_back(cb, 1);
    cb_wait_front(cb, 1);
    cb_push_back(cb, 1);
}
