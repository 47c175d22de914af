#include "ndshard/sim/scenario.hpp"

#include <stdexcept>

namespace ndshard::sim {

const char* to_string(layout_family f) noexcept {
    switch (f) {
        case layout_family::nd:
            return "nd";
        case layout_family::interleaved:
            return "interleaved";
        case layout_family::height:
            return "height";
        case layout_family::width:
            return "width";
        case layout_family::block:
            return "block";
    }
    return "?";
}

distribution_spec to_nd_keeping_rank(const legacy_spec& l) {
    distribution_spec flat = to_nd(l);
    if (l.layout == legacy_layout::interleaved || l.tensor.rank() < 2) return flat;
    distribution_spec kept = flat;
    kept.tensor = l.tensor;
    if (!same_mapping(make_distribution(kept), make_distribution(flat)))
        throw std::logic_error("to_nd_keeping_rank: " + to_string(l.tensor) + " in " + to_string(flat.shard) +
                               " shards maps differently from the " + to_string(flat.tensor) + " view");
    return kept;
}

device_config scenario_device_config() {
    device_config c;
    c.grid_x = 6;
    c.grid_y = 5;
    c.l1_size = 1 << 18;
    c.num_dram_banks = 6;
    c.dram_bank_size = 1 << 20;
    return c;
}

std::vector<std::string> features(const drawn_spec& s) {
    const distribution d = make_distribution(s.spec);
    const page_layout& l = d.layout;
    std::vector<std::string> out{std::string("family:") + to_string(s.family),
                                 "rank:" + std::to_string(d.tensor_pages.rank())};
    if (s.family == layout_family::nd) out.push_back(std::string("strategy:") + ndshard::to_string(d.spec.strat));
    if (s.memory == memory_kind::dram) out.emplace_back("dram");
    if (l.rank() < d.tensor_pages.rank()) out.emplace_back("folded");
    bool uneven = false, oversized = false;
    for (std::size_t k = 0; k < l.rank(); ++k) {
        uneven = uneven || l.tensor[k] % l.shard[k] != 0;
        oversized = oversized || l.shard[k] > l.tensor[k];
    }
    if (uneven) out.emplace_back("uneven");
    if (oversized) out.emplace_back("shard>tensor");
    if (d.cores.size() > d.num_shards()) out.emplace_back("cores>shards");
    if (l.max_shards_per_core > 1) out.emplace_back("multi_slot");
    if (d.aligned_page_size > d.page_size) out.emplace_back("gap");
    if (d.num_pages() == 0) out.emplace_back("empty");
    return out;
}

}  // namespace ndshard::sim
