// Defect read_size_in_words: ops/copy/reader.cpp that passes the page's size in 32-bit words
// where noc_async_read takes bytes: a quarter of each page is read, the rest of the circular
// buffer slot is never written, and the writer sends the whole page on.
// The mistake: a size computed as a count of elements (page_bytes / sizeof(uint32_t)) given
// to a call that takes bytes.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    constexpr uint32_t src_page_size = get_compile_time_arg_val(2);
    constexpr auto src_args = TensorAccessorArgs<3, 0>();
    const auto src = TensorAccessor(src_args, src_addr, src_page_size);
    constexpr uint32_t page_words = page_bytes / sizeof(uint32_t);

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_reserve_back(cb_id, 1);
        noc_async_read(src.get_noc_addr(page), get_write_ptr(cb_id), page_words);
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    }
}
