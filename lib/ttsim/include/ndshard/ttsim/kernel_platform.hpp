// ndshard/ttsim/kernel_platform.hpp - the platform under tt-metal's kernel API when a kernel
// runs on ndshard's simulated device (internal/ndshard_platform.h says what a platform
// provides). Compiled into every kernel (NDSHARD_TT_PLATFORM names it): each tt-metal call
// is a call of the simulator's services (kernel_abi.hpp) for the kernel's thread.
// Signatures are tt-metal's (docs/kernels.md lists what is supported).
#pragma once

#include <sys/types.h>  // uint, as kernels use it

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "ndshard/tt/data_format.hpp"
#include "ndshard/tt/noc.hpp"
#include "ndshard/ttsim/kernel_abi.hpp"

#ifndef FORCE_INLINE
#define FORCE_INLINE inline __attribute__((always_inline))
#endif
#ifndef ALWI
#define ALWI inline __attribute__((always_inline))
#endif
#ifndef tt_l1_ptr
#define tt_l1_ptr
#endif
#ifndef tt_reg_ptr
#define tt_reg_ptr
#endif
#ifndef NOC_INDEX
#define NOC_INDEX 0
#endif
#ifndef NUM_NOCS
#define NUM_NOCS 2
#endif
// The accessor checks its indices (api/tensor/tensor_accessor.h): a page id past the tensor
// is the kernel's finding, not a wild address.
#define NDSHARD_TT_CHECKED 1

#ifndef ASSERT
#define ASSERT(condition, ...) ((condition) ? (void)0 : ::ndshard_ttsim_services->fail("ASSERT(" #condition ") failed"))
#endif
#ifndef WAYPOINT
#define WAYPOINT(x) ((void)0)
#endif
// tt-metal's device profiler zones and markers (the firmware includes its profiler for every
// kernel): nothing is profiled here.
#ifndef DeviceZoneScopedN
#define DeviceZoneScopedN(name) ((void)0)
#endif
#ifndef DeviceTimestampedData
#define DeviceTimestampedData(name, data) ((void)(data))
#endif

// The services of the simulator for this kernel thread (set by the entry point below).
inline thread_local ::ndshard::ttsim::abi::services* ndshard_ttsim_services = nullptr;

constexpr std::uint8_t noc_index = NOC_INDEX;
constexpr std::uint8_t noc_mode = 0;

// my_x[noc] and my_y[noc]: this core's coordinate (the same on both NoCs: virtual coordinates).
struct ndshard_ttsim_my_coordinate {
    bool is_x;
    std::uint8_t operator[](std::size_t) const noexcept {
        const auto& me = ndshard_ttsim_services->self();
        return static_cast<std::uint8_t>(is_x ? me.x : me.y);
    }
};
inline constexpr ndshard_ttsim_my_coordinate my_x{true};
inline constexpr ndshard_ttsim_my_coordinate my_y{false};

inline std::uint32_t get_my_thread_id() { return ndshard_ttsim_services->self().thread; }
inline std::uint32_t get_num_threads() { return ndshard_ttsim_services->self().threads; }
inline std::uint8_t get_absolute_logical_x() { return static_cast<std::uint8_t>(ndshard_ttsim_services->self().x); }
inline std::uint8_t get_absolute_logical_y() { return static_cast<std::uint8_t>(ndshard_ttsim_services->self().y); }
inline std::uint8_t get_relative_logical_x() { return get_absolute_logical_x(); }
inline std::uint8_t get_relative_logical_y() { return get_absolute_logical_y(); }

// --- kernel arguments ---
namespace ndshard::ttsim::kernel {
// Argument word arg_idx (of the common runtime arguments when common) as the 4-byte T.
template <typename T>
FORCE_INLINE T arg_as(int arg_idx, bool common) {
    const std::uint32_t v = ndshard_ttsim_services->arg(static_cast<std::uint32_t>(arg_idx), common);
    T out;
    __builtin_memcpy(&out, &v, 4);
    return out;
}
}  // namespace ndshard::ttsim::kernel
template <typename T>
FORCE_INLINE T get_arg_val(int arg_idx) {
    static_assert(sizeof(T) == 4, "get_arg_val<T>: T must be 4 bytes");
    return ::ndshard::ttsim::kernel::arg_as<T>(arg_idx, false);
}
template <typename T>
FORCE_INLINE T get_common_arg_val(int arg_idx) {
    static_assert(sizeof(T) == 4, "get_common_arg_val<T>: T must be 4 bytes");
    return ::ndshard::ttsim::kernel::arg_as<T>(arg_idx, true);
}
static FORCE_INLINE std::uintptr_t get_arg_addr(int arg_idx) {
    return ndshard_ttsim_services->arg_addr(static_cast<std::uint32_t>(arg_idx), false);
}
static FORCE_INLINE std::uintptr_t get_common_arg_addr(int arg_idx) {
    return ndshard_ttsim_services->arg_addr(static_cast<std::uint32_t>(arg_idx), true);
}

