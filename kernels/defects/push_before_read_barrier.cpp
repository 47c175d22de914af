// Defect push_before_read_barrier: ops/copy/reader.cpp that pushes the CB page as soon as its
// read is issued and waits for the read afterwards. The writer may take the page (and write
// it out) before the read has landed in it.
// The mistake: cb_push_back before noc_async_read_barrier, the commonest ordering slip in
// reader kernels; on hardware it passes until the NoC is busy.
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
        cb_push_back(cb_id, 1);
        noc_async_read_barrier();
    }
}
