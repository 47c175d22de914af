#include "ndshard/testkit/oracle_bridge.hpp"

#include <stdexcept>
#include <utility>

#include "ndshard/host_mapping.hpp"
#include "ndshard/testkit/describe.hpp"

namespace ndshard::testkit {

oracle::spec to_oracle(const distribution_spec& s) {
    oracle::spec o;
    for (auto d : s.tensor) o.tensor.emplace_back(d);
    for (auto d : s.shard) o.shard.emplace_back(d);
    switch (s.page.kind) {
        case page_kind::pages:
            o.page = oracle::page_kind::pages;
            break;
        case page_kind::tile:
            o.page = oracle::page_kind::tile;
            break;
        case page_kind::row_major:
            o.page = oracle::page_kind::row_major;
            break;
    }
    o.tile_h = s.page.tile_h;
    o.tile_w = s.page.tile_w;
    o.element_size = s.element_size;
    o.alignment = s.alignment;
    for (const core_range& r : s.cores) o.cores.push_back({r.start.x, r.start.y, r.end.x, r.end.y});
    o.orient = s.orient == orientation::row_major ? oracle::orientation::row_major : oracle::orientation::col_major;
    switch (s.strat) {
        case strategy::round_robin_1d:
            o.strat = oracle::strategy::round_robin_1d;
            break;
        case strategy::contiguous_1d:
            o.strat = oracle::strategy::contiguous_1d;
            break;
        case strategy::grid_2d:
            o.strat = oracle::strategy::grid_2d;
            break;
    }
    o.bank_base = s.bank_base;
    return o;
}

std::uint64_t to_u64(const oracle::big& v) {
    if (v < 0 || v > oracle::big(UINT64_MAX))
        throw std::overflow_error("oracle value " + oracle::to_string(v) + " does not fit 64 bits");
    return static_cast<std::uint64_t>(v);
}

std::vector<std::vector<std::uint64_t>> oracle_slot_table(const oracle::model& m) {
    std::vector<std::vector<std::uint64_t>> out;
    for (const auto& core : oracle::slot_table(m)) {
        auto& row = out.emplace_back();
        row.reserve(core.size());
        for (const auto& slot : core) row.push_back(slot ? to_u64(*slot) : padding_slot);
    }
    return out;
}

core_coord to_core_coord(const oracle::core_xy& c) {
    return {static_cast<std::uint32_t>(to_u64(c.x)), static_cast<std::uint32_t>(to_u64(c.y))};
}

std::vector<core_coord> core_coords(const oracle::model& m) {
    std::vector<core_coord> out;
    out.reserve(m.cores.size());
    for (const oracle::core_xy& c : m.cores) out.push_back(to_core_coord(c));
    return out;
}

oracle::model accepted_model(const distribution_spec& spec) {
    oracle::verdict v = oracle::evaluate(to_oracle(spec));
    if (!v.accepted)
        throw std::runtime_error("the oracle rejects a spec the fast path accepts: [" + v.rule + "] " + v.message +
                                 " (" + describe(spec) + ")");
    return std::move(*v.accepted);
}

}  // namespace ndshard::testkit
