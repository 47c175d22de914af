// A copy written in tt-metal's newest kernel style (Metal 2.0): every argument by name
// (get_arg(args::...)), the tensors by binding (TensorAccessor(ta::...), and tensor::, the
// earlier spelling), the positional tail by get_vararg / get_common_vararg, a semaphore by
// sem::, a DataflowBuffer by dfb::, and DEVICE_PRINT. Pages [first_page, first_page +
// num_pages) of `in` go to `out` through circular buffer args::cb, but every zero_every-th
// page (page % zero_every == zero_every - 1) is written as zeros instead: async_write_zeros
// from a scratch DataflowBuffer zeroed by async_write_zeros itself. Then four pages of
// `marks` from get_vararg(0) get inline writes (no L1 source): word 0 by
// Noc::inline_dw_write, word 1 by noc_inline_dw_write, bytes 0 and 2 of word 2 by a
// byte-enable mask; word 3 is left alone. Last, an inline write into this core's
// semaphore, waited for.
#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/dataflow_buffer.h"
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/debug/device_print.h"
#include "api/tensor/noc_traits.h"
#include "api/tensor/tensor_accessor.h"
#include "experimental/kernel_args.h"

void kernel_main() {
    const uint32_t first = get_arg(args::first_page);
    const uint32_t count = get_arg(args::num_pages);
    const uint32_t zero_every = get_arg(args::zero_every);
    constexpr uint32_t page_bytes = get_arg(args::page_bytes);
    static_assert(page_bytes == 64, "a named compile-time argument is a constant expression");
    const uint32_t marks_first = get_vararg(0);
    const uint32_t magic = get_common_vararg(0);

    const auto in = TensorAccessor(ta::in);
    const auto out = TensorAccessor(tensor::out);
    const auto marks = TensorAccessor(ta::marks);
    Noc noc;
    CircularBuffer cb(get_arg(args::cb));
    DataflowBuffer scratch(dfb::scratch);
    ASSERT(scratch.get_entry_size() == page_bytes && scratch.get_total_num_entries() == 2);

    DEVICE_PRINT("pages {}..{}, zeros every {:#x}\n", first, first + count, zero_every);
    DEVICE_PRINT("{0:>4}|{0:<4}|{0:^5}|{0:b}|{1:.2f}|{2}|{3}|{{}}\n", 5, 1.5f, true, 'c');

    scratch.reserve_back(1);
    noc.async_write_zeros(scratch, page_bytes);
    noc.write_zeros_l1_barrier();
    scratch.push_back(1);
    scratch.wait_front(1);  // its read pointer is at the zeros now

    for (uint32_t page = first; page < first + count; ++page) {
        if (page % zero_every == zero_every - 1) {
            noc.async_write_zeros(out, page_bytes, {.page_id = page, .offset_bytes = 0}, scratch);
            continue;
        }
        cb.reserve_back(1);
        noc.async_read(in, cb, page_bytes, {.page_id = page, .offset_bytes = 0}, {.offset_bytes = 0});
        noc.async_read_barrier();
        cb.push_back(1);
        cb.wait_front(1);
        noc.async_write(cb, out, page_bytes, {.offset_bytes = 0}, {.page_id = page, .offset_bytes = 0});
        noc.async_writes_flushed();
        cb.pop_front(1);
    }

    noc.write_zeros_dram_barrier();  // the zero pages are out: the scratch may go
    scratch.pop_front(1);

    for (uint32_t m = marks_first; m < marks_first + 4; ++m) {
        noc.inline_dw_write<NocOptions::INLINE_L1>(marks, magic + m, {.page_id = m, .offset_bytes = 0});
        noc_inline_dw_write(marks.get_noc_addr(m, 4), ~m);
        noc_inline_dw_write<InlineWriteDst::L1>(marks.get_noc_addr(m, 8), 0xAABBCCDDU, 0x5);
    }
    noc.async_write_barrier();

    const uint32_t sem_addr = get_semaphore(sem::flag);
    noc_inline_dw_write(get_noc_addr(sem_addr), magic);
    noc.async_write_barrier();
    noc_semaphore_wait(reinterpret_cast<volatile tt_l1_ptr uint32_t*>(sem_addr), magic);
}
