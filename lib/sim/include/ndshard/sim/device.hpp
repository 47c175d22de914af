// ndshard/sim/device.hpp - a simulated multi-core device: worker cores with L1, DRAM
// banks, buffers placed by a distribution, a bounds-checked NoC, traffic accounting.
//
// Geometry: worker cores (x, y), 0 <= x < grid_x, 0 <= y < grid_y, each with its own L1;
// DRAM bank b is a NoC endpoint east of the workers at (grid_x + b / grid_y, b % grid_y).
// A buffer is placed by a distribution spec whose cores are all workers (an L1 buffer)
// or all DRAM banks (a DRAM buffer), at ONE base address in every bank, as the accessor
// expects: bank `i` of the distribution holds its reserved pages at
// [base, base + reserved_pages_per_core * aligned_page_size).
//
// Every access - a kernel's NoC read or write, or a host transfer - is checked against
// the target memory's live buffers: it must lie inside one live buffer (and, when the
// caller says which buffer it addresses, inside that one), otherwise noc_error names
// the accessing core, the target, the address and the buffer. Kernel accesses are
// counted (traffic_stats); host transfers are not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/host_mapping.hpp"
#include "ndshard/sim/dense.hpp"
#include "ndshard/sim/error.hpp"
#include "ndshard/sim/memory.hpp"

namespace ndshard::sim {

struct device_config {
    std::uint32_t grid_x = 8;         // worker columns
    std::uint32_t grid_y = 8;         // worker rows
    std::uint64_t l1_size = 1 << 20;  // bytes of L1 per worker core (<= 2^32)
    // Address of an L1's first byte: L1 addresses run [l1_base, l1_base + l1_size), below
    // 2^32. tt-metal kernels need every L1 at the same addresses as the host maps them
    // (ttsim::l1_window); other users keep 0.
    std::uint64_t l1_base = 0;
    std::uint32_t num_dram_banks = 0;
    std::uint64_t dram_bank_size = 1 << 26;  // bytes per DRAM bank (<= 2^32)
    std::uint64_t alloc_alignment = 32;      // buffer bases are multiples of this (a power of two)
    std::byte sentinel{0xA5};                // every byte of a fresh buffer
};

// The int32 a host reads from four sentinel bytes: 0xA5A5A5A5 for the default.
std::int32_t sentinel_value(const device_config& c) noexcept;

struct buffer_id {
    std::uint32_t value = 0;
    friend constexpr bool operator==(buffer_id, buffer_id) = default;
};

struct buffer_info {
    buffer_id id;
    std::string name;
    distribution dist;     // with the chosen bank_base
    accessor_words words;  // make_accessor_words(dist, arg::all_runtime)
    memory_kind memory = memory_kind::l1;
    std::uint64_t bytes_per_bank = 0;  // reserved_pages_per_core * aligned_page_size
    // page_runs(dist), made once: host reads and writes and the padding check walk them.
    std::vector<std::vector<page_run>> runs;

    [[nodiscard]] std::uint32_t page_elems() const noexcept { return static_cast<std::uint32_t>(dist.page_size / 4); }
};

// Per kernel run. A page read or write is one NoC transaction (kernels move whole pages).
struct traffic_stats {
    std::uint64_t pages_read = 0;
    std::uint64_t pages_written = 0;
    std::uint64_t bytes_read = 0;
    std::uint64_t bytes_written = 0;
    std::uint64_t local_reads = 0;  // the target is the accessing core itself
    std::uint64_t remote_reads = 0;
    std::uint64_t local_writes = 0;
    std::uint64_t remote_writes = 0;
    std::uint64_t hops = 0;  // sum of Manhattan distances over reads and writes
    friend bool operator==(const traffic_stats&, const traffic_stats&) = default;
};

// One kernel NoC transaction, when the device records them.
struct noc_access {
    bool is_write = false;
    core_coord by;      // the core running the kernel
    core_coord target;  // the memory's NoC coordinate
    std::uint32_t addr = 0;
    std::uint32_t size = 0;
    buffer_id buffer;  // the live buffer it landed in
};

class device {
public:
    // Throws std::invalid_argument for an empty grid, sizes past 2^32, coordinates past
    // 65535 or an alloc_alignment that is not a power of two.
    explicit device(device_config config = {});

    [[nodiscard]] const device_config& config() const noexcept { return config_; }

    // --- geometry ---
    [[nodiscard]] std::uint32_t num_workers() const noexcept { return config_.grid_x * config_.grid_y; }
    // Worker w in row-major order: (w % grid_x, w / grid_x).
    [[nodiscard]] core_coord worker(std::uint32_t w) const noexcept;
    // (0,0)-(grid_x-1, grid_y-1)
    [[nodiscard]] core_range worker_range() const noexcept;
    // DRAM bank b at (grid_x + b / grid_y, b % grid_y).
    [[nodiscard]] core_coord dram_bank(std::uint32_t b) const noexcept;
    // Banks 0..count-1 as 1x1 ranges in bank order: the cores of a DRAM-interleaved spec.
    [[nodiscard]] std::vector<core_range> dram_bank_ranges(std::uint32_t count) const;
    // The memory at a NoC coordinate, or nullptr when nothing is there.
    [[nodiscard]] const memory* memory_at(core_coord c) const noexcept;
    // The worker that runs a kernel for an output bank at `bank`: the bank itself when
    // it is a worker, else worker (DRAM bank index % num_workers).
    [[nodiscard]] core_coord executor_for(core_coord bank) const noexcept;

