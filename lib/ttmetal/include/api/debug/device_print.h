// api/debug/device_print.h - tt-metal's DEVICE_PRINT, the fmt-style successor of DPRINT:
//   DEVICE_PRINT("page {} of {}: {:#x}\n", page, pages, addr);
// Placeholders {} or {N} (not both in one format), {{ and }}, and fmt's format spec
// [[fill]align][sign][#][0][width][.precision][L][type]. As tt-metal does, a format whose
// braces are malformed, whose placeholder count differs from its argument count, or
// (indexed) that names an argument past the last or leaves one unused does not compile.
// Arguments: integers, bool, char, float, double, const char*, bf16_t (the upper half of
// a float), ct_string / CTSTR("..."). The text goes where the platform's DPRINT goes (on
// ndshard's simulated device: the launch's log), one line per '\n'.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "internal/ndshard_platform.h"

struct bf16_t {
    std::uint16_t val;
    bf16_t(std::uint16_t v) : val(v) {}
};
struct ct_string {
    const char* ptr;
};
#define CTSTR(literal) (ct_string{literal})

namespace ndshard::tt::device_print {

// --- the format, checked at compile time ---
struct format_facts {
    bool valid = true;
    std::size_t placeholders = 0, indexed = 0;
    std::uint32_t max_index = 0;
    std::uint64_t referenced = 0;  // bit i: {i} appears
};
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr format_facts facts(const char* f) {
    format_facts r;
    for (std::size_t i = 0; f[i] != 0; ++i) {
        if (f[i] == '}') {
            if (f[i + 1] != '}') r.valid = false;
            ++i;
            continue;
        }
        if (f[i] != '{') continue;
        if (f[i + 1] == '{') {
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        if (is_digit(f[j])) {
            std::uint32_t v = 0;
            while (is_digit(f[j])) v = v * 10 + static_cast<std::uint32_t>(f[j++] - '0');
            ++r.indexed;
            r.max_index = v > r.max_index ? v : r.max_index;
            if (v < 64) r.referenced |= std::uint64_t{1} << v;
        }
        if (f[j] == ':')
            while (f[j] != 0 && f[j] != '}' && f[j] != '{') ++j;
        if (f[j] != '}') {
            r.valid = false;
            return r;
        }
        ++r.placeholders;
        i = j;
    }
    return r;
}
constexpr bool all_referenced(const format_facts& r, std::size_t n) {
    for (std::size_t i = 0; i < n && i < 64; ++i)
        if ((r.referenced >> i & 1U) == 0) return false;
    return true;
}

template <class... A>
std::integral_constant<std::size_t, sizeof...(A)> count_args(const A&...);  // in decltype only

// --- an argument, as the formatter sees it ---
struct value {
    enum class kind { signed_int, unsigned_int, floating, text, character, boolean } k = kind::signed_int;
    long long i = 0;
    unsigned long long u = 0;
    double d = 0;
    const char* s = "";
};
template <class T>
value to_value(const T& v) {
    value out;
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, bool>) {
        out.k = value::kind::boolean, out.u = v ? 1 : 0;
    } else if constexpr (std::is_same_v<U, char>) {
        out.k = value::kind::character, out.u = static_cast<unsigned char>(v);
    } else if constexpr (std::is_same_v<U, bf16_t>) {
        const std::uint32_t bits = std::uint32_t{v.val} << 16;
        float f;
        __builtin_memcpy(&f, &bits, 4);
        out.k = value::kind::floating, out.d = f;
    } else if constexpr (std::is_same_v<U, ct_string>) {
        out.k = value::kind::text, out.s = v.ptr;
    } else if constexpr (std::is_convertible_v<U, const char*>) {
        out.k = value::kind::text, out.s = v;
    } else if constexpr (std::is_floating_point_v<U>) {
        out.k = value::kind::floating, out.d = static_cast<double>(v);
    } else if constexpr (std::is_enum_v<U>) {
        out.k = value::kind::signed_int, out.i = static_cast<long long>(v);
    } else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>) {
        out.k = value::kind::signed_int, out.i = v;
    } else if constexpr (std::is_integral_v<U>) {
        out.k = value::kind::unsigned_int, out.u = v;
    } else if constexpr (std::is_pointer_v<U>) {
        out.k = value::kind::unsigned_int, out.u = reinterpret_cast<std::uintptr_t>(v);
    } else {
        static_assert(sizeof(U) == 0, "DEVICE_PRINT: no formatting for this argument type");
    }
    return out;
}

