// fuzz/fuzz_common.hpp - what every fuzz target shares: how a finding is reported.
//
// A finding prints what was compared and the spec it came from, then traps, so libFuzzer
// (and the replay main) stop at the first disagreement with a readable message.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>

#include "ndshard/spec.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace ndshard::fuzz {

// The spec as one line (the testkit's wording, shared with the properties' counterexamples).
inline std::string describe(const distribution_spec& s) { return testkit::describe(s); }

// The context of the current input, printed with every finding.
inline std::string& current_input() {
    static std::string text;
    return text;
}

// Records what the current input decoded to; NDSHARD_FUZZ_VERBOSE=1 also prints it
// (replay an input to see its spec: NDSHARD_FUZZ_VERBOSE=1 fuzz_spec crash-...).
inline void note_input(std::string text) {
    static const bool verbose = [] {
        const char* v = std::getenv("NDSHARD_FUZZ_VERBOSE");
        return v != nullptr && *v != '\0' && *v != '0';
    }();
    if (verbose) std::fprintf(stderr, "input: %s\n", text.c_str());
    current_input() = std::move(text);
}

// fuzz_spec's generator options (fuzz/seedgen.cpp encodes seeds for them).
inline testkit::spec_options spec_fuzz_options() {
    testkit::spec_options o;
    o.max_pages = 4096;
    o.huge_percent = 15;
    o.invalid_percent = 15;
    o.explicit_percent = 20;
    return o;
}

[[noreturn]] inline void fail(const std::string& what) {
    std::fprintf(stderr, "\n=== ndshard fuzz finding ===\n%s\ninput: %s\n", what.c_str(), current_input().c_str());
    std::fflush(stderr);
    __builtin_trap();
}

}  // namespace ndshard::fuzz

// NDSHARD_FUZZ_CHECK(a == b, "page " << p << ": fast " << a << " oracle " << b);
#define NDSHARD_FUZZ_CHECK(cond, message)                                                    \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            std::ostringstream ndshard_fuzz_msg_;                                          \
            ndshard_fuzz_msg_ << __FILE__ << ':' << __LINE__ << ": " << #cond << "\n  " << message; \
            ::ndshard::fuzz::fail(ndshard_fuzz_msg_.str());                               \
        }                                                                                  \
    } while (false)
