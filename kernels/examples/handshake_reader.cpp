// Example handshake_reader (copy reader, correct): ops/copy/reader.cpp that, after pushing
// its pages, waits until the writer of its core says every output write has landed (the
// op's semaphore, id in runtime arg [3], reaches 1). See handshake_writer.cpp.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);
    const uint32_t done_semaphore = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t src_page_size = get_compile_time_arg_val(2);
    constexpr auto src_args = TensorAccessorArgs<3, 0>();
    const auto src = TensorAccessor(src_args, src_addr, src_page_size);

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_reserve_back(cb_id, 1);
        noc_async_read_page(page, src, get_write_ptr(cb_id));
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    }
    volatile tt_l1_ptr uint32_t* done = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore(done_semaphore));
    noc_semaphore_wait(done, 1);
}
