// Defect reserve_beyond_cb: ops/reduce/reader.cpp that reserves all K input pages of an
// output page at once, reads them side by side and pushes them together. The CB holds two
// pages, so for K > 2 the reservation can never be granted: on hardware cb_reserve_back
// spins forever; the simulator refuses a reservation larger than the CB.
// The mistake: a CB sized for double buffering while the kernel's block grew with the shape
// (here K, the extent of the reduced dim).
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
        cb_reserve_back(cb_id, reduced);
        uint32_t l1_addr = get_write_ptr(cb_id);
        for (uint32_t k = 0; k < reduced; ++k, in_page += inner, l1_addr += src_page_size) {
            noc_async_read_page(in_page, src, l1_addr);
        }
        noc_async_read_barrier();
        cb_push_back(cb_id, reduced);
    }
}
