// Strict value parsers: see values.hpp for the grammar of each value.
#include "ndshard/specio/values.hpp"

#include <charconv>
#include <limits>

namespace ndshard::specio {

namespace {

constexpr std::size_t max_quoted = 64;  // longer user text is shortened in messages

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

[[noreturn]] void fail(std::string_view what, std::string_view text, const std::string& rule) {
    throw input_error(std::string(what) + " " + quote_value(text) + ": " + rule);
}

// Why a token is not a number, or "" when it is one (value in `out`).
std::string scan_u64(std::string_view token, std::uint64_t& out) {
    if (token.empty()) return "empty number";
    if (token.front() == '-') return "negative numbers are not allowed";
    for (char c : token)
        if (!is_digit(c)) return "not a non-negative decimal integer";
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
    if (ec == std::errc::result_out_of_range) return "does not fit 64 bits (the maximum is 18446744073709551615)";
    if (ec != std::errc() || end != token.data() + token.size()) return "not a non-negative decimal integer";
    return "";
}

// A small cursor for the structured values (core lists, grids).
struct cursor {
    std::string_view text;
    std::size_t at = 0;

    void skip_spaces() {
        while (at < text.size() && is_space(text[at])) ++at;
    }
    bool done() {
        skip_spaces();
        return at == text.size();
    }
    bool accept(char c) {
        skip_spaces();
        if (at < text.size() && text[at] == c) {
            ++at;
            return true;
        }
        return false;
    }
    std::string where() const { return at < text.size() ? "at character " + std::to_string(at + 1) : "at the end"; }
};

void expect(cursor& cur, char c, std::string_view what) {
    if (!cur.accept(c)) fail(what, cur.text, std::string("expected '") + c + "' " + cur.where());
}

std::uint32_t coordinate(cursor& cur, std::string_view what) {
    cur.skip_spaces();
    const std::size_t start = cur.at;
    while (cur.at < cur.text.size() && (is_digit(cur.text[cur.at]) || cur.text[cur.at] == '-')) {
        if (cur.text[cur.at] == '-' && cur.at != start) break;
        ++cur.at;
    }
    const std::string_view token = cur.text.substr(start, cur.at - start);
    if (token.empty()) {
        cur.at = start;
        fail(what, cur.text, "expected a coordinate " + cur.where());
    }
    std::uint64_t v = 0;
    const std::string why = scan_u64(token, v);
    if (!why.empty())
        fail(what, cur.text,
             "coordinate " + quote_value(token) + " at character " + std::to_string(start + 1) + ": " + why);
    if (v > std::numeric_limits<std::uint32_t>::max())
        fail(what, cur.text, "coordinate " + std::to_string(v) + " does not fit 32 bits");
    return static_cast<std::uint32_t>(v);
}

core_coord core_in_parens(cursor& cur, std::string_view what) {
    expect(cur, '(', what);
    core_coord c;
    c.x = coordinate(cur, what);
    expect(cur, ',', what);
    c.y = coordinate(cur, what);
    expect(cur, ')', what);
    return c;
}

}  // namespace

std::string enum_spelling(std::string_view text, std::string_view enum_name) {
    std::string_view body = trim(text);
    // Drop "<anything>EnumName::" or "<anything>EnumName." when the qualifier names this enum,
    // compared case-insensitively like the value.
    const auto lower = [](std::string_view v) {
        std::string out(v);
        for (char& c : out)
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        return out;
    };
    const std::string folded = lower(body), name = lower(enum_name);
    for (std::string_view sep : {"::", "."}) {
        const std::size_t at = folded.rfind(name + std::string(sep));
        const bool whole_word =
            at == 0 || (at != std::string::npos && (folded[at - 1] == '.' || folded[at - 1] == ':'));
        if (at != std::string::npos && whole_word) return folded.substr(at + name.size() + sep.size());
    }
    return folded;
}

std::string quote_value(std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out = "\"";
    std::size_t shown = 0;
    for (char ch : text) {
        if (shown++ == max_quoted) {
            out += "...";
            break;
        }
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += ch;
        } else if (c < 0x20 || c >= 0x7f) {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 0xf];
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

std::uint64_t parse_u64(std::string_view text, std::string_view what) {
    std::uint64_t v = 0;
    const std::string why = scan_u64(trim(text), v);
    if (!why.empty()) fail(what, text, why);
    return v;
}

shape parse_shape(std::string_view text, std::string_view what) {
    std::string_view body = trim(text);
    if (!body.empty() && body.front() == '[') {
        if (body.back() != ']') fail(what, text, "'[' without a closing ']'");
        body = trim(body.substr(1, body.size() - 2));
    }
    if (body.empty()) fail(what, text, "empty shape; give dims like 3,7,5");
    shape out;
    std::size_t position = 0;
    for (;;) {
        ++position;
        const std::size_t comma = body.find(',');
        const std::string_view item = trim(body.substr(0, comma));
        if (item.empty()) fail(what, text, "empty dim at position " + std::to_string(position));
        std::uint64_t v = 0;
        const std::string why = scan_u64(item, v);
        if (!why.empty()) fail(what, text, "dim " + std::to_string(position) + " " + quote_value(item) + ": " + why);
        if (out.rank() == max_rank)
            fail(what, text, "more than " + std::to_string(max_rank) + " dims; a shape has rank 1..8");
        out.push_back(v);
        if (comma == std::string_view::npos) break;
        body.remove_prefix(comma + 1);
    }
    return out;
}

core_range parse_grid(std::string_view text, std::string_view what) {
    const std::string_view body = trim(text);
    const std::size_t x = body.find_first_of("xX");
    if (x == std::string_view::npos) fail(what, text, "expected a grid XxY, e.g. 2x3");
    std::uint64_t dims[2] = {0, 0};
    const std::string_view parts[2] = {trim(body.substr(0, x)), trim(body.substr(x + 1))};
    for (int i = 0; i < 2; ++i) {
        const std::string why = scan_u64(parts[i], dims[i]);
        if (!why.empty())
            fail(what, text, std::string(i == 0 ? "width " : "height ") + quote_value(parts[i]) + ": " + why);
        if (dims[i] == 0) fail(what, text, "a grid needs at least 1 core in each direction");
        if (dims[i] - 1 > std::numeric_limits<std::uint32_t>::max())
            fail(what, text, std::to_string(dims[i]) + " cores do not fit 32-bit coordinates");
    }
    return grid_range(static_cast<std::uint32_t>(dims[0]), static_cast<std::uint32_t>(dims[1]));
}

std::vector<core_range> parse_cores(std::string_view text, std::string_view what) {
    cursor cur{text};
    if (cur.done()) fail(what, text, "empty core list; give ranges like (0,0)-(3,3),(5,5)");
    std::vector<core_range> out;
    do {
        core_range r;
        r.start = core_in_parens(cur, what);
        r.end = cur.accept('-') ? core_in_parens(cur, what) : r.start;
        out.push_back(r);
    } while (cur.accept(','));
    if (!cur.done()) fail(what, text, "expected ',' or the end " + cur.where());
    return out;
}

core_coord parse_core(std::string_view text, std::string_view what) {
    cursor cur{text};
    const bool parens = cur.accept('(');
    core_coord c;
    c.x = coordinate(cur, what);
    expect(cur, ',', what);
    c.y = coordinate(cur, what);
    if (parens) expect(cur, ')', what);
    if (!cur.done()) fail(what, text, "expected a core X,Y; junk " + cur.where());
    return c;
}

page_config parse_page(std::string_view text, std::string_view what) {
    const std::string spelled = enum_spelling(text, "Layout");  // tt-metal: Layout::TILE, Layout::ROW_MAJOR
    const std::string_view body = spelled;
    if (body == "pages") return {page_kind::pages};
    if (body == "row" || body == "row_major") return {page_kind::row_major};
    if (body == "tile") return {page_kind::tile};
    if (body.substr(0, 5) == "tile:") {
        const std::string_view dims = body.substr(5);
        const std::size_t x = dims.find_first_of("xX");
        if (x == std::string_view::npos) fail(what, text, "expected tile:HxW, e.g. tile:16x32");
        page_config p{page_kind::tile};
        const std::string_view h = trim(dims.substr(0, x)), w = trim(dims.substr(x + 1));
        std::string why = scan_u64(h, p.tile_h);
        if (!why.empty()) fail(what, text, "tile height " + quote_value(h) + ": " + why);
        why = scan_u64(w, p.tile_w);
        if (!why.empty()) fail(what, text, "tile width " + quote_value(w) + ": " + why);
        return p;
    }
    fail(what, text, "expected pages, tile, tile:HxW or row");
}

orientation parse_orientation(std::string_view text, std::string_view what) {
    const std::string body = enum_spelling(text, "ShardOrientation");
    if (body == "row_major") return orientation::row_major;
    if (body == "col_major") return orientation::col_major;
    fail(what, text, "expected row_major or col_major");
}

strategy parse_strategy(std::string_view text, std::string_view what) {
    const std::string body = enum_spelling(text, "ShardDistributionStrategy");
    for (strategy s : {strategy::round_robin_1d, strategy::contiguous_1d, strategy::grid_2d})
        if (body == to_string(s)) return s;
    fail(what, text, "expected round_robin_1d, contiguous_1d or grid_2d");
}

std::string format_page(const page_config& page) {
    if (page.kind == page_kind::tile && (page.tile_h != 32 || page.tile_w != 32))
        return "tile:" + std::to_string(page.tile_h) + "x" + std::to_string(page.tile_w);
    return to_string(page.kind);
}

std::string format_cores(const std::vector<core_range>& cores) {
    std::string out;
    for (const core_range& r : cores) {
        if (!out.empty()) out += ',';
        out += to_string(r);
    }
    return out;
}

}  // namespace ndshard::specio
