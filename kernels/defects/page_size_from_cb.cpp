// Defect page_size_from_cb: ops/copy/writer.cpp that builds its accessor with the CB's tile
// size, get_tile_size(cb), as the page size: the bytes of one page of the CB's format, not
// the output buffer's aligned page size. The accessor then strides the bank by the unaligned
// size, so wherever the alignment pads a page, page k lands inside page k - 1's slot or gap.
// The mistake: tt-metal's own copy writer takes its page size from get_tile_size(cb); that is
// right for the transfer size and wrong for the address stride of a padded buffer.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    const uint32_t tile_bytes = get_tile_size(cb_id);
    constexpr auto dst_args = TensorAccessorArgs<3, 0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, tile_bytes);

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_wait_front(cb_id, 1);
        noc_async_write_page(page, dst, get_read_ptr(cb_id), page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, 1);
    }
    noc_async_write_barrier();
}
