// Defect overlapping_work_split (copy writer, with overlapping_work_split_reader.cpp): each
// core but the first also writes the page before its range, which the core before it
// writes too: a race on that page.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    constexpr uint32_t dst_page_size = get_compile_time_arg_val(2);
    constexpr auto dst_args = TensorAccessorArgs<3, 0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, dst_page_size);

    for (uint32_t page = first_page == 0 ? 0 : first_page - 1; page < first_page + num_pages; ++page) {
        cb_wait_front(cb_id, 1);
        noc_async_write_page(page, dst, get_read_ptr(cb_id), page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, 1);
    }
    noc_async_write_barrier();
}
