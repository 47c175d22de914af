// kernels/defects/defects.hpp - the gallery of defective kernels: each a copy of a good
// reader or writer of kernels/ops with one mistake kernel writers make, and the op that
// swaps it in, named after the defect. kernels/defects/expectations.txt says which check of
// the simulator must catch each one and how small its counterexample must shrink.
//
//   const ttsim::op_desc op = defect_op("push_before_read_barrier");   // copy, its reader swapped
//   ttsim::check_report r = ttsim::check_kernel(op);                    // must fail, async
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "ndshard/ttsim/kcheck.hpp"
#include "ops/ops.hpp"

namespace ndshard::kernels {

struct defect {
    std::string name;     // "push_before_read_barrier", also the kernel's file: defects/<name>.cpp
                          // (a mistake in both kernels: defects/<name>_reader.cpp and _writer.cpp)
    std::string op;       // the good op it breaks, as make_op takes it: "copy", "reduce:0"
    kernel_swap swap;     // the defective kernel in place of the op's reader or writer
    std::string mistake;  // one line
};

// Every defect, in expectations.txt's order.
const std::vector<defect>& defects();
// The defect's op (make_op(d.op, d.swap), named d.name); spec_error (rule "op") naming an
// unknown defect.
ttsim::op_desc defect_op(std::string_view name);

// One line of expectations.txt: `name check[|check...] pages<=N  # why it is a real mistake`.
struct defect_expectation {
    std::string name;
    // Any one of these must be among the failing case's findings: a finding kind
    // (to_string(ttsim::finding_kind), e.g. "async"), "output" for a wrong output page or
    // "padding" for a padding slot or alignment gap overwritten.
    std::vector<std::string> checks;
    std::uint64_t max_pages = 0;  // the shrunk case: every tensor of it at most this many pages
    // Interleavings each case runs under (launch_options::schedules; `schedules=K` in the
    // file, default 1): a mistake that only some orders of the kernels expose.
    std::uint32_t schedules = 1;
    std::string comment;
};

// Reads an expectations file; spec_error (rule "expectations") naming the line that is wrong.
std::vector<defect_expectation> read_expectations(const std::filesystem::path& file);
// kernels_dir() / "defects" / "expectations.txt".
std::vector<defect_expectation> read_expectations();

}  // namespace ndshard::kernels
