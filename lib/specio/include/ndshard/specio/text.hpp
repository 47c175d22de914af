// ndshard/specio/text.hpp - the two small text helpers every message writer needs, once:
// numbers in hex as the messages print them, and text kept on one line.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>

namespace ndshard::specio {

// "0x" and the lowercase hex digits, no padding: hex(255) == "0xff", hex(0) == "0x0".
inline std::string hex(std::uint64_t v) {
    char buf[2 + 16] = {'0', 'x'};
    const auto end = std::to_chars(buf + 2, buf + sizeof buf, v, 16).ptr;
    return std::string(buf, end);
}

// Control bytes (newlines, tabs, escapes) become spaces, so an error message that quotes
// user text stays one line: one_line("a\nb") == "a b".
inline std::string one_line(std::string text) {
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    return text;
}

}  // namespace ndshard::specio
