// ndshard/cli/spec_input.hpp - how the program takes a spec: the value parsers, spec
// JSON and flag text of lib/specio (named here as ndshard::cli's own), and the --spec
// argument that may name a file or stdin.
#pragma once

#include <string>

#include "ndshard/specio/spec_text.hpp"
#include "ndshard/specio/values.hpp"

namespace ndshard::cli {

// Every command reads specs and values the way the fuzz targets do (lib/specio).
using namespace ndshard::specio;

// A bad flag, value or spec: what() is one line, without a trailing newline. It is
// lib/specio's input_error, so a command reports its own refusals and the parsers' alike.
using usage_error = specio::input_error;

// A --spec argument: inline JSON when it starts with '{', "-" for stdin, else a file
// (at most max_spec_bytes). With allow_files = false only inline JSON is accepted.
std::string read_spec_argument(const std::string& argument, bool allow_files = true);

}  // namespace ndshard::cli
