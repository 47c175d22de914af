// fuzz_kernel: bytes -> an op, two or three distributions and a run on the simulated
// device, compared with the dense oracle.
//
// The bytes drive sim::run_scenario (lib/sim: draws one op - reshard, eltwise_add,
// reduce_sum or permute - a page grid of rank 1..8, the input and output distributions
// of every family, the data; runs the kernel on a device whose every NoC access is
// bounds-checked; compares with the dense oracle, the inputs and the padding sentinels)
// through byte_entropy. A finding is: a failure it reports, any exception (a noc_error
// is address math gone wrong; scenarios are drawn to fit the device, so an alloc_error
// is one too), or traffic that does not add up - every output page written once, every
// input page read once per output page that needs it, local + remote = all.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <string>

#include <ndshard/ndshard.hpp>
#include <ndshard/sim/error.hpp>
#include <ndshard/sim/op.hpp>
#include <ndshard/sim/scenario.hpp>
#include <ndshard/testkit/entropy.hpp>

#include "fuzz_common.hpp"

namespace {

using namespace ndshard;
using namespace ndshard::sim;

constexpr std::uint64_t max_pages = 96;

std::string describe_run(const scenario_outcome& r) {
    std::string s = to_string(r.op);
    for (const drawn_spec& d : r.inputs)
        s += "\n  in  [" + std::string(to_string(d.family)) + " " + to_string(d.memory) + "] " + fuzz::describe(d.spec);
    s += "\n  out [" + std::string(to_string(r.output.family)) + " " + to_string(r.output.memory) + "] " +
         fuzz::describe(r.output.spec);
    return s;
}

void check_traffic(const scenario_outcome& r) {
    const traffic_stats& t = r.traffic;
    // Specs of the scenario are in pages: their tensor is the page grid.
    const std::uint64_t out_pages = volume_of(r.output.spec.tensor);
    const std::uint64_t in_pages = volume_of(r.inputs.front().spec.tensor);
    NDSHARD_FUZZ_CHECK(t.pages_written == out_pages, "wrote " << t.pages_written << " pages for " << out_pages);
    // reshard, permute: one read per output page; eltwise_add: two; reduce_sum: every input page once.
    const std::uint64_t reads = r.op.kind == op_kind::eltwise_add  ? 2 * out_pages
                                : r.op.kind == op_kind::reduce_sum ? in_pages
                                                                   : out_pages;
    NDSHARD_FUZZ_CHECK(t.pages_read == reads, "read " << t.pages_read << " pages, expected " << reads);
    NDSHARD_FUZZ_CHECK(
        t.local_reads + t.remote_reads == t.pages_read && t.local_writes + t.remote_writes == t.pages_written,
        "local + remote traffic does not add up");
    if (t.pages_read > 0)
        NDSHARD_FUZZ_CHECK(
            t.bytes_read % t.pages_read == 0 && t.bytes_written == t.pages_written * (t.bytes_read / t.pages_read),
            "bytes moved are not whole pages");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    testkit::byte_entropy e(std::span<const std::uint8_t>(data, size));
    fuzz::note_input("(scenario not drawn yet)");
    std::optional<scenario_outcome> run;  // outside the try: a finding in a catch still describes it
    try {
        run = run_scenario(e, max_pages);
        const scenario_outcome& r = *run;
        testkit::note_input_deferred(
            [](const void* p) { return describe_run(*static_cast<const scenario_outcome*>(p)); }, &r);
        NDSHARD_FUZZ_CHECK(r.failure.empty(), r.failure);
        check_traffic(r);
    } catch (const noc_error& err) {
        fuzz::fail(std::string("NoC access outside its buffer: ") + err.what());
    } catch (const std::exception& err) {
        fuzz::fail(std::string("unexpected exception: ") + err.what());
    }
    return 0;
}