// --- data formats and circular buffers ---
using DataFormat = ::ndshard::tt::DataFormat;  // tt-metal's values (ndshard/tt/data_format.hpp)

FORCE_INLINE void cb_reserve_back(std::int32_t operand, std::int32_t num_pages) {
    ndshard_ttsim_services->cb_reserve_back(operand, num_pages);
}
FORCE_INLINE void cb_push_back(const std::int32_t operand, const std::int32_t num_pages) {
    ndshard_ttsim_services->cb_push_back(operand, num_pages);
}
FORCE_INLINE void cb_wait_front(std::int32_t operand, std::int32_t num_pages) {
    ndshard_ttsim_services->cb_wait_front(operand, num_pages);
}
FORCE_INLINE void cb_pop_front(std::int32_t operand, std::int32_t num_pages) {
    ndshard_ttsim_services->cb_pop_front(operand, num_pages);
}
FORCE_INLINE bool cb_pages_reservable_at_back(std::int32_t operand, std::int32_t num_pages) {
    return ndshard_ttsim_services->cb_pages_reservable_at_back(operand, num_pages);
}
FORCE_INLINE bool cb_pages_available_at_front(std::int32_t operand, std::int32_t num_pages) {
    return ndshard_ttsim_services->cb_pages_available_at_front(operand, num_pages);
}
FORCE_INLINE std::uint32_t get_write_ptr(std::uint32_t operand) {
    return ndshard_ttsim_services->cb_write_ptr(static_cast<std::int32_t>(operand));
}
FORCE_INLINE std::uint32_t get_read_ptr(std::uint32_t operand) {
    return ndshard_ttsim_services->cb_read_ptr(static_cast<std::int32_t>(operand));
}
// The bytes of one tile of the CB's data format and tile shape (as tt-metal's
// get_tile_size: Float16_b 32 x 32 is 2048 whatever the CB's page size), not its slot size.
inline std::int32_t get_tile_size(const std::int32_t operand) {
    return static_cast<std::int32_t>(ndshard_ttsim_services->cb_tile_size(operand));
}
inline std::uint32_t get_tile_hw(const std::int32_t operand) { return ndshard_ttsim_services->cb_tile_hw(operand); }
inline DataFormat get_dataformat(const std::int32_t operand) {
    return static_cast<DataFormat>(ndshard_ttsim_services->cb_data_format(operand));
}

// --- NoC addresses ---
#define NOC_XY_ADDR(x, y, addr) (::ndshard::tt::noc_xy_addr((x), (y), (addr)))
#define NOC_XY_ENCODING(x, y) (::ndshard::tt::noc_xy_encoding((x), (y)))
#define NOC_UNICAST_ADDR_X(addr) (::ndshard::tt::noc_addr_x(addr))
#define NOC_UNICAST_ADDR_Y(addr) (::ndshard::tt::noc_addr_y(addr))
#define NOC_LOCAL_ADDR_OFFSET(addr) (::ndshard::tt::noc_addr_local(addr))
#define DYNAMIC_NOC_X(noc, x) (x)
#define DYNAMIC_NOC_Y(noc, y) (y)
#define NUM_DRAM_BANKS (ndshard_ttsim_services->self().num_dram_banks)
#define NUM_L1_BANKS (ndshard_ttsim_services->self().num_l1_banks)
#define DRAM_ALIGNMENT (::ndshard::tt::chip_dram_alignment)
#define L1_ALIGNMENT (::ndshard::tt::chip_l1_alignment)
#define NOC_MAX_BURST_SIZE 8192
#define NOC_UNICAST_WRITE_VC 1
#define NOC_MULTICAST_WRITE_VC 4

