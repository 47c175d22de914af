// Defect pair_wait_one: ops/copy/writer.cpp changed to write its pages two at a time (two
// writes, one flush, one pop of two) that still waits for one page before each pair. The
// second write reads the next CB slot whether or not the reader has filled it: on the first
// pair that slot has never been written.
// The mistake: a block size changed in the pop and the writes but not in the wait. (The
// slots are taken to be the output's aligned page apart, as they are when both tensors
// have the same aligned page.)
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
    const uint32_t end = first_page + num_pages;

    for (uint32_t page = first_page; page < end; page += 2) {
        const uint32_t block = end - page < 2 ? end - page : 2;
        cb_wait_front(cb_id, 1);
        const uint32_t l1 = get_read_ptr(cb_id);
        for (uint32_t i = 0; i < block; ++i) noc_async_write_page(page + i, dst, l1 + i * dst_page_size, page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, block);
    }
    noc_async_write_barrier();
}
