// ndshard::ttsim::launch: bytes nobody wrote. Each core's L1 and each DRAM bank keeps a set
// of byte ranges holding bytes nobody wrote, each range remembering where its bytes came
// from: at the launch's start every circular buffer (filled with never_written), every
// padding slot and alignment gap of a buffer, and every page of a buffer whose bytes all
// hold the sentinel (no host write or earlier launch filled it: an output not yet written).
// A landing transfer carries the undefined ranges of its source to its destination (and
// clears what it overwrote); a store of the kernel defines its 4-byte word. A NoC read or
// write that would carry undefined bytes into a page of a buffer is an `uninitialized`
// finding naming the source byte, where it came from, and the page it would land in.
// (L1 outside every buffer and region is never read: the NoC refuses it, noc_bounds.)
#include <algorithm>
#include <cstring>
#include <string>

#include "launch_state.hpp"

namespace ndshard::ttsim::launch_impl {

namespace {
core_coord core_of(std::uint64_t k) {
    return {static_cast<std::uint32_t>(k >> 32), static_cast<std::uint32_t>(k & 0xFFFF'FFFFU)};
}
// Appends [b, e) to a set built in address order, merging with the range before it.
void append(undef_set& s, std::uint64_t core, std::uint32_t b, std::uint32_t e) {
    if (b >= e) return;
    if (!s.empty()) {
        auto last = std::prev(s.end());
        if (last->second.end == b && last->second.origin_core == core && last->second.origin + (b - last->first) == b) {
            last->second.end = e;
            return;
        }
    }
    s.emplace_hint(s.end(), b, undef_span{e, core, b});
}
}  // namespace

std::uint32_t launch_state::mem_addr(core_coord c, std::uint32_t local) const {
    if (is_worker(c)) return local;
    const std::uint32_t bank = (c.x - dev_.config().grid_x) * dev_.config().grid_y + c.y;
    return local >= dram_offset(bank) ? local - dram_offset(bank) : local;
}

void launch_state::init_undefined() {
    undefined_.clear();
    // Circular buffers: filled with never_written, every byte undefined.
    for (auto& [k, per_core] : cbs_) {
        const core_coord c = core_of(k);
        undef_set& s = undefined_[k];
        for (const auto& [id, cb] : per_core) {
            if (cb.in_buffer) continue;  // a buffer's bytes, defined: outside the shadow
            std::memset(l1(c, cb.base), std::to_integer<int>(never_written), cb.size);
            s.emplace(cb.base, undef_span{cb.end(), k, cb.base});
        }
    }
    // Buffers: padding slots, alignment gaps and pages nobody filled, on every memory.
    const sim::device_config& cfg = dev_.config();
    std::vector<core_coord> where;
    for (std::uint32_t w = 0; w < dev_.num_workers(); ++w) where.push_back(dev_.worker(w));
    for (std::uint32_t b = 0; b < cfg.num_dram_banks; ++b)
        where.push_back({cfg.grid_x + b / cfg.grid_y, b % cfg.grid_y});
    for (const core_coord& c : where) {
        sim::memory* m = dev_.memory_at(c);
        if (m == nullptr) continue;
        undef_set found;
        for (const sim::allocation& a : m->live()) {
            const sim::buffer_info* b = dev_.find_buffer(a.buffer);
            if (b == nullptr) continue;
            const distribution& d = b->dist;
            std::size_t ci = 0;
            while (ci < d.cores.size() && d.cores[ci] != c) ++ci;
            if (ci == d.cores.size() || d.aligned_page_size == 0) continue;
            const auto bytes = m->bytes(a.begin, a.end - a.begin);
            for (std::uint64_t s = 0; d.bank_base + (s + 1) * d.aligned_page_size <= a.end; ++s) {
                const auto at = static_cast<std::uint32_t>(d.bank_base + s * d.aligned_page_size);
                const auto next = static_cast<std::uint32_t>(at + d.aligned_page_size);
                const std::byte* p = bytes.data() + (at - a.begin);
                const bool fresh = !d.layout.page_at(ci, s).has_value() ||
                                   std::all_of(p, p + d.page_size, [&](std::byte x) { return x == cfg.sentinel; });
                append(found, key(c), fresh ? at : static_cast<std::uint32_t>(at + d.page_size), next);
            }
        }
        if (found.empty()) continue;
        undef_set& s = undefined_[key(c)];
        s.merge(found);  // buffers and circular buffers never overlap
    }
}

std::vector<undef_run> launch_state::undefined_runs(core_coord c, std::uint32_t addr, std::uint32_t size) {
    std::vector<undef_run> runs;
    const auto it = undefined_.find(key(c));
    if (it == undefined_.end() || it->second.empty()) return runs;
    const undef_set& s = it->second;
    const std::uint64_t hi = std::uint64_t{addr} + size;
    auto i = s.upper_bound(addr);
    if (i != s.begin()) --i;
    const bool l1_core = is_worker(c);
    for (; i != s.end() && i->first < hi; ++i) {
        const std::uint32_t b = i->first, e = i->second.end;
        if (e <= addr) continue;
        const std::uint32_t lo = std::max(b, addr), top = static_cast<std::uint32_t>(std::min<std::uint64_t>(e, hi));
        // In L1 a byte stays undefined while every undefined byte of its word holds a fill
        // (never_written or the sentinel): a kernel's store changes one.
        const auto still = [&](std::uint32_t a) {
            if (!l1_core) return true;
            const std::uint32_t w = a & ~3U;
            for (std::uint32_t x = std::max(w, b); x < std::min(w + 4, e); ++x) {
                const std::byte v = *l1(c, x);
                if (v != never_written && v != dev_.config().sentinel) return false;
            }
            return true;
        };
        for (std::uint32_t a = lo; a < top; ++a) {
            if (!still(a)) continue;
            const std::uint32_t origin = i->second.origin + (a - b);
            if (!runs.empty() && runs.back().off + runs.back().len == a - addr &&
                runs.back().origin_core == i->second.origin_core && runs.back().origin + runs.back().len == origin)
                ++runs.back().len;
            else runs.push_back({a - addr, 1, i->second.origin_core, origin});
        }
    }
    return runs;
}

void launch_state::set_undefined(core_coord c, std::uint32_t addr, std::uint32_t size,
                                 const std::vector<undef_run>& runs) {
    auto found = undefined_.find(key(c));
    if (found == undefined_.end()) {
        if (runs.empty()) return;
        found = undefined_.emplace(key(c), undef_set{}).first;
    }
    undef_set& s = found->second;
    const std::uint32_t hi = addr + size;
    auto i = s.lower_bound(addr);
    if (i != s.begin()) {  // a range starting below addr: keep its part below, and past hi
        auto p = std::prev(i);
        if (p->second.end > addr) {
            const undef_span whole = p->second;
            p->second.end = addr;
            if (whole.end > hi) s.emplace(hi, undef_span{whole.end, whole.origin_core, whole.origin + (hi - p->first)});
        }
    }
    i = s.lower_bound(addr);
    while (i != s.end() && i->first < hi) {
        if (i->second.end > hi)
            s.emplace(hi, undef_span{i->second.end, i->second.origin_core, i->second.origin + (hi - i->first)});
        i = s.erase(i);
    }
    for (const undef_run& r : runs) s.emplace(addr + r.off, undef_span{addr + r.off + r.len, r.origin_core, r.origin});
}

std::string launch_state::place_of(std::uint64_t k, std::uint32_t addr, bool origin) {
    const core_coord c = core_of(k);
    if (const auto per_core = cbs_.find(k); per_core != cbs_.end())
        for (const auto& [id, cb] : per_core->second)
            if (addr >= cb.base && addr < cb.end())
                return "circular buffer " + std::to_string(id) + " (slot " +
                       std::to_string((addr - cb.base) / cb.page_size) + ") on " + to_string(c) +
                       (origin ? ", never written since the launch began" : "");
    const sim::memory* m = dev_.memory_at(c);
    const sim::allocation* a = m == nullptr ? nullptr : m->find(addr);
    const sim::buffer_info* b = a == nullptr ? nullptr : dev_.find_buffer(a->buffer);
    const std::string at = hex(addr) + " in " + (m != nullptr ? m->label() : to_string(c));
    if (b == nullptr) return at;
    const distribution& d = b->dist;
    std::size_t ci = 0;
    while (ci < d.cores.size() && d.cores[ci] != c) ++ci;
    const std::uint64_t in = addr - d.bank_base, slot = in / d.aligned_page_size, byte = in % d.aligned_page_size;
    const std::string name = "buffer '" + b->name + "' (" + at + ")";
    if (ci == d.cores.size()) return name;
    const auto page = d.layout.page_at(ci, slot);
    if (!page.has_value()) return "padding slot " + std::to_string(slot) + " of " + name;
    const std::uint64_t id = page.value_or(0);
    if (byte >= d.page_size) return "the alignment gap after page " + std::to_string(id) + " of " + name;
    return "page " + std::to_string(id) + " of " + name +
           (origin ? ", never written (all its bytes held the sentinel when the launch began)" : "");
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

void launch_state::check_defined(kernel_services& who, const std::string& call, core_coord from,
                                 std::uint32_t src_local, core_coord to, std::uint32_t local, std::uint32_t size) {
    const std::uint32_t src = mem_addr(from, src_local);
    const std::vector<undef_run> runs = undefined_runs(from, src, size);
    if (runs.empty()) return;
    // Where would the bytes land? Only a page of a buffer (not its alignment gap or a padding
    // slot, not a circular buffer or semaphore) counts: padding onto padding loses nothing.
    std::uint32_t addr = 0;
    std::size_t core_index = 0;
    const sim::buffer_info* b = buffer_of(to, local, addr, core_index);
    if (b == nullptr) return;
    const distribution& d = b->dist;
    for (const undef_run& r : runs)
        for (std::uint32_t o = r.off; o < r.off + r.len; ++o) {
            const std::uint64_t in = std::uint64_t{addr} + o - d.bank_base;
            const std::uint64_t slot = in / d.aligned_page_size, at = in % d.aligned_page_size;
            const auto page = d.layout.page_at(core_index, slot);
            if (!page.has_value() || at >= d.page_size) continue;
            const std::uint32_t origin = r.origin + (o - r.off);
            const bool itself = r.origin_core == key(from) && origin == src + o;
            report(
                finding_kind::uninitialized, who,
                call + ": byte " + std::to_string(o) + " of its source, " + place_of(key(from), src + o, false) +
                    ", was never written" +
                    (itself ? std::string(" (no transfer landed there and no store changed it since the launch began)")
                            : ": it was read from " + place_of(r.origin_core, origin, true)) +
                    "; it would land in page " + std::to_string(*page) + " of buffer '" + b->name + "' at byte " +
                    std::to_string(at));
        }
}

}  // namespace ndshard::ttsim::launch_impl
