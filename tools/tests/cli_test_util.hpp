// Test helpers: run the command line in-process and look at what it printed.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ndshard/cli/commands.hpp"

namespace ndshard::cli::test {

struct run_output {
    int code = -1;
    std::string out;
    std::string err;
};

// `ndshard <args...>` through the same entry point as the executable.
inline run_output run_cli(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    run_output r;
    r.code = run(args, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

// Exactly one line (ending in '\n') and nothing else.
inline bool is_one_line(const std::string& text) {
    return !text.empty() && text.back() == '\n' && std::count(text.begin(), text.end(), '\n') == 1;
}

// `ndshard <args...>` that must succeed with one line on stdout and nothing on stderr:
// that line, without its '\n'.
inline std::string ok(const std::vector<std::string>& args) {
    const run_output r = run_cli(args);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_TRUE(is_one_line(r.out)) << r.out;
    return r.out.empty() ? r.out : r.out.substr(0, r.out.size() - 1);
}

inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace ndshard::cli::test
