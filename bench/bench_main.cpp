// bench/bench_main.cpp - the ndshard benchmark suite (Google Benchmark).
//
// Every benchmark reports items/s where an item is one page, so any two of them divide
// into a cost ratio. Baseline and ND variants run in the same invocation (scripts/bench.sh
// passes --benchmark_enable_random_interleaving so repetitions of all of them alternate).
// Consumption is honest: page ids come from a pre-generated stream in memory, and every
// address goes through benchmark::DoNotOptimize.
//
//   BM_interleaved_addr/<seq|rand>               interleaved_addr_gen::get_noc_addr, 12 banks
//   BM_nd_addr/<static|runtime>/rank:R/<seq|rand> accessor::get_noc_addr, bench_specs.hpp rank R
//   BM_nd_construct/<static|runtime>/rank:R      accessor from its words (validation included)
//   BM_nd_iter/<shard|core_local|all>            the accessor's iterators, rank 4 runtime words
//   BM_interleaved_iter                          interleaved_addr_gen::pages()
//   BM_host_mapping/<pages|runs>                 slot_table vs page_runs, 10^8 pages
//   BM_oracle_addr                               the naive oracle, rank 4 (when it is built)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "alloc_counter.hpp"
#include "bench_specs.hpp"
#include "page_stream.hpp"

#ifdef NDSHARD_BENCH_HAVE_ORACLE
#include <ndshard/oracle/oracle.hpp>
#endif

