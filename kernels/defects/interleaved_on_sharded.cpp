// Defect interleaved_on_sharded: ops/copy/reader.cpp that addresses the input through an
// InterleavedAddrGen, i.e. page i in bank i % B at row i / B of the device's bank table,
// whatever the buffer's distribution says. Right for an interleaved input only; a sharded
// input's pages are read from the wrong bank and offset.
// The mistake: a reader written before TensorAccessor (page ids "as if interleaved") reused
// for a sharded tensor; the accessor arguments are still passed and ignored.
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
    const InterleavedAddrGen<src_args.is_dram> src = {.bank_base_address = src_addr, .page_size = src_page_size};

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_reserve_back(cb_id, 1);
        noc_async_read(src.get_noc_addr(page), get_write_ptr(cb_id), src_page_size);
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    }
}
