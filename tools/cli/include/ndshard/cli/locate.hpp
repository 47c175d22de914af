// ndshard/cli/locate.hpp - `ndshard locate`: where one page lives (shard, core, slot,
// offset, byte address), from its page id or its page coordinate, and the reverse: what
// lives at one byte address of one core (a page, padding, or nothing of this buffer).
//
// Constant time in the size of the tensor: every answer is one page_layout::locate or
// page_at (layout.hpp, the formulas of detail/place.hpp), never a walk over pages. Only
// finding a core in the core list is linear, in the number of cores (<= 65536).
//
//   [3,7,5]/[2,2,2] on a 2x3 grid, page 20 -> coordinate [0,4,0], shard 6 at [0,2,0],
//   core (0,0) (index 0), slot 1, offset 0 in the shard, device offset 8, address 8.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ndshard/cli/tt_args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/spec.hpp"

namespace ndshard::cli {

// The three questions: --page-id N, --coord I,J,K (a page coordinate in the tensor's page
// grid, its own rank) and --at X,Y:ADDR.
struct page_id_query {
    std::uint64_t page = 0;
};
struct page_coord_query {
    std::vector<std::uint64_t> coord;
};
struct address_query {
    core_coord core;
    std::uint64_t address = 0;
};
using locate_query = std::variant<page_id_query, page_coord_query, address_query>;

// Where one page lives.
struct page_location {
    std::uint64_t page = 0;
    std::vector<std::uint64_t> coord;        // in the tensor's page grid (tensor rank)
    std::uint64_t shard = 0;                 // row-major over the shard grid
    std::vector<std::uint64_t> shard_coord;  // in the shard grid (shard rank, leading dims folded)
    std::uint64_t core_index = 0;            // in the effective core list
    core_coord core;
    std::uint64_t slot = 0;             // which of the core's shard slots
    std::uint64_t in_shard_offset = 0;  // pages, row-major over the full shard shape
    std::uint64_t device_offset = 0;    // pages from the bank base: slot * vol(S) + in_shard_offset
    std::uint64_t address = 0;          // bank_base + device_offset * aligned page size
};

// What one byte of one core's memory holds, for this buffer.
enum class address_kind : std::uint8_t { page, padding, outside };
struct address_content {
    address_kind kind = address_kind::outside;
    core_coord core;
    std::uint64_t core_index = 0;
    std::uint64_t address = 0;
    std::optional<page_location> page;  // the page of that slot position, when there is one
    std::uint64_t byte_in_page = 0;     // address - page->address, when page is set
    std::string reason;                 // why padding / outside; empty for a page
};

// Page id -> place. Throws usage_error (exit 2) for a page >= the page count.
page_location locate_page(const distribution& d, std::uint64_t page);

// Page coordinate (tensor rank) -> place. Throws usage_error for a coordinate of the
// wrong rank or past the page grid in some dim.
page_location locate_coord(const distribution& d, const std::vector<std::uint64_t>& coord);

// (core, byte address) -> what is there. Throws usage_error when the core is not in the
// distribution's core list; an address outside the buffer is an answer, not an error.
address_content locate_address(const distribution& d, core_coord core, std::uint64_t address);

// "X,Y:ADDR" or "(X,Y):ADDR", ADDR decimal or 0x hex: "1,0:0x40" -> core (1,0), 64.
address_query parse_at(std::string_view text, std::string_view what);

// The answer as text (one "name  value" line per fact) or as one JSON object; with an
// architecture, a page's NoC address in its encoding too (noc_addr::encoded).
void write_locate(const distribution& d, const locate_query& q, bool json, std::optional<tt_arch> arch,
                  std::ostream& out);

}  // namespace ndshard::cli
