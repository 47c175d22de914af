// cb_in_shard reader: the CB is the input's shard memory on this core
// (set_globally_allocated_address), so its pages are there already: it reserves and pushes
// the core's slots, reading nothing.
//
// compile-time args: [0] CB id
// runtime args: [0] the number of slots (this core's shards times the shard volume)
#include <cstdint>

#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t slots = get_arg_val<uint32_t>(0);
    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    cb_reserve_back(cb_id, slots);
    cb_push_back(cb_id, slots);
}
