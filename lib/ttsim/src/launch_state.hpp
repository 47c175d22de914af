// The state of a launch (launch.cpp): the classes its parts share. Internal.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>
#include <string>
#include <vector>

#include "kernel_cache.hpp"
#include "l1_window.hpp"
#include "ndshard/error.hpp"
#include "ndshard/ttsim/launch.hpp"
#include "ndshard/tt/noc.hpp"
#include "ndshard/tt/tile.hpp"
#include "ndshard/ttsim/kernel_abi.hpp"
#include "scheduler.hpp"

namespace ndshard::ttsim::launch_impl {

using detail::stop_kernel;
using specio::hex;

constexpr std::byte poison{0xDB};         // what a read's destination holds until the read lands
constexpr std::byte never_written{0xCD};  // a circular buffer's bytes at the launch's start

// Bytes nobody wrote (launch_defined.cpp): per core (L1) or DRAM bank, ranges of memory
// addresses, each remembering where its first byte came from (a core's key and address).
struct undef_span {
    std::uint32_t end = 0;
    std::uint64_t origin_core = 0;
    std::uint32_t origin = 0;
};
using undef_set = std::map<std::uint32_t, undef_span>;  // begin -> the range
// Undefined bytes of a transfer: [off, off + len) of it, from origin on.
struct undef_run {
    std::uint32_t off = 0, len = 0;
    std::uint64_t origin_core = 0;
    std::uint32_t origin = 0;
};

// A circular buffer on one core.
struct cb_state {
    std::uint32_t id = 0;
    std::uint32_t base = 0, size = 0, page_size = 0, num_pages = 0;
    std::uint32_t format = 0, tile_hw = 1024;
    bool in_buffer = false;                 // its memory is a live buffer's (circular_buffer_desc::address)
    std::uint32_t received = 0, acked = 0;  // pages pushed and popped since the launch began
    std::uint32_t wr = 0, rd = 0;           // the back and the front (L1 addresses)
    std::vector<std::uint32_t> clock;       // every push and pop released into it (launch_race.cpp)
    std::uint32_t reserved = 0;             // pages reserved and not yet pushed
    std::uint32_t waited = 0;               // pages waited for and not yet popped
    [[nodiscard]] std::uint32_t filled() const noexcept { return received - acked; }
    [[nodiscard]] std::uint32_t end() const noexcept { return base + size; }
};

// A NoC transfer in flight.
struct transfer {
    bool write = false;
    std::size_t task = 0;
    std::uint8_t noc = 0;
    core_coord src_core, dst_core;
    std::uint32_t src = 0, dst = 0, size = 0;
    std::vector<std::byte> data;   // a write's source, once read
    bool taken = false;            // a write: its source has been read (flushed)
    bool inline_source = false;    // its source is `data`, not memory (noc_write_inline)
    std::uint64_t land_at = 0;     // a read may land early, at this step (0: at its barrier)
    std::vector<undef_run> undef;  // a write: the undefined bytes of its source, once read
};

class launch_state;

// One kernel thread: the services its tt-metal calls arrive at.
class kernel_services final : public abi::services {
public:
    kernel_services(launch_state& s, std::size_t task, abi::identity id, std::string name)
        : s_(s), task_(task), id_(id), name_(std::move(name)) {}
    [[nodiscard]] const abi::identity& self() const noexcept override { return id_; }
    std::uint32_t arg(std::uint32_t index, bool common) override;
    std::uint32_t arg_addr(std::uint32_t index, bool common) override;
    void cb_reserve_back(std::int32_t cb, std::int32_t pages) override;
    void cb_push_back(std::int32_t cb, std::int32_t pages) override;
    void cb_wait_front(std::int32_t cb, std::int32_t pages) override;
    void cb_pop_front(std::int32_t cb, std::int32_t pages) override;
    bool cb_pages_reservable_at_back(std::int32_t cb, std::int32_t pages) override;
    bool cb_pages_available_at_front(std::int32_t cb, std::int32_t pages) override;
    std::uint32_t cb_write_ptr(std::int32_t cb) override;
    std::uint32_t cb_read_ptr(std::int32_t cb) override;
    std::uint32_t cb_tile_size(std::int32_t cb) override;
    std::uint32_t cb_data_format(std::int32_t cb) override;
    std::uint32_t cb_tile_hw(std::int32_t cb) override;
    std::uint32_t cb_page_size(std::int32_t cb) override;
    std::uint32_t cb_num_pages(std::int32_t cb) override;
    void noc_read(std::uint64_t src, std::uint32_t dst_l1, std::uint32_t size, std::uint8_t noc, bool page) override;
    void noc_write(std::uint32_t src_l1, std::uint64_t dst, std::uint32_t size, std::uint8_t noc, bool page) override;
    void noc_write_multicast(std::uint32_t src_l1, std::uint64_t dst_rect, std::uint32_t size, std::uint32_t num_dests,
                             bool include_self, std::uint8_t noc) override;
    void noc_write_inline(std::uint64_t dst, const void* data, std::uint32_t size, std::uint8_t noc,
                          bool as_read) override;
    void noc_read_barrier(std::uint8_t noc) override;
    void noc_write_barrier(std::uint8_t noc) override;
    void noc_writes_flushed(std::uint8_t noc) override;
    void noc_atomic_barrier(std::uint8_t noc) override;
    std::uint32_t semaphore_addr(std::uint32_t id) override;
    void semaphore_set(std::uint32_t l1_addr, std::uint32_t value) override;
    void semaphore_wait(std::uint32_t l1_addr, std::uint32_t value, bool at_least) override;
    void semaphore_inc(std::uint64_t dst, std::uint32_t increment, std::uint8_t noc) override;
    std::uint32_t bank_xy(bool dram, std::uint32_t bank, std::uint8_t noc) override;
    std::uint32_t bank_offset(bool dram, std::uint32_t bank) override;
    [[noreturn]] void accessor_index(const char* what) override;
    void print(const char* text) override;
    [[noreturn]] void fail(const char* what) override;

    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    [[nodiscard]] core_coord core() const noexcept { return {id_.x, id_.y}; }
    // What the kernel leaves unbarriered if it ends now ("" when nothing).
    [[nodiscard]] std::string unbarriered() const;

private:
    friend class launch_state;
    cb_state& cb(std::int32_t id, const char* call);
    void step();
    launch_state& s_;
    std::size_t task_;
    abi::identity id_;
    std::string name_;
    // Per NoC: reads and writes issued since that NoC's last read / write barrier. A kernel
    // that ends with any is a finding, whether or not the transfer has landed by then.
    std::array<std::uint32_t, 2> unbarriered_reads_{}, unbarriered_writes_{};
};

class launch_state {
public:
    launch_state(sim::device& dev, const program& p, const launch_options& o)
        : dev_(dev), p_(p), o_(o), random_(o.seed ^ 0x6C61756E6368ULL) {}

