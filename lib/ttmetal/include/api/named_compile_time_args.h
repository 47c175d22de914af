// api/named_compile_time_args.h - compile-time arguments by name, as tt-metal gives them:
// the build defines KERNEL_COMPILE_TIME_ARG_MAP as {"name", value}, ... pairs, and
// get_named_compile_time_arg_val("name") is that value as a constant expression. A name
// the map lacks is a compile error (the lookup reaches a function that is not constexpr).
// Freestanding, C++17.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>

namespace ndshard::tt::detail {
// Not constexpr: reaching it while evaluating a constant is the compile error.
inline std::uint32_t unknown_compile_time_arg_name() noexcept { return 0; }
}  // namespace ndshard::tt::detail

#ifdef KERNEL_COMPILE_TIME_ARG_MAP
inline constexpr std::pair<std::string_view, std::uint32_t> kernel_named_compile_time_args[] = {
    KERNEL_COMPILE_TIME_ARG_MAP};

constexpr std::uint32_t get_named_ct_arg(std::string_view name) noexcept {
    for (const auto& entry : kernel_named_compile_time_args)
        if (entry.first == name) return entry.second;
    return ::ndshard::tt::detail::unknown_compile_time_arg_name();
}

constexpr std::uint32_t get_named_compile_time_arg_val(std::string_view name) noexcept {
    return get_named_ct_arg(name);
}
#endif  // without a map, as on tt-metal, the named form is not declared
