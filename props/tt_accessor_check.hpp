// props/tt_accessor_check.hpp - the checks of tt-metal's TensorAccessor front end
// (lib/ttmetal/include/api/tensor/tensor_accessor.h) against the checked-integer oracle, shared by
// props/tt_accessor.cpp (generated specs, runtime words) and props/tt_accessor_fixed*.cpp
// (fixed specs, all 15 compile-time mixes).
//
// A TensorAccessor type is reached through one type-erased probe (tt_probe, implemented for
// any accessor by props/tt_accessor_probe.hpp), so that the comparisons of
// props/tt_accessor_check.cpp are compiled once; each accessor type compiles only its queries.
// Every expectation is the oracle's: oracle::locate for pages, oracle::shard_location for
// shards, oracle::page_at for the slots a walk visits, the oracle's core list for banks.
// What the test itself adds is only what tt-metal's words and platform define around
// them: a DRAM bank's coordinate in the words is (bank id, 0), its NoC endpoint and the
// offset added to its addresses come from the platform's DRAM bank table, and a NoC
// address is Wormhole's y << 42 | x << 36 | address (docs/tt-args.md).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/tt_host_platform.hpp"
#include "ndshard/tt/noc.hpp"

namespace ndshard::props::tt {

using coord8 = std::array<std::uint32_t, 8>;

// The chip these tests are built for: Wormhole, whose unicast address is y << 42 | x << 36
// | address (NOC_ADDR_LOCAL_BITS 36, NOC_ADDR_NODE_ID_BITS 6). Written out here, not taken
// from ndshard/tt/noc.hpp, so that the encoding is checked as well.
static_assert(::ndshard::tt::chip_noc.local_bits == 36 && ::ndshard::tt::chip_noc.id_bits == 6,
              "the tt accessor properties expect Wormhole's NoC encoding (no ARCH_* define)");
constexpr std::uint64_t wormhole_noc(std::uint64_t x, std::uint64_t y, std::uint64_t address) {
    return (y << 42) | (x << 36) | address;
}
// A coordinate the unicast address can carry (6 bits): is_local_addr can only see these.
constexpr bool fits_noc_node_id(core_coord c) { return c.x < 64 && c.y < 64; }

// Where the banks of a buffer are, as the test set the words and the platform up.
struct bank_setup {
    bool dram = false;
    std::vector<core_coord> word_coords;      // bank b's coordinate in the words (DRAM: (b, 0))
    std::vector<core_coord> dram_endpoints;   // DRAM: bank b's NoC endpoint (the platform's table)
    std::vector<std::uint32_t> dram_offsets;  // DRAM: added to every address of bank b

