// The --spec argument: inline JSON, stdin or a file (see spec_input.hpp).
#include "ndshard/cli/spec_input.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

namespace ndshard::cli {

std::string read_spec_argument(const std::string& argument, bool allow_files) {
    const std::size_t first = argument.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
    if (first != std::string::npos && argument[first] == '{') return argument;
    if (!allow_files)
        throw usage_error("--spec " + quote_value(argument) + ": give the JSON inline here (files and stdin are off)");
    std::ifstream file;
    if (argument != "-") {
        file.open(argument, std::ios::binary);
        if (!file)
            throw usage_error("--spec " + quote_value(argument) + ": cannot read it (" + std::strerror(errno) + ")");
    }
    std::istream& in = argument == "-" ? std::cin : file;
    std::string text(max_spec_bytes + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (in.bad()) throw usage_error("--spec " + quote_value(argument) + ": read error");
    if (text.size() > max_spec_bytes)
        throw usage_error("--spec " + quote_value(argument) + ": more than 1 MiB; a spec is small");
    return text;
}

}  // namespace ndshard::cli
