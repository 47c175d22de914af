// The isolation layer: run cases against an implementation in a worker child process.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ndshard/conform/impl.hpp"
#include "ndshard/conform/laws.hpp"

namespace ndshard::conform::detail {

// A case: nullopt when it passed (or had nothing to check), the disagreement otherwise.
using case_body = std::function<std::optional<finding>(const loaded_impl&, std::uint64_t index)>;

struct batch_outcome {
    std::uint64_t ran = 0;  // cases completed or failed
    std::optional<std::uint64_t> failed_index;
    finding what;                             // of the failed case
    std::optional<std::string> load_failure;  // the worker could not load the implementation
};

// Runs cases 0..count-1 in a worker child, in order, and stops at the first failure: a
// disagreement, a crash ("crashed: signal 11 (SIGSEGV)"), an exit, or a case running
// longer than timeout_ms ("timed out after 2000 ms"). For a crash or hang the finding's
// query is the implementation's last query started.
batch_outcome run_isolated(const std::string& impl_path, std::uint64_t count, const case_body& body,
                           std::uint32_t timeout_ms);

// Loads the implementation in a child and returns ndsc_describe's answer.
// Throws load_error when it cannot be loaded, crashes or hangs.
impl_info probe(const std::string& impl_path, std::uint32_t timeout_ms);

}  // namespace ndshard::conform::detail