namespace ndshard::bench {
namespace {

// ---------------------------------------------------------------------------------
// Fixtures: words and accessors of rank R, checked once before anything is timed.

struct rank_words {
    distribution dist;
    accessor_words runtime;  // all runtime
    accessor_words fixed;    // all static: only the checksum is left at run time
};

rank_words& words_of(int rank) {
    static std::vector<rank_words> all = [] {
        std::vector<rank_words> v;
        for (int r = 1; r <= 8; ++r) {
            distribution d = nd_distribution(r);
            accessor_words rt = make_accessor_words(d, arg::all_runtime);
            accessor_words st = make_accessor_words(d, arg::all_static);
            v.push_back({std::move(d), std::move(rt), std::move(st)});
        }
        return v;
    }();
    return all[static_cast<std::size_t>(rank - 1)];
}

using runtime_accessor = accessor<runtime_round_robin>;

template <int R>
using static_accessor = accessor<static_words_of<R>>;

template <int R>
static_accessor<R> make_static(const rank_words& w) {
    return static_accessor<R>(w.fixed.runtime, opaque(bank_base), opaque(page_size));
}
inline runtime_accessor make_runtime(const rank_words& w) {
    return runtime_accessor(w.runtime.runtime, opaque(bank_base), opaque(page_size));
}
inline interleaved_addr_gen make_interleaved(std::uint32_t num_pages) {
    return interleaved_addr_gen(num_pages, std::span<const core_coord>(cores.data(), opaque(std::size_t{num_cores})),
                                opaque(bank_base), opaque(page_size));
}

// The stream's addresses must be the host layout's, else the timing means nothing.
template <class A>
bool agrees_with_layout(const A& a, const distribution& d, const std::vector<std::uint32_t>& ids) {
    for (std::uint32_t id : ids) {
        const auto p = d.layout.locate(id);
        const noc_addr n = a.get_noc_addr(id);
        const core_coord c = d.cores[p.core];
        if (n.x != c.x || n.y != c.y || n.addr != d.byte_address(p.device_offset)) return false;
    }
    return true;
}

// The generator is copied into a local first, as a kernel holds its accessor: its fields
// may then live in registers instead of being reloaded after every DoNotOptimize (whose
// memory clobber covers any object whose address escaped), which also keeps those reloads
// from aliasing the consumed value's stack slot. Baseline and ND variants alike.
template <class A>
void address_loop(benchmark::State& state, const A& original, const std::vector<std::uint32_t>& ids) {
    const A gen = original;
    for (auto _ : state) {
        for (const std::uint32_t id : ids) {
            noc_addr a = gen.get_noc_addr(id);
            benchmark::DoNotOptimize(a);
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(ids.size()));
}

// ---------------------------------------------------------------------------------
// Address generation.

void interleaved_addr(benchmark::State& state, bool random) {
    const std::uint32_t num_pages = 1U << 20;
    const interleaved_addr_gen gen = make_interleaved(num_pages);
    const auto ids = page_stream(num_pages, random);
    for (std::uint32_t id : ids) {
        const noc_addr n = gen.get_noc_addr(id);
        const core_coord c = cores[id % num_cores];
        if (n.x != c.x || n.y != c.y || n.addr != bank_base + (id / num_cores) * page_size) {
            state.SkipWithError("interleaved_addr_gen disagrees with i % B, i / B");
            return;
        }
    }
    address_loop(state, gen, ids);
}

template <int R>
void nd_addr_static(benchmark::State& state, bool random) {
    const rank_words& w = words_of(R);
    const auto a = make_static<R>(w);
    const auto ids = page_stream(static_cast<std::uint32_t>(w.dist.num_pages()), random);
    if (!agrees_with_layout(a, w.dist, ids)) {
        state.SkipWithError("static accessor disagrees with page_layout::locate");
        return;
    }
    address_loop(state, a, ids);
}

void nd_addr_runtime(benchmark::State& state, int rank, bool random) {
    const rank_words& w = words_of(rank);
    const auto a = make_runtime(w);
    const auto ids = page_stream(static_cast<std::uint32_t>(w.dist.num_pages()), random);
    if (!agrees_with_layout(a, w.dist, ids)) {
        state.SkipWithError("runtime accessor disagrees with page_layout::locate");
        return;
    }
    address_loop(state, a, ids);
}

// ---------------------------------------------------------------------------------
// Construction: the words pointer is laundered through opaque() every time, so the
// compiler must read and validate them again; the accessor is then forced to memory.

template <class Make>
void construct_loop(benchmark::State& state, const std::vector<std::uint32_t>& words, Make make) {
    for (auto _ : state) {
        // opaque(), not DoNotOptimize: GCC 12 -O3 miscompiled benchmark 1.7's "+m,r"
        // laundering of this pointer (it read the pointer back from a stack slot it never
        // wrote, and the construction benchmarks crashed; bench.smoke runs them now).
        const std::uint32_t* p = opaque(words.data());
        auto a = make(std::span<const std::uint32_t>(p, words.size()));
        benchmark::DoNotOptimize(a);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

template <int R>
void nd_construct_static(benchmark::State& state) {
    const rank_words& w = words_of(R);
    if (w.fixed.compile_time != std::vector<std::uint32_t>(static_words_of<R>.begin(), static_words_of<R>.end())) {
        state.SkipWithError("static_words disagrees with make_accessor_words");
        return;
    }
    const std::uint32_t base = opaque(bank_base), size = opaque(page_size);
    construct_loop(state, w.fixed.runtime,
                   [=](std::span<const std::uint32_t> rt) { return static_accessor<R>(rt, base, size); });
}

void nd_construct_runtime(benchmark::State& state, int rank) {
    const rank_words& w = words_of(rank);
    const std::uint32_t base = opaque(bank_base), size = opaque(page_size);
    construct_loop(state, w.runtime.runtime,
                   [=](std::span<const std::uint32_t> rt) { return runtime_accessor(rt, base, size); });
}

// ---------------------------------------------------------------------------------
// Iterators: each page visited yields (page id, bank, offset, core coordinate); the
// benchmark turns that into the page's NoC address and consumes it, exactly like the
// random-access loops consume theirs, so the two costs per page compare like for like.
// (Consuming the page id as well adds one store per page to every iterator alike.) All pages of the rank 4
// spec, runtime words, are visited once per iteration.

constexpr int iter_rank = 4;

template <class A, class Range>
void consume_pages(const A& a, Range pages) {
    for (const page_ref r : pages) {
        noc_addr addr = a.noc_address_of(r);
        benchmark::DoNotOptimize(addr);
    }
}

// One out-of-line function per walk, so each loop is optimised on its own rather than
// sharing one function's inlining budget with the others; each works on a local copy of
// the accessor, as address_loop does.
template <class A>
[[gnu::noinline]] void walk_all(const A& original) {
    const A a = original;
    consume_pages(a, a.pages());
}
template <class A>
[[gnu::noinline]] void walk_shards(const A& original) {
    const A a = original;
    for (std::uint32_t s = 0; s < a.num_shards(); ++s) consume_pages(a, a.shard_pages(s));
}
template <class A>
[[gnu::noinline]] void walk_banks(const A& original) {
    const A a = original;
    for (std::uint32_t b = 0; b < a.num_banks(); ++b) consume_pages(a, a.local_pages(b));
}

enum class iter_kind { shard, core_local, all };

void nd_iter(benchmark::State& state, iter_kind kind) {
    const rank_words& w = words_of(iter_rank);
    const auto a = make_runtime(w);
    // The iterators must visit every page exactly once with the accessor's own answer.
    {
        std::vector<int> seen(a.num_pages(), 0);
        auto check = [&](const auto& pages) {
            for (const page_ref r : pages) {
                const bank_and_offset bo = a.get_bank_and_offset(r.page_id);
                if (r.page_id >= a.num_pages() || bo.bank != r.bank || bo.page_offset != r.page_offset ||
                    !(r.core == a.bank_coord(r.bank)))
                    return false;
                ++seen[r.page_id];
            }
            return true;
        };
        bool ok = true;
        if (kind == iter_kind::all) ok = check(a.pages());
        if (kind == iter_kind::shard)
            for (std::uint32_t s = 0; s < a.num_shards(); ++s) ok = ok && check(a.shard_pages(s));
        if (kind == iter_kind::core_local)
            for (std::uint32_t b = 0; b < a.num_banks(); ++b) ok = ok && check(a.local_pages(b));
        for (int c : seen) ok = ok && c == 1;
        if (!ok) {
            state.SkipWithError("iterator disagrees with get_bank_and_offset");
            return;
        }
    }
    for (auto _ : state) {
        switch (kind) {
            case iter_kind::all:
                walk_all(a);
                break;
            case iter_kind::shard:
                walk_shards(a);
                break;
            case iter_kind::core_local:
                walk_banks(a);
                break;
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * a.num_pages());
}

void interleaved_iter(benchmark::State& state) {
    const std::uint32_t num_pages = 1U << 14;
    const interleaved_addr_gen gen = make_interleaved(num_pages);
    std::uint32_t expect = 0;
    for (const page_ref r : gen.pages()) {
        const bank_and_offset bo = gen.get_bank_and_offset(r.page_id);
        if (r.page_id != expect++ || bo.bank != r.bank || bo.page_offset != r.page_offset ||
            !(r.core == cores[r.bank])) {
            state.SkipWithError("interleaved pages() disagrees with get_bank_and_offset");
            return;
        }
    }
    if (expect != num_pages) {
        state.SkipWithError("interleaved pages() does not visit every page");
        return;
    }
    for (auto _ : state) walk_all(gen);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * num_pages);
}

// ---------------------------------------------------------------------------------
// Host mapping: the whole placement of a 10^8-page tensor, per page vs per run.
// [10,3000,3334]/[3,128,200] pages over 8x8 cores: 100,020,000 pages, 1632 shards,
// 26 slots per core (1.02 GB of slot table), about 500,000 runs.

const distribution& host_distribution() {
    static const distribution d = [] {
        distribution_spec s;
        s.tensor = {10, 3000, 3334};
        s.shard = {3, 128, 200};
        s.element_size = page_size;
        s.cores = {grid_range(8, 8)};
        return make_distribution(s);
    }();
    return d;
}

void host_mapping_pages(benchmark::State& state) {
    const distribution& d = host_distribution();
    std::size_t peak = 0;
    for (auto _ : state) {
        reset_peak_heap_bytes();
        const std::size_t before = live_heap_bytes();
        auto table = slot_table(d);
        benchmark::DoNotOptimize(table.data());
        benchmark::ClobberMemory();
        peak = std::max(peak, peak_heap_bytes() - before);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * d.num_pages()));
    state.counters["peak_bytes"] = static_cast<double>(peak);
    state.counters["pages"] = static_cast<double>(d.num_pages());
}

void host_mapping_runs(benchmark::State& state) {
    const distribution& d = host_distribution();
    std::size_t peak = 0, runs = 0;
    for (auto _ : state) {
        reset_peak_heap_bytes();
        const std::size_t before = live_heap_bytes();
        auto r = page_runs(d);
        benchmark::DoNotOptimize(r.data());
        benchmark::ClobberMemory();
        peak = std::max(peak, peak_heap_bytes() - before);
        runs = 0;
        for (const auto& core : r) runs += core.size();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * d.num_pages()));
    state.counters["peak_bytes"] = static_cast<double>(peak);
    state.counters["pages"] = static_cast<double>(d.num_pages());
    state.counters["runs"] = static_cast<double>(runs);
}

#ifdef NDSHARD_BENCH_HAVE_ORACLE
void oracle_addr(benchmark::State& state) {
    const nd_case c = nd_case_of(iter_rank);
    oracle::spec s;
    for (auto t : c.tensor) s.tensor.emplace_back(t);
    for (auto v : c.shard) s.shard.emplace_back(v);
    s.page = oracle::page_kind::pages;
    s.element_size = page_size;
    s.bank_base = bank_base;
    s.cores = {oracle::core_range{0, 0, 3, 2}};
    const oracle::verdict v = oracle::evaluate(s);
    if (!v.accepted) {
        state.SkipWithError(("oracle rejects the rank 4 spec: " + v.message).c_str());
        return;
    }
    const oracle::model& m = *v.accepted;
    const auto ids = page_stream(static_cast<std::uint32_t>(nd_distribution(iter_rank).num_pages()), true, 256);
    for (auto _ : state) {
        for (const std::uint32_t id : ids) {
            const oracle::location loc = oracle::locate(m, oracle::big(id));
            auto addr = static_cast<std::uint64_t>(loc.byte_address);
            benchmark::DoNotOptimize(addr);
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(ids.size()));
}
#endif

// ---------------------------------------------------------------------------------
// Registration: the stable names of issue 6.

template <int R>
void register_rank() {
    const std::string rank = "rank:" + std::to_string(R);
    for (const bool random : {false, true}) {
        const std::string stream = random ? "rand" : "seq";
        benchmark::RegisterBenchmark(("BM_nd_addr/static/" + rank + "/" + stream).c_str(),
                                     [random](benchmark::State& s) { nd_addr_static<R>(s, random); });
        benchmark::RegisterBenchmark(("BM_nd_addr/runtime/" + rank + "/" + stream).c_str(),
                                     [random](benchmark::State& s) { nd_addr_runtime(s, R, random); });
    }
    benchmark::RegisterBenchmark(("BM_nd_construct/static/" + rank).c_str(), nd_construct_static<R>);
    benchmark::RegisterBenchmark(("BM_nd_construct/runtime/" + rank).c_str(),
                                 [](benchmark::State& s) { nd_construct_runtime(s, R); });
}

void register_all() {
    benchmark::RegisterBenchmark("BM_interleaved_addr/seq", [](benchmark::State& s) { interleaved_addr(s, false); });
    benchmark::RegisterBenchmark("BM_interleaved_addr/rand", [](benchmark::State& s) { interleaved_addr(s, true); });
    [&]<int... R>(std::integer_sequence<int, R...>) { (register_rank<R + 1>(), ...); }
    (std::make_integer_sequence<int, 8>{});
    benchmark::RegisterBenchmark("BM_nd_iter/shard", [](benchmark::State& s) { nd_iter(s, iter_kind::shard); });
    benchmark::RegisterBenchmark("BM_nd_iter/core_local",
                                 [](benchmark::State& s) { nd_iter(s, iter_kind::core_local); });
    benchmark::RegisterBenchmark("BM_nd_iter/all", [](benchmark::State& s) { nd_iter(s, iter_kind::all); });
    benchmark::RegisterBenchmark("BM_interleaved_iter", interleaved_iter);
    // One iteration of the per-page table takes seconds, past any min_time: each
    // repetition is then a single timed call.
    benchmark::RegisterBenchmark("BM_host_mapping/pages", host_mapping_pages)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_host_mapping/runs", host_mapping_runs)->Unit(benchmark::kMillisecond);
#ifdef NDSHARD_BENCH_HAVE_ORACLE
    benchmark::RegisterBenchmark("BM_oracle_addr", oracle_addr);
#endif
}

}  // namespace
}  // namespace ndshard::bench

int main(int argc, char** argv) {
    ndshard::bench::register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::AddCustomContext("ndshard.cores", std::to_string(ndshard::bench::num_cores));
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