    // --- buffers ---
    // Places a buffer at the lowest base that is a multiple of max(spec.alignment,
    // alloc_alignment) and free in every bank of the distribution (spec.bank_base is
    // ignored). Throws spec_error for an invalid spec, alloc_error when no base fits.
    buffer_id allocate(distribution_spec spec, std::string name = {});
    // Places a buffer at spec.bank_base exactly; alloc_error when that range is not free.
    buffer_id allocate_at(const distribution_spec& spec, std::string name = {});
    // The buffer's bytes become unaddressable; alloc_error for an unknown id.
    void free(buffer_id id);
    [[nodiscard]] bool is_live(buffer_id id) const noexcept { return buffers_.count(id.value) != 0; }
    // alloc_error for an unknown id.
    [[nodiscard]] const buffer_info& buffer(buffer_id id) const;

    // --- raw L1 regions: what a program reserves besides buffers (circular buffers,
    // semaphores, arguments), at the lowest free address with `alignment` on one core.
    // NoC accesses check them as they check buffers. alloc_error when no room is left.
    struct region {
        buffer_id id;
        std::uint64_t address = 0;
    };
    region reserve_l1(core_coord core, std::uint64_t bytes, std::uint64_t alignment, std::string name);
    void release_l1(core_coord core, buffer_id id) noexcept;
    // The memory of a NoC endpoint, for writing (a program's own regions).
    [[nodiscard]] memory* memory_at(core_coord c) noexcept;
    // Which live buffer, if any, an id names (raw regions are not buffers).
    [[nodiscard]] const buffer_info* find_buffer(std::uint32_t id) const noexcept {
        auto it = buffers_.find(id);
        return it == buffers_.end() ? nullptr : &it->second;
    }

    // --- host transfers (page by page through page_runs; not counted as traffic) ---
    // op_error when the tensor's page grid or page size differs from the buffer's.
    void write(buffer_id id, const dense_tensor& t);
    [[nodiscard]] dense_tensor read(buffer_id id) const;
    // Every byte the host and the kernels must never touch - padding slots, and the
    // alignment gap after each page - still holds the sentinel; else one line per
    // offending slot ("core (1,0) slot 3 (padding): byte 2 is 0x07").
    [[nodiscard]] std::vector<std::string> padding_violations(buffer_id id) const;

    // --- the NoC (used by kernels through core_context) ---
    // Reads dst.size() bytes at `src` into dst on behalf of core `by`. With `expect`,
    // the access must land in that buffer.
    void noc_read(core_coord by, noc_addr src, std::span<std::byte> dst, std::optional<buffer_id> expect = {});
    void noc_write(core_coord by, noc_addr dst, std::span<const std::byte> src, std::optional<buffer_id> expect = {});

    [[nodiscard]] const traffic_stats& traffic() const noexcept { return traffic_; }
    void reset_traffic() noexcept { traffic_ = {}; }
    // When on, every kernel NoC transaction is appended to accesses() until
    // clear_accesses().
    void record_accesses(bool on) noexcept { recording_ = on; }
    [[nodiscard]] const std::vector<noc_access>& accesses() const noexcept { return log_; }
    void clear_accesses() noexcept { log_.clear(); }

    // A fresh number per kernel launch, so each launch shuffles its cores differently.
    std::uint64_t next_launch() noexcept { return launches_++; }

private:
    memory* endpoint(core_coord c) noexcept;
    const memory* endpoint(core_coord c) const noexcept;
    buffer_id place(distribution_spec spec, std::string name, bool choose_base);
    // The memory an access lands in, after checking it (noc_error otherwise); `by` is
    // the accessing core, nullopt for the host.
    const memory& check_access(const char* what, std::optional<core_coord> by, noc_addr at, std::uint64_t size,
                               std::optional<buffer_id> expect, buffer_id* landed) const;
    void count(bool is_write, core_coord by, noc_addr at, std::uint64_t size, buffer_id landed);

    device_config config_;
    std::vector<memory> l1_;    // worker y * grid_x + x
    std::vector<memory> dram_;  // bank b
    std::map<std::uint32_t, buffer_info> buffers_;
    std::uint32_t next_id_ = 1;
    traffic_stats traffic_;
    bool recording_ = false;
    std::vector<noc_access> log_;
    std::uint64_t launches_ = 0;
};

}  // namespace ndshard::sim
