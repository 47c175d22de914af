// The laws of laws.hpp, in the order they run and are reported. The order is part of the
// runner's contract: a law's seed comes from its name, but reports, the conformance
// expectations and fuzz_conform's corpus (which picks a law by index) follow this list.
#include "registry.hpp"

namespace ndshard::conform {

const std::vector<law>& all_laws() {
    // One law a line (clang-format would pack them).
    // clang-format off
    static const std::vector<law> in_order = {
        laws::acceptance,
        laws::address_limit_32bit,
        laws::page_placement,
        laws::bijectivity,
        laws::balance,
        laws::coord_page_agreement,
        laws::shard_addressing,
        laws::iteration_order,
        laws::contiguous_runs,
        laws::thread_split_iteration,
        laws::interleaved_equivalence,
        laws::legacy_equivalence,
        laws::determinism,
        laws::out_of_range,
    };
    // clang-format on
    return in_order;
}

const law* find_law(std::string_view name) {
    for (const law& l : all_laws())
        if (name == l.name) return &l;
    return nullptr;
}

}  // namespace ndshard::conform
