// fuzz/fuzz_common.hpp - what every fuzz target of fuzz/ shares: how a finding is
// reported (testkit/finding.hpp: note_input, fail, NDSHARD_FUZZ_CHECK), the spec as one
// line, and fuzz_spec's generator options.
#pragma once

#include <cstdint>
#include <string>

#include "ndshard/spec.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/finding.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace ndshard::fuzz {

using testkit::check_one_line;
using testkit::current_input;
using testkit::fail;
using testkit::note_input;

// The spec as one line (the testkit's wording, shared with the properties' counterexamples).
inline std::string describe(const distribution_spec& s) { return testkit::describe(s); }

// fuzz_spec's generator options (fuzz/seedgen.cpp encodes seeds for them).
inline testkit::spec_options spec_fuzz_options() {
    testkit::spec_options o;
    o.max_pages = 4096;
    o.huge_percent = 15;
    o.invalid_percent = 15;
    o.explicit_percent = 20;
    return o;
}

}  // namespace ndshard::fuzz
