// What every subcommand's flags share (commands.cpp, kcheck.cpp): a flag whose raw text is
// kept for the strict parsers to read afterwards, and the examples of a --help footer.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace ndshard::cli {

inline void add_text(CLI::App* app, const std::string& names, std::optional<std::string>& into, const std::string& help,
                     const std::string& type) {
    app->add_option_function<std::string>(
           names, [&into](const std::string& v) { into = v; }, help)
        ->type_name(type);
}

inline std::string examples(std::initializer_list<const char*> lines) {
    std::string out = "\nExamples:\n";
    for (const char* line : lines) out += std::string("  ") + line + "\n";
    return out;
}

}  // namespace ndshard::cli
