// The naive oracle: an independent, deliberately simple reference of
// docs/semantics.md and docs/rules.md. Every quantity is a checked integer wider than
// anything a spec can produce (see `big`), so nothing here wraps;
// property tests compare the fast path against it.
// It depends on nothing of the fast path (lib/include/ndshard/...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <boost/multiprecision/cpp_int.hpp>

namespace ndshard::oracle {

// Why 128 bits: a spec's inputs (dims, tile sides, element size, alignment, bank base)
// are below 2^64, core coordinates below 2^32, and a core count is below 2^64 ranges *
// 2^32 cores = 2^96. An accepted model's quantities are below 2^33 (pages, shards, sizes,
// offsets below 2^32; the end address at most 2^32), so what the mapping forms from two
// of them - a device offset times a page size, a coordinate times a stride - is below
// 2^66. 128 bits is Boost's widest "trivial" cpp_int: one native unsigned __int128 and a
// sign, no limb loops and no heap. Checked: a result past 2^128 - 1 throws
// std::overflow_error instead of wrapping. (evaluate() forms wider quantities before its
// 32-bit limit rules - a volume of 8 dims below 2^64 is below 2^512 - in a 512-bit type
// of its own, and its enumerations walk slots in a checked 64-bit one: src/detail.hpp.)
using big = boost::multiprecision::checked_int128_t;

enum class page_kind { pages, tile, row_major };
enum class orientation { row_major, col_major };
enum class strategy { round_robin_1d, contiguous_1d, grid_2d };

// A rectangle of cores (x0,y0)-(x1,y1), both corners included; a single core is x0==x1, y0==y1.
struct core_range {
  big x0, y0, x1, y1;
};

// A distribution spec as docs/rules.md "Input" describes it. Negative values are
// outside the domain: evaluate() throws std::invalid_argument for them.
struct spec {
  std::vector<big> tensor, shard;  // elements, or pages when page == pages
  page_kind page = page_kind::pages;
  big tile_h = 32, tile_w = 32;
  big element_size = 1, alignment = 1;
  std::vector<core_range> cores;
  orientation orient = orientation::row_major;
  strategy strat = strategy::round_robin_1d;
  big bank_base = 0;
};

struct core_xy {
  big x, y;
};

// A model's effective core list, in bank order, read like a std::vector<core_xy> (size(),
// [i], at(i), iteration; elements by value). It is kept as the core ranges it expands -
// ranges in the order added, inside one row_major makes x fastest, col_major y fastest
// (docs/rules.md) - with their running core counts, not one entry per core: rule
// too_many_cores allows 65,536 cores, which a spec lists in a few ranges, and a fuzzer makes
// a model for every input. [i] is the core the expansion puts at i: its range by the running
// counts, then its place in the range. Bound: every coordinate passed rule core_coord
// (<= 65535), so each is kept in 16 bits, and a list holds at most 65,536 cores.
class core_list {
  struct range16 {
    std::uint16_t x0, y0, x1, y1;
  };

public:
  // Walks the list range by range, counting x and y as the expansion does (no search, no
  // division per core).
  class iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = core_xy;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = core_xy;
    iterator() = default;
    iterator(const core_list* list, bool at_end)
        : list_(list), index_(at_end ? list->size() : 0), range_(at_end ? list->ranges_.size() : 0) {
      enter();
    }
    core_xy operator*() const { return {x_, y_}; }
    iterator& operator++() {
      const range16& r = list_->ranges_[range_];
      const bool row = list_->orient_ == orientation::row_major;
      std::uint32_t& fast = row ? x_ : y_;  // row_major: x fastest; col_major: y fastest
      std::uint32_t& slow = row ? y_ : x_;
      if (fast < (row ? r.x1 : r.y1)) {
        ++fast;
      } else if (slow < (row ? r.y1 : r.x1)) {
        fast = row ? r.x0 : r.y0;
        ++slow;
      }
      if (++index_ == list_->ends_[range_]) {
        ++range_;
        enter();
      }
      return *this;
    }
    iterator operator++(int) {
      const iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const iterator& other) const { return index_ == other.index_; }

  private:
    void enter() {  // to the first core of range_, if there is one
      if (range_ >= list_->ranges_.size()) return;
      x_ = list_->ranges_[range_].x0;
      y_ = list_->ranges_[range_].y0;
    }
    const core_list* list_ = nullptr;
    std::size_t index_ = 0;  // in the list
    std::size_t range_ = 0;  // the range holding core index_
    std::uint32_t x_ = 0, y_ = 0;
  };

  explicit core_list(orientation o = orientation::row_major) : orient_(o) {}
  std::size_t size() const { return ends_.empty() ? 0 : ends_.back(); }
  bool empty() const { return size() == 0; }
  core_xy operator[](std::size_t i) const { return at(i); }
  core_xy at(std::size_t i) const;  // throws std::out_of_range past the end
  iterator begin() const { return {this, false}; }
  iterator end() const { return {this, true}; }
  // Appends the cores of range r in the list's orientation. Throws std::out_of_range for
  // x0 > x1, y0 > y1 or a coordinate outside 0..65535, std::length_error past 65,536 cores.
  void add_range(const core_range& r);
  void push_back(const core_xy& c) { add_range({c.x, c.y, c.x, c.y}); }

private:
  std::size_t first_of(std::size_t range) const { return range == 0 ? 0 : ends_[range - 1]; }
  core_xy core_in(std::size_t range, std::size_t k) const;  // core k of a range, in orientation order

  orientation orient_;
  std::vector<range16> ranges_;
  std::vector<std::uint32_t> ends_;  // ends_[r]: the cores of ranges 0..r
};