// One replacement field's text: its spec (between ':' and '}') applied to `v`.
inline std::string field(const value& v, const char* spec, std::size_t len) {
    std::size_t p = 0;
    char fill = ' ', align = 0, sign = 0, type = 0;
    bool alt = false, zero = false;
    int width = -1, precision = -1;
    const auto is_align = [](char c) { return c == '<' || c == '>' || c == '^'; };
    if (len >= 2 && is_align(spec[1])) fill = spec[0], align = spec[1], p = 2;
    else if (len >= 1 && is_align(spec[0])) align = spec[0], p = 1;
    if (p < len && (spec[p] == '+' || spec[p] == '-' || spec[p] == ' ')) sign = spec[p++];
    if (p < len && spec[p] == '#') alt = true, ++p;
    if (p < len && spec[p] == '0') zero = true, ++p;
    for (; p < len && is_digit(spec[p]); ++p) width = (width < 0 ? 0 : width * 10) + (spec[p] - '0');
    if (p < len && spec[p] == '.')
        for (precision = 0, ++p; p < len && is_digit(spec[p]); ++p) precision = precision * 10 + (spec[p] - '0');
    if (p < len && spec[p] == 'L') ++p;
    if (p < len) type = spec[p];

    std::string body, prefix;
    char buf[96];
    const bool integer =
        v.k == value::kind::signed_int || v.k == value::kind::unsigned_int ||
        (v.k != value::kind::floating && v.k != value::kind::text && type != 0 && type != 's' && type != 'c');
    if (v.k == value::kind::text) {
        body = v.s;
        if (precision >= 0 && body.size() > static_cast<std::size_t>(precision)) body.resize(precision);
    } else if ((v.k == value::kind::character && (type == 0 || type == 'c')) || (integer && type == 'c')) {
        body = std::string(1, static_cast<char>(v.k == value::kind::signed_int ? v.i : static_cast<long long>(v.u)));
    } else if (v.k == value::kind::boolean && (type == 0 || type == 's')) {
        body = v.u != 0 ? "true" : "false";
    } else if (v.k == value::kind::floating) {
        const char t = type == 0 ? (precision >= 0 ? 'g' : 0) : type;
        if (t == 0) std::snprintf(buf, sizeof buf, "%g", v.d);
        else {
            const char f[] = {'%', '.', '*', t, 0};
            std::snprintf(buf, sizeof buf, f, precision >= 0 ? precision : 6, v.d);
        }
        body = buf;
        if (body[0] == '-') prefix = "-", body.erase(0, 1);
        else if (sign == '+' || sign == ' ') prefix = std::string(1, sign);
    } else {  // an integer (or a char or bool given an integer type)
        const bool negative = v.k == value::kind::signed_int && v.i < 0;
        unsigned long long m = v.k == value::kind::signed_int ? (negative ? 0ULL - static_cast<unsigned long long>(v.i)
                                                                          : static_cast<unsigned long long>(v.i))
                                                              : v.u;
        const unsigned base = type == 'x' || type == 'X' ? 16 : type == 'o' ? 8 : type == 'b' || type == 'B' ? 2 : 10;
        const char* digits = type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
        do body.insert(body.begin(), digits[m % base]), m /= base;
        while (m != 0);
        prefix = negative ? "-" : sign == '+' || sign == ' ' ? std::string(1, sign) : "";
        if (alt && base != 10) prefix += base == 16 ? (type == 'X' ? "0X" : "0x") : base == 8 ? "0" : "0b";
    }
    const std::size_t n = prefix.size() + body.size();
    if (width < 0 || n >= static_cast<std::size_t>(width)) return prefix + body;
    const std::size_t pad = static_cast<std::size_t>(width) - n;
    if (zero && align == 0 && v.k != value::kind::text) return prefix + std::string(pad, '0') + body;
    const bool numeric = v.k != value::kind::text && v.k != value::kind::character && v.k != value::kind::boolean;
    const char a = align != 0 ? align : numeric ? '>' : '<';
    if (a == '<') return prefix + body + std::string(pad, fill);
    if (a == '>') return std::string(pad, fill) + prefix + body;
    return std::string(pad / 2, fill) + prefix + body + std::string(pad - pad / 2, fill);
}

