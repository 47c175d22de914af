// Defect start_id_off_by_one: ops/copy/reader.cpp that counts its pages from 1: it reads
// pages first + 1 .. first + count, so every core reads its neighbour's first page instead of
// its own first page, and the last core reads one page past the tensor. Every output page
// gets the next page's data.
// The mistake: start ids that disagree by one between the host's work split and the kernel
// (a 1-based loop, or an exclusive start taken as inclusive).
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

    for (uint32_t page = first_page + 1; page <= first_page + num_pages; ++page) {
        cb_reserve_back(cb_id, 1);
        noc_async_read_page(page, src, get_write_ptr(cb_id));
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    }
}
