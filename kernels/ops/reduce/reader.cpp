// reduce reader (riscv_0, NoC 0): for each output page of [first, first + count), the K
// input pages summed into it, pushed one at a time in order k = 0..K-1.
//
// Output page o of a sum over input dim d: with inner = the product of the input dims
// after d, its K input pages are (o / inner) * K * inner + o % inner + k * inner.
// [2,3,4] over dim 1: K = 3, inner = 4; output page 5 = (1,1) sums input pages 13, 17, 21.
//
// compile-time args: [0] CB id, [1] page bytes, [2] the input's aligned page size (the CB's
//                    page size), [3..] the input's TensorAccessorArgs
// common runtime args: the input's accessor words (from 0)
// runtime args: [0] the input's bank base address, [1] first output page, [2] output page
//               count, [3] K, [4] inner (runtime, so one compiled reader serves every shape)
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t src_page_size = get_compile_time_arg_val(2);
    const uint32_t reduced = get_arg_val<uint32_t>(3);  // K
    const uint32_t inner = get_arg_val<uint32_t>(4);
    constexpr auto src_args = TensorAccessorArgs<3, 0>();
    const auto src = TensorAccessor(src_args, src_addr, src_page_size);

    for (uint32_t out_page = first_page; out_page < first_page + num_pages; ++out_page) {
        uint32_t in_page = (out_page / inner) * reduced * inner + out_page % inner;
        for (uint32_t k = 0; k < reduced; ++k, in_page += inner) {
            cb_reserve_back(cb_id, 1);
            noc_async_read_page(in_page, src, get_write_ptr(cb_id));
            noc_async_read_barrier();
            cb_push_back(cb_id, 1);
        }
    }
}
