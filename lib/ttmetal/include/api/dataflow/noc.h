// api/dataflow/noc.h - tt-metal's NoC object (Device 2.0): transfers between endpoints (a
// TensorAccessor's page or shard, a circular buffer, a Page) named by the endpoint and its
// arguments instead of addresses, and the barriers. Every method resolves its endpoints'
// addresses through noc_traits_t and calls the platform's primitive (noc_async_read and
// the like), so on ndshard's simulator each transfer is checked as a plain call is.
//
//   Noc noc;                                          // noc_index; Noc(1) for the other NoC
//   CircularBuffer cb(0);                             // api/dataflow/circular_buffer.h
//   cb.reserve_back(1);
//   noc.async_read(accessor, cb, page_bytes, {.page_id = i}, {.offset_bytes = 0});
//   noc.async_read_barrier();
//   noc.async_read_shard(accessor, cb, {shard_id}, {});      // a whole shard slot
//
// tt-metal published it first as experimental::Noc (experimental/noc.h, whose template
// parameters are the enums TxnIdMode, ResponseMode, McastMode, BarrierMode), then as ::Noc
// with NocOptions flags. Both spellings name this one class: an option parameter takes
// either kind (`auto`), and the simulator, which has no transaction ids, virtual channels
// or posted writes, ignores them (multicast's include-the-sender excepted).
#pragma once

#include <cstdint>
#include <type_traits>

#include "api/dataflow/dataflow_api.h"

namespace experimental {

// What a type is as a NoC endpoint: its argument types (src_args_type, dst_args_type,
// dst_args_mcast_type, shard_args_type) and its addresses (src_addr, dst_addr,
// dst_addr_mcast, shard_addr, shard_size). Specialized for each endpoint type.
template <typename T>
struct noc_traits_t {
    static_assert(sizeof(T) == 0, "this type is not a NoC endpoint (no noc_traits_t specialization)");
};

// tt-metal's later option flags (ORed at a call: async_write<NocOptions::POSTED>).
enum class NocOptions : std::uint32_t {
    DEFAULT = 0,
    TXN_ID = 1U << 0,
    POSTED = 1U << 1,
    CUSTOM_VC = 1U << 2,
    MCAST_INCL_SRC = 1U << 3,
    INLINE_L1 = 1U << 4,
    INLINE_REG = 1U << 5,
};
constexpr NocOptions operator|(NocOptions a, NocOptions b) noexcept {
    return static_cast<NocOptions>(static_cast<std::uint32_t>(a) | static_cast<std::uint32_t>(b));
}
constexpr bool has_flag(NocOptions opts, NocOptions flag) noexcept {
    return (static_cast<std::uint32_t>(opts) & static_cast<std::uint32_t>(flag)) != 0;
}
// The values some flags take (a virtual channel, a transaction id): accepted, unused here.
struct NocOptVals {
    std::uint32_t vc = NOC_UNICAST_WRITE_VC;
    std::uint32_t trid = 0;
};

class Noc {
public:
    enum class AddressType { NOC, LOCAL_L1 };
    enum class TxnIdMode { ENABLED, DISABLED };
    enum class ResponseMode { NON_POSTED, POSTED };
    enum class BarrierMode { TXN_ID, FULL };
    enum class McastMode { INCLUDE_SRC, EXCLUDE_SRC };
    enum class VcSelection { DEFAULT, CUSTOM };
    static constexpr std::uint32_t INVALID_TXN_ID = 0xFFFFFFFF;

    // An endpoint's argument types (of the type itself: shard_args_t<decltype(accessor)>
    // of a const accessor is its accessor type's).
    template <typename T>
    using src_args_t = typename noc_traits_t<std::remove_cv_t<std::remove_reference_t<T>>>::src_args_type;
    template <typename T>
    using dst_args_t = typename noc_traits_t<std::remove_cv_t<std::remove_reference_t<T>>>::dst_args_type;
    template <typename T>
    using dst_args_mcast_t = typename noc_traits_t<std::remove_cv_t<std::remove_reference_t<T>>>::dst_args_mcast_type;
    template <typename T>
    using shard_args_t = typename noc_traits_t<std::remove_cv_t<std::remove_reference_t<T>>>::shard_args_type;

