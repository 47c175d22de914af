// Defect missing_dram_bank_offset: ops/copy/reader.cpp that builds a DRAM-sharded page's NoC
// address by hand from the accessor's bank and offset and the DRAM bank table, without adding
// that bank's bank_to_dram_offset. Right only where every bank's offset is 0.
// The mistake: DRAM addresses computed by hand from dram_bank_to_noc_xy, the way
// interleaved-era kernels did, with bank_to_dram_offset[bank] forgotten (tt-metal's own
// accessor and get_noc_addr_from_bank_id<true> add it).
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

// The page's NoC address; for a DRAM-sharded buffer built from the bank table, offset left out.
template <typename Accessor>
uint64_t page_noc_addr(const Accessor& src, uint32_t page, uint32_t bank_base, uint32_t page_size) {
    if constexpr (Accessor::DSpec::is_interleaved || !Accessor::DSpec::is_dram) {
        return src.get_noc_addr(page);
    } else {
        const auto mapping = src.get_bank_and_offset(page);
        // A DRAM bank's coordinate word carries its bank id as x.
        const uint32_t bank_id = src.dspec().packed_xy_coords()[static_cast<uint32_t>(mapping.bank_id)] >> 8;
        const uint32_t addr = bank_base + static_cast<uint32_t>(mapping.bank_page_offset) * page_size;
        return get_noc_addr_helper(dram_bank_to_noc_xy[noc_index][bank_id], addr);
    }
}

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
        noc_async_read(page_noc_addr(src, page, src_addr, src_page_size), get_write_ptr(cb_id), src_page_size);
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);
    }
}
