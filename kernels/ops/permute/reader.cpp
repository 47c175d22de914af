// permute reader (riscv_0, NoC 0): output pages [first, first + count) in page id order,
// each read from the input page it comes from. Output dim i is input dim order[i], so the
// output page at coordinate c is the input page whose dim order[i] is c[i]: its id is
// sum over i of c[i] * (input stride of dim order[i]). The reader walks the output
// coordinates like an odometer (last dim fastest) and keeps the input id in step; the
// writer is copy's, which writes pages in output id order.
//
// compile-time args: [0] CB id, [1] page bytes, [2] the input's aligned page size,
//                    [3] rank r, [4, 4 + r) the order, [4 + r ..] the input's
//                    TensorAccessorArgs
// common runtime args: the input's accessor words (from 0)
// runtime args: [0] the input's bank base address, [1] first output page, [2] page count,
//               [3, 3 + r) the input page grid (runtime: one compiled reader per order)
#include <array>
#include <cstdint>
#include <utility>

#include "api/dataflow/dataflow_api.h"
#include "api/tensor/tensor_accessor.h"

// Compile-time args [First, First + N) as an array.
template <uint32_t First, uint32_t... I>
constexpr std::array<uint32_t, sizeof...(I)> compile_time_words(std::integer_sequence<uint32_t, I...>) {
    return {{get_compile_time_arg_val(First + I)...}};
}

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t first_page = get_arg_val<uint32_t>(1);
    const uint32_t num_pages = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_id = get_compile_time_arg_val(0);
    constexpr uint32_t src_page_size = get_compile_time_arg_val(2);
    constexpr uint32_t rank = get_compile_time_arg_val(3);
    constexpr auto order = compile_time_words<4>(std::make_integer_sequence<uint32_t, rank>());
    constexpr auto src_args = TensorAccessorArgs<4 + rank, 0>();
    std::array<uint32_t, rank> in_pages{};
    for (uint32_t d = 0; d < rank; ++d) in_pages[d] = get_arg_val<uint32_t>(3 + d);
    const auto src = TensorAccessor(src_args, src_addr, src_page_size);

    // Row-major strides of the input grid, then per output dim its extent and input stride.
    std::array<uint32_t, rank> in_stride{};
    uint32_t stride = 1;
    for (uint32_t d = rank; d-- > 0;) {
        in_stride[d] = stride;
        stride *= in_pages[d];
    }
    std::array<uint32_t, rank> out_pages{};
    std::array<uint32_t, rank> step{};
    for (uint32_t i = 0; i < rank; ++i) {
        out_pages[i] = in_pages[order[i]];
        step[i] = in_stride[order[i]];
    }

    // The first output page's coordinate and the input page it reads.
    std::array<uint32_t, rank> coord{};
    uint32_t in_page = 0;
    for (uint32_t i = rank, rest = first_page; i-- > 0;) {
        coord[i] = rest % out_pages[i];
        rest /= out_pages[i];
        in_page += coord[i] * step[i];
    }

    for (uint32_t n = 0; n < num_pages; ++n) {
        cb_reserve_back(cb_id, 1);
        noc_async_read_page(in_page, src, get_write_ptr(cb_id));
        noc_async_read_barrier();
        cb_push_back(cb_id, 1);

        // The next output page: the odometer turns, the input id follows.
        for (uint32_t i = rank; i-- > 0;) {
            in_page += step[i];
            if (++coord[i] < out_pages[i]) break;
            in_page -= coord[i] * step[i];
            coord[i] = 0;
        }
    }
}
