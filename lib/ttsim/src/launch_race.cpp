// ndshard::ttsim::launch: races. Every kernel thread (task) keeps a vector clock; a circular
// buffer's push or pop and a semaphore's set or increment (or a NoC write landing on one)
// release the task's clock into the object, a wait or reservation that returns and a
// semaphore wait that is satisfied acquire it. A NoC transfer that lands on bytes of a buffer
// records, per 4-byte word, the last task that wrote it, which of its bytes, and that task's
// clock then; a write or read that lands on those bytes from another task that has not
// acquired that clock is a `race` finding naming both kernels, the cores, the address and the
// buffer's page. Ordering is over-approximated (an object's clock joins every release into
// it), so a race is reported only where nothing could have ordered the two.
#include <algorithm>
#include <string>

#include "launch_state.hpp"

namespace ndshard::ttsim::launch_impl {

void launch_state::hb_start() {
    const std::size_t n = services_.size();
    clocks_.assign(n, std::vector<std::uint32_t>(n, 0));
    for (std::size_t t = 0; t < n; ++t) clocks_[t][t] = 1;
}

void launch_state::hb_release(std::size_t task, std::vector<std::uint32_t>& into) {
    if (task >= clocks_.size()) return;
    std::vector<std::uint32_t>& mine = clocks_[task];
    if (into.size() < mine.size()) into.resize(mine.size(), 0);
    for (std::size_t i = 0; i < mine.size(); ++i) into[i] = std::max(into[i], mine[i]);
    ++mine[task];
}

void launch_state::hb_acquire(std::size_t task, const std::vector<std::uint32_t>& from) {
    if (task >= clocks_.size()) return;
    std::vector<std::uint32_t>& mine = clocks_[task];
    for (std::size_t i = 0; i < std::min(mine.size(), from.size()); ++i) mine[i] = std::max(mine[i], from[i]);
}

void launch_state::hb_access(const transfer& t) {
    if (t.task >= clocks_.size()) return;
    const core_coord at = t.write ? t.dst_core : t.src_core;
    const std::uint32_t local = t.write ? t.dst : t.src;
    std::uint32_t addr = 0;
    std::size_t core_index = 0;
    const sim::buffer_info* b = buffer_of(at, local, addr, core_index);
    if (b == nullptr) {
        // A write into a region (a semaphore set through the NoC): a release into it.
        if (t.write) hb_release(t.task, sync_clocks_[{key(at), t.dst}]);
        return;
    }
    const std::vector<std::uint32_t>& mine = clocks_[t.task];
    const std::uint64_t base = (std::uint64_t{at.x} << 48) | (std::uint64_t{at.y & 0xFFFFU} << 32);
    for (std::uint32_t w = local & ~3U; w < local + t.size; w += 4) {
        const std::uint64_t k = base | w;
        std::uint8_t mask = 0;  // the bytes of the word the transfer covers
        for (std::uint32_t b = 0; b < 4; ++b)
            if (w + b >= local && w + b < local + t.size) mask = static_cast<std::uint8_t>(mask | (1U << b));
        const auto it = last_writer_.find(k);
        if (it != last_writer_.end() && it->second.task != t.task && (it->second.mask & mask) != 0 &&
            mine[it->second.task] < it->second.clock) {
            const distribution& d = b->dist;
            const std::uint64_t in = std::uint64_t{addr} + (std::max(w, local) - local) - d.bank_base;
            const auto page = core_index < d.cores.size() ? d.layout.page_at(core_index, in / d.aligned_page_size)
                                                          : std::optional<std::uint64_t>{};
            const kernel_services& other = *services_[it->second.task];
            const kernel_services& self = *services_[t.task];
            result_.findings.push_back(
                {finding_kind::race, self.name(),
                 std::string(t.write ? "a NoC write of " : "a NoC read of ") + std::to_string(t.size) + " bytes " +
                     (t.write ? "to " : "from ") + to_string(at) + " " + hex(std::max(w, local)) + " (buffer '" +
                     b->name + "'" + (page ? ", page " + std::to_string(*page) : std::string(", a padding slot")) +
                     ") by " + self.name() + " and a NoC write to the same bytes by " + other.name() +
                     ": nothing orders them (no semaphore handshake, write barrier before a signal, or circular "
                     "buffer hand-off between the two kernels)"});
            sched_->stop();
            return;
        }
        if (!t.write) continue;
        writer& last = last_writer_[k];
        const auto task = static_cast<std::uint32_t>(t.task);
        // The same thread again: its bytes join; another's: the word is the new writer's (the
        // earlier writer's other bytes are forgotten, which can only hide a race).
        last.mask = static_cast<std::uint8_t>(last.task == task && last.mask != 0 ? last.mask | mask : mask);
        last.task = task;
        last.clock = mine[t.task];
    }
}

}  // namespace ndshard::ttsim::launch_impl
