// Defect read_barrier_wrong_noc: ops/copy/reader.cpp whose reads name NoC 1 explicitly while
// its barrier takes the default, this kernel's NoC (0 on riscv_0). A barrier waits only for
// the transactions of its own NoC, so every page is pushed with its read still in flight.
// The mistake: a `noc` argument kept from a kernel that ran on the other RISC (or put there
// to balance traffic over both NoCs), without passing the same NoC to the barrier.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t src_page_size = get_compile_time_arg_val(2);
    constexpr uint8_t read_noc = 1;
    constexpr auto src_args = TensorAccessorArgs<3, 0>();
    const auto src = TensorAccessor(src_args, src_addr, src_page_size);

    for (uint32_t page = first_page; page < first_page + num_pages; ++page) {
        cb_reserve_back(cb_id, 1);
        noc_async_read_page(page, src, get_write_ptr(cb_id), 0, read_noc);
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    }
}
