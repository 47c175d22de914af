// A copy through circular buffer 0 written with tt-metal's NoC and circular buffer objects
// (Device 2.0): page by page (runtime arg mode 0: pages [first, end) step `step`), read as
// a TensorAccessor page into the CB and written out as the Page the output's iterator
// yields; or shard by shard (mode 1: shards first, first + step, ... below end), each whole
// shard slot read into the CB and written into the same shard of the output; or (mode 2)
// those shards written from the input's own slots on this core, no CB. Both spellings
// of the objects and their option parameters; the multicast forms are compiled, not run.
#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/tensor/noc_traits.h"
#include "experimental/circular_buffer.h"
#include "experimental/noc.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t mode = get_arg_val<uint32_t>(2);
    const uint32_t first = get_arg_val<uint32_t>(3);
    const uint32_t end = get_arg_val<uint32_t>(4);
    const uint32_t step = get_arg_val<uint32_t>(5);
    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t page_bytes = get_compile_time_arg_val(1);
    constexpr auto src_args = TensorAccessorArgs<2>();
    constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    const auto src = TensorAccessor(src_args, src_addr);
    const auto dst = TensorAccessor(dst_args, dst_addr);

    if (mode == 0) {
        Noc noc;
        CircularBuffer cb(cb_id);
        auto out = dst.pages(first, end).begin();
        for (uint32_t page = first; page < end; page += step, ++out) {
            cb.reserve_back(1);
            noc.async_read(src, cb, page_bytes, {.page_id = page}, {.offset_bytes = 0});
            noc.async_read_barrier<experimental::Noc::BarrierMode::FULL>();
            cb.push_back(1);
            cb.wait_front(1);
            noc.async_write<NocOptions::DEFAULT, NOC_MAX_BURST_SIZE + 1>(
                use<CircularBuffer::AddrSelector::READ_PTR>(cb), *out, page_bytes, {}, {});
            noc.async_writes_flushed();
            cb.pop_front(1);
        }
        noc.async_write_barrier();
    } else if (mode == 1) {
        experimental::Noc noc(noc_index);
        experimental::CircularBuffer cb(cb_id);
        for (uint32_t shard = first; shard < end; shard += step) {
            cb.reserve_back(1);
            noc.async_read_shard(src, cb, {shard}, {});
            noc.async_read_barrier();
            cb.push_back(1);
            cb.wait_front(1);
            noc.async_write_shard<experimental::Noc::TxnIdMode::DISABLED>(
                cb, dst, {}, experimental::Noc::shard_args_t<decltype(dst)>{shard});
            noc.async_writes_flushed();
            cb.pop_front(1);
        }
        noc.async_write_barrier();
    } else if (mode == 2) {  // straight from this core's shards of the input, no CB
        Noc noc;
        for (uint32_t shard = first; shard < end; shard += step) {
            noc.async_write_shard(src, dst, Noc::shard_args_t<decltype(src)>{shard}, {shard});
        }
        noc.async_write_barrier();
    } else {  // never run: the multicast forms compile
        Noc noc;
        CircularBuffer cb(cb_id);
        noc.async_write_multicast<NocOptions::MCAST_INCL_SRC>(cb, cb, page_bytes, 2, {}, {0, 0, 1, 0, 0});
        noc.async_write_multicast<experimental::Noc::McastMode::EXCLUDE_SRC>(cb, cb, page_bytes, 1, {}, {1, 0, 1, 0});
        noc.async_write_barrier();
    }
}
