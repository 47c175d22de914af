// The page <-> (core, offset) mapping of an accepted model (docs/semantics.md).
//
// Two independent directions: locate() goes from a page to its shard by division
// (docs/semantics.md: "a page at coordinate p lies in shard sum((p[d]/S[d]) * Gstride[d])"),
// while page_at() and the enumerations go from a shard to its pages by multiplication
// (shard coordinate * S + in-shard coordinate). Property tests hold the two against
// each other.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "detail.hpp"

namespace ndshard::oracle {
namespace {

using detail::ceil_div;
using detail::coord;
using detail::rank_of;
using detail::row_major_coord;
using detail::row_major_index;
using detail::to_index;

// `what` (and dim `dim`, if any) is put into words only when the check fails.
void check_range(const big& v, const big& end, const char* what, std::size_t dim = SIZE_MAX) {
  if (v < 0 || v >= end)
    throw std::out_of_range("oracle: " + std::string(what) + (dim == SIZE_MAX ? "" : " dim " + std::to_string(dim)) +
                            " " + to_string(v) + " is not in [0, " + to_string(end) + ")");
}

void check_coord(const std::vector<big>& c, const std::vector<big>& shape, const char* what) {
  if (c.size() != shape.size())
    throw std::out_of_range("oracle: " + std::string(what) + " " + detail::shape_string(c) + " has rank " +
                            std::to_string(c.size()) + ", expected " + std::to_string(shape.size()));
  for (std::size_t d = 0; d < shape.size(); ++d) check_range(c[d], shape[d], what, d);
}

big byte_address(const model& m, const big& device_offset) {
  // byte address = bank_base + offset * aligned_page_size
  return m.bank_base + device_offset * m.aligned_page_size;
}

// rank(T) - rank(S) + 1 leading tensor page dims fold into one.
std::size_t folded_lead(const model& m) { return rank_of(m.tensor_pages) - rank_of(m.shard_pages) + 1; }

// Tensor-rank page coordinate p -> shard-rank coordinate: the leading dims, row-major, become one.
coord fold(const model& m, const big* p) {
  const std::size_t lead = folded_lead(m);
  coord q;
  q[0] = row_major_index(p, m.tensor_pages.data(), lead);
  for (std::size_t d = lead; d < m.tensor_pages.size(); ++d) q[d - lead + 1] = p[d];
  return q;
}

// Inverse of fold: split the outer folded coordinate q[0] back over the leading tensor dims.
void unfold(const model& m, const coord& q, coord& p) {
  const std::size_t lead = folded_lead(m);
  row_major_coord(q[0], m.tensor_pages.data(), lead, p.data());
  for (std::size_t d = lead; d < m.tensor_pages.size(); ++d) p[d] = q[d - lead + 1];
}

struct placement {
  big core_index, slot;
};

// docs/semantics.md / rules.md "Distribution": the core and slot of shard s.
placement place_shard(const model& m, const big& s) {
  const big P = m.cores.size();
  switch (m.strat) {
    case strategy::round_robin_1d:  // shard s -> core s % P, slot s / P
      return {s % P, s / P};
    case strategy::contiguous_1d: {  // k = ceil(vol(G)/P); shard s -> core s / k, slot s % k
      const big& k = m.max_shards_per_core;
      return {s / k, s % k};
    }
    case strategy::grid_2d:  // shard s -> effective core s, slot 0
      return {s, 0};
  }
  throw std::logic_error("oracle: unknown strategy");
}

// The shard held in (core, slot), solving place_shard backwards; nullopt when that
// reserved slot holds no shard.
template <class Int>  // big, or detail::count in pages_on_core's walk
std::optional<Int> shard_in_slot(const model& m, const Int& core, const Int& slot) {
  const Int P = static_cast<Int>(m.cores.size());
  Int s;
  switch (m.strat) {
    case strategy::round_robin_1d:
      s = slot * P + core;
      break;
    case strategy::contiguous_1d:
      s = core * static_cast<Int>(m.max_shards_per_core) + slot;
      break;
    case strategy::grid_2d:
      if (slot != 0) return std::nullopt;
      s = core;
      break;
  }
  if (s < static_cast<Int>(m.num_shards)) return s;
  return std::nullopt;
}

// The page at in-shard offset o of shard s, or nullopt for a padding slot: an edge shard
// keeps the full shard volume and its positions outside the tensor are padding.
std::optional<big> page_in_shard(const model& m, const big& s, const big& o) {
  const std::size_t rank = rank_of(m.grid);
  const coord g = row_major_coord(s, m.grid);
  const coord inner = row_major_coord(o, m.shard_pages);
  coord q;
  for (std::size_t d = 0; d < rank; ++d) {
    q[d] = g[d] * m.shard_pages[d] + inner[d];
    if (q[d] >= m.folded_tensor[d]) return std::nullopt;
  }
  coord p;
  unfold(m, q, p);  // page ids are row-major over tensor_pages
  return row_major_index(p.data(), m.tensor_pages.data(), m.tensor_pages.size());
}

// Calls visit(page) for every slot of shard s in device order (in-shard offset 0, 1, ...),
// page = nullopt for a padding slot: what page_in_shard(m, s, o) gives for each o, with
// the slot's folded coordinate counted like an odometer (last dim fastest, from the
// shard's first page g * S to g * S + S - 1) instead of divided out of o for every slot.
// The enumerations walk whole shards this way, in detail::count (64-bit, checked; see its
// bound). Folding merges the leading tensor dims row-major, so a folded coordinate's
// row-major index over the folded tensor is the page id itself: [2,3,4] folded to [6,4],
// coordinate (1,2,3) -> (5,3), 5*4+3 = 23 = 1*12+2*4+3 (page_in_shard unfolds instead;
// the properties hold both).
template <class Visit>
void walk_shard(const model& m, const big& s, Visit&& visit) {
  using detail::count;
  const std::size_t rank = rank_of(m.grid);
  const coord g = row_major_coord(s, m.grid);
  // The shard spans [first, end) along each dim; q is the slot's folded coordinate.
  std::array<count, detail::max_rank> first, end, q, folded, stride;
  for (std::size_t d = 0; d < rank; ++d) {
    folded[d] = static_cast<count>(m.folded_tensor[d]);
    first[d] = static_cast<count>(g[d]) * static_cast<count>(m.shard_pages[d]);
    end[d] = first[d] + static_cast<count>(m.shard_pages[d]);
    q[d] = first[d];
  }
  count product = 1;  // row-major strides of page ids over the folded tensor
  for (std::size_t d = rank; d-- > 0;) {
    stride[d] = product;
    product *= folded[d];
  }
  for (std::size_t o = 0, volume = to_index(m.shard_volume); o < volume; ++o) {
    count page = 0;
    bool padding = false;
    for (std::size_t d = 0; d < rank; ++d) {
      if (q[d] >= folded[d]) {  // past the tensor along d
        padding = true;
        break;
      }
      page += q[d] * stride[d];
    }
    visit(padding ? std::optional<big>() : std::optional<big>(big(static_cast<std::uint64_t>(page))));
    for (std::size_t d = rank; d-- > 0;) {  // the next slot: last dim fastest, within the shard
      if (++q[d] < end[d]) break;
      q[d] = first[d];
    }
  }
}

// The math of locate() for a tensor-rank coordinate p already known to be in range.
location locate_coord(const model& m, const big* p) {
  const coord q = fold(m, p);
  const std::size_t rank = rank_of(m.shard_pages);
  location loc;
  coord inner;
  loc.shard_coord.resize(rank);
  for (std::size_t d = 0; d < rank; ++d)
    boost::multiprecision::divide_qr(q[d], m.shard_pages[d], loc.shard_coord[d], inner[d]);  // q/S, q%S
  // shard sum((p[d]/S[d]) * Gstride[d]); offset sum((p[d]%S[d]) * Sstride[d]), full strides.
  loc.shard_id = row_major_index(loc.shard_coord, m.grid);
  loc.in_shard_offset = row_major_index(inner.data(), m.shard_pages.data(), rank);
  const placement pl = place_shard(m, loc.shard_id);
  loc.core_index = pl.core_index;
  loc.core = m.cores.at(to_index(pl.core_index));
  loc.slot = pl.slot;
  // Device offset: slot * vol(S) + in_shard_offset.
  loc.device_offset = pl.slot * m.shard_volume + loc.in_shard_offset;
  loc.byte_address = byte_address(m, loc.device_offset);
  return loc;
}

}  // namespace

location locate(const model& m, const big& page_id) {
  check_range(page_id, m.num_pages, "page id");
  return locate_coord(m, row_major_coord(page_id, m.tensor_pages).data());
}

location locate(const model& m, const std::vector<big>& page_coord) {
  check_coord(page_coord, m.tensor_pages, "page coordinate");
  return locate_coord(m, page_coord.data());
}

shard_home shard_location(const model& m, const big& shard_id) {
  check_range(shard_id, m.num_shards, "shard id");
  const placement pl = place_shard(m, shard_id);
  const big device_offset = pl.slot * m.shard_volume;
  return {pl.core_index, m.cores.at(to_index(pl.core_index)), pl.slot, device_offset, byte_address(m, device_offset)};
}

shard_home shard_location(const model& m, const std::vector<big>& shard_coord) {
  check_coord(shard_coord, m.grid, "shard coordinate");
  return shard_location(m, row_major_index(shard_coord, m.grid));  // shards are row-major over G
}

std::optional<big> page_at(const model& m, const big& core_index, const big& device_offset) {
  check_range(core_index, m.cores.size(), "core index");
  check_range(device_offset, m.reserved_pages_per_core, "device offset");
  // device offset = slot * vol(S) + in_shard_offset
  const std::optional<big> s = shard_in_slot(m, core_index, device_offset / m.shard_volume);
  if (!s) return std::nullopt;
  return page_in_shard(m, *s, device_offset % m.shard_volume);
}

big shards_on_core(const model& m, const big& core_index) {
  check_range(core_index, m.cores.size(), "core index");
  const big P = m.cores.size();
  const big& N = m.num_shards;
  switch (m.strat) {
    case strategy::round_robin_1d:  // slots j with j*P + c < N
      return core_index >= N ? big(0) : ceil_div(N - core_index, P);
    case strategy::contiguous_1d: {  // slots j in [0, k) with c*k + j < N
      const big& k = m.max_shards_per_core;
      const big left = N - core_index * k;
      return left <= 0 ? big(0) : (left < k ? left : k);
    }
    case strategy::grid_2d:  // one shard per effective core
      return core_index < N ? big(1) : big(0);
  }
  throw std::logic_error("oracle: unknown strategy");
}

big pages_on_core(const model& m, const big& core_index) {
  const big shards = shards_on_core(m, core_index);  // checks the range
  bool any_padding = false;
  for (std::size_t d = 0; d < m.grid.size(); ++d)
    any_padding = any_padding || m.folded_tensor[d] % m.shard_pages[d] != 0;
  if (!any_padding) return shards * m.shard_volume;  // every shard is full
  // Walk the core's slots; a shard at grid coordinate g holds
  // prod_d min(S[d], T[d] - g[d]*S[d]) real pages. Counted in detail::count (checked 64-bit):
  // slots, shard ids, grid coordinates, shard extents and page counts of an accepted model are
  // below 2^32.
  using detail::count;
  const std::size_t rank = rank_of(m.grid);
  std::array<count, detail::max_rank> grid, shard, folded;
  for (std::size_t d = 0; d < rank; ++d) {
    grid[d] = static_cast<count>(m.grid[d]);
    shard[d] = static_cast<count>(m.shard_pages[d]);
    folded[d] = static_cast<count>(m.folded_tensor[d]);
  }
  count pages = 0;
  const count core = static_cast<count>(core_index), slots = static_cast<count>(m.max_shards_per_core);
  for (count slot = 0; slot < slots; ++slot) {
    const std::optional<count> s = shard_in_slot(m, core, slot);
    if (!s) continue;
    count rest_of_id = *s, real = 1;
    for (std::size_t d = rank; d-- > 0;) {  // g[d] = the id's row-major digit over the grid, last dim first
      const count g = rest_of_id % grid[d];
      rest_of_id /= grid[d];
      const count left = folded[d] - g * shard[d];
      real *= (left < shard[d] ? left : shard[d]);
    }
    pages += real;
  }
  return big(static_cast<std::uint64_t>(pages));
}

std::vector<std::vector<std::optional<big>>> slot_table(const model& m) {
  const big total = big(m.cores.size()) * m.reserved_pages_per_core;
  if (total > slot_table_limit)
    throw std::length_error("oracle: slot_table of " + to_string(total) + " slots exceeds " +
                            std::to_string(slot_table_limit));
  // Every core reserves max_shards_per_core * vol(S) slots, all padding until dealt.
  std::vector<std::vector<std::optional<big>>> table(
      m.cores.size(), std::vector<std::optional<big>>(to_index(m.reserved_pages_per_core)));
  // Deal: enumerate shards, put each on its core and slot, walk the shard's slots.
  for (big s = 0; s < m.num_shards; ++s) {
    const placement pl = place_shard(m, s);
    std::vector<std::optional<big>>& slots = table.at(to_index(pl.core_index));
    std::size_t at = to_index(pl.slot * m.shard_volume);
    walk_shard(m, s, [&](const std::optional<big>& page) { slots.at(at++) = page; });
  }
  return table;
}

std::vector<big> pages_of_shard(const model& m, const big& shard_id) {
  check_range(shard_id, m.num_shards, "shard id");
  std::vector<big> pages;
  walk_shard(m, shard_id, [&](const std::optional<big>& page) {
    if (page) pages.push_back(*page);
  });
  return pages;
}

std::vector<big> local_pages(const model& m, const big& core_index) {
  check_range(core_index, m.cores.size(), "core index");
  std::vector<big> pages;
  for (big slot = 0; slot < m.max_shards_per_core; ++slot)
    if (const std::optional<big> s = shard_in_slot(m, core_index, slot)) {
      const std::vector<big> shard_pages = pages_of_shard(m, *s);
      pages.insert(pages.end(), shard_pages.begin(), shard_pages.end());
    }
  return pages;
}

}  // namespace ndshard::oracle