namespace ndshard::ttsim::kernel {
// A rectangle of cores and an address: tt-metal's multicast layout above the 36 local bits
// (x_end, y_end, x_start, y_start, 6 bits each).
constexpr std::uint64_t multicast_addr(std::uint32_t x0, std::uint32_t y0, std::uint32_t x1, std::uint32_t y1,
                                       std::uint32_t addr) noexcept {
    constexpr std::uint32_t l = ::ndshard::tt::chip_noc.local_bits, n = ::ndshard::tt::chip_noc.id_bits;
    return (std::uint64_t{y0} << (l + 3 * n)) | (std::uint64_t{x0} << (l + 2 * n)) | (std::uint64_t{y1} << (l + n)) |
           (std::uint64_t{x1} << l) | addr;
}
}  // namespace ndshard::ttsim::kernel

FORCE_INLINE std::uint64_t get_noc_addr(std::uint32_t noc_x, std::uint32_t noc_y, std::uint32_t addr,
                                        std::uint8_t noc = noc_index) {
    (void)noc;
    return NOC_XY_ADDR(noc_x, noc_y, addr);
}
FORCE_INLINE std::uint64_t get_noc_addr(std::uint32_t addr, std::uint8_t noc = noc_index) {
    return NOC_XY_ADDR(my_x[noc], my_y[noc], addr);
}
FORCE_INLINE std::uint64_t get_noc_addr_helper(std::uint32_t noc_xy, std::uint32_t addr) {
    return ::ndshard::tt::noc_packed_addr(noc_xy, addr);
}
FORCE_INLINE std::uint64_t get_noc_multicast_addr(std::uint32_t noc_x_start, std::uint32_t noc_y_start,
                                                  std::uint32_t noc_x_end, std::uint32_t noc_y_end, std::uint32_t addr,
                                                  std::uint8_t noc = noc_index) {
    (void)noc;
    return ::ndshard::ttsim::kernel::multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end, addr);
}

