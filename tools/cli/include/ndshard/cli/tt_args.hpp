// ndshard/cli/tt_args.hpp - tt-metal's TensorAccessor argument words, in and out, and
// tt-metal's NoC address encoding for the architectures it documents.
//
// The words are the library's (ndshard/tt/words.hpp, ndshard/tt/host_words.hpp): its flag
// constants, its mix rule, its compile-time positions (read_cta) and its writer
// (make_tt_words). This file adds what a command line needs around them: text in and out,
// one-line messages naming the list, the word index, its value and the rule, and the
// refusals that are tt-metal's and not ndshard's (a zero-size dim). docs/tt-args.md states
// the layout word by word. In layout 2 (tt-metal today, the default):
//   [4,6]/[2,3] pages of 64 bytes on banks (1,2),(3,4), all compile-time ->
//   ct = [0x1, 64, 2, 2, 4,6, 2,3, 0x03040102], crta = []
// and layout 1 (tt-metal's older words) is the same without the page size word 64.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/tt/host_words.hpp"

namespace ndshard::cli {

// "rank,bank_coords" -> flag::runtime_rank | flag::runtime_bank_coords; also "all", "none" and
// tt-metal's own names (RuntimeRank, ...), case-insensitive. Throws usage_error for an
// unknown part or a mix tt-metal refuses.
std::uint32_t parse_tt_runtime(std::string_view text, std::string_view what);

// "1" or "2" (ndshard::tt::layout_without_page_size / layout_with_page_size). Throws usage_error.
unsigned parse_tt_layout(std::string_view text, std::string_view what);

// "0x1, 2,2 4" or "[1,2,2,4]" -> words; decimal or 0x-hex, each below 2^32. Throws
// usage_error naming the word's index and text.
std::vector<std::uint32_t> parse_tt_words(std::string_view text, std::string_view what);

// "rank,bank_coords" for flag::runtime_rank | flag::runtime_bank_coords, "none" for 0: the
// --runtime text that parse_tt_runtime reads back.
std::string describe_tt_runtime(std::uint32_t runtime_flags);

// Why tt-metal has no words for `d` with this config, or "" when it has: tt-metal's own
// refusals (a zero-size dim), then the library's (ndshard::tt::why_no_words).
std::string why_no_tt_words(const distribution& d, std::uint32_t config);

// What the words say: tensor and shard shapes in pages, the bank list and the deal.
struct tt_decoded {
    std::uint32_t config = 0;
    unsigned layout = tt::default_layout;
    std::uint32_t aligned_page_size = 0;  // layout 2: compile-time word 1; layout 1: 0 (not in the words)
    shape tensor, shard;
    std::vector<core_coord> banks;
    bool contiguous = false;  // bit 31 of a compile-time bank count: contiguous_1d
};

// Reads the words in tt-metal's layout 1 or 2, the compile-time parts where read_cta puts
// them. Malformed words (too few, bad flags, a refused mix, a zero page size, rank 0 or past
// 8, a zero dim, the contiguous bit in a runtime bank count, a bank coordinate past the 6-bit
// NoC id, a duplicate bank, a trailing word) and interleaved words throw usage_error naming
// the list, the word index and its value.
tt_decoded decode_tt_words(const std::vector<std::uint32_t>& ct, const std::vector<std::uint32_t>& crta,
                           unsigned layout);

// The ndshard spec of decoded words: pages of `page_size` bytes at `bank_base`, round robin
// (or contiguous_1d) over the banks as listed, runs along x merged into ranges.
distribution_spec spec_of_tt(const tt_decoded& t, std::uint64_t page_size, std::uint64_t bank_base);

// "Sharded|RuntimeBankCoords" for a config word.
std::string describe_tt_config(std::uint32_t config);

// Architectures tt-metal documents. NoC unicast address = y << (local + id) | x << local
// | address, the NOC_XY_ADDR macro of each arch's noc_parameters.h; L1 per Tensix core =
// MEM_L1_SIZE of its dev_mem_map.h.
enum class tt_arch : std::uint8_t { grayskull, wormhole_b0, blackhole };
struct tt_arch_info {
    const char* name;
    unsigned local_bits;  // NOC_ADDR_LOCAL_BITS
    unsigned id_bits;     // NOC_ADDR_NODE_ID_BITS
    std::uint64_t l1_bytes;
};
const tt_arch_info& arch_info(tt_arch a);
tt_arch parse_tt_arch(std::string_view text, std::string_view what);

// wormhole_b0, core (1,2), address 0x10200 -> 2 << 42 | 1 << 36 | 0x10200 = 0x81000010200.
// Throws usage_error when x or y does not fit the node id or the address the local bits.
std::uint64_t tt_noc_xy_addr(tt_arch a, std::uint32_t x, std::uint32_t y, std::uint32_t address);

// 0x81000010200 -> "0x81000010200"
std::string hex64(std::uint64_t v);

// `convert --from tt-args` (words -> spec JSON) or `convert --to tt-args` (spec -> words).
struct tt_convert {
    bool from_words = false;
    unsigned layout = tt::default_layout;  // --tt-layout: 2 (tt-metal today) or 1 (its older words)
    std::vector<std::uint32_t> ct, crta;   // --from: the compile-time and common runtime words
    // --from: tt-metal passes these outside the words (layout 1: the page size too, default 1;
    // layout 2 carries it, and a --page-size given as well must agree with it).
    std::optional<std::uint64_t> page_size;
    std::uint64_t bank_base = 0;
    std::uint32_t flags = 0;      // --to: the runtime mix, and tt::flag::is_dram
    std::optional<tt_arch> arch;  // --to: also each bank's NoC address in this arch's encoding
};

// --from: one line of spec JSON. --to: one line of JSON {"config":..,"flags":"..","layout":L,
// "compile_time":[..],"common_runtime":[..]} (+ "arch" and "banks" with NoC addresses),
// or exit 1 with the reason the spec has no tt-metal words.
int run_tt_convert(const tt_convert& c, const distribution_spec& spec, std::ostream& out, std::ostream& err);

}  // namespace ndshard::cli
