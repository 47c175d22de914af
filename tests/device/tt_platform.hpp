// tests/device/tt_platform.hpp - the platform of tt-metal's kernel API for the rv32im
// programs under qemu (internal/ndshard_platform.h says what a platform provides): the
// common runtime words, this core and the DRAM bank table are the program's globals, and a
// NoC read only records its source address (tt_reader_test.cpp checks them).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "ndshard/tt/noc.hpp"

#ifndef FORCE_INLINE
#define FORCE_INLINE inline __attribute__((always_inline))
#endif

namespace tt_device {
inline const uint32_t* common_args = nullptr;  // the kernel's common runtime words
inline uint32_t common_arg_count = 0;
inline const uint32_t* args = nullptr;  // its unique runtime words
inline uint8_t x = 0, y = 0;
inline uint32_t thread = 0, threads = 1;
// DRAM bank b: its NoC endpoint and the offset the table adds to every address in it.
inline constexpr uint32_t dram_banks = 16;
constexpr uint32_t dram_x(uint32_t b) { return 40 + b % 8; }
constexpr uint32_t dram_y(uint32_t b) { return 50 + b / 8; }
constexpr uint32_t dram_offset(uint32_t b) { return b * 0x100U; }
// The source of the last NoC read.
inline uint64_t last_read = 0;
inline uint32_t reads = 0;
}  // namespace tt_device

template <typename T>
T get_common_arg_val(int i) {
    return static_cast<T>(tt_device::common_args[i]);
}
template <typename T>
T get_arg_val(int i) {
    return static_cast<T>(tt_device::args[i]);
}
inline uintptr_t get_common_arg_addr(int i) { return reinterpret_cast<uintptr_t>(tt_device::common_args + i); }
inline uintptr_t get_arg_addr(int i) { return reinterpret_cast<uintptr_t>(tt_device::args + i); }
inline constexpr uint8_t noc_index = 0;
struct tt_device_coordinate {
    bool is_x;
    uint8_t operator[](size_t) const { return is_x ? tt_device::x : tt_device::y; }
};
inline constexpr tt_device_coordinate my_x{true};
inline constexpr tt_device_coordinate my_y{false};
inline uint32_t get_my_thread_id() { return tt_device::thread; }
inline uint32_t get_num_threads() { return tt_device::threads; }

// A kernel-style reader's one NoC call: it records where the data would come from.
inline void noc_async_read(uint64_t src_noc_addr, uint32_t, uint32_t, uint8_t = noc_index) {
    tt_device::last_read = src_noc_addr;
    ++tt_device::reads;
}
inline void noc_async_read_barrier(uint8_t = noc_index) {}

namespace ndshard::tt::platform {
inline uint32_t num_dram_banks() { return tt_device::dram_banks; }
inline uint32_t num_l1_banks() { return 0; }
inline uint32_t dram_bank_xy(uint32_t bank, uint8_t) {
    return noc_xy_encoding(tt_device::dram_x(bank), tt_device::dram_y(bank));
}
inline uint32_t dram_bank_offset(uint32_t bank) { return tt_device::dram_offset(bank); }
inline uint32_t l1_bank_xy(uint32_t, uint8_t) { return 0; }
inline uint32_t l1_bank_offset(uint32_t) { return 0; }
inline uint32_t common_arg_count() { return tt_device::common_arg_count; }
}  // namespace ndshard::tt::platform
