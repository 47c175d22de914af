// copy writer (riscv_1, NoC 1): output pages [first, first + count) from the circular
// buffer, in page id order. Also the writer of permute: any op whose reader pushes its
// output pages in id order.
//
// Each write moves the page's bytes only, not the alignment gap after it (that gap, like
// a padding slot, is never the kernel's to write). The CB page is released once the
// write has left L1 (flushed); the last writes are waited for before the kernel ends.
//
// compile-time args: [0] CB id, [1] page bytes, [2] the output's aligned page size,
//                    [3..] the output's TensorAccessorArgs
// common runtime args: the output's accessor words (from 0)
// runtime args: [0] the output's bank base address, [1] first page, [2] page count
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

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_wait_front(cb_id, 1);
        noc_async_write_page(page, dst, get_read_ptr(cb_id), page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, 1);
    }
    noc_async_write_barrier();
}
