// evaluate(): spec -> model, applying docs/rules.md "Errors" in table order.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "detail.hpp"

namespace ndshard::oracle {
namespace {

using detail::ceil_div;
using detail::narrow;
using detail::range_string;
using detail::shape_string;
using detail::volume;
using detail::wide;

const wide two_to_32 = wide(1) << 32;

// rules.md: dims >= 0, sizes >= 1 (or a rule), coordinates unsigned. A negative value is
// not a spec that can be rejected with a rule id: it cannot be written at all.
void require_non_negative(const spec& s) {
  auto check = [](const big& v, const std::string& what) {
    if (v < 0) throw std::invalid_argument("oracle: " + what + " " + to_string(v) + " is negative");
  };
  for (const big& e : s.tensor) check(e, "tensor dim");
  for (const big& e : s.shard) check(e, "shard dim");
  check(s.tile_h, "tile_h");
  check(s.tile_w, "tile_w");
  check(s.element_size, "element_size");
  check(s.alignment, "alignment");
  check(s.bank_base, "bank_base");
  for (const core_range& r : s.cores) {
    check(r.x0, "core x0");
    check(r.y0, "core y0");
    check(r.x1, "core x1");
    check(r.y1, "core y1");
  }
}

bool is_power_of_two(const big& a) {
  big p = 1;  // walk 1, 2, 4, ... until reaching a
  while (p < a) p *= 2;
  return p == a;
}

verdict reject(std::string rule, std::string message) {
  return verdict{std::nullopt, std::move(rule), std::move(message)};
}

}  // namespace

verdict evaluate(const spec& s) {
  require_non_negative(s);
  const std::size_t rank_t = s.tensor.size();
  const std::size_t rank_s = s.shard.size();

  // ---- Errors, in the order of the table ----------------------------------------------
  if (rank_t < 1 || rank_t > 8) return reject("rank", "tensor rank " + std::to_string(rank_t) + " is not in 1..8");
  if (rank_s < 1 || rank_s > rank_t)
    return reject("shard_rank", "shard rank " + std::to_string(rank_s) + " is not in 1.." + std::to_string(rank_t) +
                                    " (the tensor rank)");
  for (std::size_t d = 0; d < rank_s; ++d)
    if (s.shard[d] == 0)
      return reject("zero_shard_dim", "shard dim " + std::to_string(d) + " of " + shape_string(s.shard) + " is 0");
  if (s.page == page_kind::tile) {
    if (rank_s < 2)
      return reject("tile", "tile layout needs shard rank >= 2, shard " + shape_string(s.shard) + " has rank " +
                                std::to_string(rank_s));
    if (s.tile_h == 0 || s.tile_w == 0)
      return reject("tile", "tile " + to_string(s.tile_h) + "x" + to_string(s.tile_w) + " has a zero dim");
  }
  if (s.element_size == 0) return reject("element_size", "element_size 0 is not >= 1");
  if (s.alignment == 0) return reject("alignment", "alignment 0 is not a power of two");
  if (!is_power_of_two(s.alignment))
    return reject("alignment", "alignment " + to_string(s.alignment) + " is not a power of two");
  if (s.cores.empty()) return reject("no_cores", "core list is empty");
  for (std::size_t i = 0; i < s.cores.size(); ++i) {
    const core_range& r = s.cores[i];
    if (r.x0 > r.x1 || r.y0 > r.y1)
      return reject("bad_range", "core range " + std::to_string(i) + " " + range_string(r) +
                                     (r.x0 > r.x1 ? " has x0 > x1" : " has y0 > y1"));
  }
  for (std::size_t i = 0; i < s.cores.size(); ++i) {
    const core_range& r = s.cores[i];
    for (const big& v : {r.x0, r.y0, r.x1, r.y1})
      if (v > 65535)
        return reject("core_coord", "core coordinate " + to_string(v) + " in range " + std::to_string(i) + " " +
                                        range_string(r) + " exceeds 65535");
  }
  // Count before expanding: a single range may hold 2^32 cores.
  big core_count = 0;
  for (const core_range& r : s.cores) core_count += (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1);
  if (core_count > 65536)
    return reject("too_many_cores", to_string(core_count) + " cores after expansion, more than 65536");
  // Rule duplicate_core: the first core listed a second time is reported. A range lists
  // each of its cores once, so a repeat is a core of range j inside an earlier range i, and
  // ranges i and j share cores exactly when their x spans and their y spans overlap; the
  // shared cores form the rectangle between the corners (max x0, max y0) - (min x1, min y1),
  // whose first core in either orientation is its first corner. Up to 64 ranges are compared
  // pairwise (no core is looked at); more are checked core by core.
  if (s.cores.size() <= 64) {
    for (std::size_t j = 1; j < s.cores.size(); ++j) {
      std::optional<core_xy> first;  // the first core of range j that an earlier range lists
      for (std::size_t i = 0; i < j; ++i) {
        const core_range &a = s.cores[i], &b = s.cores[j];
        if (a.x1 < b.x0 || b.x1 < a.x0 || a.y1 < b.y0 || b.y1 < a.y0) continue;  // disjoint
        const core_xy corner{a.x0 > b.x0 ? a.x0 : b.x0, a.y0 > b.y0 ? a.y0 : b.y0};
        // row_major lists y by y (x fastest), col_major x by x (y fastest).
        const bool earlier = !first || (s.orient == orientation::row_major
                                            ? (corner.y < first->y || (corner.y == first->y && corner.x < first->x))
                                            : (corner.x < first->x || (corner.x == first->x && corner.y < first->y)));
        if (earlier) first = corner;
      }
      if (first)
        return reject("duplicate_core", "core (" + to_string(first->x) + "," + to_string(first->y) + ") appears twice");
    }
  } else {
    // Every coordinate is <= 65535 here (rule core_coord), so key = x * 65536 + y (x << 16 | y) is a
    // distinct 32-bit number per core: (3,7) -> 196615. A set of the keys seen so far -
    // open addressing in a table at least twice the core count, key + 1 stored (0 =
    // empty) - meets a repeated core at its second listing, without sorting anything.
    const core_list expanded = expand_core_list(s.cores, s.orient);
    std::size_t size = 1;
    while (size < 2 * expanded.size()) size *= 2;
    std::vector<std::uint64_t> seen(size, 0);
    for (const core_xy& c : expanded) {
      const std::uint64_t key = static_cast<std::uint64_t>(c.x) << 16 | static_cast<std::uint64_t>(c.y);
      std::size_t slot = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 32) & (size - 1);
      while (seen[slot] != 0 && seen[slot] != key + 1) slot = (slot + 1) & (size - 1);
      if (seen[slot] == key + 1)
        return reject("duplicate_core", "core (" + to_string(c.x) + "," + to_string(c.y) + ") appears twice");
      seen[slot] = key + 1;
    }
  }
  if (s.strat == strategy::grid_2d && s.cores.size() != 1)
    return reject("grid_2d_ranges", "grid_2d takes exactly one core range, got " + std::to_string(s.cores.size()));

