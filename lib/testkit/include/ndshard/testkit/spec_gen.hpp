// ndshard/testkit/spec_gen.hpp - distribution specs with the hard cases in them.
//
// One generator for properties and fuzzers (driven by any `entropy`). It aims at what
// breaks addressing code: rank 1 and rank 8, lower shard rank (folding), uneven edge
// shards, shard dims past the tensor, zero-size dims, more cores than shards, all three
// strategies and page kinds, non-trivial alignment, bank bases at the 32-bit limit, and
// (option `huge`) page counts and addresses near 2^31 and 2^32. With `invalid`, it
// also breaks one rule of docs/rules.md on purpose. props/generator.cpp measures how
// often each feature occurs and fails if one never does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/spec.hpp"
#include "ndshard/testkit/entropy.hpp"

namespace ndshard::testkit {

struct spec_options {
    std::uint64_t max_pages = 1024;     // budget of vol(tensor pages) outside `huge` specs
    std::uint32_t max_cores = 64;       // typical core counts stay below this
    std::uint32_t huge_percent = 0;     // how often sizes sit near 2^31 / 2^32
    std::uint32_t invalid_percent = 0;  // how often rules are broken on purpose (one; sometimes two or three)
    bool allow_grid_2d = true;
    // How often the first choice selects explicit mode (fuzzers): every field read raw in
    // wide ranges - any rank 0..8, dims up to 2^64, several broken rules at once - so that
    // explicit_spec_bytes can encode an exact spec as a seed input. 0: never (no byte used).
    std::uint32_t explicit_percent = 0;
};

// A spec; may be rejected by make_distribution (always when a rule was broken, and
// sometimes for `huge` specs whose addresses pass 2^32).
distribution_spec generate_spec(entropy& e, const spec_options& o = {});

// Bytes that byte_entropy decodes, through generate_spec(e, o) with o.explicit_percent > 0,
// to exactly `spec` (any spec of rank <= 8 with 32-bit core coordinates). Bytes after them
// are left for the caller's own choices.
std::vector<std::uint8_t> explicit_spec_bytes(const distribution_spec& spec, const spec_options& o);

// A spec make_distribution accepts (retries a few times, then falls back to a tiny one).
distribution generate_distribution(entropy& e, spec_options o = {});

// Features of a spec, for RC_TAG/RC_CLASSIFY and generator coverage:
// "rank:1", "rank:8", "folded", "uneven", "shard>tensor", "zero_dim", "cores>shards",
// "strategy:<s>", "page:<k>", "near_2^32", "aligned", "base_at_limit", "rejected:<rule>".
std::vector<std::string> features(const distribution_spec& spec);

// True when enumerating every page and slot is cheap (props walk whole tables then).
bool small_enough(const distribution& d, std::uint64_t limit = 1U << 16);

// Pages worth checking in a large spec: first, last, edges of shards, random ones.
std::vector<std::uint64_t> sample_pages(entropy& e, const distribution& d, std::size_t random_count = 64);

}  // namespace ndshard::testkit
