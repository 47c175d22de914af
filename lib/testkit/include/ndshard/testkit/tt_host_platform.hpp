// ndshard/testkit/tt_host_platform.hpp - a platform for tt-metal's accessor headers on the
// host, for tests that build TensorAccessor from words they made (props/tt_accessor*.cpp,
// the tt conformance adapters): the common runtime words, this core's coordinates and the
// DRAM bank table are whatever the test sets in `tt_host`. No NoC, no circular buffers:
// only what the accessor asks of a platform (internal/ndshard_platform.h).
//
// Use: -DNDSHARD_TT_PLATFORM='"ndshard/testkit/tt_host_platform.hpp"'.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ndshard/tt/noc.hpp"

#ifndef FORCE_INLINE
#define FORCE_INLINE inline __attribute__((always_inline))
#endif

namespace ndshard::testkit {

// The state a test sets before it builds an accessor (one per thread).
struct tt_host_state {
    std::vector<std::uint32_t> runtime_args;         // get_arg_val
    std::vector<std::uint32_t> common_runtime_args;  // get_common_arg_val and the accessor's CRTA
    std::uint8_t x = 0, y = 0;                       // this core's coordinate on both NoCs
    std::uint32_t thread = 0, threads = 1;           // get_my_thread_id, get_num_threads
    // DRAM bank b's NoC endpoint and the offset added to every address in it.
    std::vector<core_coord> dram_banks;
    std::vector<std::uint32_t> dram_offsets;
    std::vector<core_coord> l1_banks;
};
inline thread_local tt_host_state tt_host;

}  // namespace ndshard::testkit

template <typename T>
T get_arg_val(int i) {
    return static_cast<T>(::ndshard::testkit::tt_host.runtime_args.at(static_cast<std::size_t>(i)));
}
template <typename T>
T get_common_arg_val(int i) {
    return static_cast<T>(::ndshard::testkit::tt_host.common_runtime_args.at(static_cast<std::size_t>(i)));
}
inline std::uintptr_t get_arg_addr(int i) {
    return reinterpret_cast<std::uintptr_t>(::ndshard::testkit::tt_host.runtime_args.data() + i);
}
inline std::uintptr_t get_common_arg_addr(int i) {
    return reinterpret_cast<std::uintptr_t>(::ndshard::testkit::tt_host.common_runtime_args.data() + i);
}
inline constexpr std::uint8_t noc_index = 0;
struct tt_host_coordinate {  // my_x[noc] and my_y[noc]: this core's coordinate on either NoC
    bool is_x;
    std::uint8_t operator[](std::size_t) const noexcept {
        return is_x ? ::ndshard::testkit::tt_host.x : ::ndshard::testkit::tt_host.y;
    }
};
inline constexpr tt_host_coordinate my_x{true};
inline constexpr tt_host_coordinate my_y{false};
inline std::uint32_t get_my_thread_id() { return ::ndshard::testkit::tt_host.thread; }
inline std::uint32_t get_num_threads() { return ::ndshard::testkit::tt_host.threads; }

namespace ndshard::tt::platform {
inline std::uint32_t num_dram_banks() {
    return static_cast<std::uint32_t>(::ndshard::testkit::tt_host.dram_banks.size());
}
inline std::uint32_t num_l1_banks() { return static_cast<std::uint32_t>(::ndshard::testkit::tt_host.l1_banks.size()); }
inline std::uint32_t dram_bank_xy(std::uint32_t bank, std::uint8_t) {
    const core_coord c = ::ndshard::testkit::tt_host.dram_banks.at(bank);
    return noc_xy_encoding(c.x, c.y);
}
inline std::uint32_t dram_bank_offset(std::uint32_t bank) {
    const auto& offsets = ::ndshard::testkit::tt_host.dram_offsets;
    return bank < offsets.size() ? offsets[bank] : 0U;
}
inline std::uint32_t l1_bank_xy(std::uint32_t bank, std::uint8_t) {
    const core_coord c = ::ndshard::testkit::tt_host.l1_banks.at(bank);
    return noc_xy_encoding(c.x, c.y);
}
inline std::uint32_t l1_bank_offset(std::uint32_t) { return 0; }
inline std::uint32_t common_arg_count() {
    return static_cast<std::uint32_t>(::ndshard::testkit::tt_host.common_runtime_args.size());
}
}  // namespace ndshard::tt::platform