    launch_result run();

    // --- used by kernel_services ---
    [[noreturn]] void report(finding_kind kind, const kernel_services& who, const std::string& what) {
        result_.findings.push_back({kind, who.name(), what});
        sched_->stop();
        throw stop_kernel{};
    }
    void count_step(kernel_services& who) {
        if (++result_.steps > o_.step_limit)
            report(finding_kind::hang, who,
                   "more than " + std::to_string(o_.step_limit) + " API calls: a kernel never finishes");
        land_due_reads();
        sched_->maybe_switch();
    }
    std::map<std::uint32_t, cb_state>& cbs(core_coord c) { return cbs_[key(c)]; }
    std::byte* l1(core_coord c, std::uint32_t addr) { return window_->image(worker_index(c)) + (addr - l1_window); }
    [[nodiscard]] bool is_worker(core_coord c) const noexcept {
        return c.x < dev_.config().grid_x && c.y < dev_.config().grid_y;
    }
    [[nodiscard]] std::uint32_t worker_index(core_coord c) const noexcept { return c.y * dev_.config().grid_x + c.x; }
    // DRAM bank b's offset in the bank table (tt-metal's bank_to_dram_offset): every NoC
    // address in the bank is this much past the device's own address. Not zero, so that a
    // kernel that forgets it misses its buffer.
    static constexpr std::uint32_t dram_offset(std::uint32_t bank) noexcept { return (bank + 1) * 0x1'0000U; }
    [[nodiscard]] std::uint32_t l1_end() const noexcept {
        return static_cast<std::uint32_t>(l1_window + dev_.config().l1_size);
    }

    // The bytes of [addr, addr + size) at a NoC endpoint, checked: nullptr and a reason when
    // no live buffer or region holds them all. `writing`: padding slots and alignment gaps
    // of a buffer refuse writes. `page`: the range must stay in one page of a buffer.
    // `data`: what a write would put there; a padding slot may take bytes that hold the sentinel
    // (a whole-slot transfer between buffers laid out alike), nothing else.
    std::byte* endpoint_bytes(core_coord at, std::uint32_t addr, std::uint32_t size, bool writing, bool page,
                              std::string& why, finding_kind& kind, const std::byte* data = nullptr);
    void check_cb_window(kernel_services& who, std::uint32_t addr, std::uint32_t size, bool into);
    void land(transfer& t);
    void land_due_reads();
    void take_source(transfer& t);
    // --- bytes nobody wrote (launch_defined.cpp) ---
    void init_undefined();  // at the start: circular buffers, buffers' padding and unfilled pages
    // A NoC-local address at c as its memory's address (a DRAM bank's table offset removed).
    [[nodiscard]] std::uint32_t mem_addr(core_coord c, std::uint32_t local) const;
    // The bytes of [addr, +size) at c (memory addresses) that nobody wrote.
    std::vector<undef_run> undefined_runs(core_coord c, std::uint32_t addr, std::uint32_t size);
    // A transfer landed on [addr, +size) at c: its undefined bytes are `runs`, the rest defined.
    void set_undefined(core_coord c, std::uint32_t addr, std::uint32_t size, const std::vector<undef_run>& runs);
    // "padding slot 3 of buffer 'in' (0x... in L1 of core (0,0))", "circular buffer 0 (slot 1) on (0,0)".
    std::string place_of(std::uint64_t core, std::uint32_t addr, bool origin);
    // A transfer of [src_local, +size) at `from` (NoC-local) to `to` `local`: undefined bytes
    // of its source that would land in a page of a buffer are an `uninitialized` finding.
    void check_defined(kernel_services& who, const std::string& call, core_coord from, std::uint32_t src_local,
                       core_coord to, std::uint32_t local, std::uint32_t size);
    // The buffer whose bytes `local` at `at` is (addr: its address in the memory, core_index:
    // the core's index in its distribution), or nullptr.
    const sim::buffer_info* buffer_of(core_coord at, std::uint32_t local, std::uint32_t& addr,
                                      std::size_t& core_index) const;
    // --- races (launch_race.cpp) ---
    void hb_start();  // once every task exists
    void hb_release(std::size_t task, std::vector<std::uint32_t>& into);
    void hb_acquire(std::size_t task, const std::vector<std::uint32_t>& from);
    void hb_access(const transfer& t);  // a transfer landing
    std::vector<std::uint32_t>& sync_clock(core_coord c, std::uint32_t addr) { return sync_clocks_[{key(c), addr}]; }

    sim::device& dev_;
    const program& p_;
    const launch_options& o_;
    launch_result result_;
    std::unique_ptr<detail::l1_window> window_;
    std::unique_ptr<detail::scheduler> sched_;
    std::vector<std::unique_ptr<kernel_services>> services_;
    std::map<std::uint64_t, std::map<std::uint32_t, cb_state>> cbs_;
    std::map<std::uint64_t, std::vector<std::uint32_t>> semaphores_;  // per core: each id's address
    std::vector<transfer> in_flight_;
    // Every transfer of in_flight_ before settled_ is a write whose source was read: nothing
    // the per-call checks and barriers look for (reads, writes still reading their source),
    // so they walk only the rest (a writer flushing each page of 65,536 would otherwise walk
    // every earlier write per call). Only landing writes removes such transfers: those sites
    // erase with erase_landed, which starts over.
    std::size_t settled_ = 0;
    // The transfers after the settled ones.
    std::span<transfer> unsettled() {
        while (settled_ < in_flight_.size() && in_flight_[settled_].write && in_flight_[settled_].taken &&
               in_flight_[settled_].size != 0)
            ++settled_;
        return {in_flight_.data() + settled_, in_flight_.size() - settled_};
    }
    // Erases landed transfers (size 0) after the settled ones: reads landing, nothing else.
    void erase_landed_unsettled() {
        in_flight_.erase(std::remove_if(in_flight_.begin() + static_cast<std::ptrdiff_t>(settled_), in_flight_.end(),
                                        [](const transfer& t) { return t.size == 0; }),
                         in_flight_.end());
    }
    // Erases every landed transfer (writes too).
    void erase_landed() {
        std::erase_if(in_flight_, [](const transfer& t) { return t.size == 0; });
        settled_ = 0;
    }
    std::unordered_map<std::uint64_t, undef_set> undefined_;  // per core or DRAM bank
    struct writer {
        std::uint32_t task = 0, clock = 0;
        std::uint8_t mask = 0;  // the bytes of the word it wrote
    };
    std::vector<std::vector<std::uint32_t>> clocks_;                                             // per task
    std::map<std::pair<std::uint64_t, std::uint32_t>, std::vector<std::uint32_t>> sync_clocks_;  // per L1 word
    std::unordered_map<std::uint64_t, writer> last_writer_;  // per 4-byte word of a buffer
    testkit::random_entropy random_;

    static std::uint64_t key(core_coord c) { return (std::uint64_t{c.x} << 32) | c.y; }
};

}  // namespace ndshard::ttsim::launch_impl
