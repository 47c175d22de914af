// ndshard/testkit/finding.hpp - how a fuzz target reports a finding.
//
// A finding prints what was compared and what the current input decoded to, then traps,
// so libFuzzer (and the replay main, cmake/ndshard_fuzz_main.cpp) stop at the first
// disagreement with a readable message. Shared by the targets of fuzz/ and of tools/.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ndshard::testkit {

// The context of the current input, printed with every finding.
inline std::string& current_input() {
    static std::string text;
    return text;
}

// Records what the current input decoded to; NDSHARD_FUZZ_VERBOSE=1 also prints it
// (replay an input to see its spec: NDSHARD_FUZZ_VERBOSE=1 fuzz_spec crash-...).
inline bool verbose_inputs() {
    static const bool verbose = [] {
        const char* v = std::getenv("NDSHARD_FUZZ_VERBOSE");
        return v != nullptr && *v != '\0' && *v != '0';
    }();
    return verbose;
}

// The input's text deferred: make(arg) runs only when a finding is printed (most inputs
// pass, and describing a spec costs more than a fast path's answer). arg must live until
// the next note.
struct deferred_input_text {
    std::string (*make)(const void*) = nullptr;
    const void* arg = nullptr;
};
inline deferred_input_text& deferred_input() {
    static deferred_input_text d;
    return d;
}

inline void note_input(std::string text) {
    if (verbose_inputs()) std::fprintf(stderr, "input: %s\n", text.c_str());
    deferred_input() = {};
    current_input() = std::move(text);
}

inline void note_input_deferred(std::string (*make)(const void*), const void* arg) {
    if (verbose_inputs()) return note_input(make(arg));
    deferred_input() = {make, arg};
}

[[noreturn]] inline void fail(const std::string& what) {
    if (const deferred_input_text d = deferred_input(); d.make != nullptr) current_input() = d.make(d.arg);
    std::fprintf(stderr, "\n=== ndshard fuzz finding ===\n%s\ninput: %s\n", what.c_str(), current_input().c_str());
    std::fflush(stderr);
    __builtin_trap();
}

// A finding unless `message` is one non-empty line (an error a user reads).
inline void check_one_line(const std::string& message, const std::string& where) {
    if (message.empty()) fail(where + ": an empty error message");
    if (message.find('\n') != std::string::npos) fail(where + ": a multi-line error message: " + message);
}

// An argument list as fuzz input: arguments separated by NUL bytes ("" gives one empty
// argument), and the line note_input records for it.
inline std::vector<std::string> nul_separated(std::string_view text) {
    std::vector<std::string> args;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == '\0') {
            args.emplace_back(text.substr(start, i - start));
            start = i + 1;
        }
    return args;
}
inline std::string shown_args(const char* what, const std::vector<std::string>& args) {
    std::string shown = what;
    for (const std::string& a : args) shown += " '" + a.substr(0, 80) + "'";
    return shown;
}

}  // namespace ndshard::testkit

// NDSHARD_FUZZ_CHECK(a == b, "page " << p << ": fast " << a << " oracle " << b);
#define NDSHARD_FUZZ_CHECK(cond, message)                                                           \
    do {                                                                                            \
        if (!(cond)) {                                                                              \
            std::ostringstream ndshard_fuzz_msg_;                                                   \
            ndshard_fuzz_msg_ << __FILE__ << ':' << __LINE__ << ": " << #cond << "\n  " << message; \
            ::ndshard::testkit::fail(ndshard_fuzz_msg_.str());                                      \
        }                                                                                           \
    } while (false)
