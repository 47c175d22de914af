// api/compile_time_args.h - a kernel's compile-time arguments, as tt-metal gives them: the
// build defines KERNEL_COMPILE_TIME_ARGS as the comma-separated words, and
// get_compile_time_arg_val(i) is the i-th as a constant expression. Freestanding, C++17.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#ifndef KERNEL_COMPILE_TIME_ARGS
#define KERNEL_COMPILE_TIME_ARGS
#endif

namespace ndshard::tt::detail {
template <class... T>
constexpr std::array<std::uint32_t, sizeof...(T)> compile_time_words(T... v) noexcept {
    return {{static_cast<std::uint32_t>(v)...}};
}
}  // namespace ndshard::tt::detail

inline constexpr auto kernel_compile_time_args = ::ndshard::tt::detail::compile_time_words(KERNEL_COMPILE_TIME_ARGS);

template <std::size_t Idx>
constexpr std::uint32_t get_ct_arg() noexcept {
    static_assert(Idx < kernel_compile_time_args.size(),
                  "get_compile_time_arg_val: index past the kernel's compile-time arguments");
    return kernel_compile_time_args[Idx];
}

#define get_compile_time_arg_val(arg_idx) get_ct_arg<(arg_idx)>()

#include "api/named_compile_time_args.h"