    Noc() : noc_id_(noc_index) {}
    explicit Noc(std::uint8_t noc_id) : noc_id_(noc_id) {}

    [[nodiscard]] std::uint8_t get_noc_id() const { return noc_id_; }
    [[nodiscard]] bool is_local_bank(std::uint32_t virtual_x, std::uint32_t virtual_y) const {
        return virtual_x == my_x[noc_id_] && virtual_y == my_y[noc_id_];
    }
    [[nodiscard]] bool is_local_addr(const std::uint64_t noc_addr) const {
        return is_local_bank(::ndshard::tt::noc_addr_x(noc_addr), ::ndshard::tt::noc_addr_y(noc_addr));
    }

    // --- reads into this core's L1, writes from it ---
    template <auto opts = TxnIdMode::DISABLED, std::uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst, typename... Unused>
    void async_read(const Src& src, const Dst& dst, std::uint32_t size_bytes, const src_args_t<Src>& src_args,
                    const dst_args_t<Dst>& dst_args, const Unused&...) const {
        noc_async_read<max_page_size, enable_noc_tracing>(noc_src(src, src_args), l1_dst(dst, dst_args), size_bytes,
                                                          noc_id_);
    }
    template <auto opts = TxnIdMode::DISABLED, auto posted_or_size = ResponseMode::NON_POSTED, auto... more,
              typename Src, typename Dst, typename... Unused>
    void async_write(const Src& src, const Dst& dst, std::uint32_t size_bytes, const src_args_t<Src>& src_args,
                     const dst_args_t<Dst>& dst_args, const Unused&...) const {
        noc_async_write(l1_src(src, src_args), noc_dst(dst, dst_args), size_bytes, noc_id_);
    }
    // The stateful forms: the state is the simulator's nothing, every transfer is whole.
    template <auto opts = VcSelection::DEFAULT, std::uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src,
              typename... Unused>
    void set_async_read_state(const Src& src, std::uint32_t size_bytes, const src_args_t<Src>& src_args,
                              const Unused&...) const {
        (void)noc_src(src, src_args), (void)size_bytes;
    }
    template <auto opts = VcSelection::DEFAULT, std::uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src,
              typename Dst, typename... Unused>
    void async_read_with_state(const Src& src, const Dst& dst, std::uint32_t size_bytes,
                               const src_args_t<Src>& src_args, const dst_args_t<Dst>& dst_args,
                               const Unused&...) const {
        noc_async_read(noc_src(src, src_args), l1_dst(dst, dst_args), size_bytes, noc_id_);
    }
    template <auto opts = ResponseMode::NON_POSTED, std::uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Dst,
              typename... Unused>
    void set_async_write_state(const Dst& dst, std::uint32_t size_bytes, const dst_args_t<Dst>& dst_args,
                               const Unused&...) const {
        (void)noc_dst(dst, dst_args), (void)size_bytes;
    }
    template <auto opts = ResponseMode::NON_POSTED, std::uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src,
              typename Dst, typename... Unused>
    void async_write_with_state(const Src& src, const Dst& dst, std::uint32_t size_bytes,
                                const src_args_t<Src>& src_args, const dst_args_t<Dst>& dst_args,
                                const Unused&...) const {
        noc_async_write(l1_src(src, src_args), noc_dst(dst, dst_args), size_bytes, noc_id_);
    }
    // To a rectangle of cores (the sender among them with McastMode::INCLUDE_SRC or
    // NocOptions::MCAST_INCL_SRC).
    template <auto mode = McastMode::EXCLUDE_SRC, auto... more, typename Src, typename Dst, typename... Unused>
    void async_write_multicast(const Src& src, const Dst& dst, std::uint32_t size_bytes, std::uint32_t num_dsts,
                               const src_args_t<Src>& src_args, const dst_args_mcast_t<Dst>& dst_args,
                               bool linked = false, const Unused&...) const {
        const auto from = l1_src(src, src_args);
        const std::uint64_t to = noc_traits_t<Dst>::template dst_addr_mcast<AddressType::NOC>(dst, *this, dst_args);
        if constexpr (includes_sender<mode>()) {
            noc_async_write_multicast_loopback_src(from, to, size_bytes, num_dsts, linked, noc_id_);
        } else {
            noc_async_write_multicast(from, to, size_bytes, num_dsts, linked, noc_id_);
        }
    }