// --- NoC transfers (sizes in bytes) ---
template <std::uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true>
inline void noc_async_read(std::uint64_t src_noc_addr, std::uint32_t dst_local_l1_addr, std::uint32_t size,
                           std::uint8_t noc = noc_index, std::uint32_t read_req_vc = NOC_UNICAST_WRITE_VC) {
    (void)read_req_vc;
    ndshard_ttsim_services->noc_read(src_noc_addr, dst_local_l1_addr, size, noc, false);
}
template <bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_read_one_packet(std::uint64_t src_noc_addr, std::uint32_t dst_local_l1_addr,
                                            std::uint32_t size, std::uint8_t noc = noc_index,
                                            std::uint32_t read_req_vc = NOC_UNICAST_WRITE_VC) {
    noc_async_read(src_noc_addr, dst_local_l1_addr, size, noc, read_req_vc);
}
template <std::uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true, bool posted = false>
inline void noc_async_write(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr, std::uint32_t size,
                            std::uint8_t noc = noc_index, std::uint32_t vc = NOC_UNICAST_WRITE_VC) {
    (void)vc;
    ndshard_ttsim_services->noc_write(src_local_l1_addr, dst_noc_addr, size, noc, false);
}
template <bool enable_noc_tracing = true, bool posted = false>
FORCE_INLINE void noc_async_write_one_packet(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr,
                                             std::uint32_t size, std::uint8_t noc = noc_index,
                                             std::uint32_t vc = NOC_UNICAST_WRITE_VC) {
    noc_async_write(src_local_l1_addr, dst_noc_addr, size, noc, vc);
}
template <std::uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1>
inline void noc_async_write_multicast(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr_multicast,
                                      std::uint32_t size, std::uint32_t num_dests, bool linked = false,
                                      std::uint8_t noc = noc_index, std::uint8_t vc = NOC_MULTICAST_WRITE_VC) {
    (void)linked, (void)vc;
    ndshard_ttsim_services->noc_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, false, noc);
}
inline void noc_async_write_multicast_loopback_src(std::uint32_t src_local_l1_addr,
                                                   std::uint64_t dst_noc_addr_multicast, std::uint32_t size,
                                                   std::uint32_t num_dests, bool linked = false,
                                                   std::uint8_t noc = noc_index) {
    (void)linked;
    ndshard_ttsim_services->noc_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, true, noc);
}
// Where an inline write goes (tt-metal's InlineWriteDst): L1 here; stream registers are not simulated.
enum class InlineWriteDst : std::uint8_t { DEFAULT = 0, L1 = 1, REG = 2 };
namespace ndshard::ttsim::kernel {
// One 32-bit value written by the NoC without an L1 source, the bytes `be` enables (bit i:
// byte i at addr + i), each contiguous run of them one transfer the simulator checks and tracks.
inline void inline_dw_write(std::uint64_t addr, std::uint32_t val, std::uint32_t be, std::uint8_t noc) {
    if (be == 0 || be > 0xFU) {
        char text[120];
        std::snprintf(text, sizeof text, "noc_inline_dw_write: byte enable 0x%x is not in 0x1..0xF", be);
        ndshard_ttsim_services->fail(text);
    }
    unsigned char bytes[4];
    __builtin_memcpy(bytes, &val, 4);
    for (std::uint32_t i = 0; i < 4;) {
        if ((be >> i & 1U) == 0) {
            ++i;
            continue;
        }
        std::uint32_t n = 0;
        while (i + n < 4 && (be >> (i + n) & 1U) != 0) ++n;
        ndshard_ttsim_services->noc_write_inline(addr + i, bytes + i, n, noc, false);
        i += n;
    }
}
}  // namespace ndshard::ttsim::kernel
namespace ndshard::tt::platform {
// `size` bytes of zeros into this core's L1 at `l1_addr`, as a read lands (async_write_zeros).
inline void zero_l1(std::uint32_t l1_addr, std::uint32_t size, std::uint8_t noc) {
    static const unsigned char zeros[1024] = {};
    for (std::uint32_t done = 0; done < size;) {
        const std::uint32_t n = size - done < sizeof zeros ? size - done : static_cast<std::uint32_t>(sizeof zeros);
        ndshard_ttsim_services->noc_write_inline(get_noc_addr(l1_addr + done, noc), zeros, n, noc, true);
        done += n;
    }
}
}  // namespace ndshard::tt::platform
// tt-metal's noc_inline_dw_write: `val` to `addr` (a worker core's L1; not DRAM), the bytes
// `be` enables; completes at the write barrier like noc_async_write.
template <InlineWriteDst dst_type = InlineWriteDst::DEFAULT, bool posted = false, bool flush = true>
FORCE_INLINE void noc_inline_dw_write(std::uint64_t addr, std::uint32_t val, std::uint8_t be = 0xF,
                                      std::uint8_t noc = noc_index, std::uint8_t vc = NOC_UNICAST_WRITE_VC,
                                      std::uint32_t customized_src_addr = 0) {
    static_assert(dst_type != InlineWriteDst::REG, "noc_inline_dw_write: stream registers are not simulated");
    (void)vc, (void)customized_src_addr;
    ::ndshard::ttsim::kernel::inline_dw_write(addr, val, be, noc);
}
inline void noc_async_read_barrier(std::uint8_t noc = noc_index) { ndshard_ttsim_services->noc_read_barrier(noc); }
FORCE_INLINE void noc_async_write_barrier(std::uint8_t noc = noc_index) {
    ndshard_ttsim_services->noc_write_barrier(noc);
}
FORCE_INLINE void noc_async_writes_flushed(std::uint8_t noc = noc_index) {
    ndshard_ttsim_services->noc_writes_flushed(noc);
}
FORCE_INLINE void noc_async_posted_writes_flushed(std::uint8_t noc = noc_index) {
    ndshard_ttsim_services->noc_writes_flushed(noc);
}
FORCE_INLINE void noc_async_atomic_barrier(std::uint8_t noc_idx = noc_index) {
    ndshard_ttsim_services->noc_atomic_barrier(noc_idx);
}
FORCE_INLINE void noc_async_full_barrier(std::uint8_t noc_idx = noc_index) {
    ndshard_ttsim_services->noc_read_barrier(noc_idx);
    ndshard_ttsim_services->noc_write_barrier(noc_idx);
    ndshard_ttsim_services->noc_atomic_barrier(noc_idx);
}

