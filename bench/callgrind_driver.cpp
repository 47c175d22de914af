// bench/callgrind_driver.cpp - a deterministic companion to the wall-clock benchmarks.
//
//   ndshard_bench_callgrind <interleaved|static|runtime|construct|iter_all|iter_shard|iter_local> <rank> <count>
//
// Computes `count` NoC addresses (or, for `construct`, builds the runtime accessor `count`
// times; for iter_*, walks the runtime accessor's iterators over whole passes of all pages,
// `count` rounded up to whole passes) over the same random page stream and specs as ndshard_bench
// (bench_specs.hpp, page_stream.hpp), consuming each result exactly like benchmark::DoNotOptimize. Only
// that loop is measured: under
//   valgrind --tool=callgrind --collect-atstart=no ./ndshard_bench_callgrind static 4 100000
// the CALLGRIND_TOGGLE_COLLECT marks around it make the reported instruction count the
// loop's alone, so Ir / count is instructions per address, independent of machine load.
// scripts/bench.sh runs it for interleaved and ND static/runtime at ranks 1, 4 and 8.
#include <valgrind/callgrind.h>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench_specs.hpp"
#include "page_stream.hpp"

namespace ndshard::bench {
namespace {

// The same loop as bench_main.cpp's address_loop (a local copy, DoNotOptimize per address).
template <class A>
void addresses(const A& original, const std::vector<std::uint32_t>& ids) {
    const A gen = original;
    CALLGRIND_TOGGLE_COLLECT;
    for (const std::uint32_t id : ids) {
        noc_addr a = gen.get_noc_addr(id);
        benchmark::DoNotOptimize(a);
    }
    CALLGRIND_TOGGLE_COLLECT;
}

template <int R>
int run_static(std::size_t count) {
    const distribution d = nd_distribution(R);
    const accessor_words w = make_accessor_words(d, arg::all_static);
    const accessor<static_words_of<R>> a(w.runtime, opaque(bank_base), opaque(page_size));
    addresses(a, page_stream(static_cast<std::uint32_t>(d.num_pages()), true, count));
    return 0;
}

int run(const std::string& what, int rank, std::size_t count) {
    if (what == "interleaved") {
        const std::uint32_t num_pages = 1U << 20;
        const interleaved_addr_gen gen(num_pages,
                                       std::span<const core_coord>(cores.data(), opaque(std::size_t{num_cores})),
                                       opaque(bank_base), opaque(page_size));
        addresses(gen, page_stream(num_pages, true, count));
        return 0;
    }
    if (rank < 1 || rank > 8) return 2;
    if (what == "static") {
        switch (rank) {
            case 1:
                return run_static<1>(count);
            case 2:
                return run_static<2>(count);
            case 3:
                return run_static<3>(count);
            case 4:
                return run_static<4>(count);
            case 5:
                return run_static<5>(count);
            case 6:
                return run_static<6>(count);
            case 7:
                return run_static<7>(count);
            default:
                return run_static<8>(count);
        }
    }
    const distribution d = nd_distribution(rank);
    const accessor_words w = make_accessor_words(d, arg::all_runtime);
    if (what == "runtime") {
        const accessor<runtime_round_robin> a(w.runtime, opaque(bank_base), opaque(page_size));
        addresses(a, page_stream(static_cast<std::uint32_t>(d.num_pages()), true, count));
        return 0;
    }
    if (what == "iter_all" || what == "iter_shard" || what == "iter_local") {
        const accessor<runtime_round_robin> a(w.runtime, opaque(bank_base), opaque(page_size));
        auto consume = [&](const auto& pages) {
            for (const page_ref r : pages) {
                noc_addr n = a.noc_address_of(r);
                benchmark::DoNotOptimize(n);
            }
        };
        for (std::size_t done = 0; done < count; done += a.num_pages()) {
            CALLGRIND_TOGGLE_COLLECT;
            if (what == "iter_all") consume(a.pages());
            if (what == "iter_shard")
                for (std::uint32_t s = 0; s < a.num_shards(); ++s) consume(a.shard_pages(s));
            if (what == "iter_local")
                for (std::uint32_t b = 0; b < a.num_banks(); ++b) consume(a.local_pages(b));
            CALLGRIND_TOGGLE_COLLECT;
        }
        return 0;
    }
    if (what == "construct") {
        CALLGRIND_TOGGLE_COLLECT;
        for (std::size_t i = 0; i < count; ++i) {
            const std::uint32_t* p = opaque(w.runtime.data());  // as bench_main.cpp's construct_loop
            accessor<runtime_round_robin> a(std::span<const std::uint32_t>(p, w.runtime.size()), opaque(bank_base),
                                            opaque(page_size));
            benchmark::DoNotOptimize(a);
        }
        CALLGRIND_TOGGLE_COLLECT;
        return 0;
    }
    return 2;
}

}  // namespace
}  // namespace ndshard::bench

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr,
                     "usage: %s <interleaved|static|runtime|construct|iter_all|iter_shard|iter_local> <rank> <count>\n",
                     argv[0]);
        return 2;
    }
    const int rc = ndshard::bench::run(argv[1], std::atoi(argv[2]), std::strtoull(argv[3], nullptr, 10));
    if (rc == 2) std::fprintf(stderr, "%s: unknown variant %s or rank %s\n", argv[0], argv[1], argv[2]);
    return rc;
}