inline void emit(const std::string& text) {
    std::size_t from = 0;
    while (from < text.size()) {
        const std::size_t nl = text.find('\n', from);
        const std::size_t end = nl == std::string::npos ? text.size() : nl;
        DPRINT << text.substr(from, end - from).c_str() << ENDL();
        from = end + 1;
    }
}

inline void print(const char* f, const value* args, std::size_t n) {
    std::string out;
    std::size_t next = 0;
    for (std::size_t i = 0; f[i] != 0; ++i) {
        if ((f[i] == '{' && f[i + 1] == '{') || (f[i] == '}' && f[i + 1] == '}')) {
            out += f[i++];
            continue;
        }
        if (f[i] != '{') {
            out += f[i];
            continue;
        }
        std::size_t j = i + 1, index = next++;
        if (is_digit(f[j]))
            for (index = 0; is_digit(f[j]); ++j) index = index * 10 + static_cast<std::size_t>(f[j] - '0');
        std::size_t spec = j, len = 0;
        if (f[j] == ':') {
            spec = ++j;
            while (f[j] != '}') ++j;
            len = j - spec;
        }
        if (index < n) out += field(args[index], f + spec, len);
        i = j;
    }
    emit(out);
}

template <class... Args>
void print_values(const char* f, const Args&... args) {
    const value values[sizeof...(Args) + 1] = {to_value(args)...};
    print(f, values, sizeof...(Args));
}

}  // namespace ndshard::tt::device_print

#define DEVICE_PRINT(format, ...)                                                                                 \
    do {                                                                                                          \
        constexpr auto ndshard_dp_facts = ::ndshard::tt::device_print::facts(format);                             \
        constexpr std::size_t ndshard_dp_count =                                                                  \
            decltype(::ndshard::tt::device_print::count_args(__VA_ARGS__))::value;                                \
        static_assert(ndshard_dp_facts.valid,                                                                     \
                      "DEVICE_PRINT: invalid format string: an unescaped '{' must start a placeholder '{...}'");  \
        static_assert(ndshard_dp_facts.indexed == 0 || ndshard_dp_facts.indexed == ndshard_dp_facts.placeholders, \
                      "DEVICE_PRINT: cannot mix indexed ({0}) and automatic ({}) placeholders");                  \
        static_assert(ndshard_dp_facts.indexed == 0 || ndshard_dp_facts.max_index < ndshard_dp_count,             \
                      "DEVICE_PRINT: a placeholder index is past the last argument");                             \
        static_assert(ndshard_dp_facts.indexed == 0 ||                                                            \
                          ::ndshard::tt::device_print::all_referenced(ndshard_dp_facts, ndshard_dp_count),        \
                      "DEVICE_PRINT: with indexed placeholders every argument must be referenced");               \
        static_assert(ndshard_dp_facts.indexed != 0 || ndshard_dp_facts.placeholders == ndshard_dp_count,         \
                      "DEVICE_PRINT: the number of {} placeholders must match the number of arguments");          \
        ::ndshard::tt::device_print::print_values(format __VA_OPT__(, ) __VA_ARGS__);                             \
    } while (0)

// Per-processor forms: a data-movement kernel prints with DATA0 on NoC 0 and DATA1 on NoC 1;
// the compute forms print nothing here (no compute processors).
#define DEVICE_PRINT_DATA0(format, ...) \
    if (noc_index == 0) DEVICE_PRINT(format __VA_OPT__(, ) __VA_ARGS__)
#define DEVICE_PRINT_DATA1(format, ...) \
    if (noc_index == 1) DEVICE_PRINT(format __VA_OPT__(, ) __VA_ARGS__)
#define DEVICE_PRINT_UNPACK(format, ...) ((void)0)
#define DEVICE_PRINT_MATH(format, ...) ((void)0)
#define DEVICE_PRINT_PACK(format, ...) ((void)0)
