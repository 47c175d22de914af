// ndshard/sim/op.hpp - an op named by a string, run on the device or by the dense oracle.
//
//   "reshard", "eltwise_add", "reduce_sum:D", "permute:a,b,c"
//
// One description serves every user of the simulator (tools, tests, fuzz targets): the
// same op runs as a kernel (run_op) and as the oracle (oracle_op).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ndshard/sim/dense.hpp"
#include "ndshard/sim/device.hpp"

namespace ndshard::sim {

enum class op_kind : std::uint8_t { reshard, eltwise_add, reduce_sum, permute };

struct op_spec {
    op_kind kind = op_kind::reshard;
    std::size_t dim = 0;             // reduce_sum
    std::vector<std::size_t> order;  // permute
    friend bool operator==(const op_spec&, const op_spec&) = default;
};

// "reduce_sum:0" -> {reduce_sum, dim 0}. op_error for anything else, e.g.
// "unknown op 'sum' (expected reshard, eltwise_add, reduce_sum:D or permute:a,b,...)".
op_spec parse_op(std::string_view text);
// The inverse: to_string(parse_op(s)) == s for every canonical s.
std::string to_string(const op_spec& op);
// Inputs the op takes: 2 for eltwise_add, else 1.
std::size_t arity(op_kind kind) noexcept;

// The output page grid for inputs of grid `in` ([2,3,4] reduce_sum:1 -> [2,4]; rank 1
// keeps its dim). op_error when the op does not apply (dim out of range, bad order).
shape output_pages(const op_spec& op, const shape& in);
// True when the op can produce page grid `out` from `in`: output_pages(op, in), or for
// reduce_sum also `in` with the dim kept as 1 ([2,3,4] reduce_sum:1 -> [2,1,4]). False
// when the op does not apply to `in` at all.
bool produces(const op_spec& op, const shape& in, const shape& out);
// op_error unless produces(op, in, out), naming what the op would give.
void check_output_pages(const op_spec& op, const shape& in, const shape& out);

// Runs the op's kernel: op_error for a wrong number of inputs or mismatched buffers.
traffic_stats run_op(device& dev, const op_spec& op, std::span<const buffer_id> inputs, buffer_id out,
                     std::uint64_t seed = 0);

// The dense oracle's answer, shaped like `out_pages` (which decides keep_dim for
// reduce_sum). op_error when the inputs do not fit the op.
dense_tensor oracle_op(const op_spec& op, std::span<const dense_tensor> inputs, const shape& out_pages);

}  // namespace ndshard::sim
