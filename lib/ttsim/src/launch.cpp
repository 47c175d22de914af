// ndshard::ttsim::launch: a program's kernels on the simulated device (launch.hpp).
//
// The state of a launch: every worker's L1 as an image in the L1 window (buffers copied in
// at the start and out at the end), the program's regions (circular buffers, semaphores,
// arguments) reserved in each core's L1, the NoC transfers in flight, and one services
// object per kernel thread through which the kernel's tt-metal calls arrive.
#include "ndshard/ttsim/launch.hpp"

#include "launch_state.hpp"

namespace ndshard::ttsim {

namespace launch_impl {

// --- kernel_services ---

void kernel_services::step() { s_.count_step(*this); }

[[noreturn]] void kernel_services::fail(const char* what) {
    s_.report(finding_kind::kernel_error, *this, std::string("the kernel stopped: ") + what);
}

[[noreturn]] void kernel_services::accessor_index(const char* what) {
    s_.report(finding_kind::accessor, *this, std::string("out of range: ") + what);
}

void kernel_services::print(const char* text) { s_.result_.log += name_ + ": " + text + "\n"; }

std::uint32_t kernel_services::arg(std::uint32_t index, bool common) {
    const std::uint32_t count = common ? id_.common_args_count : id_.args_count;
    if (index >= count)
        s_.report(finding_kind::kernel_error, *this,
                  std::string(common ? "get_common_arg_val(" : "get_arg_val(") + std::to_string(index) + "): " +
                      std::to_string(count) + (common ? " common runtime" : " runtime") + " arguments were set");
    std::uint32_t v = 0;
    std::memcpy(&v, s_.l1(core(), (common ? id_.common_args_addr : id_.args_addr) + 4 * index), 4);
    return v;
}

std::uint32_t kernel_services::arg_addr(std::uint32_t index, bool common) {
    const std::uint32_t count = common ? id_.common_args_count : id_.args_count;
    // Pointing one past the last word is allowed (an empty list's start); reading there is not.
    if (index > count)
        s_.report(finding_kind::kernel_error, *this,
                  std::string(common ? "get_common_arg_addr(" : "get_arg_addr(") + std::to_string(index) +
                      "): " + std::to_string(count) + " arguments were set");
    return (common ? id_.common_args_addr : id_.args_addr) + 4 * index;
}

cb_state& kernel_services::cb(std::int32_t id, const char* call) {
    auto& cbs = s_.cbs(core());
    const auto it = cbs.find(static_cast<std::uint32_t>(id));
    if (id < 0 || it == cbs.end())
        s_.report(finding_kind::cb_protocol, *this,
                  std::string(call) + "(" + std::to_string(id) + ", ...): no circular buffer " + std::to_string(id) +
                      " on core " + to_string(core()));
    return it->second;
}

void kernel_services::cb_reserve_back(std::int32_t id, std::int32_t pages) {
    step();
    cb_state& c = cb(id, "cb_reserve_back");
    const auto n = static_cast<std::uint32_t>(pages);
    if (pages <= 0 || n > c.num_pages)
        s_.report(finding_kind::cb_protocol, *this,
                  "cb_reserve_back(" + std::to_string(id) + ", " + std::to_string(pages) + ") on a " +
                      std::to_string(c.num_pages) + "-page circular buffer: it can never have that much room");
    s_.sched_->wait_until("cb_reserve_back(" + std::to_string(id) + ", " + std::to_string(pages) + ") on " +
                              to_string(core()) + ": " + std::to_string(c.num_pages - c.filled()) + " of " +
                              std::to_string(c.num_pages) + " pages free",
                          [&c, n] { return c.num_pages - c.filled() >= n; });
    s_.hb_acquire(task_, c.clock);
    c.reserved = std::max(c.reserved, n);
}

void kernel_services::cb_push_back(std::int32_t id, std::int32_t pages) {
    step();
    cb_state& c = cb(id, "cb_push_back");
    const auto n = static_cast<std::uint32_t>(pages);
    const std::string call = "cb_push_back(" + std::to_string(id) + ", " + std::to_string(pages) + ")";
    if (pages <= 0 || n > c.reserved)
        s_.report(finding_kind::cb_protocol, *this,
                  call + ": " + std::to_string(c.reserved) + " pages were reserved (cb_reserve_back) and not pushed");
    if (c.wr + n * c.page_size > c.end())
        s_.report(finding_kind::cb_protocol, *this,
                  call + " at " + hex(c.wr) + ": the pages straddle the end of the buffer (" + hex(c.end()) +
                      "); pushes of one lap must add up to its " + std::to_string(c.num_pages) + " pages");
    // A read still in flight into the pages being pushed: the consumer would see its poison.
    for (const transfer& t : s_.unsettled())
        if (!t.write && t.dst_core == core() && t.dst < c.wr + n * c.page_size && c.wr < t.dst + t.size)
            s_.report(finding_kind::async, *this,
                      call + ": a read into " + hex(t.dst) + " (" + std::to_string(t.size) +
                          " bytes) has not landed; call noc_async_read_barrier before pushing");
    s_.hb_release(task_, c.clock);
    c.reserved -= n;
    c.received += n;
    c.wr += n * c.page_size;
    if (c.wr == c.end()) c.wr = c.base;
}

void kernel_services::cb_wait_front(std::int32_t id, std::int32_t pages) {
    step();
    cb_state& c = cb(id, "cb_wait_front");
    const auto n = static_cast<std::uint32_t>(pages);
    if (pages <= 0 || n > c.num_pages)
        s_.report(finding_kind::cb_protocol, *this,
                  "cb_wait_front(" + std::to_string(id) + ", " + std::to_string(pages) + ") on a " +
                      std::to_string(c.num_pages) + "-page circular buffer: it can never hold that much");
    s_.sched_->wait_until("cb_wait_front(" + std::to_string(id) + ", " + std::to_string(pages) + ") on " +
                              to_string(core()) + ": " + std::to_string(c.filled()) + " pages pushed",
                          [&c, n] { return c.filled() >= n; });
    s_.hb_acquire(task_, c.clock);
    c.waited = std::max(c.waited, n);
}

void kernel_services::cb_pop_front(std::int32_t id, std::int32_t pages) {
    step();
    cb_state& c = cb(id, "cb_pop_front");
    const auto n = static_cast<std::uint32_t>(pages);
    const std::string call = "cb_pop_front(" + std::to_string(id) + ", " + std::to_string(pages) + ")";
    if (pages <= 0 || n > c.waited)
        s_.report(finding_kind::cb_protocol, *this,
                  call + ": " + std::to_string(c.waited) + " pages were waited for (cb_wait_front) and not popped");
    if (c.rd + n * c.page_size > c.end())
        s_.report(finding_kind::cb_protocol, *this,
                  call + " at " + hex(c.rd) + ": the pages straddle the end of the buffer (" + hex(c.end()) + ")");
    // A write whose source is these pages and has not been read yet: the producer may overwrite them.
    for (const transfer& t : s_.unsettled())
        if (t.write && !t.taken && t.src_core == core() && t.src < c.rd + n * c.page_size && c.rd < t.src + t.size)
            s_.report(finding_kind::async, *this,
                      call + ": a write from " + hex(t.src) + " (" + std::to_string(t.size) +
                          " bytes) still reads these pages; call noc_async_writes_flushed before popping");
    s_.hb_release(task_, c.clock);
    c.waited -= n;
    c.acked += n;
    c.rd += n * c.page_size;
    if (c.rd == c.end()) c.rd = c.base;
}

bool kernel_services::cb_pages_reservable_at_back(std::int32_t id, std::int32_t pages) {
    step();
    const cb_state& c = cb(id, "cb_pages_reservable_at_back");
    return pages >= 0 && c.num_pages - c.filled() >= static_cast<std::uint32_t>(pages);
}
bool kernel_services::cb_pages_available_at_front(std::int32_t id, std::int32_t pages) {
    step();
    const cb_state& c = cb(id, "cb_pages_available_at_front");
    return pages >= 0 && c.filled() >= static_cast<std::uint32_t>(pages);
}
std::uint32_t kernel_services::cb_write_ptr(std::int32_t id) { return cb(id, "get_write_ptr").wr; }
std::uint32_t kernel_services::cb_read_ptr(std::int32_t id) { return cb(id, "get_read_ptr").rd; }
std::uint32_t kernel_services::cb_tile_size(std::int32_t id) {
    const cb_state& c = cb(id, "get_tile_size");
    return tt::tile_bytes(c.format, c.tile_hw);
}
std::uint32_t kernel_services::cb_data_format(std::int32_t id) { return cb(id, "get_dataformat").format; }
std::uint32_t kernel_services::cb_tile_hw(std::int32_t id) { return cb(id, "get_tile_hw").tile_hw; }
std::uint32_t kernel_services::cb_page_size(std::int32_t id) { return cb(id, "get_entry_size").page_size; }
std::uint32_t kernel_services::cb_num_pages(std::int32_t id) { return cb(id, "get_total_num_entries").num_pages; }

void kernel_services::noc_read(std::uint64_t src, std::uint32_t dst_l1, std::uint32_t size, std::uint8_t noc,
                               bool page) {
    step();
    if (size == 0) return;
    const core_coord from{tt::noc_addr_x(src), tt::noc_addr_y(src)};
    const std::uint64_t local = tt::noc_addr_local(src);
    const std::string call = "noc_async_read" + std::string(page ? "_page" : "") + " of " + std::to_string(size) +
                             " bytes from " + to_string(from) + " " + hex(local) + " to " + hex(dst_l1);
    std::string why;
    finding_kind kind = finding_kind::noc_bounds;
    if (local >> 32 != 0 ||
        s_.endpoint_bytes(from, static_cast<std::uint32_t>(local), size, false, page, why, kind) == nullptr)
        s_.report(kind, *this, call + ": the source " + why);
    if (s_.endpoint_bytes(core(), dst_l1, size, true, false, why, kind) == nullptr)
        s_.report(kind, *this, call + ": the destination " + why);
    if ((local % tt::chip_l1_alignment) != (dst_l1 % tt::chip_l1_alignment))
        s_.report(finding_kind::noc_page, *this,
                  call + ": source and destination are not aligned alike (" + std::to_string(local % 16) + " and " +
                      std::to_string(dst_l1 % 16) + " bytes past 16)");
    s_.check_cb_window(*this, dst_l1, size, true);
    s_.check_defined(*this, call, from, static_cast<std::uint32_t>(local), core(), dst_l1, size);
    transfer t;
    t.task = task_;
    t.noc = noc;
    t.src_core = from;
    t.dst_core = core();
    t.src = static_cast<std::uint32_t>(local);
    t.dst = dst_l1;
    t.size = size;
    // Most reads land at their barrier; some, by the seed, earlier (any time after issue).
    if (s_.random_.between(0, 3) == 0) t.land_at = s_.result_.steps + s_.random_.between(1, 64);
    std::memset(s_.l1(core(), dst_l1), std::to_integer<int>(poison), size);
    ++s_.result_.traffic.pages_read;
    s_.result_.traffic.bytes_read += size;
    ++(from == core() ? s_.result_.traffic.local_reads : s_.result_.traffic.remote_reads);
    s_.result_.traffic.hops += (from.x > core().x ? from.x - core().x : core().x - from.x) +
                               (from.y > core().y ? from.y - core().y : core().y - from.y);
    ++unbarriered_reads_[noc & 1U];
    s_.in_flight_.push_back(std::move(t));
}

void kernel_services::noc_write(std::uint32_t src_l1, std::uint64_t dst, std::uint32_t size, std::uint8_t noc,
                                bool page) {
    step();
    if (size == 0) return;
    const core_coord to{tt::noc_addr_x(dst), tt::noc_addr_y(dst)};
    const std::uint64_t local = tt::noc_addr_local(dst);
    const std::string call = "noc_async_write" + std::string(page ? "_page" : "") + " of " + std::to_string(size) +
                             " bytes from " + hex(src_l1) + " to " + to_string(to) + " " + hex(local);
    std::string why;
    finding_kind kind = finding_kind::noc_bounds;
    if (s_.endpoint_bytes(core(), src_l1, size, false, false, why, kind) == nullptr)
        s_.report(kind, *this, call + ": the source " + why);
    if (local >> 32 != 0 || s_.endpoint_bytes(to, static_cast<std::uint32_t>(local), size, true, page, why, kind,
                                              s_.l1(core(), src_l1)) == nullptr)
        s_.report(kind, *this, call + ": the destination " + why);
    if ((local % tt::chip_l1_alignment) != (src_l1 % tt::chip_l1_alignment))
        s_.report(finding_kind::noc_page, *this,
                  call + ": source and destination are not aligned alike (" + std::to_string(src_l1 % 16) + " and " +
                      std::to_string(local % 16) + " bytes past 16)");
    s_.check_cb_window(*this, src_l1, size, false);
    s_.check_defined(*this, call, core(), src_l1, to, static_cast<std::uint32_t>(local), size);
    // Data read from an L1 range a read has not landed in yet: the write would carry poison.
    for (const transfer& t : s_.unsettled())
        if (!t.write && t.dst_core == core() && t.dst < src_l1 + size && src_l1 < t.dst + t.size)
            s_.report(finding_kind::async, *this,
                      call + ": its source holds a read (into " + hex(t.dst) +
                          ") that has not landed; call noc_async_read_barrier first");
    transfer t;
    t.write = true;
    t.task = task_;
    t.noc = noc;
    t.src_core = core();
    t.dst_core = to;
    t.src = src_l1;
    t.dst = static_cast<std::uint32_t>(local);
    t.size = size;
    ++s_.result_.traffic.pages_written;
    s_.result_.traffic.bytes_written += size;
    ++(to == core() ? s_.result_.traffic.local_writes : s_.result_.traffic.remote_writes);
    s_.result_.traffic.hops +=
        (to.x > core().x ? to.x - core().x : core().x - to.x) + (to.y > core().y ? to.y - core().y : core().y - to.y);
    // Its source is read now or at its flush, by the seed: both are what the NoC may do.
    if (s_.random_.between(0, 1) == 0) s_.take_source(t);
    ++unbarriered_writes_[noc & 1U];
    s_.in_flight_.push_back(std::move(t));
}

void kernel_services::noc_write_multicast(std::uint32_t src_l1, std::uint64_t dst_rect, std::uint32_t size,
                                          std::uint32_t num_dests, bool include_self, std::uint8_t noc) {
    constexpr std::uint32_t l = tt::chip_noc.local_bits, n = tt::chip_noc.id_bits, m = (1U << n) - 1;
    const auto part = [&](std::uint32_t at) { return static_cast<std::uint32_t>(dst_rect >> (l + at * n)) & m; };
    const std::uint32_t x1 = part(0), y1 = part(1), x0 = part(2), y0 = part(3);
    const auto addr = static_cast<std::uint32_t>(tt::noc_addr_local(dst_rect));
    std::uint32_t dests = 0;
    for (std::uint32_t y = y0; y <= y1; ++y)
        for (std::uint32_t x = x0; x <= x1; ++x) {
            if (core_coord{x, y} == core() && !include_self) continue;
            ++dests;
            noc_write(src_l1, tt::noc_xy_addr(x, y, addr), size, noc, false);
        }
    if (dests != num_dests)
        s_.report(finding_kind::noc_bounds, *this,
                  "noc_async_write_multicast to (" + std::to_string(x0) + "," + std::to_string(y0) + ")-(" +
                      std::to_string(x1) + "," + std::to_string(y1) + "): num_dests " + std::to_string(num_dests) +
                      ", but the rectangle has " + std::to_string(dests) + " destinations");
}

void kernel_services::noc_write_inline(std::uint64_t dst, const void* data, std::uint32_t size, std::uint8_t noc,
                                       bool as_read) {
    step();
    if (size == 0) return;
    const core_coord to{tt::noc_addr_x(dst), tt::noc_addr_y(dst)};
    const std::uint64_t local = tt::noc_addr_local(dst);
    const auto* bytes = static_cast<const std::byte*>(data);
    const std::string call = std::string(as_read ? "async_write_zeros" : "noc_inline_dw_write") + " of " +
                             std::to_string(size) + " bytes to " + to_string(to) + " " + hex(local);
    if (!s_.is_worker(to))
        s_.report(finding_kind::noc_bounds, *this,
                  call + ": the destination is not a worker core's L1 (an inline write cannot reach DRAM)");
    if (as_read && to != core())
        s_.report(finding_kind::noc_bounds, *this, call + ": the destination is not this core's L1");
    std::string why;
    finding_kind kind = finding_kind::noc_bounds;
    if (local >> 32 != 0 ||
        s_.endpoint_bytes(to, static_cast<std::uint32_t>(local), size, true, false, why, kind, bytes) == nullptr)
        s_.report(kind, *this, call + ": the destination " + why);
    if (as_read) s_.check_cb_window(*this, static_cast<std::uint32_t>(local), size, true);
    transfer t;
    t.write = !as_read;
    t.inline_source = true;
    t.taken = true;
    t.task = task_;
    t.noc = noc;
    t.src_core = core();
    t.dst_core = to;
    t.dst = static_cast<std::uint32_t>(local);
    t.size = size;
    t.data.assign(bytes, bytes + size);
    if (as_read) {
        if (s_.random_.between(0, 3) == 0) t.land_at = s_.result_.steps + s_.random_.between(1, 64);
        std::memset(s_.l1(core(), t.dst), std::to_integer<int>(poison), size);
        ++unbarriered_reads_[noc & 1U];
    } else {
        ++s_.result_.traffic.pages_written;
        s_.result_.traffic.bytes_written += size;
        ++(to == core() ? s_.result_.traffic.local_writes : s_.result_.traffic.remote_writes);
        ++unbarriered_writes_[noc & 1U];
    }
    s_.in_flight_.push_back(std::move(t));
}

void kernel_services::noc_read_barrier(std::uint8_t noc) {
    step();
    unbarriered_reads_[noc & 1U] = 0;
    for (transfer& t : s_.unsettled())
        if (!t.write && t.task == task_ && t.noc == noc) s_.land(t);
    s_.erase_landed_unsettled();
}

void kernel_services::noc_write_barrier(std::uint8_t noc) {
    step();
    unbarriered_writes_[noc & 1U] = 0;
    for (transfer& t : s_.in_flight_)
        if (t.write && t.task == task_ && t.noc == noc) s_.land(t);
    s_.erase_landed();
}

void kernel_services::noc_writes_flushed(std::uint8_t noc) {
    step();
    for (transfer& t : s_.unsettled())
        if (t.write && t.task == task_ && t.noc == noc && !t.taken) s_.take_source(t);
}

// --- launch_state ---

std::byte* launch_state::endpoint_bytes(core_coord at, std::uint32_t addr, std::uint32_t size, bool writing, bool page,
                                        std::string& why, finding_kind& kind, const std::byte* data) {
    kind = finding_kind::noc_bounds;
    const sim::memory* m = static_cast<const sim::device&>(dev_).memory_at(at);
    if (m == nullptr) {
        why = "is at " + to_string(at) + ", where there is no core or DRAM bank";
        return nullptr;
    }
    if (m->kind() == sim::memory_kind::dram) {  // the NoC address includes the bank's table offset
        const std::uint32_t bank = (at.x - dev_.config().grid_x) * dev_.config().grid_y + at.y;
        const std::uint32_t offset = dram_offset(bank);
        if (addr < offset) {
            why = "[" + hex(addr) + ", " + hex(std::uint64_t{addr} + size) + ") is below DRAM bank " +
                  std::to_string(bank) + "'s offset " + hex(offset) + " (bank_to_dram_offset): no buffer is there";
            return nullptr;
        }
        addr -= offset;
    }
    const sim::allocation* a = m->find(addr);
    if (a == nullptr || std::uint64_t{addr} + size > a->end) {
        const sim::allocation* below = m->below(addr);
        why = "[" + hex(addr) + ", " + hex(std::uint64_t{addr} + size) + ") is outside every buffer and region of " +
              m->label() + (a ? " (it overruns " + sim::describe(*a) + ")" : "") +
              (!a && below ? "; nearest below is " + sim::describe(*below) : "");
        return nullptr;
    }
    if (const sim::buffer_info* b = dev_.find_buffer(a->buffer)) {
        const distribution& d = b->dist;
        const std::uint64_t in = addr - d.bank_base;
        const std::uint64_t slot = in / d.aligned_page_size, first = in % d.aligned_page_size;
        const std::uint64_t last_slot = (in + size - 1) / d.aligned_page_size;
        if (page && size != 0 && last_slot != slot) {
            kind = finding_kind::noc_page;
            why = "crosses from page slot " + std::to_string(slot) + " into slot " + std::to_string(last_slot) +
                  " of buffer '" + b->name + "' (aligned page size " + std::to_string(d.aligned_page_size) +
                  " bytes, the transfer " + std::to_string(size) + " bytes at byte " + std::to_string(first) + ")";
            return nullptr;
        }
        if (writing) {  // every slot written must hold a page (its alignment gap may be written:
                        // kernels move whole aligned pages, as tt-metal's page writes do)
            std::size_t core_index = 0;
            while (core_index < d.cores.size() && d.cores[core_index] != at) ++core_index;
            for (std::uint64_t s = slot; s <= last_slot && core_index < d.cores.size(); ++s) {
                if (d.layout.page_at(core_index, s).has_value()) continue;
                const std::uint64_t from = std::max(in, s * d.aligned_page_size) - in;
                const std::uint64_t to = std::min(in + size, (s + 1) * d.aligned_page_size) - in;
                if (data != nullptr &&
                    std::all_of(data + from, data + to, [&](std::byte x) { return x == dev_.config().sentinel; }))
                    continue;  // padding onto padding: nothing is lost
                why = "writes padding slot " + std::to_string(s) + " of buffer '" + b->name + "' on " + to_string(at) +
                      " (no page lives there" +
                      (data != nullptr ? "; bytes other than the sentinel would be lost there" : "") + ")";
                return nullptr;
            }
        }
    }
    if (m->kind() == sim::memory_kind::l1) return l1(at, addr);
    return const_cast<sim::memory*>(m)->bytes(addr, size).data();
}

// A transfer into (`into`) or out of a circular buffer must stay in pages a kernel holds:
// reserved at its back and not pushed, or waited for at its front and not popped.
void launch_state::check_cb_window(kernel_services& who, std::uint32_t addr, std::uint32_t size, bool into) {
    for (auto& entry : cbs(who.core())) {
        const auto id = entry.first;  // not a structured binding: clang 14 cannot capture one
        auto& c = entry.second;
        if (addr >= c.end() || std::uint64_t{addr} + size <= c.base) continue;
        // Held pages from `from`, which may wrap around the end.
        const auto held = [&](std::uint32_t from, std::uint32_t pages) {
            const std::uint64_t lo = from, hi = std::uint64_t{from} + std::uint64_t{pages} * c.page_size;
            return (addr >= lo && addr + size <= hi) ||
                   (hi > c.end() && addr >= c.base && addr + size <= c.base + (hi - c.end()));
        };
        if (!held(c.wr, c.reserved) && !held(c.rd, c.waited))
            report(finding_kind::cb_protocol, who,
                   std::string(into ? "a NoC read into" : "a NoC write from") + " circular buffer " +
                       std::to_string(id) + " at [" + hex(addr) + ", " + hex(std::uint64_t{addr} + size) +
                       ") is outside the pages held: " + std::to_string(c.reserved) + " reserved at its back (" +
                       hex(c.wr) + "), " + std::to_string(c.waited) + " waited for at its front (" + hex(c.rd) + ")");
        return;
    }
}

void launch_state::take_source(transfer& t) {
    const std::byte* src = l1(t.src_core, t.src);
    t.data.assign(src, src + t.size);
    t.undef = undefined_runs(t.src_core, t.src, t.size);
    t.taken = true;
}

void launch_state::land(transfer& t) {
    if (t.size == 0) return;
    std::string why;
    finding_kind kind;
    if (t.write) {
        if (!t.taken) take_source(t);
        std::byte* dst = endpoint_bytes(t.dst_core, t.dst, t.size, true, false, why, kind, t.data.data());
        if (dst != nullptr) std::memcpy(dst, t.data.data(), t.size);
        if (dst != nullptr) set_undefined(t.dst_core, mem_addr(t.dst_core, t.dst), t.size, t.undef);
    } else if (t.inline_source) {  // bytes of no memory (async_write_zeros): nothing is read
        std::memcpy(l1(t.dst_core, t.dst), t.data.data(), t.size);
        set_undefined(t.dst_core, t.dst, t.size, {});
    } else {
        const std::byte* src = endpoint_bytes(t.src_core, t.src, t.size, false, false, why, kind);
        const std::vector<undef_run> undef =
            src != nullptr ? undefined_runs(t.src_core, mem_addr(t.src_core, t.src), t.size) : std::vector<undef_run>{};
        if (src != nullptr) std::memmove(l1(t.dst_core, t.dst), src, t.size);
        set_undefined(t.dst_core, t.dst, t.size, undef);
    }
    if (t.write || !t.inline_source) hb_access(t);
    t.size = 0;  // landed: erased by the caller
}

void launch_state::land_due_reads() {
    bool any = false;
    for (transfer& t : unsettled())
        if (!t.write && t.land_at != 0 && t.land_at <= result_.steps) {
            land(t);
            any = true;
        }
    if (any) erase_landed_unsettled();
}

launch_result launch_state::run() {
    const sim::device_config& cfg = dev_.config();
    if (cfg.l1_base != l1_window)
        throw std::invalid_argument(
            "ttsim::launch: the device's l1_base must be ttsim::l1_window (use "
            "kernel_device_config())");
    // One launch at a time per process: there is one window.
    static std::mutex one_launch;
    const std::lock_guard<std::mutex> lock(one_launch);

    // --- the kernels, compiled (or cached) ---
    std::vector<detail::kernel_entry> entries;
    const std::filesystem::path cache = detail::cache_folder(o_.cache);
    for (const kernel_desc& k : p_.kernels()) {
        try {
            entries.push_back(detail::load_kernel(k, cache).entry);
        } catch (const std::exception& e) {
            result_.findings.push_back({finding_kind::compile_error, k.name.empty() ? k.source : k.name, e.what()});
            return result_;
        }
    }
    if (o_.on_compiled) o_.on_compiled();

    // --- the regions of the program in each core's L1 ---
    std::vector<std::pair<core_coord, sim::buffer_id>> regions;
    struct release_all {
        sim::device& dev;
        std::vector<std::pair<core_coord, sim::buffer_id>>& r;
        ~release_all() {
            for (const auto& [c, id] : r) dev.release_l1(c, id);
        }
    } release{dev_, regions};
    auto reserve = [&](core_coord c, std::uint64_t bytes, std::string name) {
        if (!is_worker(c)) throw spec_error("program", name + " on " + to_string(c) + ", which is not a worker core");
        const sim::device::region r = dev_.reserve_l1(c, std::max<std::uint64_t>(bytes, 4), 32, std::move(name));
        regions.emplace_back(c, r.id);
        return static_cast<std::uint32_t>(r.address);
    };
    // A CB placed in a buffer: all of it inside one live allocation of the core's L1.
    auto in_buffer = [&](core_coord c, std::uint32_t addr, std::uint32_t bytes, std::uint32_t id) {
        const sim::memory* m = is_worker(c) ? dev_.memory_at(c) : nullptr;
        if (m != nullptr)
            for (const sim::allocation& a : m->live())
                if (a.begin <= addr && std::uint64_t{addr} + bytes <= a.end) return addr;
        throw spec_error("program", "circular buffer " + std::to_string(id) + " at " + hex(addr) + " (" +
                                        std::to_string(bytes) + " bytes) on " + to_string(c) +
                                        " is not inside a buffer in that core's L1");
    };
    for (const circular_buffer_desc& d : p_.circular_buffers())
        for (const core_coord& c : d.cores) {
            cb_state s;
            s.id = d.id;
            s.page_size = d.page_size;
            s.num_pages = d.num_pages;
            s.size = d.page_size * d.num_pages;
            s.format = static_cast<std::uint32_t>(d.format);
            s.tile_hw = d.tile_hw;
            s.in_buffer = d.address.has_value();
            s.base = s.wr = s.rd = s.in_buffer ? in_buffer(c, *d.address, s.size, d.id)
                                               : reserve(c, s.size, "circular buffer " + std::to_string(d.id));
            cbs(c)[d.id] = s;
        }
    for (std::uint32_t id = 0; id < p_.semaphores().size(); ++id)
        for (const core_coord& c : p_.semaphores()[id].cores) {
            auto& sems = semaphores_[key(c)];
            if (sems.size() <= id) sems.resize(id + 1, 0);
            sems[id] = reserve(c, 16, "semaphore " + std::to_string(id));
        }

    // --- every worker's L1 into its image: the live buffers' bytes, the regions zeroed ---
    window_ = std::make_unique<detail::l1_window>(dev_.num_workers(), cfg.l1_size, l1_window);
    auto for_each_allocation = [&](auto&& f) {
        for (std::uint32_t w = 0; w < dev_.num_workers(); ++w) {
            sim::memory* m = dev_.memory_at(dev_.worker(w));
            for (const sim::allocation& a : m->live()) f(w, *m, a);
        }
    };
    for_each_allocation([&](std::uint32_t w, sim::memory& m, const sim::allocation& a) {
        const auto bytes = m.bytes(a.begin, a.end - a.begin);
        std::memcpy(window_->image(w) + (a.begin - l1_window), bytes.data(), bytes.size());
    });
    for (const auto& [key_, sems] : semaphores_) (void)key_, (void)sems;
    for (std::uint32_t id = 0; id < p_.semaphores().size(); ++id)
        for (const core_coord& c : p_.semaphores()[id].cores)
            std::memcpy(l1(c, semaphores_[key(c)][id]), &p_.semaphores()[id].initial, 4);
    init_undefined();

    // --- the tasks: every kernel on every one of its cores, on each of its threads ---
    sched_ = std::make_unique<detail::scheduler>(o_.seed, o_.preempt, [this](std::uint32_t w) { window_->show(w); });
    for (kernel_handle k = 0; k < p_.kernels().size(); ++k) {
        const kernel_desc& d = p_.kernels()[k];
        const std::string kname = d.name.empty() ? std::filesystem::path(d.source).filename().string() : d.name;
        for (const core_coord& c : d.cores) {
            const std::vector<std::uint32_t>& rt = p_.runtime_args(k, c);
            const std::vector<std::uint32_t>& crt = p_.common_runtime_args(k);
            const std::uint32_t at = reserve(c, 4 * (rt.size() + crt.size()), "arguments of " + kname);
            if (!rt.empty()) std::memcpy(l1(c, at), rt.data(), 4 * rt.size());
            if (!crt.empty())
                std::memcpy(l1(c, at + 4 * static_cast<std::uint32_t>(rt.size())), crt.data(), 4 * crt.size());
            // The new region's bytes came from the device zeroed; its image is written above.
            for (std::uint32_t t = 0; t < d.threads; ++t) {
                abi::identity id;
                id.x = c.x;
                id.y = c.y;
                id.thread = t;
                id.threads = d.threads;
                id.args_addr = at;
                id.args_count = static_cast<std::uint32_t>(rt.size());
                id.common_args_addr = at + 4 * static_cast<std::uint32_t>(rt.size());
                id.common_args_count = static_cast<std::uint32_t>(crt.size());
                id.num_dram_banks = cfg.num_dram_banks;
                id.num_l1_banks = dev_.num_workers();
                const std::string name =
                    kname + " on " + to_string(c) + (d.threads > 1 ? " thread " + std::to_string(t) : "");
                const std::size_t task = services_.size();
                services_.push_back(std::make_unique<kernel_services>(*this, task, id, name));
                kernel_services* svc = services_.back().get();
                const detail::kernel_entry entry = entries[k];
                sched_->add(name, worker_index(c), [this, svc, entry] {
                    try {
                        entry(svc);
                    } catch (const stop_kernel&) {
                        throw;
                    } catch (const spec_error& e) {
                        result_.findings.push_back(
                            {finding_kind::accessor, svc->name(), std::string("refused: ") + e.what()});
                        sched_->stop();
                        return;
                    } catch (const std::exception& e) {
                        result_.findings.push_back(
                            {finding_kind::kernel_error, svc->name(), std::string("exception: ") + e.what()});
                        sched_->stop();
                        return;
                    }
                    // The end of a kernel: its transfers land; any not waited for by a barrier
                    // of its NoC is a finding (tt-metal's firmware asserts the NoC idle here).
                    for (transfer& t : in_flight_)
                        if (t.task == svc->task_) land(t);
                    erase_landed();
                    if (std::string open = svc->unbarriered(); !open.empty()) {
                        result_.findings.push_back({finding_kind::async, svc->name(), open});
                        sched_->stop();
                    }
                });
            }
        }
    }
    hb_start();
    const std::string deadlock = sched_->run();
    if (!deadlock.empty()) result_.findings.push_back({finding_kind::deadlock, "", deadlock});

    // --- the images back into the device's memories ---
    for (transfer& t : in_flight_) land(t);
    for_each_allocation([&](std::uint32_t w, sim::memory& m, const sim::allocation& a) {
        const auto bytes = m.bytes(a.begin, a.end - a.begin);
        std::memcpy(bytes.data(), window_->image(w) + (a.begin - l1_window), bytes.size());
    });
    sched_.reset();
    window_.reset();
    return std::move(result_);
}

}  // namespace launch_impl

launch_result launch(sim::device& dev, const program& p, const launch_options& options) {
    launch_impl::launch_state s(dev, p, options);
    return s.run();
}

}  // namespace ndshard::ttsim
