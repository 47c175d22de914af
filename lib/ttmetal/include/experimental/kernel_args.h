// experimental/kernel_args.h - tt-metal's named kernel arguments (Metal 2.0): args::name is
// the handle of a runtime argument (RtaArg), a common runtime argument (CrtaArg) or a
// compile-time argument (CtaVal), and get_arg(handle) is its value, found by argument-
// dependent lookup; a compile-time argument's is a constant expression. The handles and
// get_vararg / get_common_vararg are bound per kernel from what its program declares
// (internal/ndshard_kernel_bindings.h, included before the kernel's source), as tt-metal's
// build generates them. 32-bit arguments only, as on tt-metal.
#pragma once

#include <cstdint>

#include "internal/ndshard_platform.h"

namespace experimental {

// Byte offsets from the first named argument of their list.
template <typename T>
struct RtaArg {
    std::uint32_t byte_offset;
};
template <typename T>
struct CrtaArg {
    std::uint32_t byte_offset;
};
template <typename T>
struct CtaVal {
    T value;
};

template <typename T>
FORCE_INLINE T get_arg(RtaArg<T> handle) {
    static_assert(sizeof(T) == 4, "get_arg: named arguments are 32-bit words");
    return get_arg_val<T>(static_cast<int>(handle.byte_offset / 4));
}
template <typename T>
FORCE_INLINE T get_arg(CrtaArg<T> handle) {
    static_assert(sizeof(T) == 4, "get_arg: named arguments are 32-bit words");
    return get_common_arg_val<T>(static_cast<int>(handle.byte_offset / 4));
}
template <typename T>
FORCE_INLINE constexpr T get_arg(CtaVal<T> handle) {
    return handle.value;
}

}  // namespace experimental
