// copy reader (riscv_0, NoC 0): input pages [first, first + count) into the circular buffer,
// one page at a time in page id order, each pushed once its read has landed.
//
// compile-time args: [0] CB id, [1] page bytes, [2] the input's aligned page size,
//                    [3..] the input's TensorAccessorArgs
// common runtime args: the input's accessor words (from 0)
// runtime args: [0] the input's bank base address, [1] first page, [2] page count
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

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_reserve_back(cb_id, 1);
        noc_async_read_page(page, src, get_write_ptr(cb_id));
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    }
}