    // --- whole shards: the shard's slot (its padding included), its size from the shard's endpoint ---
    // Into L1: dst_args is the L1 endpoint's (a CB's offset), or, named as shard_args_t<Dst>,
    // the same shard of a local sharded accessor.
    template <auto opts = TxnIdMode::DISABLED, std::uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_read_shard(const Src& src, const Dst& dst, const shard_args_t<Src>& src_args,
                          const dst_args_t<Dst>& dst_args) const {
        noc_async_read<max_page_size, enable_noc_tracing>(noc_shard<AddressType::NOC>(src, src_args),
                                                          l1_dst(dst, dst_args), shard_bytes(src), noc_id_);
    }
    template <auto opts = TxnIdMode::DISABLED, std::uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_read_shard(const Src& src, const Dst& dst, const shard_args_t<Src>& src_args,
                          const shard_args_t<Dst>& dst_args) const {
        noc_async_read<max_page_size, enable_noc_tracing>(noc_shard<AddressType::NOC>(src, src_args),
                                                          noc_shard<AddressType::LOCAL_L1>(dst, dst_args),
                                                          shard_bytes(src), noc_id_);
    }
    // From L1: src_args is the L1 endpoint's, or, named as shard_args_t<Src>, a local shard.
    template <auto opts = TxnIdMode::DISABLED, auto... more, typename Src, typename Dst>
    void async_write_shard(const Src& src, const Dst& dst, const src_args_t<Src>& src_args,
                           const shard_args_t<Dst>& dst_args) const {
        noc_async_write(l1_src(src, src_args), noc_shard<AddressType::NOC>(dst, dst_args), shard_bytes(dst), noc_id_);
    }
    template <auto opts = TxnIdMode::DISABLED, auto... more, typename Src, typename Dst>
    void async_write_shard(const Src& src, const Dst& dst, const shard_args_t<Src>& src_args,
                           const shard_args_t<Dst>& dst_args) const {
        noc_async_write(noc_shard<AddressType::LOCAL_L1>(src, src_args), noc_shard<AddressType::NOC>(dst, dst_args),
                        shard_bytes(dst), noc_id_);
    }

    // --- values without an L1 source ---
    // One 32-bit value into a core's L1 (not DRAM), the bytes `be` enables: a write, done at
    // the write barrier. Either generation's options (TxnIdMode, InlineWriteDst, ResponseMode
    // or NocOptions); a stream register destination (REG) is not simulated.
    template <auto opts = TxnIdMode::DISABLED, auto... more, typename Dst, typename... Unused>
    void inline_dw_write(const Dst& dst, std::uint32_t val, const dst_args_t<Dst>& dst_args, std::uint8_t be = 0xF,
                         const Unused&...) const {
        static_assert(!targets_register<opts, more...>(), "inline_dw_write: stream registers are not simulated");
        noc_inline_dw_write(noc_dst(dst, dst_args), val, be, noc_id_);
    }
    // Zeros into this core's L1 at a circular buffer's write pointer (and offset): tt-metal
    // reads them from a zero region, so they land as a read does, at write_zeros_l1_barrier.
    template <typename Dst>
    void async_write_zeros(const Dst& dst, std::uint32_t size_bytes, const dst_args_t<Dst>& args = {}) const {
        ::ndshard::tt::platform::zero_l1(l1_dst(dst, args), size_bytes, noc_id_);
    }
    // Zeros into a page of a tensor: written from `scratch`'s read pointer, which the kernel
    // zeroed first (the form above), in bursts; done at write_zeros_dram_barrier.
    template <typename Dst, typename Scratch>
    void async_write_zeros(const Dst& dst, std::uint32_t size_bytes, const dst_args_t<Dst>& args,
                           const Scratch& scratch) const {
        const std::uint32_t from = scratch.get_read_ptr();
        for (std::uint32_t done = 0; done < size_bytes;) {
            const std::uint32_t n = size_bytes - done < NOC_MAX_BURST_SIZE ? size_bytes - done : NOC_MAX_BURST_SIZE;
            dst_args_t<Dst> part = args;
            part.offset_bytes += done;
            noc_async_write(from, noc_dst(dst, part), n, noc_id_);
            done += n;
        }
    }
    void write_zeros_l1_barrier() const { noc_async_read_barrier(noc_id_); }
    void write_zeros_dram_barrier() const { noc_async_write_barrier(noc_id_); }

