// ndshard/config.hpp - the project's macros, and whether this is a host or a device build.
//
// Device headers (accessor.hpp and what it includes without NDSHARD_HOSTED) compile as
// C++17 and C++20, freestanding, without exceptions, RTTI, heap, <string> or <vector>,
// and without unsigned __int128 or 64-bit division, for 32-bit RISC-V cores (rv32im).
#pragma once

// NDSHARD_HOSTED: 1 on a host with exceptions (errors are spec_error, with messages),
// 0 in a kernel build (errors are statuses or the device trap hook). Overridable.
#ifndef NDSHARD_HOSTED
#if defined(__cpp_exceptions) && defined(__STDC_HOSTED__) && __STDC_HOSTED__
#define NDSHARD_HOSTED 1
#else
#define NDSHARD_HOSTED 0
#endif
#endif

// C++20 adds class-type template arguments (accessor<words> with a std::array value),
// std::span and std::default_sentinel_t; C++17 kernels pass accessor<&words>.
#if __cplusplus >= 202002L
#define NDSHARD_CPP20 1
#else
#define NDSHARD_CPP20 0
#endif

// Address math is a chain of tiny functions and lambdas; a compiler left to itself may
// keep a call (or a runtime rank's dispatch) out of line, which costs more than the math.
// NDSHARD_INLINE marks functions, NDSHARD_INLINE_LAMBDA lambdas (after the parameters).
// NDSHARD_COLD keeps error paths (message building) out of line.
// NDSHARD_NO_FORCE_INLINE (defined by the build, not here) leaves inlining to the compiler:
// the test presets define it (CMakeLists.txt, NDSHARD_FORCE_INLINE), where forcing every
// helper inline multiplies the code each test instantiates and buys nothing, since
// inlining changes no result.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(NDSHARD_NO_FORCE_INLINE)
#define NDSHARD_INLINE [[gnu::always_inline]]
#define NDSHARD_INLINE_LAMBDA __attribute__((always_inline))
#else
#define NDSHARD_INLINE
#define NDSHARD_INLINE_LAMBDA
#endif
#if defined(__GNUC__) || defined(__clang__)
#define NDSHARD_COLD [[gnu::cold, gnu::noinline]]
#define NDSHARD_LIKELY(x) __builtin_expect(!!(x), 1)
#define NDSHARD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define NDSHARD_COLD
#define NDSHARD_LIKELY(x) (x)
#define NDSHARD_UNLIKELY(x) (x)
#endif

// C++20 lets a constexpr constructor leave a member for its body to write (the
// accessor's geometry); C++17 does not, so there the accessor is built at run time only.
#if NDSHARD_CPP20
#define NDSHARD_NO_UNIQUE_ADDRESS [[no_unique_address]]
#define NDSHARD_CONSTEXPR20 constexpr
#else
#define NDSHARD_NO_UNIQUE_ADDRESS
#define NDSHARD_CONSTEXPR20
#endif
