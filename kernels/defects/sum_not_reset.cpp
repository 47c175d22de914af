// Defect sum_not_reset: ops/reduce/writer.cpp that zeroes its running sum once, before the
// first output page, instead of before each: output page n gets the sum of pages 0..n's
// input pages. Right when a core writes a single output page.
// The mistake: accumulator initialisation hoisted out of the loop over outputs.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_in = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    constexpr uint32_t dst_page_size = get_compile_time_arg_val(2);
    constexpr uint32_t cb_sum = get_compile_time_arg_val(3);
    const uint32_t reduced = get_arg_val<uint32_t>(3);  // K
    constexpr uint32_t page_elems = page_bytes / sizeof(uint32_t);
    constexpr auto dst_args = TensorAccessorArgs<4, 0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, dst_page_size);

    cb_reserve_back(cb_sum, 1);
    const uint32_t sum_addr = get_write_ptr(cb_sum);
    volatile tt_l1_ptr uint32_t* sum = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sum_addr);

    for (uint32_t e = 0; e < page_elems; ++e) sum[e] = 0;
    for (uint32_t out_page = first_page; out_page < first_page + num_pages; ++out_page) {
        for (uint32_t k = 0; k < reduced; ++k) {
            cb_wait_front(cb_in, 1);
            volatile tt_l1_ptr uint32_t* in = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_read_ptr(cb_in));
            for (uint32_t e = 0; e < page_elems; ++e) sum[e] = sum[e] + in[e];
            cb_pop_front(cb_in, 1);
        }
        noc_async_write(sum_addr, dst.get_noc_addr(out_page), page_bytes);
        noc_async_writes_flushed();
    }
    noc_async_write_barrier();
}
