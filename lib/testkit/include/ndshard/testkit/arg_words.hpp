// ndshard/testkit/arg_words.hpp - the accessor's argument words, read and written again
// from their documentation (the header comment of ndshard/words.hpp):
//
//   compile-time: [config] [rank] [num_banks] [tensor x rank] [shard x rank] [coords x banks]
//   runtime:              [rank] [num_banks] [tensor x rank] [shard x rank] [coords x banks] [checksum]
//   config = 0x4E440000 | static flags (bits 0-4: rank, banks, tensor, shard, coords)
//            | contiguous deal (bit 8); coordinate word (x << 16) | y;
//   checksum = four FNV-1a lanes over every word of both lists: word i (compile-time
//              words first) steps lane i % 4 by h = (h ^ w) * 16777619 (32-bit), lanes
//              start at 2166136261; the value is the same FNV-1a over the four lanes.
//
// Why it is independent of the fast path: nothing here includes words.hpp or accessor.hpp
// (only the plain struct accessor_words of args.hpp, two vectors). The constants are typed
// from the comment above, the checksum is one plain loop (the fast path unrolls four lanes
// side by side), and the reader walks the lists word by word with its own bounds. The
// properties (props/args.cpp) and the fuzz target (fuzz/fuzz_accessor_args.cpp) hold the
// library's words and its accept/refuse decisions to this reading.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ndshard/args.hpp"
#include "ndshard/spec.hpp"

namespace ndshard::testkit::arg_words {

inline constexpr std::uint32_t magic = 0x4E440000U;
inline constexpr std::uint32_t contiguous_flag = 1U << 8;

// The static flags of a config word, in the order the parts are laid out.
enum part : std::uint32_t { rank = 1, banks = 2, tensor = 4, shard = 8, coords = 16 };

// A mask of static parts whose compile-time list knows its own length: a static shape
// needs a static rank, static coordinates a static bank count (15 of the 32 masks).
constexpr bool valid_mask(std::uint32_t mask) {
    const bool shapes = (mask & (tensor | shard)) != 0;
    return mask < 32 && (!shapes || (mask & rank)) && (!(mask & coords) || (mask & banks));
}

// The config word of a mask and a deal rule.
constexpr std::uint32_t config_word(std::uint32_t mask, bool contiguous) {
    return magic | mask | (contiguous ? contiguous_flag : 0U);
}

// The checksum of `compile_time` followed by `runtime` (the words it covers, not itself).
std::uint32_t checksum(std::span<const std::uint32_t> compile_time, std::span<const std::uint32_t> runtime);

// The five arguments. Written as given: rank and banks need not match the list lengths
// (to build word lists that break a rule on purpose).
struct fields {
    std::uint32_t rank = 0, banks = 0;
    std::vector<std::uint32_t> tensor, shard;
    std::vector<core_coord> coords;
    friend bool operator==(const fields&, const fields&) = default;
};

struct read_words {
    std::uint32_t config = 0;
    fields args;
    [[nodiscard]] std::uint32_t mask() const { return config & 31U; }
    [[nodiscard]] bool contiguous() const { return (config & contiguous_flag) != 0; }
};

// Reads word lists in the documented layout: nullopt unless the config word is a magic
// with a valid mask and no unknown bit, the rank is 1..8, there are at most 65536 banks,
// each list has exactly the words its parts need (the runtime list one more, the
// checksum) and the checksum matches. Says nothing about the values (a zero shard dim,
// shapes past 2^32 page ids, 0 banks for some shards are the oracle's questions).
std::optional<read_words> read(std::span<const std::uint32_t> compile_time, std::span<const std::uint32_t> runtime);
inline std::optional<read_words> read(const accessor_words& w) { return read(w.compile_time, w.runtime); }

// The word lists of `args` with the parts in `mask` compile-time: the config word, each
// word in its list in layout order, the checksum last.
accessor_words write(const fields& args, std::uint32_t mask, bool contiguous);

}  // namespace ndshard::testkit::arg_words
