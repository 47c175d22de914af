// Writes without an L1 source done wrong (runtime argument args::mode): 0, an inline write
// into a DRAM page, which tt-metal's inline writes cannot reach; 1, one with a byte-enable
// mask past its 4 bytes; 2, zeros into a circular buffer pushed before
// write_zeros_l1_barrier, so before they land. With BAD_PRINT defined, a DEVICE_PRINT with
// more placeholders than arguments, which must not compile.
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/noc.h"
#include "api/debug/device_print.h"
#include "api/tensor/tensor_accessor.h"
#include "experimental/kernel_args.h"

void kernel_main() {
    const auto out = TensorAccessor(ta::out);
    const uint32_t mode = get_arg(args::mode);
    if (mode == 0) {
        noc_inline_dw_write(out.get_noc_addr(0), 1);
    } else if (mode == 1) {
        noc_inline_dw_write(get_noc_addr(out.get_bank_base_address()), 1, 0x1F);
    } else {
        Noc noc;
        DataflowBuffer scratch(dfb::scratch);
        scratch.reserve_back(1);
        noc.async_write_zeros(scratch, scratch.get_entry_size());
        scratch.push_back(1);
        noc.write_zeros_l1_barrier();
    }
#ifdef BAD_PRINT
    DEVICE_PRINT("{} of {}\n", mode);
#endif
    noc_async_write_barrier();
}
