// ndshard/cli/sim_op.hpp - what `ndshard sim` runs: one op of lib/sim on a device sized
// for it, checked against the dense oracle.
//
//   sim_op_result run_sim_op(std::string_view op,
//                            const std::vector<ndshard::distribution_spec>& inputs,
//                            const ndshard::distribution_spec& output,
//                            std::uint32_t page_elems = 16,
//                            std::uint64_t seed = 0);
//
//   op          "reshard" | "eltwise_add" | "reduce_sum:D" | "permute:a,b,..."
//   inputs      one spec per --in (two for eltwise_add), as parsed from the JSON
//   output      the --out spec
//   page_elems  --page-elems: int32 values per page for specs in pages (page = pages);
//               a TILE spec's page is tile_h x tile_w int32, a ROW_MAJOR spec's page a
//               row of shard[-1] int32 (element_size is forced to 4 bytes). Every
//               buffer of the op must end up with the same page size.
//   seed        --seed: input data and the cores' run order
//
// The specs' bank_base is ignored (the device places buffers itself). The device has a
// worker core at every coordinate up to the largest one used, each L1 large enough for
// all buffers. Inputs get seeded random data; after the kernel, the output is read back
// and compared with the oracle, padding and alignment gaps must still hold the
// sentinel, and the inputs must be unchanged - all three make `verified`.
//
// Throws std::invalid_argument (exit 2, print what()) for a bad request: an invalid
// spec (ndshard::spec_error, the message names the rule), an unknown op, a wrong
// number of inputs, mismatched page grids or page sizes, or a request too large to
// simulate (sim::op_error). Any other exception (sim::noc_error, sim::alloc_error) is
// a bug in the library or the simulator.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ndshard/spec.hpp"

namespace ndshard::cli {

struct sim_op_result {
    std::string op;  // canonical: "reduce_sum:0"
    bool verified = false;
    std::uint64_t pages_read = 0;
    std::uint64_t pages_written = 0;
    std::uint64_t local_reads = 0;
    std::uint64_t remote_reads = 0;
    std::uint64_t bytes_read = 0;
    std::uint64_t bytes_written = 0;
    std::uint64_t hops = 0;
    std::string detail;  // why not verified (not part of the JSON); empty when verified
};

// The most the simulator will materialise for one request (bytes over all banks).
inline constexpr std::uint64_t sim_memory_limit = std::uint64_t{1} << 28;

sim_op_result run_sim_op(std::string_view op, const std::vector<distribution_spec>& inputs,
                         const distribution_spec& output, std::uint32_t page_elems = 16, std::uint64_t seed = 0);

// The one-line JSON object of the command's contract, keys in this order:
// {"op":"reshard","verified":true,"pages_read":..,"pages_written":..,"local_reads":..,
//  "remote_reads":..,"bytes_read":..,"bytes_written":..,"hops":..}
std::string to_json(const sim_op_result& r);

}  // namespace ndshard::cli
