// ndshard/cli/tt_args.hpp - tt-metal's TensorAccessor argument words, in and out, and
// tt-metal's NoC address encoding for the architectures it documents.
//
// The layout is stated word by word in docs/tt-args.md. In short, a sharded accessor's
// compile-time words are [config] [rank] [num_banks] [tensor x rank] [shard x rank]
// [bank coords, two per word], its common runtime words the same parts without the config,
// and each part sits in exactly one of the two lists, chosen by the config's flags.
// Shapes are in pages, tensor and shard at the same rank; the deal is round robin.
//   [4,6]/[2,3] pages on banks (1,2),(3,4), all compile-time ->
//   ct = [0x1, 2, 2, 4,6, 2,3, 0x03040102], crta = []
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "ndshard/distribution.hpp"

namespace ndshard::cli {

// tt-metal's ArgConfig flags (the config word, compile-time word 0 of the accessor).
namespace tt_flag {
inline constexpr std::uint32_t sharded = 1U << 0;
inline constexpr std::uint32_t is_dram = 1U << 1;
inline constexpr std::uint32_t runtime_rank = 1U << 2;
inline constexpr std::uint32_t runtime_num_banks = 1U << 3;
inline constexpr std::uint32_t runtime_tensor_shape = 1U << 4;
inline constexpr std::uint32_t runtime_shard_shape = 1U << 5;
inline constexpr std::uint32_t runtime_bank_coords = 1U << 6;
inline constexpr std::uint32_t bound = 1U << 7;  // newer tt-metal: set by its framework, says nothing of the layout
inline constexpr std::uint32_t runtime_all = 0x7C;
inline constexpr std::uint32_t known = 0xFF;
}  // namespace tt_flag

// The runtime mixes tt-metal accepts: a runtime rank needs runtime shapes (their lengths
// would be unknown at compile time), runtime num_banks needs runtime coords. 15 of 32.
constexpr bool is_valid_tt_runtime_mix(std::uint32_t runtime) noexcept {
    if (runtime & ~tt_flag::runtime_all) return false;
    if ((runtime & tt_flag::runtime_rank) &&
        (runtime & (tt_flag::runtime_tensor_shape | tt_flag::runtime_shard_shape)) !=
            (tt_flag::runtime_tensor_shape | tt_flag::runtime_shard_shape))
        return false;
    if ((runtime & tt_flag::runtime_num_banks) && !(runtime & tt_flag::runtime_bank_coords)) return false;
    return true;
}

// "rank,bank_coords" -> runtime_rank | runtime_bank_coords; also "all", "none" and
// tt-metal's own names (RuntimeRank, ...), case-insensitive. Throws usage_error.
std::uint32_t parse_tt_runtime(std::string_view text, std::string_view what);

// "0x1, 2,2 4" or "[1,2,2,4]" -> words; decimal or 0x-hex, each below 2^32. Throws
// usage_error naming the word's index and text.
std::vector<std::uint32_t> parse_tt_words(std::string_view text, std::string_view what);

struct tt_words {
    std::vector<std::uint32_t> compile_time;
    std::vector<std::uint32_t> common_runtime;
};

// The words tt-metal's host-side TensorAccessorArgs gives a sharded buffer of `d`.
// `flags` is the runtime mix plus tt_flag::is_dram if wanted (sharded is added).
// Returns an empty string and fills `out`, or returns why `d` has no such words
// (a contiguous deal, a zero tensor dim, a bank coordinate past 8 bits).
std::string to_tt_words(const distribution& d, std::uint32_t flags, tt_words& out);

// What the words say: tensor and shard shapes in pages and the bank list.
struct tt_decoded {
    std::uint32_t config = 0;
    shape tensor, shard;
    std::vector<core_coord> banks;
};

// Reads the words in tt-metal's layout; malformed words (too few, bad flags, rank 0 or
// past 8, a zero dim, a bank coordinate past the 6-bit NoC id, a duplicate bank, a
// trailing word) throw usage_error naming the list, the word index and its value.
tt_decoded decode_tt_words(const std::vector<std::uint32_t>& ct, const std::vector<std::uint32_t>& crta);

// The ndshard spec of decoded words: pages of `page_size` bytes at `bank_base`, round
// robin over the banks as listed (runs along x merged into ranges).
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
    std::vector<std::uint32_t> ct, crta;  // --from: the compile-time and common runtime words
    std::uint64_t page_size = 1;          // --from: tt-metal passes these outside the words
    std::uint64_t bank_base = 0;
    std::uint32_t flags = 0;      // --to: the runtime mix, and tt_flag::is_dram
    std::optional<tt_arch> arch;  // --to: also each bank's NoC address in this arch's encoding
};

// --from: one line of spec JSON. --to: one line of JSON {"config":..,"flags":"..",
// "compile_time":[..],"common_runtime":[..]} (+ "arch" and "banks" with NoC addresses),
// or exit 1 with the reason the spec has no tt-metal words.
int run_tt_convert(const tt_convert& c, const distribution_spec& spec, std::ostream& out, std::ostream& err);

}  // namespace ndshard::cli
