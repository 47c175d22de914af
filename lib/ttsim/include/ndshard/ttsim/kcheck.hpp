// ndshard/ttsim/kcheck.hpp - checking a kernel over every distribution: an op (its program
// factory and its dense reference) is run on generated input and output distributions
// (every strategy, uneven edge shards, more cores than shards, ranks 1..8 where the op
// allows, interleaved, legacy HEIGHT/WIDTH/BLOCK, L1 and DRAM, every accessor argument
// mix; every 10th case a hard one: over 65,536 pages, shards over 64 KiB, tile pages,
// buffers at the top of L1 or DRAM), every output page is compared with the reference and
// every padding slot with its sentinel, and the first failure is shrunk to the smallest
// failing pair and printed with the command that replays it (`ndshard kcheck`).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/sim/dense.hpp"
#include "ndshard/sim/device.hpp"
#include "ndshard/spec.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "ndshard/ttsim/launch.hpp"
#include "ndshard/ttsim/program.hpp"

namespace ndshard::ttsim {

// One case of an op, as its program factory sees it: the input and output buffers are
// allocated on `dev` and the inputs written; `mix` is the accessor words' compile-time /
// runtime mix to use for every buffer (tt::flag Runtime bits), `cores` the worker cores
// the op may run its kernels on.
struct op_case {
    sim::device& dev;
    std::vector<sim::buffer_id> inputs;
    sim::buffer_id output;
    std::uint32_t mix = all_compile_time;
    std::vector<core_coord> cores;
    unsigned layout = tt::default_layout;
    // Kernel sources given instead of an op's own, by role ("reader", "writer"): how a user
    // checks their kernels with an op's program (`ndshard kcheck copy --reader r.cpp`).
    std::map<std::string, std::string> sources;
    // The source for `role`: the one given, else the op's default.
    [[nodiscard]] std::string source(const std::string& role, const std::string& fallback) const {
        const auto it = sources.find(role);
        return it == sources.end() ? fallback : it->second;
    }
};

// The device a case runs on: workers x by y, DRAM banks (tt-metal's Wormhole grid is 8 x 8
// workers and 12 banks; the default is small, so that more cores than shards and every bank
// of an interleaved buffer are common). x, y 1..8, dram_banks 1..12.
struct case_grid {
    std::uint32_t x = 4, y = 2, dram_banks = 4;
    friend bool operator==(const case_grid&, const case_grid&) = default;
};

// The distributions of one case: what the generator drew and the shrinker reduces.
struct case_spec {
    std::vector<distribution_spec> inputs;
    distribution_spec output;
    std::vector<sim::memory_kind> input_memory;
    sim::memory_kind output_memory = sim::memory_kind::l1;
    std::uint32_t mix = all_compile_time;
    std::uint32_t num_cores = 2;  // worker cores the op runs on
    std::uint64_t seed = 0;       // data and interleaving
    case_grid device;             // the device the case runs on
    // Every buffer placed at the top of its memory (the last bytes of L1 or of the DRAM
    // bank, stacked downwards in allocation order) instead of at the lowest free address.
    bool top = false;
};

// Which cases an op takes, as tt-metal's tests state it (they skip every other pair): the
// generator draws inside it, the shrinker never steps out of it, and a case outside it is
// not applicable (case_result::applicable false), never a failure.
struct op_contract {
    bool same_spec = false;                  // the output's distribution and memory are the (first) input's
    bool same_aligned_page = false;          // every buffer's aligned page size is the same
    std::vector<std::uint32_t> mixes;        // the accessor mixes it takes (all_compile_time, ...); empty: any
    std::optional<sim::memory_kind> memory;  // every buffer in this memory
    enum class layouts : std::uint8_t { any, interleaved, sharded };
    layouts layout = layouts::any;  // every buffer interleaved (one-page shards over the whole bank table), or none
    // Anything else: why the case is outside, or "" when it is inside.
    std::function<std::string(const case_spec&)> also;
};

// Why `c` is outside `contract` (the first rule it breaks), or "" when it is inside.
std::string outside_contract(const op_contract& contract, const case_spec& c);

struct op_desc {
    std::string name;
    std::size_t num_inputs = 1;
    std::size_t min_rank = 1, max_rank = 8;  // of the input page grid
    // The output page grid for these input page grids, or nullopt when the op does not apply.
    std::function<std::optional<shape>(const std::vector<shape>& inputs)> output_pages;
    // The program factory. It throws not_applicable (not_applicable.hpp) to decline a case:
    // the case is then not applicable (never a failure), its summary "not applicable: ...".
    std::function<program(const op_case&)> build;
    // The dense result for the inputs (the kernels are checked against it).
    std::function<sim::dense_tensor(const std::vector<sim::dense_tensor>& inputs, const shape& output_pages)> reference;
    op_contract contract;  // the cases it takes (default: every case)
};

// One line per distribution and the flags that replay it: `ndshard kcheck OP --case '...'`.
std::string describe(const case_spec& c);
std::string replay_flags(const case_spec& c);
// The inverse of replay_flags' --case text; spec_error naming the bad part.
case_spec parse_case(const std::string& text);

struct case_result {
    bool passed = true;             // true for a case outside the op's contract too: not a failure
    std::vector<finding> findings;  // from the launch, the comparison and the padding check
    std::string summary;            // one line
    bool applicable = true;         // false: outside the op's contract, not run (summary says why)
};

// Runs one case (in this process; see check_options::isolate). `sources`: op_case::sources.
case_result run_case(const op_desc& op, const case_spec& c, const launch_options& options = {},
                     const std::map<std::string, std::string>& sources = {});

struct check_options {
    std::uint64_t cases = 100;
    std::uint64_t seed = 1;
    std::uint32_t max_pages = 4096;  // of any tensor drawn
    std::uint32_t max_cores = 8;     // worker cores an op runs on (and banks of an L1 buffer)
    bool isolate = true;             // each case in a child process: a crash or hang fails the case only
    // A child that runs longer than this once its kernels are compiled is a hang (compiling
    // has a budget of its own, 10x this and at least 600 s: under load it is slow, not hung);
    // on a timeout the child's whole process group is killed, compilers included.
    std::uint32_t case_timeout_s = 60;
    // Isolated cases run this many at once (each child compiles its own kernels into the
    // shared cache); the results, the first failure and its shrinking are the same for any
    // count, as the cases and the shrinker's variants are taken in order.
    std::uint32_t jobs = 1;
    // Cases whose accessor words have compile-time parts (each such set is a kernel compiled anew).
    std::uint32_t static_mix_percent = 30;
    // The page sizes (bytes, multiples of 4) cases draw from. Page sizes are compile-time
    // arguments of most kernels, so each one is a compile: check_kernel, when this is
    // empty, draws three per run (one under 16 bytes, one of 16..32, one over 32: padded
    // in both memories, in one, in neither) and reuses them; draw_case alone draws any of
    // 4..64.
    std::vector<std::uint32_t> page_bytes;
    // Every hard_every-th case (the 10th, 20th, ...) is a hard case (draw_hard_case): the
    // integer-width classes of hard_classes(), drawn past max_pages. 0: none.
    std::uint32_t hard_every = 10;
    std::uint64_t shrink_steps = 200;  // cases the shrinker may run
    // Run every case after the first failure too and count the failures (the first one is
    // still the one shrunk).
    bool keep_going = false;
    case_grid device;  // the device cases run on; max_cores may be up to x * y
    launch_options launch;
    std::map<std::string, std::string> sources;  // op_case::sources
};

struct check_report {
    std::uint64_t cases_run = 0;
    std::uint64_t cases_failed = 0;
    std::uint64_t cases_not_applicable = 0;  // draws outside the op's page grids or contract (not run)
    // Every failing case as drawn (before shrinking) and its summary: the first only, unless keep_going.
    std::vector<std::pair<case_spec, std::string>> failures;
    std::optional<case_spec> smallest;  // the shrunk failing case
    case_result smallest_result;
    std::string replay;                    // the command that replays it
    std::vector<std::string> tags;         // distribution features reached, "rank:8 x12", ...
    std::vector<std::string> hard;         // hard classes reached, "pages>65536 x2", ... (hard_classes)
    std::vector<std::string> hard_missed;  // hard classes no case reached
};

// The hard classes a case belongs to, where integer widths and sizes break kernels:
// "pages>255", "pages>4095", "pages>65536" (the largest tensor), "shard>64KiB" (a bank's
// bytes of one buffer past 2^16), "shards/core>255", "page:1088B" / "page:2048B" /
// "page:4096B" (tile pages: bfloat8_b, bfloat16 and float32 32x32 tiles), "l1 top" and
// "dram top" (buffers in the last bytes of L1, 1,499,136 bytes on Wormhole, or of a DRAM
// bank), "rank:N".
std::vector<std::string> hard_classes(const case_spec& c);
// Every class hard_classes names for an op of ranks lo..hi.
std::vector<std::string> all_hard_classes(std::size_t lo = 1, std::size_t hi = 8);

// One case for `op` from any source of choices (a seeded PRNG, RapidCheck, a fuzzer's
// bytes): distributions from the simulator's scenario generator, sometimes interleaved over
// every bank, inside the op's contract; nullopt when the op does not apply to the drawn page
// grid or no draw fits its contract.
std::optional<case_spec> draw_case(const op_desc& op, testkit::entropy& e, const check_options& options);

// The k-th hard case of a run (k = 0, 1, ...): class k % 8 of pages>65536 (interleaved over
// every bank), pages>4095 in one-page shards (more than 255 shards a core), shard>64KiB,
// page:1088B, page:2048B, page:4096B (with `tiles`; else the largest of
// options.page_bytes), l1 top, dram top; rank lo + k % (hi - lo + 1) of the op's ranks.
// Inside the op's contract, with 4-byte pages where it can (the big cases stay cheap); nullopt
// when the class does not fit the op, its contract or the device (the caller then draws an
// ordinary case).
std::optional<case_spec> draw_hard_case(const op_desc& op, testkit::entropy& e, const check_options& options,
                                        std::uint64_t k, bool tiles);

// The cases check_kernel runs for `options`, in order (nullopt: drawn outside the op): from
// a PRNG seeded with options.seed, three page sizes drawn first when options.page_bytes is
// empty, every hard_every-th case a hard one.
std::vector<std::optional<case_spec>> draw_cases(const op_desc& op, const check_options& options);

// One case as check_kernel runs it: in a child process when options.isolate (a crash or a
// hang is then a finding of kind crash), else in this process.
case_result run_one(const op_desc& op, const case_spec& c, const check_options& options);

// Draws `cases` cases (check_options::seed), runs each, shrinks the first failure.
check_report check_kernel(const op_desc& op, const check_options& options = {});

}  // namespace ndshard::ttsim