// Everything derived from an accepted spec.
struct model {
  std::vector<big> tensor_pages;       // page grid, tensor's own rank (page ids are row-major over this)
  std::vector<big> folded_tensor;      // folded to the shard rank
  std::vector<big> shard_pages, grid;  // shard shape in pages, shard grid
  big num_pages, num_shards, shard_volume, max_shards_per_core, page_size, aligned_page_size, reserved_pages_per_core,
      bank_base;
  strategy strat = strategy::round_robin_1d;
  core_list cores;  // effective core list (grid_2d: trimmed, in shard order)
};

// rule = id from docs/rules.md, empty when accepted; message names the value and the rule.
struct verdict {
  std::optional<model> accepted;
  std::string rule;
  std::string message;
};

// Applies the rules of docs/rules.md in table order; the first failing rule is reported.
// [3,7,5]/[2,2,2] pages on 6 cores -> accepted, 24 shards, 4 per core, 32 pages reserved.
// alignment 24 -> rule "alignment", "alignment 24 is not a power of two".
verdict evaluate(const spec&);

// Where one page lives.
struct location {
  big shard_id;
  std::vector<big> shard_coord;  // in the shard grid (shard rank)
  big in_shard_offset;
  big core_index;
  core_xy core;
  big slot, device_offset, byte_address;  // byte_address = bank_base + device_offset*aligned_page_size
};

// Direct computation (no enumeration): fine for dims near 2^32 and billions of pages.
// Arguments out of range throw std::out_of_range.
// V7: [2,3]/[1,2] on 4 banks, page 3 -> core 2, device offset 0.
location locate(const model&, const big& page_id);                  // page id in [0, num_pages)
location locate(const model&, const std::vector<big>& page_coord);  // coordinate in tensor_pages (tensor rank)

// Home of a shard's first slot. V1: shard 5 -> core 5, slot 0, device offset 0.
struct shard_home {
  big core_index;
  core_xy core;
  big slot, device_offset, byte_address;
};
shard_home shard_location(const model&, const big& shard_id);                  // id in [0, num_shards)
shard_home shard_location(const model&, const std::vector<big>& shard_coord);  // coordinate in the grid

// Inverse of locate: the page stored at (core, device offset), nullopt for a padding slot.
// @post page_at(m, locate(m, p).core_index, locate(m, p).device_offset) == p
// core_index in [0, cores.size()), device_offset in [0, reserved_pages_per_core).
std::optional<big> page_at(const model&, const big& core_index, const big& device_offset);

// Shards placed on a core (direct count). V8: [2,2,4]/[2,2,2] on 4 cores -> 1,1,0,0.
big shards_on_core(const model&, const big& core_index);
// Real (non-padding) pages on a core. Picture: [3,7,5]/[2,2,2], 6 cores -> 24,24,12,18,18,9.
// Cost: constant when no shard has padding, else one step per shard on the core.
big pages_on_core(const model&, const big& core_index);

// Enumerating views, only for small specs.
// slot_table: per effective core, its max_shards_per_core*shard_volume slots in device order,
// nullopt = padding; built by dealing shards onto cores. Throws std::length_error above
// slot_table_limit slots in total.
inline constexpr unsigned long long slot_table_limit = 1ULL << 22;
std::vector<std::vector<std::optional<big>>> slot_table(const model&);
std::vector<big> pages_of_shard(const model&, const big& shard_id);  // real pages, device (slot) order
std::vector<big> local_pages(const model&, const big& core_index);   // real pages on the core, device order

// Legacy and interleaved placements, written out separately (docs/semantics.md).
// The tensor is seen as 2D [H, W] pages; arguments out of range throw std::out_of_range.
struct bank_offset {
  big bank, offset;
};
// Page i over B banks -> bank i % B, offset i / B.  interleaved(5, 4) -> {1, 1}.
bank_offset interleaved(const big& page_id, const big& num_banks);

struct legacy_place {
  big core_index;  // into the given core list (legacy_block: the trimmed list in shard order)
  big offset;      // in pages
};
// HEIGHT, shard [sh, W]: (r, c) -> core r / sh, offset (r % sh) * W + c.
legacy_place legacy_height(const big& r, const big& c, const big& H, const big& W, const big& sh);
// WIDTH, shard [H, sw]: (r, c) -> core c / sw, offset r * sw + c % sw.
legacy_place legacy_width(const big& r, const big& c, const big& H, const big& W, const big& sw);
// BLOCK, shard [sh, sw], GRID_2D over one range: shard (i, j) = (r / sh, c / sw) lands on
// (x0+j, y0+i) (row_major) or (x0+i, y0+j) (col_major), core_index i*Gw + j,
// offset (r % sh) * sw + c % sw. Fills *core_out when it is not null. A range too small throws.
legacy_place legacy_block(const big& r, const big& c, const big& H, const big& W, const big& sh, const big& sw,
                          orientation, core_range range, core_xy* core_out);

// Ranges in the order given; inside a range row_major makes x fastest, col_major y fastest.
// (0,0)-(1,1) col_major -> (0,0),(0,1),(1,0),(1,1). A range with x0 > x1 or y0 > y1, or a
// coordinate past 65535 (rule core_coord's bound: no valid spec has one), throws
// std::out_of_range; more than 65536 cores (rule too_many_cores) std::length_error.
std::vector<core_xy> expand_cores(const std::vector<core_range>&, orientation);
core_list expand_core_list(const std::vector<core_range>&, orientation);  // the same cores, kept as ranges

std::string to_string(const big&);

}  // namespace ndshard::oracle
