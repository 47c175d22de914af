// The laws of `ndshard conform`, one object per file of this folder (the file and the
// object are named after the law's id); registry.cpp lists them in report order.
#pragma once

#include "ndshard/conform/laws.hpp"

namespace ndshard::conform::laws {

extern const law acceptance;
extern const law address_limit_32bit;
extern const law page_placement;
extern const law bijectivity;
extern const law balance;
extern const law coord_page_agreement;
extern const law shard_addressing;
extern const law iteration_order;
extern const law contiguous_runs;
extern const law thread_split_iteration;
extern const law interleaved_equivalence;
extern const law legacy_equivalence;
extern const law determinism;
extern const law out_of_range;

}  // namespace ndshard::conform::laws