// --- semaphores ---
enum class ProgrammableCoreType : std::uint8_t { TENSIX = 0, ACTIVE_ETH = 1, IDLE_ETH = 2 };
template <ProgrammableCoreType type = ProgrammableCoreType::TENSIX>
FORCE_INLINE std::uintptr_t get_semaphore(std::uint32_t semaphore_id) {
    return ndshard_ttsim_services->semaphore_addr(semaphore_id);
}
namespace ndshard::ttsim::kernel {
inline std::uint32_t l1_of(const volatile std::uint32_t* p) {
    return static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(p));
}
}  // namespace ndshard::ttsim::kernel
FORCE_INLINE void noc_semaphore_set(volatile tt_l1_ptr std::uint32_t* sem_addr, std::uint32_t val) {
    ndshard_ttsim_services->semaphore_set(::ndshard::ttsim::kernel::l1_of(sem_addr), val);
}
FORCE_INLINE void noc_semaphore_wait(volatile tt_l1_ptr std::uint32_t* sem_addr, std::uint32_t val) {
    ndshard_ttsim_services->semaphore_wait(::ndshard::ttsim::kernel::l1_of(sem_addr), val, false);
}
FORCE_INLINE void noc_semaphore_wait_min(volatile tt_l1_ptr std::uint32_t* sem_addr, std::uint32_t val) {
    ndshard_ttsim_services->semaphore_wait(::ndshard::ttsim::kernel::l1_of(sem_addr), val, true);
}
template <bool posted = false>
FORCE_INLINE void noc_semaphore_inc(std::uint64_t addr, std::uint32_t incr, std::uint8_t noc_id = noc_index,
                                    std::uint8_t vc = NOC_UNICAST_WRITE_VC) {
    (void)vc;
    ndshard_ttsim_services->semaphore_inc(addr, incr, noc_id);
}
inline void noc_semaphore_set_remote(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr,
                                     std::uint8_t noc = noc_index) {
    ndshard_ttsim_services->noc_write(src_local_l1_addr, dst_noc_addr, 4, noc, false);
}
inline void noc_semaphore_set_multicast(std::uint32_t src_local_l1_addr, std::uint64_t dst_noc_addr_multicast,
                                        std::uint32_t num_dests, bool linked = false, std::uint8_t noc = noc_index,
                                        std::uint8_t vc = NOC_MULTICAST_WRITE_VC) {
    (void)linked, (void)vc;
    ndshard_ttsim_services->noc_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, 4, num_dests, false, noc);
}

// --- the platform's part of the accessor and the interleaved generators ---
namespace ndshard::tt::platform {
inline std::uint32_t num_dram_banks() { return ndshard_ttsim_services->self().num_dram_banks; }
inline std::uint32_t num_l1_banks() { return ndshard_ttsim_services->self().num_l1_banks; }
inline std::uint32_t dram_bank_xy(std::uint32_t bank, std::uint8_t noc) {
    return ndshard_ttsim_services->bank_xy(true, bank, noc);
}
inline std::uint32_t dram_bank_offset(std::uint32_t bank) { return ndshard_ttsim_services->bank_offset(true, bank); }
inline std::uint32_t l1_bank_xy(std::uint32_t bank, std::uint8_t noc) {
    return ndshard_ttsim_services->bank_xy(false, bank, noc);
}
inline std::uint32_t l1_bank_offset(std::uint32_t bank) { return ndshard_ttsim_services->bank_offset(false, bank); }
inline std::uint32_t common_arg_count() { return ndshard_ttsim_services->self().common_args_count; }
inline std::uint32_t cb_page_size(std::uint32_t cb) {
    return ndshard_ttsim_services->cb_page_size(static_cast<std::int32_t>(cb));
}
inline std::uint32_t cb_num_pages(std::uint32_t cb) {
    return ndshard_ttsim_services->cb_num_pages(static_cast<std::int32_t>(cb));
}
[[noreturn]] inline void out_of_range(const char* what, std::uint32_t index, std::uint32_t limit) {
    char text[160];
    std::snprintf(text, sizeof text, "%s %u is not below %u", what, index, limit);
    ndshard_ttsim_services->accessor_index(text);
}
// One page of a buffer (noc_async_read_page and the like): the simulator checks it stays in one page.
inline void noc_read_page(std::uint64_t src, std::uint32_t dst, std::uint32_t size, std::uint8_t noc) {
    ndshard_ttsim_services->noc_read(src, dst, size, noc, true);
}
inline void noc_write_page(std::uint32_t src, std::uint64_t dst, std::uint32_t size, std::uint8_t noc) {
    ndshard_ttsim_services->noc_write(src, dst, size, noc, true);
}
}  // namespace ndshard::tt::platform

