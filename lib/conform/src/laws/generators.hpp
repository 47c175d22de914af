// The specs several laws draw, and their membership tests (a law's `generate` and `fits`).
// A law with specs of its own kind (acceptance's boundaries, interleaved's all-ones shard,
// legacy's HEIGHT / WIDTH / BLOCK) generates them in its own file.
#pragma once

#include <cstdint>

#include "ndshard/conform/impl.hpp"
#include "ndshard/spec.hpp"
#include "ndshard/testkit/entropy.hpp"

namespace ndshard::conform::laws {

// Moves every core range by one offset, so that coordinates reach past 255 and up to 65535
// (the rules' limit). [(0,0)-(3,1)] -> [(252,0)-(255,1)] or [(65532,7)-(65535,8)].
void move_cores_far(testkit::entropy& e, distribution_spec& s);

// A valid spec inside the domain from the general generator (at most `max_pages` pages
// unless huge, huge `huge_percent`% of the time; with 0 only small specs are kept); now
// and then its cores moved far, a large one now and then in element units.
bool generate_valid(testkit::entropy& e, const impl_info& info, distribution_spec& out, std::uint64_t max_pages,
                    std::uint32_t huge_percent);
// Small valid specs: every page and slot walked.
bool gen_small(testkit::entropy& e, const impl_info& info, distribution_spec& out);
// Valid specs, 3% of them huge (sampled pages).
bool gen_placement(testkit::entropy& e, const impl_info& info, distribution_spec& out);

bool fits_any(const distribution_spec& s, const impl_info& info);
bool fits_valid(const distribution_spec& s, const impl_info& info);
bool fits_small_valid(const distribution_spec& s, const impl_info& info);

// The specs of the version-2 laws (contiguous_runs, thread_split_iteration): 40%
// run-shaped, 45% from the general generator (small enough to be checked whole), 15% made
// by the law's `large` (checked in part); a fifth of them end their buffer at or just
// below 2^32.
bool gen_v2_mix(testkit::entropy& e, const impl_info& info, distribution_spec& out,
                bool (*large)(testkit::entropy&, const impl_info&, distribution_spec&));

}  // namespace ndshard::conform::laws
