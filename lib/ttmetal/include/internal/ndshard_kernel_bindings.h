// internal/ndshard_kernel_bindings.h - one kernel's Metal 2.0 bindings, what tt-metal's
// build generates for it (kernel_args_generated.h, kernel_bindings_generated.h) from its
// program: included before the source of a kernel whose kernel_desc names arguments,
// tensors or semaphores (kernel_cache.cpp), from macros its command line defines:
//   NDSHARD_ARGS      NDSHARD_RTA(name, byte), NDSHARD_CRTA(name, byte), NDSHARD_CTA(name, value) ...
//   NDSHARD_TENSORS   NDSHARD_TENSOR(name, cta_offset, addr_crta_byte) ...
//   NDSHARD_SEMS      NDSHARD_SEM(name, id) ...
//   NDSHARD_DFBS      NDSHARD_DFB(name, id) ...
//   NDSHARD_NAMED_RTA_WORDS, NDSHARD_NAMED_CRTA_WORDS   where the positional arguments begin
// The kernel then sees args::name (get_arg, experimental/kernel_args.h), ta::name (and
// tensor::name, an earlier spelling) for TensorAccessor(ta::name), sem::name (a semaphore
// id), dfb::name (a DataflowBuffer's id), and get_vararg(i) / get_common_vararg(i): the i-th argument after the named
// ones.
#pragma once

#include <cstdint>

#include "api/dataflow/dataflow_buffer.h"
#include "api/tensor/tensor_accessor.h"
#include "experimental/kernel_args.h"

#define NDSHARD_RTA(name, byte) inline constexpr ::experimental::RtaArg<std::uint32_t> name{byte};
#define NDSHARD_CRTA(name, byte) inline constexpr ::experimental::CrtaArg<std::uint32_t> name{byte};
#define NDSHARD_CTA(name, value) inline constexpr ::experimental::CtaVal<std::uint32_t> name{value};
#define NDSHARD_TENSOR(name, cta_offset, addr_crta_byte)                                        \
    using name##_t = ::tensor_accessor::TensorAccessorBindingToken<cta_offset, addr_crta_byte>; \
    inline constexpr name##_t name{};
#define NDSHARD_SEM(name, id) inline constexpr std::uint32_t name = id;
#define NDSHARD_DFB(name, id) inline constexpr ::experimental::DFBAccessor name{id};

namespace args {
NDSHARD_ARGS
}  // namespace args
namespace ta {
NDSHARD_TENSORS
}  // namespace ta
namespace tensor = ta;
namespace sem {
NDSHARD_SEMS
}  // namespace sem
namespace dfb {
NDSHARD_DFBS
}  // namespace dfb

#undef NDSHARD_RTA
#undef NDSHARD_CRTA
#undef NDSHARD_CTA
#undef NDSHARD_TENSOR
#undef NDSHARD_SEM
#undef NDSHARD_DFB

FORCE_INLINE std::uint32_t get_vararg(std::uint32_t idx) {
    return get_arg_val<std::uint32_t>(static_cast<int>(NDSHARD_NAMED_RTA_WORDS + idx));
}
FORCE_INLINE std::uint32_t get_common_vararg(std::uint32_t idx) {
    return get_common_arg_val<std::uint32_t>(static_cast<int>(NDSHARD_NAMED_CRTA_WORDS + idx));
}