// --- the firmware's bank tables, as kernels index them ---
// tt-metal's firmware fills extern arrays at boot (dram_bank_to_noc_xy[noc][bank] and
// l1_bank_to_noc_xy[noc][bank], packed NoC xy; bank_to_dram_offset[bank] and
// bank_to_l1_offset[bank], signed byte offsets). Here they are read-only tables over the
// simulator's device: the same subscripts, a bank past the table fails the kernel.
namespace ndshard::ttsim::kernel {
struct bank_xy_row {
    bool dram;
    std::uint8_t noc;
    std::uint16_t operator[](std::uint32_t bank) const {
        return static_cast<std::uint16_t>(ndshard_ttsim_services->bank_xy(dram, bank, noc));
    }
};
struct bank_xy_table {
    bool dram;
    bank_xy_row operator[](std::uint32_t noc) const {
        if (noc >= NUM_NOCS) ::ndshard::tt::platform::out_of_range("bank table NoC index", noc, NUM_NOCS);
        return {dram, static_cast<std::uint8_t>(noc)};
    }
};
struct bank_offset_table {
    bool dram;
    std::int32_t operator[](std::uint32_t bank) const {
        return static_cast<std::int32_t>(ndshard_ttsim_services->bank_offset(dram, bank));
    }
};
}  // namespace ndshard::ttsim::kernel
inline constexpr ndshard::ttsim::kernel::bank_xy_table dram_bank_to_noc_xy{true};
inline constexpr ndshard::ttsim::kernel::bank_xy_table l1_bank_to_noc_xy{false};
inline constexpr ndshard::ttsim::kernel::bank_offset_table bank_to_dram_offset{true};
inline constexpr ndshard::ttsim::kernel::bank_offset_table bank_to_l1_offset{false};

// --- DPRINT, as a stream (DPRINT << a << b << ENDL();) ---
namespace ndshard::ttsim::kernel {
struct ENDL {};
struct HEX {};
struct DEC {};
struct SETW {
    explicit SETW(int) {}
};
class debug_printer {
public:
    debug_printer() = default;
    debug_printer(const debug_printer&) = delete;
    template <class T>
    debug_printer& operator<<(const T& v) {
        if constexpr (std::is_same_v<T, ENDL>) {
            ndshard_ttsim_services->print(line_.c_str());
            line_.clear();
        } else if constexpr (std::is_same_v<T, HEX>) {
            hex_ = true;
        } else if constexpr (std::is_same_v<T, DEC>) {
            hex_ = false;
        } else if constexpr (std::is_same_v<T, SETW>) {
        } else if constexpr (std::is_convertible_v<T, const char*>) {
            line_ += static_cast<const char*>(v);
        } else if constexpr (std::is_same_v<T, char>) {
            line_ += v;
        } else if constexpr (std::is_floating_point_v<T>) {
            line_ += std::to_string(v);
        } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
            char buf[32];
            const auto u = static_cast<long long>(v);
            std::snprintf(buf, sizeof buf, hex_ ? "0x%llx" : "%lld", u);
            line_ += buf;
        } else {
            line_ += "?";
        }
        return *this;
    }
    ~debug_printer() {
        if (!line_.empty()) ndshard_ttsim_services->print(line_.c_str());
    }

private:
    std::string line_;
    bool hex_ = false;
};
}  // namespace ndshard::ttsim::kernel
using ENDL = ::ndshard::ttsim::kernel::ENDL;
using HEX = ::ndshard::ttsim::kernel::HEX;
using DEC = ::ndshard::ttsim::kernel::DEC;
using SETW = ::ndshard::ttsim::kernel::SETW;
#define DPRINT ::ndshard::ttsim::kernel::debug_printer()
#define DPRINT_DATA0(x) \
    if (noc_index == 0) x
#define DPRINT_DATA1(x) \
    if (noc_index == 1) x

// The kernel's entry, called by the simulator on the kernel's thread.
void kernel_main();
extern "C" __attribute__((visibility("default"))) void ndshard_ttsim_entry(::ndshard::ttsim::abi::services* services) {
    ndshard_ttsim_services = services;
    kernel_main();
}
extern "C" __attribute__((visibility("default"))) std::uint32_t ndshard_ttsim_abi_version() {
    return ::ndshard::ttsim::abi::version;
}
