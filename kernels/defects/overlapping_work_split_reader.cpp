// Defect overlapping_work_split (copy reader, with overlapping_work_split_writer.cpp): each
// core but the first also takes the page before its range, [first - 1, first + count): the
// last page of the core before it.
// The mistake: a work split whose ranges overlap by one (an inclusive start computed from
// the previous core's end): two cores write the same output page with nothing ordering
// them. Here both write the same bytes, so the output is right: only the race shows it.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t src_page_size = get_compile_time_arg_val(2);
    constexpr auto src_args = TensorAccessorArgs<3, 0>();
    const auto src = TensorAccessor(src_args, src_addr, src_page_size);

    for (uint32_t page = first_page == 0 ? 0 : first_page - 1; page < first_page + num_pages; ++page) {
        cb_reserve_back(cb_id, 1);
        noc_async_read_page(page, src, get_write_ptr(cb_id));
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    }
}
