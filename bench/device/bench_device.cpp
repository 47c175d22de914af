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
//   pre<R> / preconstruct<R>   the same through precomputed words (arg::precomputed: the
//                          trusting constructor copies the geometry; this program is built
//                          with NDSHARD_CHECK_WORDS=0, as a kernel that trusts its host is)
//   ttct<R> / ttrt<R>      N addresses through tt-metal's TensorAccessor (lib/ttmetal) from
//                          tt-metal's words, all compile-time / all runtime (a 64-bit NoC
//                          address, consumed as two adds)
//   ttconstruct<R>         N tt-metal TensorAccessors built from rank R's runtime words
// The script runs N and 2N and divides the difference by N, so set-up cancels. Every
// address is consumed as three adds (address, x, y) into sinks; page ids come from a
// table filled before the measured loop, so the compiler knows nothing of them, and
// bank base, page size and the runtime words reach the accessor through an opaque
// barrier, so nothing about them is folded into the measured code.
#include <array>
#include <cstdint>
#include <span>

// clang-format off
#include "bench_words.hpp"  // first: it defines the kernel's KERNEL_COMPILE_TIME_ARGS
#include "api/tensor/tensor_accessor.h"
// clang-format on
#include "ndshard/accessor.hpp"
#include "ndshard/interleaved.hpp"
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
    void operator()(std::uint64_t noc) {  // tt-metal's packed NoC address
        a += static_cast<std::uint32_t>(noc);
        x += static_cast<std::uint32_t>(noc >> 32);
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

// tt-metal's TensorAccessor over the words at CTA (compile-time) and crta (runtime).
template <std::size_t CTA, std::size_t M>
int tt(char kind, const std::uint32_t (&crta)[M], std::uint32_t num_pages, std::uint32_t n) {
    tt_device::common_args = opaque(crta);
    tt_device::common_arg_count = M;
    constexpr auto args = TensorAccessorArgs<CTA, 0>();
    if (kind == 'c') {
        for (; n != 0; --n) {
            const auto a = TensorAccessor(args, opaque(bench_words::bank_base), opaque(bench_words::page_size));
            asm volatile("" : : "r"(&a) : "memory");
        }
        return 0;
    }
    const auto a = TensorAccessor(args, opaque(bench_words::bank_base), opaque(bench_words::page_size));
    fill_ids(num_pages);
    queries(a, n);
    return 0;
}

enum class words_kind { all_static, runtime, precomputed, tt_static, tt_runtime };

template <int R>
int rank_variant(char kind, words_kind w, std::uint32_t n);

#define NDSHARD_BENCH_RANK(R)                                                                                         \
    template <>                                                                                                       \
    int rank_variant<R>(char kind, words_kind w, std::uint32_t n) {                                                   \
        switch (w) {                                                                                                  \
            case words_kind::all_static:                                                                              \
                return nd<bench_words::ct_static_##R>(kind, bench_words::rt_static_##R, bench_words::pages_##R, n);   \
            case words_kind::precomputed:                                                                             \
                return nd<bench_words::ct_precomputed_##R>(kind, bench_words::rt_precomputed_##R,                     \
                                                           bench_words::pages_##R, n);                                \
            case words_kind::tt_static:                                                                               \
                return tt<bench_words::tt_ct_##R##_offset>(kind, bench_words::tt_ct_##R##_crta,                       \
                                                           bench_words::pages_##R, n);                                \
            case words_kind::tt_runtime:                                                                              \
                return tt<bench_words::tt_rt_##R##_offset>(kind, bench_words::tt_rt_##R##_crta,                       \
                                                           bench_words::pages_##R, n);                                \
            default:                                                                                                  \
                return nd<bench_words::ct_runtime_##R>(kind, bench_words::rt_runtime_##R, bench_words::pages_##R, n); \
        }                                                                                                             \
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
    words_kind w = words_kind::runtime;
    // A prefix names the words: tt (tt-metal's), pre (ndshard's precomputed), else ndshard's.
    if (v[0] == 't' && v[1] == 't') {
        v += 2;
        w = words_kind::tt_runtime;
        if (v[0] == 'c' && v[1] == 't') w = words_kind::tt_static;
    } else if (v[0] == 'p' && v[1] == 'r' && v[2] == 'e') {
        v += 3;
        w = words_kind::precomputed;
        if (v[0] >= '0' && v[0] <= '9') kind = 'q', rest = v;
    }
    if (kind == 0) {
        if (v[0] == 'c' && v[1] == 't')
            kind = 'q', rest = v + 2, w = w == words_kind::runtime ? words_kind::all_static : w;
        else if (v[0] == 'r' && v[1] == 't') kind = 'q', rest = v + 2;
        else if (v[0] == 'p' && v[1] == 'a') kind = 'p', rest = v + 5;
        else if (v[0] == 's' && v[1] == 'h') kind = 's', rest = v + 5;
        else if (v[0] == 'l' && v[1] == 'o') kind = 'l', rest = v + 5;
        else if (v[0] == 'c' && v[1] == 'o') kind = 'c', rest = v + 9;
    }
    switch (rv32::parse_u32(rest)) {
        case 1:
            return rank_variant<1>(kind, w, n);
        case 2:
            return rank_variant<2>(kind, w, n);
        case 4:
            return rank_variant<4>(kind, w, n);
        case 8:
            return rank_variant<8>(kind, w, n);
        default:
            return 2;
    }
}
