// api/tensor/noc_traits.h - the accessor's endpoints of the NoC object (api/dataflow/noc.h):
// a TensorAccessor's page ({page_id, offset_bytes}) and, sharded, its shard ({shard_id,
// offset_bytes}, the whole slot), a Page from its iterators ({offset_bytes}), and an
// AbstractTensorAccessorWrapper's page. As a LOCAL_L1 endpoint (a read's destination, a
// write's source) the address must be on this core: ASSERT, as tt-metal's watcher does.
#pragma once

#include <cstdint>

#include "api/dataflow/noc.h"
#include "api/tensor/tensor_accessor.h"

namespace experimental::detail {
// A NoC address as the endpoint kind asked for: itself, or its local part on this core.
template <Noc::AddressType type>
auto endpoint_addr(const Noc& noc, std::uint64_t noc_addr) {
    if constexpr (type == Noc::AddressType::LOCAL_L1) {
        ASSERT(noc.is_local_addr(noc_addr));
        return static_cast<std::uint32_t>(::ndshard::tt::noc_addr_local(noc_addr));
    } else {
        (void)noc;
        return noc_addr;
    }
}
// A page of anything with get_noc_addr(page_id, offset, noc).
template <class Accessor>
struct page_endpoint {
    struct src_args_type {
        std::uint32_t page_id{};
        std::uint32_t offset_bytes = 0;
    };
    struct dst_args_type {
        std::uint32_t page_id{};
        std::uint32_t offset_bytes = 0;
    };
    template <Noc::AddressType type>
    static auto src_addr(const Accessor& a, const Noc& noc, const src_args_type& args) {
        return endpoint_addr<type>(noc, a.get_noc_addr(args.page_id, args.offset_bytes, noc.get_noc_id()));
    }
    template <Noc::AddressType type>
    static auto dst_addr(const Accessor& a, const Noc& noc, const dst_args_type& args) {
        return endpoint_addr<type>(noc, a.get_noc_addr(args.page_id, args.offset_bytes, noc.get_noc_id()));
    }
};
}  // namespace experimental::detail

namespace experimental {

// An interleaved accessor: pages only.
template <class DSpecT>
struct noc_traits_t<::TensorAccessor<DSpecT, true>> : detail::page_endpoint<::TensorAccessor<DSpecT, true>> {};

// A sharded accessor: pages, and whole shards (async_read_shard, async_write_shard).
template <class DSpecT>
struct noc_traits_t<::TensorAccessor<DSpecT, false>> : detail::page_endpoint<::TensorAccessor<DSpecT, false>> {
    using accessor = ::TensorAccessor<DSpecT, false>;
    struct shard_args_type {
        std::uint32_t shard_id{};
        std::uint32_t offset_bytes = 0;
    };
    template <Noc::AddressType type>
    static auto shard_addr(const accessor& a, const Noc& noc, const shard_args_type& args) {
        return detail::endpoint_addr<type>(noc,
                                           a.get_shard_noc_addr(args.shard_id, args.offset_bytes, noc.get_noc_id()));
    }
    // A shard's slot: every page of the shard shape, padding included.
    static std::uint32_t shard_size(const accessor& a) { return a.get_aligned_page_size() * a.dspec().shard_volume(); }
};

template <>
struct noc_traits_t<::AbstractTensorAccessorWrapper> : detail::page_endpoint<::AbstractTensorAccessorWrapper> {};

// A page the iterators yield: its own address, plus an offset.
template <>
struct noc_traits_t<::tensor_accessor::Page> {
    struct src_args_type {
        std::uint32_t offset_bytes = 0;
    };
    struct dst_args_type {
        std::uint32_t offset_bytes = 0;
    };
    template <Noc::AddressType type>
    static auto src_addr(const ::tensor_accessor::Page& p, const Noc& noc, const src_args_type& args) {
        return detail::endpoint_addr<type>(noc, p.noc_addr() + args.offset_bytes);
    }
    template <Noc::AddressType type>
    static auto dst_addr(const ::tensor_accessor::Page& p, const Noc& noc, const dst_args_type& args) {
        return detail::endpoint_addr<type>(noc, p.noc_addr() + args.offset_bytes);
    }
};

}  // namespace experimental
