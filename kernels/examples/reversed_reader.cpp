// Example reversed_reader (copy reader, correct): ops/copy/reader.cpp walking its pages from
// the last to the first; reversed_writer.cpp writes them in the same order.
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

    for (uint32_t i = num_pages; i > 0; --i) {
        cb_reserve_back(cb_id, 1);
        noc_async_read_page(first_page + i - 1, src, get_write_ptr(cb_id));
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    }
}