  // ---- Conversion to pages (rules.md "Conversion to pages" 1-5) ----------------------
  // Until the 32-bit limit rules below have passed, shapes and sizes are `wide` (see detail.hpp).
  std::vector<wide> T(s.tensor.begin(), s.tensor.end());  // becomes the tensor page shape, tensor rank
  std::vector<wide> S(s.shard.begin(), s.shard.end());    // becomes the shard page shape
  wide page_size;
  switch (s.page) {
    case page_kind::tile:  // page = one h x w tile; X[-1] = ceil(X[-1]/w), X[-2] = ceil(X[-2]/h)
      page_size = wide(s.tile_h) * wide(s.tile_w) * wide(s.element_size);
      for (std::vector<wide>* X : {&T, &S}) {
        const std::size_t n = X->size();
        (*X)[n - 1] = ceil_div((*X)[n - 1], wide(s.tile_w));
        (*X)[n - 2] = ceil_div((*X)[n - 2], wide(s.tile_h));
      }
      break;
    case page_kind::row_major:  // page = one row of S[-1] elements; T[-1] = ceil(T[-1]/S[-1]), S[-1] = 1
      page_size = S.back() * wide(s.element_size);
      T.back() = ceil_div(T.back(), S.back());
      S.back() = 1;
      break;
    case page_kind::pages:  // already in pages; element_size is the page size
      page_size = s.element_size;
      break;
  }
  // Folding: the leading rank(T) - rank(S) + 1 tensor page dims multiply into one.
  const std::size_t lead = rank_t - rank_s + 1;
  std::vector<wide> folded{volume(std::vector<wide>(T.begin(), T.begin() + static_cast<std::ptrdiff_t>(lead)))};
  folded.insert(folded.end(), T.begin() + static_cast<std::ptrdiff_t>(lead), T.end());
  // Shard grid G[d] = ceil(T[d]/S[d]) (0 when T[d] = 0).
  std::vector<wide> G(rank_s);
  for (std::size_t d = 0; d < rank_s; ++d) G[d] = ceil_div(folded[d], S[d]);
  const wide num_shards = volume(G);

