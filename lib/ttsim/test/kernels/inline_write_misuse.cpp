// Inline writes done wrong (runtime argument args::mode): 0, one into a DRAM page, which
// tt-metal's inline writes cannot reach; 1, one with a byte-enable mask past its 4 bytes.
#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"
#include "experimental/kernel_args.h"

void kernel_main() {
    const auto out = TensorAccessor(ta::out);
    if (get_arg(args::mode) == 0) {
        noc_inline_dw_write(out.get_noc_addr(0), 1);
    } else {
        noc_inline_dw_write(get_noc_addr(out.get_bank_base_address()), 1, 0x1F);
    }
    noc_async_write_barrier();
}