    // --- barriers (a transaction id's barrier waits for everything here) ---
    template <auto mode = BarrierMode::FULL, typename... Unused>
    void async_read_barrier(const Unused&...) const {
        noc_async_read_barrier(noc_id_);
    }
    template <auto mode = BarrierMode::FULL, typename... Unused>
    void async_write_barrier(const Unused&...) const {
        noc_async_write_barrier(noc_id_);
    }
    template <auto mode = ResponseMode::NON_POSTED, auto... more, typename... Unused>
    void async_writes_flushed(const Unused&...) const {
        noc_async_writes_flushed(noc_id_);
    }
    void async_atomic_barrier() const { noc_async_atomic_barrier(noc_id_); }
    void async_full_barrier() const { noc_async_full_barrier(noc_id_); }

private:
    template <auto opt>
    static constexpr bool is_register() {
        if constexpr (std::is_same_v<decltype(opt), InlineWriteDst>) return opt == InlineWriteDst::REG;
        else if constexpr (std::is_same_v<decltype(opt), NocOptions>) return has_flag(opt, NocOptions::INLINE_REG);
        else return false;
    }
    template <auto... opts>
    static constexpr bool targets_register() {
        return (is_register<opts>() || ...);
    }
    template <auto mode>
    static constexpr bool includes_sender() {
        if constexpr (std::is_same_v<decltype(mode), McastMode>) return mode == McastMode::INCLUDE_SRC;
        else if constexpr (std::is_same_v<decltype(mode), NocOptions>)
            return has_flag(mode, NocOptions::MCAST_INCL_SRC);
        else return false;
    }
    template <typename Src>
    std::uint64_t noc_src(const Src& src, const src_args_t<Src>& args) const {
        return noc_traits_t<Src>::template src_addr<AddressType::NOC>(src, *this, args);
    }
    template <typename Dst>
    std::uint64_t noc_dst(const Dst& dst, const dst_args_t<Dst>& args) const {
        return noc_traits_t<Dst>::template dst_addr<AddressType::NOC>(dst, *this, args);
    }
    template <typename Src>
    std::uint32_t l1_src(const Src& src, const src_args_t<Src>& args) const {
        return static_cast<std::uint32_t>(
            noc_traits_t<Src>::template src_addr<AddressType::LOCAL_L1>(src, *this, args));
    }
    template <typename Dst>
    std::uint32_t l1_dst(const Dst& dst, const dst_args_t<Dst>& args) const {
        return static_cast<std::uint32_t>(
            noc_traits_t<Dst>::template dst_addr<AddressType::LOCAL_L1>(dst, *this, args));
    }
    template <AddressType type, typename T>
    auto noc_shard(const T& endpoint, const shard_args_t<T>& args) const {
        return noc_traits_t<T>::template shard_addr<type>(endpoint, *this, args);
    }
    template <typename T>
    static std::uint32_t shard_bytes(const T& endpoint) {
        return noc_traits_t<T>::shard_size(endpoint);
    }

    std::uint8_t noc_id_;
};

}  // namespace experimental

// tt-metal's later spellings, in the global namespace (a noc_traits_t of one's own is
// specialized in namespace experimental).
using experimental::has_flag;
using experimental::Noc;
using experimental::noc_traits_t;
using experimental::NocOptions;
using experimental::NocOptVals;
using experimental::operator|;

// The accessor's and the page's traits, wherever noc.h is included from.
#include "api/tensor/noc_traits.h"
