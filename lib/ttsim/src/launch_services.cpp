// ndshard::ttsim::launch: the semaphore and bank-table services of a kernel thread.
#include <cstring>
#include <string>

#include "launch_state.hpp"

namespace ndshard::ttsim::launch_impl {

std::string kernel_services::unbarriered() const {
    std::string out;
    for (std::uint32_t noc = 0; noc < 2; ++noc) {
        const auto n = [noc](std::uint32_t count, const char* what) {
            return std::to_string(count) + " NoC " + what + (count == 1 ? "" : "s") + " on NoC " + std::to_string(noc);
        };
        if (unbarriered_writes_[noc] != 0)
            out += (out.empty() ? "" : "; ") + n(unbarriered_writes_[noc], "write") +
                   " not acknowledged: no noc_async_write_barrier after " +
                   (unbarriered_writes_[noc] == 1 ? "it" : "them") + " (a flush only frees the source)";
        if (unbarriered_reads_[noc] != 0)
            out += (out.empty() ? "" : "; ") + n(unbarriered_reads_[noc], "read") +
                   " not waited for: no noc_async_read_barrier after " + (unbarriered_reads_[noc] == 1 ? "it" : "them");
    }
    return out.empty() ? out : "the kernel ended with " + out;
}

void kernel_services::noc_atomic_barrier(std::uint8_t) { step(); }

std::uint32_t kernel_services::semaphore_addr(std::uint32_t id) {
    const auto& sems = s_.semaphores_[(std::uint64_t{id_.x} << 32) | id_.y];
    if (id >= sems.size() || sems[id] == 0)
        s_.report(finding_kind::kernel_error, *this,
                  "get_semaphore(" + std::to_string(id) + "): no semaphore " + std::to_string(id) + " on core " +
                      to_string(core()));
    return sems[id];
}

void kernel_services::semaphore_set(std::uint32_t l1_addr, std::uint32_t value) {
    step();
    std::string why;
    finding_kind kind = finding_kind::noc_bounds;
    if (s_.endpoint_bytes(core(), l1_addr, 4, true, false, why, kind) == nullptr)
        s_.report(kind, *this, "noc_semaphore_set at " + hex(l1_addr) + ": " + why);
    std::memcpy(s_.l1(core(), l1_addr), &value, 4);
    s_.hb_release(task_, s_.sync_clock(core(), l1_addr));
}

void kernel_services::semaphore_wait(std::uint32_t l1_addr, std::uint32_t value, bool at_least) {
    step();
    std::string why;
    finding_kind kind = finding_kind::noc_bounds;
    if (s_.endpoint_bytes(core(), l1_addr, 4, false, false, why, kind) == nullptr)
        s_.report(kind, *this, "noc_semaphore_wait at " + hex(l1_addr) + ": " + why);
    const std::byte* p = s_.l1(core(), l1_addr);
    const auto now = [p] {
        std::uint32_t v = 0;
        std::memcpy(&v, p, 4);
        return v;
    };
    s_.sched_->wait_until(std::string(at_least ? "noc_semaphore_wait_min" : "noc_semaphore_wait") + " at " +
                              hex(l1_addr) + " on " + to_string(core()) + " for " + std::to_string(value) +
                              " (it holds " + std::to_string(now()) + ")",
                          [now, value, at_least] { return at_least ? now() >= value : now() == value; });
    s_.hb_acquire(task_, s_.sync_clock(core(), l1_addr));
}

void kernel_services::semaphore_inc(std::uint64_t dst, std::uint32_t increment, std::uint8_t noc) {
    step();
    const core_coord to{tt::noc_addr_x(dst), tt::noc_addr_y(dst)};
    const std::uint64_t local = tt::noc_addr_local(dst);
    // A signal to a core follows this kernel's earlier writes to that core on the same NoC
    // (one virtual channel, delivered in order): those land first. A write to the core on the
    // other NoC has no such order: signalling before its barrier announces data not there.
    for (transfer& t : s_.in_flight_)
        if (t.write && t.task == task_ && t.dst_core == to && t.size != 0) {
            if (t.noc != noc)
                s_.report(finding_kind::async, *this,
                          "noc_semaphore_inc to " + to_string(to) + " " + hex(local) + " on NoC " +
                              std::to_string(noc) + ": this kernel's write of " + std::to_string(t.size) +
                              " bytes to " + hex(t.dst) + " on that core, on NoC " + std::to_string(t.noc) +
                              ", is not acknowledged yet; call noc_async_write_barrier before the signal");
            s_.land(t);
        }
    s_.erase_landed();
    std::string why;
    finding_kind kind = finding_kind::noc_bounds;
    std::byte* p = local >> 32 != 0
                       ? nullptr
                       : s_.endpoint_bytes(to, static_cast<std::uint32_t>(local), 4, true, false, why, kind);
    if (p == nullptr) s_.report(kind, *this, "noc_semaphore_inc at " + to_string(to) + " " + hex(local) + ": " + why);
    std::uint32_t v = 0;
    std::memcpy(&v, p, 4);
    v += increment;
    std::memcpy(p, &v, 4);
    s_.hb_release(task_, s_.sync_clock(to, static_cast<std::uint32_t>(local)));
}

std::uint32_t kernel_services::bank_xy(bool dram, std::uint32_t bank, std::uint8_t) {
    const std::uint32_t count = dram ? id_.num_dram_banks : id_.num_l1_banks;
    if (bank >= count)
        s_.report(finding_kind::noc_bounds, *this,
                  std::string(dram ? "DRAM" : "L1") + " bank " + std::to_string(bank) + ": the device has " +
                      std::to_string(count));
    const core_coord c = dram ? s_.dev_.dram_bank(bank) : s_.dev_.worker(bank);
    return tt::noc_xy_encoding(c.x, c.y);
}

std::uint32_t kernel_services::bank_offset(bool dram, std::uint32_t bank) {
    const std::uint32_t count = dram ? id_.num_dram_banks : id_.num_l1_banks;
    if (bank >= count)
        s_.report(finding_kind::noc_bounds, *this,
                  std::string(dram ? "bank_to_dram_offset" : "bank_to_l1_offset") + " of bank " + std::to_string(bank) +
                      ": the device has " + std::to_string(count));
    return dram ? launch_state::dram_offset(bank) : 0U;
}

}  // namespace ndshard::ttsim::launch_impl
