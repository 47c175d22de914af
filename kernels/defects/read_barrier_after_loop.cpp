// Defect read_barrier_after_loop: ops/reduce/reader.cpp with the read barrier moved out of
// the loop over the K input pages: each page is pushed right after its read is issued, and
// the reader waits for all K reads only after the last push. The writer sums pages whose
// reads have not landed.
// The mistake: batching the barrier to overlap reads (a good idea) while pushing per page
// (which then must wait): the barrier has to come before the push that publishes the page.
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
            cb_push_back(cb_id, 1);
        }
        noc_async_read_barrier();
    }
}
