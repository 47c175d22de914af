// api/dataflow/dataflow_buffer.h - tt-metal's DataflowBuffer (Metal 2.0) as it is on
// Wormhole and Blackhole: a circular buffer by another name. Its entries are the CB's pages;
// it is a NoC endpoint as the CB is (a read lands at its write pointer, a write leaves from
// its read pointer, plus {offset_bytes}). dfb::name (internal/ndshard_kernel_bindings.h)
// names one by the id its program gives it. Quasar's tile counters, the scoped locks and the
// compute (TRISC) half are not here.
#pragma once

#include <cstdint>

#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"

namespace experimental {

// dfb::name: a dataflow buffer's id (tt-metal's DFBAccessor, later DFBBindingToken).
struct DFBAccessor {
    std::uint16_t id;
    constexpr operator std::uint16_t() const noexcept { return id; }
};

class DataflowBuffer : public CircularBuffer {
public:
    DataflowBuffer(DFBAccessor token) : CircularBuffer(token.id) {}
    DataflowBuffer(std::uint16_t logical_dfb_id) : CircularBuffer(logical_dfb_id) {}

    [[nodiscard]] std::uint16_t get_id() const { return static_cast<std::uint16_t>(get_cb_id()); }
    [[nodiscard]] std::uint32_t get_entry_size() const { return ::ndshard::tt::platform::cb_page_size(get_cb_id()); }
    [[nodiscard]] std::uint32_t get_stride_size() const { return get_entry_size(); }
    [[nodiscard]] std::uint32_t get_total_num_entries() const {
        return ::ndshard::tt::platform::cb_num_pages(get_cb_id());
    }
    [[nodiscard]] std::uint32_t get_total_size_bytes() const { return get_entry_size() * get_total_num_entries(); }
    // One ring on Wormhole and Blackhole: the local and ring-span views are the whole buffer.
    [[nodiscard]] std::uint32_t get_local_num_entries() const { return get_total_num_entries(); }
    [[nodiscard]] std::uint32_t get_local_size_bytes() const { return get_total_size_bytes(); }
    [[nodiscard]] std::uint32_t get_ring_span_bytes() const { return get_total_size_bytes(); }
    [[nodiscard]] std::uint32_t get_ring_span_num_entries() const { return get_total_num_entries(); }
    void finish() {}  // nothing to drain here
    void write_barrier(const Noc& noc) const { noc.async_write_barrier(); }
};

template <>
struct noc_traits_t<DataflowBuffer> : noc_traits_t<CircularBuffer> {};

}  // namespace experimental

using DFBBindingToken = experimental::DFBAccessor;
using experimental::DataflowBuffer;
