// ndshard::ttsim::program and the accessor words of a device buffer.
#include "ndshard/ttsim/program.hpp"

#include <stdexcept>
#include <string>

#include "ndshard/error.hpp"

namespace ndshard::ttsim {

std::uint32_t program::add_circular_buffer(circular_buffer_desc cb) {
    if (cb.id > 63) throw spec_error("program", "circular buffer id " + std::to_string(cb.id) + " is not in 0..63");
    if (cb.page_size == 0 || cb.num_pages == 0)
        throw spec_error("program", "circular buffer " + std::to_string(cb.id) + " has " +
                                        std::to_string(cb.num_pages) + " pages of " + std::to_string(cb.page_size) +
                                        " bytes; both must be at least 1");
    for (const circular_buffer_desc& other : cbs_)
        if (other.id == cb.id)
            for (const core_coord& c : other.cores)
                for (const core_coord& d : cb.cores)
                    if (c == d)
                        throw spec_error("program",
                                         "circular buffer " + std::to_string(cb.id) + " twice on core " + to_string(c));
    const std::uint32_t id = cb.id;
    cbs_.push_back(std::move(cb));
    return id;
}

std::uint32_t program::add_semaphore(semaphore_desc s) {
    sems_.push_back(std::move(s));
    return static_cast<std::uint32_t>(sems_.size() - 1);
}

kernel_handle program::add_kernel(kernel_desc k) {
    if (k.source.empty()) throw spec_error("program", "a kernel needs a source file");
    if (k.threads == 0) throw spec_error("program", "kernel '" + k.source + "' runs on 0 threads");
    if (k.noc > 1) throw spec_error("program", "kernel '" + k.source + "': NoC " + std::to_string(k.noc) + " (0 or 1)");
    kernels_.push_back(std::move(k));
    rt_.emplace_back();
    crt_.emplace_back();
    return static_cast<kernel_handle>(kernels_.size() - 1);
}

void program::set_runtime_args(kernel_handle k, core_coord core, std::vector<std::uint32_t> args) {
    if (k >= kernels_.size()) throw spec_error("program", "no kernel " + std::to_string(k));
    rt_[k][{core.x, core.y}] = std::move(args);
}

void program::set_common_runtime_args(kernel_handle k, std::vector<std::uint32_t> args) {
    if (k >= kernels_.size()) throw spec_error("program", "no kernel " + std::to_string(k));
    crt_[k] = std::move(args);
}

const std::vector<std::uint32_t>& program::runtime_args(kernel_handle k, core_coord core) const {
    static const std::vector<std::uint32_t> none;
    const auto it = rt_.at(k).find({core.x, core.y});
    return it == rt_.at(k).end() ? none : it->second;
}

const std::vector<std::uint32_t>& program::common_runtime_args(kernel_handle k) const { return crt_.at(k); }

namespace {

// A buffer tt-metal would call interleaved: one-page shards dealt round robin over every
// bank of the platform's table in order (all DRAM banks, or every worker row-major).
bool is_interleaved(const sim::device& dev, const sim::buffer_info& b) {
    const distribution& d = b.dist;
    for (std::size_t i = 0; i < d.layout.rank(); ++i)
        if (d.layout.shard[i] != 1) return false;
    if (d.layout.rule != deal_rule::round_robin) return false;
    const std::uint32_t banks = b.memory == sim::memory_kind::dram ? dev.config().num_dram_banks : dev.num_workers();
    if (d.cores.size() != banks) return false;
    for (std::uint32_t i = 0; i < banks; ++i)
        if (d.cores[i] != (b.memory == sim::memory_kind::dram ? dev.dram_bank(i) : dev.worker(i))) return false;
    return true;
}

}  // namespace

tt::tt_words accessor_words(const sim::device& dev, sim::buffer_id buffer, std::uint32_t runtime_mix, unsigned layout) {
    const sim::buffer_info& b = dev.buffer(buffer);
    const bool dram = b.memory == sim::memory_kind::dram;
    const auto page = static_cast<std::uint32_t>(b.dist.aligned_page_size);
    if (is_interleaved(dev, b)) return tt::make_interleaved_tt_words(dram, page, layout);
    std::vector<core_coord> banks = b.dist.cores;
    if (dram)  // a DRAM bank's word holds its bank id
        for (core_coord& c : banks) c = {(c.x - dev.config().grid_x) * dev.config().grid_y + c.y, 0};
    std::uint32_t mix = runtime_mix & tt::flag::runtime_all;
    // A contiguous deal travels as bit 31 of the bank count, so that count is compile-time
    // whatever the mix asks (tt::why_no_words); the buffer's other parts keep the mix.
    if (b.dist.layout.rule == deal_rule::contiguous) mix &= ~tt::flag::runtime_num_banks;
    return tt::make_tt_words(b.dist.layout, banks, mix | (dram ? tt::flag::is_dram : 0U), page, layout);
}

void append_accessor_args(const sim::device& dev, sim::buffer_id buffer, std::uint32_t runtime_mix,
                          std::vector<std::uint32_t>& compile_time, std::vector<std::uint32_t>& common_runtime,
                          unsigned layout) {
    const tt::tt_words w = accessor_words(dev, buffer, runtime_mix, layout);
    compile_time.insert(compile_time.end(), w.compile_time.begin(), w.compile_time.end());
    common_runtime.insert(common_runtime.end(), w.common_runtime.begin(), w.common_runtime.end());
}

}  // namespace ndshard::ttsim
