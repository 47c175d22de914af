// Defect grid2d_row_major_cores: ops/copy/reader.cpp that finds a page's bank and offset with
// the accessor but computes the bank's core itself, taking the banks to be a row-major walk
// of a rectangle: w = the number of banks in the first bank's row, and bank b at
// (x0 + b % w, y0 + b / w) from the first bank's core (x0, y0). True of a row_major core
// range (BLOCK / grid_2d sharding included); false for col_major orientation, where grid_2d
// puts shard (i, j) on (x0 + i, y0 + j), and for core lists of several ranges. DRAM inputs
// still go through the accessor.
// The mistake: legacy block-sharded kernels that derive a shard's core from its grid position
// and the grid's origin instead of reading the bank coordinates the arguments carry.
#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

// The page's NoC address, its bank's core computed as described above.
template <typename Accessor>
uint64_t page_noc_addr(const Accessor& src, uint32_t page, uint32_t bank_base, uint32_t page_size) {
    if constexpr (Accessor::DSpec::is_interleaved || Accessor::DSpec::is_dram) {
        return src.get_noc_addr(page);
    } else {
        const auto banks = src.dspec().packed_xy_coords();  // (x << 8) | y
        const uint32_t num_banks = src.dspec().num_banks();
        const uint32_t x0 = banks[0] >> 8, y0 = banks[0] & 0xFF;
        uint32_t width = 1;
        while (width < num_banks && (banks[width] & 0xFF) == y0) ++width;
        const auto mapping = src.get_bank_and_offset(page);
        const uint32_t bank = static_cast<uint32_t>(mapping.bank_id);
        const uint32_t offset = static_cast<uint32_t>(mapping.bank_page_offset);
        return get_noc_addr(x0 + bank % width, y0 + bank / width, bank_base + offset * page_size);
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
