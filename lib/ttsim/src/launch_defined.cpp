// ndshard::ttsim::launch: bytes nobody wrote. Every circular buffer starts the launch filled
// with never_written and a shadow of the bytes NoC transfers have landed in since; a NoC
// write that would carry bytes of neither kind into a page of a buffer is an
// `uninitialized` finding, naming where the bytes were read and where they would land.
#include <algorithm>
#include <cstring>
#include <string>

#include "launch_state.hpp"

namespace ndshard::ttsim::launch_impl {

namespace {
std::uint64_t core_key(core_coord c) { return (std::uint64_t{c.x} << 32) | c.y; }
}  // namespace

void launch_state::fill_fresh_cbs() {
    for (auto& [k, per_core] : cbs_) {
        if (per_core.empty()) continue;
        const core_coord c{static_cast<std::uint32_t>(k >> 32), static_cast<std::uint32_t>(k & 0xFFFF'FFFFU)};
        std::uint32_t lo = UINT32_MAX, hi = 0;
        for (const auto& [id, cb] : per_core) {
            if (cb.in_buffer) continue;  // a buffer's bytes, defined: outside the shadow
            std::memset(l1(c, cb.base), std::to_integer<int>(never_written), cb.size);
            lo = std::min(lo, cb.base);
            hi = std::max(hi, cb.end());
        }
        if (lo > hi) continue;
        cb_shadow& s = fresh_[k];
        s.base = lo;
        s.noc_written.assign(hi - lo, 0);
    }
}

void launch_state::mark_written(core_coord c, std::uint32_t addr, std::uint32_t size) {
    const auto it = fresh_.find(core_key(c));
    if (it == fresh_.end()) return;
    cb_shadow& s = it->second;
    const std::uint64_t lo = std::max<std::uint64_t>(addr, s.base);
    const std::uint64_t hi = std::min<std::uint64_t>(std::uint64_t{addr} + size, s.base + s.noc_written.size());
    for (std::uint64_t a = lo; a < hi; ++a) s.noc_written[a - s.base] = 1;
}

const sim::buffer_info* launch_state::buffer_of(core_coord at, std::uint32_t local, std::uint32_t& addr,
                                                std::size_t& core_index) const {
    const sim::memory* m = dev_.memory_at(at);
    if (m == nullptr) return nullptr;
    addr = local;
    if (m->kind() == sim::memory_kind::dram) {
        const std::uint32_t bank = (at.x - dev_.config().grid_x) * dev_.config().grid_y + at.y;
        if (addr < dram_offset(bank)) return nullptr;
        addr -= dram_offset(bank);
    }
    const sim::allocation* a = m->find(addr);
    const sim::buffer_info* b = a == nullptr ? nullptr : dev_.find_buffer(a->buffer);
    if (b == nullptr) return nullptr;
    core_index = 0;
    while (core_index < b->dist.cores.size() && b->dist.cores[core_index] != at) ++core_index;
    return core_index == b->dist.cores.size() ? nullptr : b;
}

void launch_state::check_defined(kernel_services& who, const std::string& call, std::uint32_t src_l1, core_coord to,
                                 std::uint32_t local, std::uint32_t size) {
    const auto it = fresh_.find(core_key(who.core()));
    if (it == fresh_.end()) return;
    const cb_shadow& s = it->second;
    // A byte is never written when no transfer landed on it and every byte of its 4-byte
    // word that no transfer landed on still holds never_written (a store changes one).
    const auto unwritten = [&](std::uint32_t a) {
        if (a < s.base || a - s.base >= s.noc_written.size() || s.noc_written[a - s.base] != 0) return false;
        const std::uint32_t w = a & ~3U;
        for (std::uint32_t b = w; b < w + 4; ++b) {
            const bool tracked = b >= s.base && b - s.base < s.noc_written.size();
            if (tracked && s.noc_written[b - s.base] == 0 && *l1(who.core(), b) != never_written) return false;
        }
        return true;
    };
    std::uint32_t first = size;
    for (std::uint32_t o = 0; o < size; ++o)
        if (unwritten(src_l1 + o)) {
            first = o;
            break;
        }
    if (first == size) return;
    // Where would the bytes land? Only a page of a buffer (not its alignment gap or a padding
    // slot, not a circular buffer or semaphore) counts: what else ends up there is checked
    // after the launch.
    std::uint32_t addr = 0;
    std::size_t core_index = 0;
    const sim::buffer_info* b = buffer_of(to, local, addr, core_index);
    if (b == nullptr) return;
    const distribution& d = b->dist;
    for (std::uint32_t o = first; o < size; ++o) {
        if (!unwritten(src_l1 + o)) continue;
        const std::uint64_t in = std::uint64_t{addr} + o - d.bank_base;
        const std::uint64_t slot = in / d.aligned_page_size, at = in % d.aligned_page_size;
        const auto page = d.layout.page_at(core_index, slot);
        if (!page.has_value() || at >= d.page_size) continue;
        std::string cb_name = "L1";
        for (const auto& [id, cb] : cbs(who.core()))
            if (src_l1 + o >= cb.base && src_l1 + o < cb.end())
                cb_name = "circular buffer " + std::to_string(id) + " (slot " +
                          std::to_string((src_l1 + o - cb.base) / cb.page_size) + ")";
        report(finding_kind::uninitialized, who,
               call + ": byte " + std::to_string(o) + " of its source, " + hex(src_l1 + o) + " in " + cb_name + " on " +
                   to_string(who.core()) +
                   ", was never written (no read landed there and no store changed it since the launch "
                   "began); it would land in page " +
                   std::to_string(*page) + " of buffer '" + b->name + "' at byte " + std::to_string(at));
    }
}

}  // namespace ndshard::ttsim::launch_impl
