// ndshard/squeeze.hpp - merge neighbouring dims when every page keeps its (core, offset).
//
// Two neighbouring dims (T0,S0),(T1,S1) merge into one when
//   S1 == T1              the shard spans the inner dim whole: -> (T0*T1, S0*S1)
//   S0 == 1, T1 % S1 == 0 the outer dim is cut in single rows and the inner one evenly
//                         -> (T0*T1, S1)
//   S0 == 1, T0 == 1      the outer dim is trivial: -> (T1, S1)
// e.g. [4,4,6]/[1,2,2] -> [16,6]/[2,2]; [5,11,11]/[5,1,1] -> [5,121]/[5,1];
// [2,3,6]/[1,2,2] stays. Shard count, shard volume, cores and slots are unchanged, so
// the mapping is identical (props/squeeze.cpp checks it exhaustively on small shapes).
#pragma once

#include "ndshard/layout.hpp"

namespace ndshard {

constexpr page_layout squeeze(const page_layout& l) noexcept {
    if (l.rank() == 0) return l;
    shape t{l.tensor[0]};
    shape s{l.shard[0]};
    for (std::size_t d = 1; d < l.rank(); ++d) {
        std::uint64_t& t0 = t.back();
        std::uint64_t& s0 = s.back();
        const std::uint64_t t1 = l.tensor[d], s1 = l.shard[d];
        if (s1 == t1) {
            t0 *= t1;
            s0 *= s1;
        } else if (s0 == 1 && t1 % s1 == 0) {
            t0 *= t1;
            s0 = s1;
        } else if (s0 == 1 && t0 == 1) {
            t0 = t1;
            s0 = s1;
        } else {
            t.push_back(t1);
            s.push_back(s1);
        }
    }
    page_layout out = make_page_layout(t, s, l.num_cores, l.rule);
    out.max_shards_per_core = l.max_shards_per_core;  // grid_2d's one-per-core reservation
    return out;
}

}  // namespace ndshard
