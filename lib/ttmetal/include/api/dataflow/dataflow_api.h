// api/dataflow/dataflow_api.h - tt-metal's data-movement kernel API. The platform
// (internal/ndshard_platform.h: ndshard's simulated device, or a device harness) provides
// the primitives (arguments, circular buffers, NoC transfers and barriers, semaphores,
// DPRINT); this header adds what tt-metal builds on them: the accessor, the interleaved
// generators and the page, tile and shard transfers of any of them.
#pragma once

#include <cstdint>

#include "api/compile_time_args.h"
#include "api/tensor/tensor_accessor.h"
#include "hostdevcommon/kernel_structs.h"
#include "internal/dataflow/dataflow_api_addrgen.h"
#include "internal/ndshard_platform.h"

// One page of an address generator or accessor into L1 (its page size: page_size_of).
template <typename AddrGen, bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_read_page(const std::uint32_t id, const AddrGen& addrgen, std::uint32_t dst_local_l1_addr,
                                      std::uint32_t offset = 0, std::uint8_t noc = noc_index) {
    static_assert(has_required_addrgen_traits_v<AddrGen>, "noc_async_read_page: not an address generator");
    ::ndshard::tt::platform::noc_read_page(addrgen.get_noc_addr(id, offset, noc), dst_local_l1_addr,
                                           page_size_of(addrgen), noc);
}
// One page from L1 to an address generator's page; `size` 0 means its page size.
template <typename AddrGen, bool enable_noc_tracing = true, bool posted = false>
FORCE_INLINE void noc_async_write_page(const std::uint32_t id, const AddrGen& addrgen, std::uint32_t src_local_l1_addr,
                                       std::uint32_t size = 0, std::uint32_t offset = 0, std::uint8_t noc = noc_index) {
    static_assert(has_required_addrgen_traits_v<AddrGen>, "noc_async_write_page: not an address generator");
    ::ndshard::tt::platform::noc_write_page(src_local_l1_addr, addrgen.get_noc_addr(id, offset, noc),
                                            size != 0 ? size : page_size_of(addrgen), noc);
}
// tt-metal's older names for the same (deprecated there, kept for the kernels that use them).
template <typename AddrGen>
FORCE_INLINE void noc_async_read_tile(const std::uint32_t id, const AddrGen& addrgen, std::uint32_t dst_local_l1_addr,
                                      std::uint32_t offset = 0, std::uint8_t noc = noc_index) {
    noc_async_read_page(id, addrgen, dst_local_l1_addr, offset, noc);
}
template <typename AddrGen>
FORCE_INLINE void noc_async_write_tile(const std::uint32_t id, const AddrGen& addrgen, std::uint32_t src_local_l1_addr,
                                       std::uint8_t noc = noc_index) {
    noc_async_write_page(id, addrgen, src_local_l1_addr, 0, 0, noc);
}

// A whole shard slot (its padding included) of a sharded accessor.
template <typename DSpec>
FORCE_INLINE void noc_async_read_shard(const std::uint32_t shard_id, const TensorAccessor<DSpec>& s,
                                       std::uint32_t dst_local_l1_addr, std::uint8_t noc = noc_index) {
    noc_async_read(s.get_shard_noc_addr(shard_id, 0, noc), dst_local_l1_addr,
                   s.get_aligned_page_size() * s.dspec().shard_volume(), noc);
}
template <typename DSpec, bool posted = false>
FORCE_INLINE void noc_async_write_shard(const std::uint32_t shard_id, const TensorAccessor<DSpec>& s,
                                        std::uint32_t src_local_l1_addr, std::uint8_t noc = noc_index) {
    noc_async_write(src_local_l1_addr, s.get_shard_noc_addr(shard_id, 0, noc),
                    s.get_aligned_page_size() * s.dspec().shard_volume(), noc);
}
