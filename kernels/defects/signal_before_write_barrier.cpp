// Defect signal_before_write_barrier: ops/copy/writer.cpp that tells its core "the output is
// written" (noc_semaphore_inc of the op's semaphore, id in runtime arg [3]) right after its
// loop, on NoC 0, before its write barrier. The writes went out on NoC 1 (the writer's own):
// nothing orders the signal after them, so a consumer woken by it may read output pages
// whose writes have not landed.
// The mistake: a signal sent before the write barrier of the writes it announces, on another
// NoC (a helper written for the reader's NoC); on the same NoC and virtual channel the NoC
// would deliver them in order.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);
    const uint32_t done_semaphore = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    constexpr uint32_t dst_page_size = get_compile_time_arg_val(2);
    constexpr auto dst_args = TensorAccessorArgs<3, 0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, dst_page_size);

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_wait_front(cb_id, 1);
        noc_async_write_page(page, dst, get_read_ptr(cb_id), page_bytes);
        noc_async_writes_flushed();
        cb_pop_front(cb_id, 1);
    }
    constexpr uint8_t reader_noc = 0;
    noc_semaphore_inc(get_noc_addr(get_semaphore(done_semaphore), reader_noc), 1, reader_noc);
    noc_async_write_barrier();
    noc_async_atomic_barrier(reader_noc);
}
