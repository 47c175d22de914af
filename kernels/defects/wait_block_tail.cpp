// Defect wait_block_tail: ops/copy/writer.cpp that waits for its pages two at a time (the
// CB's whole depth) and writes and pops them one by one. When a core's page count is odd,
// the last wait asks for two pages and the reader only ever pushes one: the writer waits
// forever after the reader has finished.
// The mistake: a block size that does not divide the work, with no short last block; on
// hardware the op hangs on the cores with an odd count.
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
    constexpr uint32_t block = 2;
    constexpr auto dst_args = TensorAccessorArgs<3, 0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, dst_page_size);

    const uint32_t end_page = first_page + num_pages;
    for (uint32_t page = first_page; page < end_page; page += block) {
        cb_wait_front(cb_id, block);
        for (uint32_t i = 0; i < block && page + i < end_page; ++i) {
            noc_async_write_page(page + i, dst, get_read_ptr(cb_id), page_bytes);
            noc_async_writes_flushed();
            cb_pop_front(cb_id, 1);
        }
    }
    noc_async_write_barrier();
}
