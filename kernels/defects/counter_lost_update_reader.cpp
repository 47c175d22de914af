// Defect counter_lost_update (reader): ops/copy/reader.cpp that also counts its pages in a
// word of L1 shared with the writer of its core (the op's semaphore, id in runtime arg [3]):
// it loads the count, reads the page, and stores the count plus one. See
// counter_lost_update_writer.cpp, which counts its pages in the same word.
// The mistake: a read-modify-write of shared L1 by two RISCs with NoC calls between the load
// and the store. BRISC and NCRISC run at once, so one's update can overwrite the other's and
// a count is lost; whether it is depends on how the two interleave (kcheck --schedules).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);
    const uint32_t count_semaphore = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t src_page_size = get_compile_time_arg_val(2);
    constexpr auto src_args = TensorAccessorArgs<3, 0>();
    const auto src = TensorAccessor(src_args, src_addr, src_page_size);
    volatile tt_l1_ptr uint32_t* count = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(count_semaphore));

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_reserve_back(cb_id, 1);
        const uint32_t seen = *count;
        noc_async_read_page(page, src, get_write_ptr(cb_id));
        noc_async_read_barrier();
        *count = seen + 1;
        cb_push_back(cb_id, 1);
    }
}