  // ---- Cores: the effective list ---------------------------------------------------------
  core_list effective = expand_core_list(s.cores, s.orient);  // the listed cores, unless grid_2d trims them
  if (s.strat == strategy::grid_2d) {
    // The shard grid seen as 2D: Gw = G[-1], Gh = product of the other G (rank 1: 1).
    const wide Gw = G.back();
    const wide Gh = volume(std::vector<wide>(G.begin(), G.end() - 1));
    const core_range& r = s.cores.front();
    const wide width = r.x1 - r.x0 + 1, height = r.y1 - r.y0 + 1;
    const bool row = s.orient == orientation::row_major;
    // row_major needs Gw <= width and Gh <= height; col_major needs Gh <= width, Gw <= height.
    const bool fits = row ? (Gw <= width && Gh <= height) : (Gh <= width && Gw <= height);
    if (!fits)
      return reject("grid_2d_fit", "grid_2d shard grid " + Gh.str() + " x " + Gw.str() +
                                       " (Gh x Gw) does not fit core range " + range_string(r) + " (" + width.str() +
                                       " wide, " + height.str() + " high) in " + (row ? "row_major" : "col_major"));
    // Shard s = i*Gw + j lands on (x0+j, y0+i) (row_major) or (x0+i, y0+j) (col_major);
    // it fits, so num_shards <= 65536 and i, j <= 65535. In shard order (i, then j) these
    // are the cores of one range expanded in the spec's orientation, j fastest: row_major
    // (x0,y0)-(x0+Gw-1, y0+Gh-1), x fastest; col_major (x0,y0)-(x0+Gh-1, y0+Gw-1), y fastest.
    // [2,3] shards row_major on (4,5)-(9,9): shard 4 = (1,1) -> core 4 = (5,6).
    effective = core_list(s.orient);
    if (num_shards > 0) {
      const big wide_side = narrow(row ? Gw : Gh), high_side = narrow(row ? Gh : Gw);
      effective.add_range({r.x0, r.y0, r.x0 + wide_side - 1, r.y0 + high_side - 1});
    }
  }

  // ---- 32-bit limits ------------------------------------------------------------------------
  wide tensor_volume_nonzero = 1;  // vol(tensor pages) with zero dims counted as 1
  for (std::size_t d = 0; d < rank_t; ++d) {
    if (T[d] >= two_to_32)
      return reject("tensor_pages_32bit", "tensor page dim " + std::to_string(d) + " is " + T[d].str() +
                                              ", not below 2^32 (pages " + shape_string(T) + ")");
    tensor_volume_nonzero *= (T[d] == 0 ? wide(1) : T[d]);
  }
  if (tensor_volume_nonzero >= two_to_32)
    return reject("tensor_pages_32bit", "tensor page volume " + tensor_volume_nonzero.str() + " of " + shape_string(T) +
                                            " is not below 2^32");
  for (std::size_t d = 0; d < rank_s; ++d)
    if (S[d] >= two_to_32)
      return reject("shard_pages_32bit", "shard page dim " + std::to_string(d) + " is " + S[d].str() +
                                             ", not below 2^32 (pages " + shape_string(S) + ")");
  const wide shard_volume = volume(S);
  if (shard_volume >= two_to_32)
    return reject("shard_pages_32bit",
                  "shard page volume " + shard_volume.str() + " of " + shape_string(S) + " is not below 2^32");
  // aligned_page_size = round_up(page_size, alignment)
  const wide aligned_page_size = ceil_div(page_size, wide(s.alignment)) * wide(s.alignment);
  if (aligned_page_size >= two_to_32)
    return reject("page_size_32bit", "aligned page size " + aligned_page_size.str() + " is not below 2^32");

  // ---- Distribution (rules.md "Distribution") ---------------------------------------------
  const wide P = effective.size();
  wide max_shards_per_core;
  switch (s.strat) {
    case strategy::round_robin_1d:
      max_shards_per_core = ceil_div(num_shards, P);
      break;
    case strategy::contiguous_1d:
      max_shards_per_core = ceil_div(num_shards, P);
      break;  // k
    case strategy::grid_2d:
      max_shards_per_core = num_shards < 1 ? num_shards : wide(1);
      break;
  }
  const wide reserved = max_shards_per_core * shard_volume;
  const wide end_address = wide(s.bank_base) + reserved * aligned_page_size;
  if (end_address > two_to_32)
    return reject("address_32bit", "bank_base " + to_string(s.bank_base) + " + " + reserved.str() +
                                       " reserved pages * " + aligned_page_size.str() +
                                       " bytes = " + end_address.str() + " exceeds 2^32");
  if (s.bank_base >= two_to_32)
    return reject("address_32bit", "bank_base " + to_string(s.bank_base) + " is not below 2^32");

  // Accepted: every quantity is now below 2^32 (T and S dims, volumes, sizes, the end
  // address) or 2^33 (the end address itself may be 2^32), so each fits `big`.
  model m;
  m.tensor_pages = narrow(T);
  m.folded_tensor = narrow(folded);
  m.shard_pages = narrow(S);
  m.grid = narrow(G);
  m.num_pages = narrow(volume(T));
  m.num_shards = narrow(num_shards);
  m.shard_volume = narrow(shard_volume);
  m.max_shards_per_core = narrow(max_shards_per_core);
  m.page_size = narrow(page_size);
  m.aligned_page_size = narrow(aligned_page_size);
  m.reserved_pages_per_core = narrow(reserved);
  m.bank_base = s.bank_base;
  m.strat = s.strat;
  m.cores = std::move(effective);
  return verdict{std::move(m), "", ""};
}

}  // namespace ndshard::oracle
