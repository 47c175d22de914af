// ndshard/ttsim/kernel_abi.hpp - what a compiled kernel asks of the simulator. A kernel is
// compiled into a shared object with kernel_platform.hpp; the simulator loads it and calls
// its entry, ndshard_ttsim_entry(services*), on the kernel's own thread; every tt-metal
// call the kernel makes becomes a call of the services object of that thread. Both sides
// are compiled by the same compiler from this header, so the interface is a plain class.
#pragma once

#include <cstdint>

namespace ndshard::ttsim::abi {

// Bumped when the interface changes: a cached kernel of another version is rebuilt.
inline constexpr std::uint32_t version = 5;

// What a kernel sees of its core and itself.
struct identity {
    std::uint32_t x = 0, y = 0;                                 // the core's NoC (and logical) coordinate
    std::uint32_t thread = 0, threads = 1;                      // this data-movement thread of the kernel on the core
    std::uint32_t args_addr = 0, args_count = 0;                // unique runtime arguments in L1
    std::uint32_t common_args_addr = 0, common_args_count = 0;  // common runtime arguments in L1
    std::uint32_t num_dram_banks = 0, num_l1_banks = 0;
};

class services {
public:
    virtual ~services() = default;
    [[nodiscard]] virtual const identity& self() const noexcept = 0;

    // Kernel arguments: the index is checked against the count (a finding past it).
    virtual std::uint32_t arg(std::uint32_t index, bool common) = 0;
    virtual std::uint32_t arg_addr(std::uint32_t index, bool common) = 0;

    // Circular buffers (pages; tt-metal's semantics, every rule checked).
    virtual void cb_reserve_back(std::int32_t cb, std::int32_t pages) = 0;
    virtual void cb_push_back(std::int32_t cb, std::int32_t pages) = 0;
    virtual void cb_wait_front(std::int32_t cb, std::int32_t pages) = 0;
    virtual void cb_pop_front(std::int32_t cb, std::int32_t pages) = 0;
    virtual bool cb_pages_reservable_at_back(std::int32_t cb, std::int32_t pages) = 0;
    virtual bool cb_pages_available_at_front(std::int32_t cb, std::int32_t pages) = 0;
    virtual std::uint32_t cb_write_ptr(std::int32_t cb) = 0;
    virtual std::uint32_t cb_read_ptr(std::int32_t cb) = 0;
    virtual std::uint32_t cb_tile_size(std::int32_t cb) = 0;  // one tile of its format and tile shape
    virtual std::uint32_t cb_data_format(std::int32_t cb) = 0;
    virtual std::uint32_t cb_tile_hw(std::int32_t cb) = 0;
    virtual std::uint32_t cb_page_size(std::int32_t cb) = 0;  // its page (a DataflowBuffer's entry)
    virtual std::uint32_t cb_num_pages(std::int32_t cb) = 0;

    // The NoC. `page` says the transfer is one page of a buffer (noc_async_read_page and
    // the like): it must not cross into another page.
    virtual void noc_read(std::uint64_t src, std::uint32_t dst_l1, std::uint32_t size, std::uint8_t noc, bool page) = 0;
    virtual void noc_write(std::uint32_t src_l1, std::uint64_t dst, std::uint32_t size, std::uint8_t noc,
                           bool page) = 0;
    virtual void noc_write_multicast(std::uint32_t src_l1, std::uint64_t dst_rect, std::uint32_t size,
                                     std::uint32_t num_dests, bool include_self, std::uint8_t noc) = 0;
    // A NoC transfer whose source is `size` bytes of `data`, copied now, not L1: an inline
    // write (noc_inline_dw_write) to a core's L1, checked and tracked as noc_write's; or,
    // `as_read`, bytes landing in this core's L1 as a read does (poison until the read
    // barrier), which is how tt-metal zeroes L1 (async_write_zeros: a read of a zero region).
    virtual void noc_write_inline(std::uint64_t dst, const void* data, std::uint32_t size, std::uint8_t noc,
                                  bool as_read) = 0;
    virtual void noc_read_barrier(std::uint8_t noc) = 0;
    virtual void noc_write_barrier(std::uint8_t noc) = 0;
    virtual void noc_writes_flushed(std::uint8_t noc) = 0;
    virtual void noc_atomic_barrier(std::uint8_t noc) = 0;

    // Semaphores: addresses in this core's L1 (get_semaphore), or a NoC address (inc, set_remote).
    virtual std::uint32_t semaphore_addr(std::uint32_t id) = 0;
    virtual void semaphore_set(std::uint32_t l1_addr, std::uint32_t value) = 0;
    virtual void semaphore_wait(std::uint32_t l1_addr, std::uint32_t value, bool at_least) = 0;
    virtual void semaphore_inc(std::uint64_t dst, std::uint32_t increment, std::uint8_t noc) = 0;

    // Bank tables of the interleaved generators and the DRAM accessor.
    virtual std::uint32_t bank_xy(bool dram, std::uint32_t bank, std::uint8_t noc) = 0;
    virtual std::uint32_t bank_offset(bool dram, std::uint32_t bank) = 0;

    // DPRINT: one line of text.
    virtual void print(const char* text) = 0;
    // A kernel that stops itself (tt-metal's ASSERT): a finding naming `what`.
    [[noreturn]] virtual void fail(const char* what) = 0;
    // An accessor asked for a page id, shard id or coordinate outside its tensor
    // (tensor_accessor.h's checks, NDSHARD_TT_CHECKED): a finding naming `what`.
    [[noreturn]] virtual void accessor_index(const char* what) = 0;
};

}  // namespace ndshard::ttsim::abi
