// Defect permute_output_strides: ops/permute/reader.cpp that takes the input page strides
// from the output page grid instead of the input's. Right whenever the two grids have the
// same row-major strides (an identity order, or [2,2] transposed); [2,3] transposed reads
// output page 1 = (0,1) from input page 2 (strides [2,1] of [3,2]) instead of 3.
// The mistake: one shape's strides used for the other's coordinates, the classic permute
// and transpose bug.
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

    // The output grid, then (wrongly) row-major strides of the output grid, taken per input dim.
    std::array<uint32_t, rank> out_pages{};
    for (uint32_t i = 0; i < rank; ++i) out_pages[i] = in_pages[order[i]];
    std::array<uint32_t, rank> in_stride{};
    uint32_t stride = 1;
    for (uint32_t d = rank; d-- > 0;) {
        in_stride[d] = stride;
        stride *= out_pages[d];
    }
    std::array<uint32_t, rank> step{};
    for (uint32_t i = 0; i < rank; ++i) step[i] = in_stride[order[i]];

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
