// ndshard/ttsim/launch.hpp - running a program's kernels on the simulated device: every
// core's kernels together, cooperatively (one runs at a time, each on a thread of its own
// handed a token), deterministically (a seed picks the interleaving and when reads land).
//
// Everything a kernel does is checked, and what goes wrong is a finding:
//   - circular buffers: pushing more than was reserved, popping more than was waited for,
//     a reservation or a wait larger than the buffer, a push or pop that would straddle
//     its end;
//   - the NoC: a read or write outside every buffer, CB, semaphore and argument area, into
//     a padding slot of a buffer, across two pages of a buffer, misaligned;
//   - asynchrony: a read's bytes are poison until its barrier (or a seeded later point), a
//     write's source is read at a seeded point between its issue and its flush, a read
//     that lands in CB pages already pushed, a write still unflushed when its kernel ends;
//   - a deadlock (every kernel waiting: each one's wait is reported), a step limit (a
//     kernel that never finishes), an accessor that refuses its words, an exception.
// A crash inside a kernel takes the process down: run a launch in a child process to
// survive it (kcheck.hpp does).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "ndshard/sim/device.hpp"
#include "ndshard/ttsim/program.hpp"

namespace ndshard::ttsim {

// The L1 window: every worker's L1 lives at [l1_window, l1_window + l1 size) in the
// kernels' address space, as on the device (the running kernel's core is mapped there).
// A device for kernels must be made with device_config.l1_base = l1_window.
inline constexpr std::uint64_t l1_window = 0x1000'0000;

// A device configured for tt-metal kernels: Wormhole's sizes (1464 KiB of L1, 12 DRAM banks).
sim::device_config kernel_device_config(std::uint32_t grid_x = 8, std::uint32_t grid_y = 8,
                                        std::uint32_t dram_banks = 12);

struct launch_options {
    std::uint64_t seed = 0;
    // At most this many API calls across all kernels (a kernel that never ends is reported).
    std::uint64_t step_limit = 50'000'000;
    // Per API call, the chance (in 1/65536) that the scheduler switches to another kernel.
    std::uint32_t preempt = 4096;
    // kcheck's run_case (not launch itself): each case runs this many times, on a fresh
    // device each, under schedule 0 (`seed` and `preempt` as given) and then schedules 1, 2,
    // ... (seeds derived from `seed`, the switch chance cycling through almost every call,
    // rarely, often, half the calls): order-dependent mistakes that one interleaving misses.
    // The first schedule that fails is the case's result.
    std::uint32_t schedules = 1;
    // Compiled kernels are cached here (default: $NDSHARD_KERNEL_CACHE, else a folder in
    // the system's temporary directory).
    std::filesystem::path cache;
    // Called once every kernel is compiled (or found in the cache), before any runs: kcheck
    // starts a case's timer there, so a slow compile under load is not a hang.
    std::function<void()> on_compiled;
};

enum class finding_kind : std::uint8_t {
    cb_protocol,    // the circular buffer rules above
    noc_bounds,     // outside every region, or into a padding slot
    noc_page,       // a transfer that crosses pages of a buffer, or is misaligned
    async,          // data used before its barrier, a read landing in pushed pages, an unflushed write
    deadlock,       // every kernel waits
    hang,           // the step limit
    accessor,       // an accessor refused its argument words, or was asked for a page past its tensor
    kernel_error,   // an exception, an abort from the kernel
    compile_error,  // a kernel did not compile
    // Found after a launch that ran clean (kcheck.hpp):
    output,         // an output page differs from the dense reference
    padding,        // a padding slot or alignment gap of the output no longer holds the sentinel
    input_changed,  // an input buffer was written
    crash,          // the case's process died (a signal, a sanitizer report) or timed out
    // Found by the launch (after `crash` so the earlier kinds keep their values):
    uninitialized,  // a NoC write would carry bytes nobody wrote into a page of a buffer
    race,           // two kernels write (or one reads) the same bytes of a buffer, nothing ordering them
};
// The kind named by to_string, or nullopt.
std::optional<finding_kind> finding_kind_from(std::string_view name) noexcept;
const char* to_string(finding_kind k) noexcept;

struct finding {
    finding_kind kind;
    std::string kernel;  // "reader.cpp on (1,0)"
    std::string what;    // one line: the call, the values, the rule
};

struct launch_result {
    std::vector<finding> findings;  // empty: the launch ran clean
    std::string log;                // DPRINT output, one line per ENDL, prefixed with the kernel
    sim::traffic_stats traffic;
    std::uint64_t steps = 0;
    [[nodiscard]] bool ok() const noexcept { return findings.empty(); }
};

// Compiles (or takes from the cache) every kernel of `p` and runs them all on `dev`.
launch_result launch(sim::device& dev, const program& p, const launch_options& options = {});

}  // namespace ndshard::ttsim
