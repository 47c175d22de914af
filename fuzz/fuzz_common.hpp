// fuzz/fuzz_common.hpp - what every fuzz target of fuzz/ shares: how a finding is
// reported (testkit/finding.hpp: note_input, fail, NDSHARD_FUZZ_CHECK), the spec as one
// line, and fuzz_spec's generator options.
#pragma once

#include <cstdint>
#include <exception>
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

// Notes `s` as the current input; its text is built only if a finding is printed.
// `s` must live until the next note (fuzz_spec notes a spec that lives for the input).
inline void note_spec(const distribution_spec& s) {
    testkit::note_input_deferred([](const void* p) { return describe(*static_cast<const distribution_spec*>(p)); }, &s);
}

// The same for an input that lives in an inner scope: text(x) is built only for a finding.
// Declared after x; should an exception leave the scope (the finding is then reported by
// an outer catch), the text is built on the way out, while x still exists.
template <class T>
class scoped_note {
public:
    scoped_note(const T& x, std::string (*text)(const T&))
        : x_(x), text_(text), exceptions_(std::uncaught_exceptions()) {
        testkit::note_input_deferred(&make, this);
    }
    ~scoped_note() {
        if (std::uncaught_exceptions() > exceptions_) testkit::note_input(text_(x_));
        else testkit::deferred_input() = {};
    }
    scoped_note(const scoped_note&) = delete;
    scoped_note& operator=(const scoped_note&) = delete;

private:
    static std::string make(const void* self) {
        const auto* n = static_cast<const scoped_note*>(self);
        return n->text_(n->x_);
    }
    const T& x_;
    std::string (*text_)(const T&);
    int exceptions_;
};

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
