// bench/device/bench_device.cpp - what scripts/bench.sh --device counts: rv32im
// instructions per address under qemu-riscv32, for the bench specs (bench_specs.hpp,
// 12 cores on a 4x3 grid) as words written by gen_bench_words.
//
// Usage (under qemu-riscv32): bench_device VARIANT N
//   interleaved            N addresses from the interleaved generator (12 banks)
//   ct<R> / rt<R>          N addresses, ND rank R, all arguments compile-time / runtime
//   pages<R> shard<R> local<R>   N pages through pages() (again from the start when
//                          it ends), shard_pages(0, 1, ...), local_pages(0, 1, ...),
//                          ND rank R, all arguments runtime; iterators made on the way count
//   construct<R>           N accessors built from rank R's runtime words
// The script runs N and 2N and divides the difference by N, so set-up cancels. Every
// address is consumed as three adds (address, x, y) into sinks; page ids come from a
// table filled before the measured loop, so the compiler knows nothing of them, and
// bank base, page size and the runtime words reach the accessor through an opaque
// barrier, so nothing about them is folded into the measured code.
#include <array>
#include <cstdint>
#include <span>

#include "ndshard/accessor.hpp"
#include "ndshard/interleaved.hpp"
#include "bench_words.hpp"
#include "rv32_runtime.hpp"

namespace {

template <class T>
T opaque(T v) {
    asm volatile("" : "+r"(v));
    return v;
}

constexpr std::uint32_t table_size = 4096;
std::uint32_t ids[table_size];
std::uint32_t sink_addr, sink_x, sink_y;

void fill_ids(std::uint32_t num_pages) {
    std::uint32_t s = 0x9E3779B9U;
    for (std::uint32_t i = 0; i < table_size; ++i) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        ids[i] = opaque(s) % num_pages;
    }
}

// Every address is consumed as three adds into sinks, written out once per loop.
struct consumer {
    std::uint32_t a = 0, x = 0, y = 0;
    void operator()(const ndshard::noc_addr& r) {
        a += r.addr;
        x += r.x;
        y += r.y;
    }
    ~consumer() {
        sink_addr += a;
        sink_x += x;
        sink_y += y;
    }
};

template <class Gen>
[[gnu::noinline]] void queries(const Gen& g, std::uint32_t n) {
    consumer use;
    for (const std::uint32_t* p = ids; p != ids + n; ++p) use(g.get_noc_addr(*p));
}

template <class Gen, class Range>
[[gnu::noinline]] std::uint32_t walk(const Gen& g, const Range& range, std::uint32_t n) {
    consumer use;
    for (auto it = range.begin(); n != 0 && !(it == range.end()); ++it, --n) use(g.noc_address_of(*it));
    return n;
}

std::span<const std::uint32_t> words(const std::uint32_t* w, std::size_t n) { return {opaque(w), n}; }

template <auto CT, std::size_t M>
auto make(const std::uint32_t (&rt)[M]) {
    return ndshard::accessor<CT>(words(rt, M), opaque(bench_words::bank_base), opaque(bench_words::page_size));
}

template <auto CT, std::size_t M>
[[gnu::noinline]] void construct(const std::uint32_t (&rt)[M], std::uint32_t n) {
    for (; n != 0; --n) {
        const auto a = make<CT>(rt);
        asm volatile("" : : "r"(&a) : "memory");  // every member must exist
    }
}

template <auto CT, std::size_t M>
int nd(char kind, const std::uint32_t (&rt)[M], std::uint32_t num_pages, std::uint32_t n) {
    const auto a = make<CT>(rt);
    switch (kind) {
        case 'q':
            fill_ids(num_pages);
            queries(a, n);
            return 0;
        case 'p':  // the whole tensor again when it has fewer pages than asked for
            while (n != 0) n = walk(a, a.pages(), n);
            return 0;
        case 's':
            for (std::uint32_t s = 0; n != 0; s = s + 1 == a.num_shards() ? 0 : s + 1) n = walk(a, a.shard_pages(s), n);
            return 0;
        case 'l':
            for (std::uint32_t b = 0; n != 0; b = b + 1 == a.num_banks() ? 0 : b + 1) n = walk(a, a.local_pages(b), n);
            return 0;
        case 'c':
            construct<CT>(rt, n);
            return 0;
        default:
            return 2;
    }
}

template <int R>
int rank_variant(char kind, bool all_static, std::uint32_t n);

#define NDSHARD_BENCH_RANK(R)                                                                                   \
    template <>                                                                                                 \
    int rank_variant<R>(char kind, bool all_static, std::uint32_t n) {                                          \
        if (all_static)                                                                                         \
            return nd<bench_words::ct_static_##R>(kind, bench_words::rt_static_##R, bench_words::pages_##R, n); \
        return nd<bench_words::ct_runtime_##R>(kind, bench_words::rt_runtime_##R, bench_words::pages_##R, n);   \
    }
NDSHARD_BENCH_RANK(1)
NDSHARD_BENCH_RANK(2)
NDSHARD_BENCH_RANK(4)
NDSHARD_BENCH_RANK(8)

std::array<ndshard::core_coord, 12> interleaved_cores;

}  // namespace

extern "C" int device_main(int argc, char** argv) {
    if (argc != 3) {
        rv32::print("usage: bench_device VARIANT N\n");
        return 2;
    }
    const char* v = argv[1];
    const std::uint32_t n = rv32::parse_u32(argv[2]);
    if (n > table_size) return 2;
    if (rv32::equal(v, "interleaved")) {
        for (std::uint32_t b = 0; b < 12; ++b) interleaved_cores[b] = ndshard::unpack_core(bench_words::cores[b]);
        const ndshard::interleaved_addr_gen g(opaque(120000U), std::span<const ndshard::core_coord>(interleaved_cores),
                                              opaque(bench_words::bank_base), opaque(bench_words::page_size));
        fill_ids(120000U);
        queries(g, n);
        return 0;
    }
    char kind = 0;
    const char* rest = v;
    bool all_static = false;
    if (v[0] == 'c' && v[1] == 't') kind = 'q', all_static = true, rest = v + 2;
    else if (v[0] == 'r' && v[1] == 't') kind = 'q', rest = v + 2;
    else if (v[0] == 'p' && v[1] == 'a') kind = 'p', rest = v + 5;
    else if (v[0] == 's' && v[1] == 'h') kind = 's', rest = v + 5;
    else if (v[0] == 'l' && v[1] == 'o') kind = 'l', rest = v + 5;
    else if (v[0] == 'c' && v[1] == 'o') kind = 'c', rest = v + 9;
    switch (rv32::parse_u32(rest)) {
        case 1:
            return rank_variant<1>(kind, all_static, n);
        case 2:
            return rank_variant<2>(kind, all_static, n);
        case 4:
            return rank_variant<4>(kind, all_static, n);
        case 8:
            return rank_variant<8>(kind, all_static, n);
        default:
            return 2;
    }
}
