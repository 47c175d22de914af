// Defect page_id_uint16: ops/copy/reader.cpp with the page id kept in a uint16_t. Past page
// 65535 the id wraps: page 65536 is read as page 0, and the output gets the tensor's first
// pages again. Right for every tensor of at most 65,536 pages, so only a case past that
// catches it (kcheck's hard class pages>65536).
// The mistake: 16-bit page or tile counters in kernels written when tensors were small (a
// uint16_t loop index, or a page id packed into 16 bits of a runtime arg).
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

    for (uint32_t i = 0; i < num_pages; ++i) {
        const uint16_t page = static_cast<uint16_t>(first_page + i);  // the mistake: 16 bits
        cb_reserve_back(cb_id, 1);
        noc_async_read_page(page, src, get_write_ptr(cb_id));
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    }
}
