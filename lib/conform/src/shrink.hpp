// Shrink candidates: specs a little simpler than a failing one, most aggressive first.
#pragma once

#include <vector>

#include "ndshard/spec.hpp"

namespace ndshard::conform::detail {

// Drop a dim, cut shard rank, halve / decrement / unit each dim, drop or trim core ranges,
// move them to the origin, and simplify the scalars (alignment, element size, bank base,
// orientation, strategy, page kind, tile). Candidates may be invalid; the law's `fits`
// filters them.
std::vector<distribution_spec> shrink_candidates(const distribution_spec& s);

// A strict, well-founded order: a is simpler than b (tensor volume, rank, dims, cores,
// page kind, tile, element size, alignment, orientation, strategy, bank base compared in
// that order). The shrinker only moves to simpler specs, so it always ends.
bool simpler(const distribution_spec& a, const distribution_spec& b);

}  // namespace ndshard::conform::detail
