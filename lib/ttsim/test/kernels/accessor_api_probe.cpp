// tt-metal's accessor calls as a kernel writes them, printed: contiguous_page_stride() and
// num_contiguous_pages(page, end) of a sharded accessor (built by the older names
// make_tensor_accessor_args / make_tensor_accessor_from_args) and an interleaved one, each
// run checked against get_noc_addr; the older one-argument form; and the shards of
// StridedShardPages(accessor, first, total, stride), its type deduced, its NoC defaulted.
#include "accessor/sharded_accessor.h"
#include "api/dataflow/dataflow_api.h"

template <class Accessor>
void print_run(const Accessor& a, uint32_t page, uint32_t end) {
    const uint32_t stride = a.contiguous_page_stride();
    const uint32_t run = a.num_contiguous_pages(page, end);
    for (uint32_t k = 0; k < run; ++k) {
        ASSERT(a.get_noc_addr(page + k * stride) == a.get_noc_addr(page) + uint64_t{k} * a.get_aligned_page_size());
    }
    DPRINT << "run " << page << " " << end << ": " << run << " stride " << stride << ENDL();
}

void kernel_main() {
    const uint32_t sharded_base = get_arg_val<uint32_t>(0);
    const uint32_t interleaved_base = get_arg_val<uint32_t>(1);
    const uint32_t num_shards = get_arg_val<uint32_t>(2);
    constexpr auto sharded_args = make_tensor_accessor_args<0>();
    constexpr auto interleaved_args = TensorAccessorArgs<sharded_args.next_compile_time_args_offset()>();
    const auto sharded = make_tensor_accessor_from_args(sharded_args, sharded_base);
    const auto interleaved = TensorAccessor(interleaved_args, interleaved_base);

    print_run(sharded, 0, 24);
    print_run(sharded, 0, 13);
    print_run(sharded, 7, 24);
    DPRINT << "one-argument run of page 0: " << sharded.num_contiguous_pages(0) << ENDL();
    print_run(interleaved, 1, 24);
    print_run(interleaved, 1, 6);

    uint32_t shards = 0, pages = 0;
    for (const auto& shard : tensor_accessor::StridedShardPages(sharded, 0, num_shards, 2)) {
        ++shards;
        for (const auto& page : shard) {
            ASSERT(page.get_noc_addr() == sharded.get_noc_addr(page.page_id()));
            ++pages;
        }
    }
    DPRINT << "strided shards " << shards << " pages " << pages << ENDL();
}