    // The NoC address of byte `address` of bank b.
    [[nodiscard]] std::uint64_t noc(std::uint64_t bank, std::uint64_t address) const {
        if (!dram) return wormhole_noc(word_coords.at(bank).x, word_coords.at(bank).y, address);
        const core_coord e = dram_endpoints.at(bank);
        return wormhole_noc(e.x, e.y, dram_offsets.at(bank) + address);
    }
    // The core is_local_addr sees in that address: the bank's core, or its DRAM endpoint.
    [[nodiscard]] core_coord noc_node(std::uint64_t bank) const {
        return dram ? dram_endpoints.at(bank) : word_coords.at(bank);
    }
    // Installs the DRAM bank table in the host platform (tt_host).
    void install() const {
        testkit::tt_host.dram_banks = dram_endpoints;
        testkit::tt_host.dram_offsets = dram_offsets;
    }
};

// L1 banks: the words carry each core of the oracle's list.
bank_setup l1_banks(const oracle::model& m);
// DRAM banks 0..P-1: the words carry (b, 0); endpoints and offsets as given.
bank_setup dram_banks(std::size_t count, std::vector<core_coord> endpoints, std::vector<std::uint32_t> offsets);

// One page as a walk yields it.
struct page_seen {
    std::uint32_t id;
    std::uint64_t noc;
    friend bool operator==(const page_seen&, const page_seen&) = default;
};

// Any TensorAccessor behind one interface. Walks stop after `cap` pages (a walk over 2^32
// pages is sampled by its first ones).
class tt_probe {
public:
    struct mapping {
        std::uint64_t bank, offset;
    };
    struct dims {
        std::uint32_t rank, num_banks, tensor_volume, shard_volume;
        std::vector<std::uint32_t> tensor, shard, grid, tensor_strides, shard_strides, grid_strides, packed_xy;
    };
    virtual ~tt_probe() = default;
    virtual std::uint32_t aligned_page_size() const = 0;
    virtual std::uint32_t bank_base() const = 0;
    virtual dims dspec() const = 0;
    virtual std::uint64_t noc(std::uint32_t page, std::uint32_t byte) const = 0;
    virtual std::uint64_t noc_at(const coord8& c, std::uint32_t byte) const = 0;
    virtual std::uint64_t shard_noc(std::uint32_t shard, std::uint32_t byte) const = 0;
    virtual std::uint64_t shard_noc_at(const coord8& c, std::uint32_t byte) const = 0;
    virtual mapping bank_and_offset(std::uint32_t page) const = 0;
    virtual mapping bank_and_offset_at(const coord8& c) const = 0;
    virtual std::uint32_t contiguous(std::uint32_t page) const = 0;
    // Locality, asked on the core tt_host.x / tt_host.y.
    virtual bool local_page(std::uint32_t page) const = 0;
    virtual bool local_shard(std::uint32_t shard) const = 0;
    virtual bool local_addr(std::uint64_t noc) const = 0;
    virtual bool local_bank(std::uint32_t x, std::uint32_t y) const = 0;
    // Walks: pages(start, end) (end 0: every page), shard_pages(s, start, end),
    // strided_pages(t, k), and the platform's thread (tt_host.thread / .threads).
    virtual std::vector<page_seen> pages(std::uint32_t start, std::uint32_t end, std::size_t cap) const = 0;
    virtual std::vector<page_seen> all_pages(std::size_t cap) const = 0;
    virtual std::vector<page_seen> shard_pages(std::uint32_t shard, std::uint32_t start, std::uint32_t end,
                                               std::size_t cap) const = 0;
    virtual std::vector<page_seen> strided(std::uint32_t thread, std::uint32_t threads, std::size_t cap) const = 0;
    virtual std::vector<page_seen> strided_here(std::size_t cap) const = 0;
    // strided_shard_pages: each shard it yields as its pages; at most `shards` shards.
    virtual std::vector<std::vector<page_seen>> strided_shards(std::uint32_t thread, std::uint32_t threads,
                                                               std::size_t shards, std::size_t cap) const = 0;
    virtual std::vector<std::vector<page_seen>> strided_shards_here(std::size_t shards, std::size_t cap) const = 0;
};

// A TensorAccessor's failure: names the accessor, the entry point, its answer and the oracle's.
class mismatch : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What a check asks and how much of it.
struct tt_case {
    std::string label;
    const oracle::model* model = nullptr;
    bank_setup banks;
    std::uint32_t bank_base = 0;
    // Every page, shard and slot (whole walks); otherwise the sampled pages and shards
    // below, walks by windows and prefixes.
    bool exhaustive = true;
    std::vector<std::uint64_t> pages, shards;
    // Cores to ask the locality questions on, besides each page's own (8-bit, as my_x is).
    std::vector<core_coord> cores_asked;
    // Thread counts for strided_pages / strided_shard_pages.
    std::vector<std::uint32_t> thread_counts{1, 2, 3, 5};
};

// Pages and shards small enough to check whole: every page, shard and slot.
constexpr std::uint64_t exhaustive_limit = 4096;
bool can_check_exhaustively(const oracle::model& m);

// Fills c.pages / c.shards with a sample of a large model (first, last, edges, seeded random).
void sample(tt_case& c, std::uint64_t seed);

// Every check of the sharded TensorAccessor; throws `mismatch`.
void check_sharded(const tt_probe& a, const tt_case& c);

// What check_sharded has checked so far in this process (for the tests' summaries).
struct checked_counts {
    std::size_t accessors = 0, pages = 0, shards = 0;
};
checked_counts& checked();

// Where the oracle puts one page (its bank, device offset, byte address and coordinate).
struct oracle_page {
    std::uint64_t id, bank, offset, address;
    coord8 coord;  // digits in the folded tensor shape
};
oracle_page oracle_place(const oracle::model& m, std::uint64_t page);

// The interleaved accessor: page i in bank i % B, row i / B (oracle::interleaved), rows
// `row_bytes` apart, bank b's NoC node and offset from the platform's table.
struct interleaved_case {
    std::string label;
    std::uint64_t banks = 1;
    std::uint32_t bank_base = 0, page_size = 0, row_bytes = 0;
    std::vector<core_coord> nodes;            // each bank's NoC endpoint
    std::vector<std::uint32_t> bank_offsets;  // added to its addresses
    std::uint32_t num_pages = 0;              // pages the test walks
};
class interleaved_probe {
public:
    virtual ~interleaved_probe() = default;
    virtual std::uint64_t noc(std::uint32_t page, std::uint32_t byte) const = 0;
    virtual std::uint32_t aligned_page_size() const = 0;
    virtual std::uint32_t bank_base() const = 0;
    virtual std::vector<page_seen> pages(std::uint32_t start, std::uint32_t end, std::size_t cap) const = 0;
    virtual std::vector<page_seen> strided_here(std::uint32_t total, std::size_t cap) const = 0;
};
void check_interleaved(const interleaved_probe& a, const interleaved_case& c);

}  // namespace ndshard::props::tt
