// ndshard/testkit/describe.hpp - a spec as one readable line, for counterexamples.
//
// RapidCheck shows a counterexample as the raw choices the entropy made; properties
// RC_LOG() this line so a failure names the spec itself:
//   tensor=[3,7,5] shard=[2,2,2] page=pages elem=1 align=1 cores=(0,0)-(1,2) row_major round_robin_1d base=0
#pragma once

#include <string>

#include "ndshard/spec.hpp"

namespace ndshard::testkit {

inline std::string describe(const distribution_spec& s) {
    std::string out =
        "tensor=" + to_string(s.tensor) + " shard=" + to_string(s.shard) + " page=" + to_string(s.page.kind);
    if (s.page.kind == page_kind::tile)
        out += ":" + std::to_string(s.page.tile_h) + "x" + std::to_string(s.page.tile_w);
    out += " elem=" + std::to_string(s.element_size) + " align=" + std::to_string(s.alignment) + " cores=";
    for (std::size_t i = 0; i < s.cores.size(); ++i) out += (i ? "," : "") + to_string(s.cores[i]);
    if (s.cores.empty()) out += "none";
    out += std::string(" ") + to_string(s.orient) + " " + to_string(s.strat) + " base=" + std::to_string(s.bank_base);
    return out;
}

}  // namespace ndshard::testkit
