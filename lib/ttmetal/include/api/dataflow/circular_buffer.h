// api/dataflow/circular_buffer.h - tt-metal's circular buffer object (Device 2.0) for a
// data-movement kernel: the cb_* calls of one CB as methods, and the CB as an endpoint of
// the NoC object (api/dataflow/noc.h): a read lands at its write pointer, a write leaves
// from its read pointer, each plus {offset_bytes}; use<AddrSelector>(cb) picks the other
// pointer. tt-metal published it as experimental::CircularBuffer, then as ::CircularBuffer:
// both name this class. The compute-kernel (TRISC) half and scoped_lock() are not here.
#pragma once

#include <cstdint>

#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"

namespace experimental {

class CircularBuffer {
public:
    enum class AddrSelector { WRITE_PTR, READ_PTR };

    explicit CircularBuffer(std::uint32_t cb_id) : cb_id_(cb_id) {}

    [[nodiscard]] std::uint32_t get_cb_id() const { return cb_id_; }
    void reserve_back(std::int32_t num_pages) { cb_reserve_back(id(), num_pages); }
    void push_back(std::int32_t num_pages) { cb_push_back(id(), num_pages); }
    void wait_front(std::int32_t num_pages) { cb_wait_front(id(), num_pages); }
    void pop_front(std::int32_t num_pages) { cb_pop_front(id(), num_pages); }
    [[nodiscard]] bool pages_reservable_at_back(std::int32_t num_pages) const {
        return cb_pages_reservable_at_back(id(), num_pages);
    }
    [[nodiscard]] bool pages_available_at_front(std::int32_t num_pages) const {
        return cb_pages_available_at_front(id(), num_pages);
    }
    [[nodiscard]] std::uint32_t get_tile_size() const { return static_cast<std::uint32_t>(::get_tile_size(id())); }
    [[nodiscard]] std::uint32_t get_tile_hw() const { return ::get_tile_hw(id()); }
    [[nodiscard]] DataFormat get_dataformat() const { return ::get_dataformat(id()); }
    [[nodiscard]] std::uint32_t get_write_ptr() const { return ::get_write_ptr(cb_id_); }
    [[nodiscard]] std::uint32_t get_read_ptr() const { return ::get_read_ptr(cb_id_); }

private:
    [[nodiscard]] std::int32_t id() const { return static_cast<std::int32_t>(cb_id_); }
    std::uint32_t cb_id_;
};

// A CB with the pointer it stands for as an endpoint chosen: use<READ_PTR>(cb) as a read's
// destination lands at the read pointer.
template <CircularBuffer::AddrSelector AddrSel>
struct CircularBufferView {
    const CircularBuffer& cb;
    explicit constexpr CircularBufferView(const CircularBuffer& c) : cb(c) {}
};
template <CircularBuffer::AddrSelector AddrSel>
constexpr auto use(const CircularBuffer& cb) {
    return CircularBufferView<AddrSel>(cb);
}

namespace detail {
// A CB's endpoint: an L1 address on this core (`pointer` picks it), or, as a multicast's
// destination, that address on a rectangle of cores.
template <class Endpoint, std::uint32_t (*src_pointer)(const Endpoint&), std::uint32_t (*dst_pointer)(const Endpoint&)>
struct cb_endpoint {
    struct src_args_type {
        std::uint32_t offset_bytes{};
    };
    struct dst_args_type {
        std::uint32_t offset_bytes{};
    };
    struct dst_args_mcast_type {
        std::uint32_t noc_x_start{};
        std::uint32_t noc_y_start{};
        std::uint32_t noc_x_end{};
        std::uint32_t noc_y_end{};
        std::uint32_t offset_bytes{};
    };
    template <Noc::AddressType type>
    static std::uint32_t src_addr(const Endpoint& e, const Noc&, const src_args_type& args) {
        static_assert(type == Noc::AddressType::LOCAL_L1, "a circular buffer is a NoC endpoint only in this core's L1");
        return src_pointer(e) + args.offset_bytes;
    }
    template <Noc::AddressType type>
    static std::uint32_t dst_addr(const Endpoint& e, const Noc&, const dst_args_type& args) {
        static_assert(type == Noc::AddressType::LOCAL_L1, "a circular buffer is a NoC endpoint only in this core's L1");
        return dst_pointer(e) + args.offset_bytes;
    }
    template <Noc::AddressType type>
    static std::uint64_t dst_addr_mcast(const Endpoint& e, const Noc& noc, const dst_args_mcast_type& args) {
        static_assert(type == Noc::AddressType::NOC, "a multicast's destination is a NoC address");
        return ::get_noc_multicast_addr(args.noc_x_start, args.noc_y_start, args.noc_x_end, args.noc_y_end,
                                        dst_pointer(e) + args.offset_bytes, noc.get_noc_id());
    }
};
inline std::uint32_t cb_read_pointer(const CircularBuffer& cb) { return cb.get_read_ptr(); }
inline std::uint32_t cb_write_pointer(const CircularBuffer& cb) { return cb.get_write_ptr(); }
template <CircularBuffer::AddrSelector AddrSel>
std::uint32_t view_pointer(const CircularBufferView<AddrSel>& v) {
    return AddrSel == CircularBuffer::AddrSelector::READ_PTR ? v.cb.get_read_ptr() : v.cb.get_write_ptr();
}
}  // namespace detail

template <>
struct noc_traits_t<CircularBuffer>
    : detail::cb_endpoint<CircularBuffer, &detail::cb_read_pointer, &detail::cb_write_pointer> {};
template <CircularBuffer::AddrSelector AddrSel>
struct noc_traits_t<CircularBufferView<AddrSel>>
    : detail::cb_endpoint<CircularBufferView<AddrSel>, &detail::view_pointer<AddrSel>, &detail::view_pointer<AddrSel>> {
};

}  // namespace experimental

using experimental::CircularBuffer;
using experimental::CircularBufferView;
using experimental::use;
