// bench/selfcheck.cpp - the accessor against the host layout, before anything is timed.
//
// A fast path is only worth measuring when it is right. This program holds the
// accessor (every query, all three iterators) against page_layout::locate - the host
// side of the same formulas, in 64-bit with plain division - on random specs (both deal
// rules, squeezed and not, small and near the 32-bit limits), on all 15 valid static
// masks for a handful of compile-time specs, and checks that corrupted, truncated and
// inconsistent word lists are rejected with spec_error. It exits non-zero on the first
// disagreement and names it. scripts/bench.sh runs it before the benchmarks; ctest runs it
// as bench.selfcheck. NDSHARD_SELFCHECK_SPECS sets the number of random specs (default 3000).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/ndshard.hpp"
#include "ndshard/testkit/accessor_check.hpp"
#include "ndshard/testkit/splitmix64.hpp"

namespace ndshard::selfcheck {
namespace {

int failures = 0;

#define CHECK(cond, ...)                                                               \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            std::fprintf(stderr, "selfcheck: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            std::fprintf(stderr, __VA_ARGS__);                                         \
            std::fprintf(stderr, "\n");                                                \
            if (++failures > 20) std::exit(1);                                         \
        }                                                                              \
    } while (0)

// splitmix64 (testkit/splitmix64.hpp): deterministic everywhere.
struct rng : testkit::splitmix64 {
    explicit rng(std::uint64_t seed) : testkit::splitmix64{seed} {}
    // uniform in [lo, hi]
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) {
        __extension__ using wide = unsigned __int128;  // host only
        return lo + static_cast<std::uint64_t>((static_cast<wide>(next()) * (hi - lo + 1)) >> 64);
    }
    bool chance(int percent) { return between(0, 99) < static_cast<std::uint64_t>(percent); }
};

std::string spec_text(const distribution& d) {
    return to_string(d.layout.tensor) + "/" + to_string(d.layout.shard) + " P=" + std::to_string(d.layout.num_cores) +
           (d.layout.rule == deal_rule::contiguous ? " contiguous" : " round_robin");
}

// Every query and iterator of accessor `a` (built for layout `l` of `d`) against `l`
// (testkit/accessor_check.hpp, expect_from_layout): `pages` one by one, their shards and the
// first 64 banks; every shard, bank and page with the iterators when the tensor is small
// enough (20000 pages, 200000 reserved on all cores).
template <class A>
void check_accessor(const A& a, const distribution& d, const page_layout& l, const std::vector<std::uint64_t>& pages,
                    const std::string& what) {
    const std::string name = what + " " + spec_text(d);
    testkit::check_accessor(a, testkit::expect_from_layout(d, l, pages, 20000),
                            [&](const testkit::accessor_mismatch& m) {
                                std::fprintf(stderr, "selfcheck: %s: %s\n", name.c_str(), m.text().c_str());
                                if (++failures > 20) std::exit(1);
                            });
}

std::vector<std::uint64_t> sample_pages(rng& r, std::uint64_t num_pages, std::size_t count) {
    std::vector<std::uint64_t> out;
    if (num_pages == 0) return out;
    if (num_pages <= count) {
        for (std::uint64_t p = 0; p < num_pages; ++p) out.push_back(p);
        return out;
    }
    out.push_back(0);
    out.push_back(num_pages - 1);
    while (out.size() < count) out.push_back(r.between(0, num_pages - 1));
    return out;
}

// --- random specs -------------------------------------------------------------------

distribution_spec random_spec(rng& r) {
    distribution_spec s;
    const std::size_t rank = r.between(1, 8);
    const bool big = r.chance(15);  // dims near the 32-bit limits
    const std::uint64_t budget = big ? (std::uint64_t{1} << 32) - 1 : 4000;
    std::uint64_t span = 1;
    for (std::size_t d = 0; d < rank; ++d) {
        const std::uint64_t room = std::max<std::uint64_t>(budget / span, 1);
        std::uint64_t t = r.chance(3) ? 0 : r.between(1, std::min<std::uint64_t>(room, big ? room : 13));
        if (big && d + 1 == rank) t = std::max<std::uint64_t>(room, 1);
        s.tensor.push_back(t);
        span *= std::max<std::uint64_t>(t, 1);
    }
    const std::size_t shard_rank = r.chance(70) ? rank : r.between(1, rank);
    for (std::size_t d = 0; d < shard_rank; ++d) {
        const std::uint64_t t = s.tensor[rank - shard_rank + d];
        std::uint64_t v = r.chance(20) ? 1 : r.between(1, std::max<std::uint64_t>(t, 1) + 1);
        if (big && r.chance(50)) v = r.between(1, std::max<std::uint64_t>(t, 1));
        s.shard.push_back(std::min<std::uint64_t>(v, 65521));
    }
    s.element_size = r.chance(50) ? 1 : r.between(1, 64);
    s.alignment = std::uint64_t{1} << r.between(0, 5);
    s.bank_base = r.chance(50) ? 0 : r.between(0, 4096);
    s.orient = r.chance(50) ? orientation::row_major : orientation::col_major;
    const auto pick = r.between(0, 9);
    s.strat = pick < 6 ? strategy::round_robin_1d : pick < 9 ? strategy::contiguous_1d : strategy::grid_2d;
    const std::size_t ranges = s.strat == strategy::grid_2d ? 1 : r.between(1, 3);
    std::uint32_t y = 0;
    for (std::size_t i = 0; i < ranges; ++i) {
        const auto w = static_cast<std::uint32_t>(r.between(1, big ? 256 : 6));
        const auto h = static_cast<std::uint32_t>(r.between(1, big ? 128 : 5));
        s.cores.push_back({{0, y}, {w - 1, y + h - 1}});
        y += h;
    }
    return s;
}

// random_spec made into a distribution, or nothing when the spec is refused.
std::optional<distribution> random_distribution(rng& r) {
    try {
        return make_distribution(random_spec(r));
    } catch (const spec_error&) {
        return std::nullopt;
    }
}

void check_random_specs(int count) {
    rng r{20240611};
    int accepted = 0;
    for (int i = 0; i < count; ++i) {
        const std::optional<distribution> d = random_distribution(r);
        if (!d) continue;
        ++accepted;
        const page_layout squeezed = squeeze(d->layout);
        for (const page_layout* l : {static_cast<const page_layout*>(&d->layout), &squeezed}) {
            const accessor_words w = make_accessor_words(*d, arg::all_runtime, l);
            const auto pages = sample_pages(r, l->num_pages, 300);
            with_runtime_accessor(w, static_cast<std::uint32_t>(d->bank_base),
                                  static_cast<std::uint32_t>(d->aligned_page_size), [&](const auto& a) {
                                      check_accessor(a, *d, *l, pages, l == &squeezed ? "runtime squeezed" : "runtime");
                                  });
        }
    }
    std::printf("selfcheck: %d random specs accepted of %d, checked as given and squeezed\n", accepted, count);
    CHECK(accepted > count / 4, "too few random specs were accepted (%d)", accepted);
}

// --- corrupted words ------------------------------------------------------------------

template <class F>
bool rejects(F&& f) {
    try {
        f();
    } catch (const spec_error&) {
        return true;
    }
    return false;
}

void check_corruption(int count) {
    rng r{77};
    int lists = 0;
    for (int i = 0; i < count; ++i) {
        const std::optional<distribution> d = random_distribution(r);
        if (!d) continue;
        ++lists;
        const accessor_words good = make_accessor_words(*d, arg::all_runtime);
        const auto base = static_cast<std::uint32_t>(d->bank_base);
        const auto size = static_cast<std::uint32_t>(d->aligned_page_size);
        auto build = [&](const accessor_words& w) { with_runtime_accessor(w, base, size, [](const auto&) {}); };
        CHECK(!rejects([&] { build(good); }), "a good word list is rejected: %s", spec_text(*d).c_str());
        for (std::size_t k = 0; k < good.runtime.size(); ++k) {
            accessor_words bad = good;
            bad.runtime[k] ^= std::uint32_t{1} << r.between(0, 31);
            CHECK(rejects([&] { build(bad); }), "%s: a flipped bit in runtime word %zu is accepted",
                  spec_text(*d).c_str(), k);
            bad = good;
            bad.runtime[k] += static_cast<std::uint32_t>(r.between(1, 0xFFFF'FFFF));
            CHECK(rejects([&] { build(bad); }), "%s: a changed runtime word %zu is accepted", spec_text(*d).c_str(), k);
        }
        accessor_words shorter = good;
        shorter.runtime.pop_back();
        CHECK(rejects([&] { build(shorter); }), "a truncated word list is accepted");
        accessor_words longer = good;
        longer.runtime.push_back(0);
        CHECK(rejects([&] { build(longer); }), "a lengthened word list is accepted");
    }
    // Random words with a correct checksum: rejected exactly when they break a rule (worked
    // out here on the host), and when accepted the accessor answers like their layout.
    int survived = 0, disagreed = 0;
    for (int i = 0; i < count * 4; ++i) {
        std::vector<std::uint32_t> rt;
        const auto rank = static_cast<std::uint32_t>(r.chance(90) ? r.between(1, 8) : r.next());
        const auto banks = static_cast<std::uint32_t>(r.chance(80) ? r.between(0, 20) : r.next());
        rt.push_back(rank);
        rt.push_back(banks);
        const std::uint32_t n = rank <= 8 ? rank : 3;
        std::vector<std::uint32_t> t, s;
        for (std::uint32_t d = 0; d < n; ++d)
            t.push_back(static_cast<std::uint32_t>(r.chance(80) ? r.between(0, 9) : r.next()));
        for (std::uint32_t d = 0; d < n; ++d)
            s.push_back(static_cast<std::uint32_t>(r.chance(80) ? r.between(0, 9) : r.next()));
        rt.insert(rt.end(), t.begin(), t.end());
        rt.insert(rt.end(), s.begin(), s.end());
        const std::uint32_t listed = std::min<std::uint32_t>(banks, 20);
        for (std::uint32_t b = 0; b < listed; ++b) rt.push_back(pack_core({b, 0}));
        rt.push_back(checksum_state{}.add(arg::magic).add_all(rt).value());
        bool valid = rank >= 1 && rank <= 8 && listed == banks;
        std::uint64_t span = 1, vol = 1, shards = 1;
        for (std::uint32_t d = 0; valid && d < n; ++d) {
            valid = s[d] != 0;
            span = sat_mul(span, t[d] == 0 ? 1 : t[d]);
            vol = sat_mul(vol, s[d]);
            if (valid) shards = sat_mul(shards, ceil_div(t[d], s[d]));
        }
        valid = valid && span < two_pow_32 && vol < two_pow_32 && (banks != 0 || shards == 0);
        if (valid && banks != 0) valid = sat_mul(ceil_div(shards, banks), vol) <= two_pow_32;  // base 0, page 1
        try {
            const accessor<runtime_round_robin> a(rt, 0, 1);
            ++survived;
            CHECK(valid, "raw words that break a rule are accepted (rank %u, banks %u)", rank, banks);
            if (!valid) continue;
            shape ts, ss;
            for (std::uint32_t d = 0; d < rank; ++d) {
                ts.push_back(t[d]);
                ss.push_back(s[d]);
            }
            const page_layout l = make_page_layout(ts, ss, banks, deal_rule::round_robin);
            CHECK(a.num_pages() == l.num_pages && a.num_shards() == l.num_shards &&
                      a.max_shards_per_core() == l.max_shards_per_core,
                  "accepted raw words disagree with their layout");
            for (std::uint64_t p : sample_pages(r, l.num_pages, 50)) {
                const auto at = l.locate(p);
                const bank_and_offset bo = a.get_bank_and_offset(static_cast<std::uint32_t>(p));
                CHECK(bo.bank == at.core && bo.page_offset == at.device_offset, "raw words: page %llu",
                      static_cast<unsigned long long>(p));
            }
        } catch (const spec_error&) {
            if (valid) ++disagreed;
        }
    }
    CHECK(disagreed == 0, "%d raw word lists that break no rule are rejected", disagreed);
    std::printf("selfcheck: corruption of %d word lists rejected; %d of %d raw word lists accepted and right\n", lists,
                survived, count * 4);
}

// --- all 15 static masks ----------------------------------------------------------------

struct static_case {
    shape tensor, shard;
    std::uint32_t cores_x, cores_y;
    deal_rule rule;
};

// [3,7,5]/[2,2,2] on 6 cores is the proposal's picture; the others add S == 1 dims, a
// contiguous deal, rank 1 and rank 8.
constexpr static_case static_cases[] = {
    {{3, 7, 5}, {2, 2, 2}, 2, 3, deal_rule::round_robin},
    {{4, 1, 9, 6}, {1, 1, 4, 6}, 4, 1, deal_rule::round_robin},
    {{11, 10}, {3, 4}, 3, 2, deal_rule::contiguous},
    {{1000}, {7}, 5, 1, deal_rule::round_robin},
    {{2, 3, 2, 3, 2, 3, 2, 3}, {1, 2, 2, 2, 1, 2, 2, 1}, 7, 1, deal_rule::round_robin},
};

template <std::size_t C>
constexpr page_layout case_layout() {
    const static_case& c = static_cases[C];
    return make_page_layout(c.tensor, c.shard, c.cores_x * c.cores_y, c.rule);
}

template <std::size_t C>
constexpr auto case_cores() {
    constexpr static_case c = static_cases[C];
    std::array<core_coord, c.cores_x * c.cores_y> out{};
    for (std::uint32_t i = 0; i < c.cores_x * c.cores_y; ++i) out[i] = {i % c.cores_x, i / c.cores_x};
    return out;
}

template <std::size_t C>
distribution case_distribution() {
    const static_case& c = static_cases[C];
    distribution_spec s;
    s.tensor = c.tensor;
    s.shard = c.shard;
    s.element_size = 96;
    s.bank_base = 512;
    s.cores = {grid_range(c.cores_x, c.cores_y)};
    s.strat = c.rule == deal_rule::contiguous ? strategy::contiguous_1d : strategy::round_robin_1d;
    return make_distribution(s);
}

template <std::size_t C, std::uint32_t Mask>
void check_static_mask(int& instantiated) {
    if constexpr (is_valid_static_mask(Mask)) {
        constexpr page_layout l = case_layout<C>();
        constexpr auto cores = case_cores<C>();
        constexpr auto ct = static_words<static_word_count(l, cores, Mask)>(l, cores, Mask);
        const distribution d = case_distribution<C>();
        const accessor_words w = make_accessor_words(d, Mask);
        CHECK(w.compile_time == std::vector<std::uint32_t>(ct.begin(), ct.end()), "case %zu mask %u: static_words", C,
              Mask);
        const accessor<ct> a(w.runtime, static_cast<std::uint32_t>(d.bank_base),
                             static_cast<std::uint32_t>(d.aligned_page_size));
        std::vector<std::uint64_t> pages;
        for (std::uint64_t p = 0; p < l.num_pages; ++p) pages.push_back(p);
        check_accessor(a, d, d.layout, pages, "static mask " + std::to_string(Mask));
        // A flipped runtime word is caught for every mask.
        for (std::size_t k = 0; k < w.runtime.size(); ++k) {
            std::vector<std::uint32_t> bad = w.runtime;
            bad[k] ^= 0x40U;
            CHECK(rejects([&] { const accessor<ct> b(bad, 0, 1); }), "case %zu mask %u: flipped word %zu accepted", C,
                  Mask, k);
        }
        ++instantiated;
    }
}

template <std::size_t C>
int check_static_case() {
    int n = 0;
    [&]<std::uint32_t... M>(std::integer_sequence<std::uint32_t, M...>) { (check_static_mask<C, M>(n), ...); }
    (std::make_integer_sequence<std::uint32_t, 32>{});
    return n;
}

void check_static_masks() {
    const int masks = check_static_case<0>();
    CHECK(masks == 15, "%d valid static masks, expected 15", masks);
    check_static_case<1>();
    check_static_case<2>();
    check_static_case<3>();
    check_static_case<4>();
    std::printf("selfcheck: %d static masks x %zu compile-time specs, every page\n", masks, std::size(static_cases));
}

// Compile time: the picture of the proposal through an all-static accessor.
constexpr bool picture_at_compile_time() {
    constexpr page_layout l = case_layout<0>();
    constexpr auto cores = case_cores<0>();
    constexpr auto ct = static_words<static_word_count(l, cores, arg::all_static)>(l, cores, arg::all_static);
    std::array<std::uint32_t, 1> rt{};
    rt[0] = checksum_state{}.add_all(ct).value();
    const accessor<ct> a(rt);
    return a.get_bank_and_offset(36) == bank_and_offset{0, 5} && a.get_bank_and_offset(20) == bank_and_offset{0, 8};
}
static_assert(picture_at_compile_time());

// --- reciprocals ---------------------------------------------------------------------------

void check_reciprocals() {
    rng r{5};
    std::vector<std::uint32_t> divisors = {1,           2,           3,           5,           6,          7,
                                           10,          12,          641,         65535,       65536,      65537,
                                           0x7FFF'FFFF, 0x8000'0000, 0x8000'0001, 0xFFFF'FFFE, 0xFFFF'FFFF};
    for (int i = 0; i < 2000; ++i) divisors.push_back(static_cast<std::uint32_t>(r.between(1, 0xFFFF'FFFF)));
    for (const std::uint32_t dv : divisors) {
        const fast_divider f(dv);
        // The reciprocal is ceil(2^32 / d) (2^32 - 1 with addend 1 for d == 1): m*d - 2^32 in [0, d).
        const std::uint64_t e = std::uint64_t{f.multiplier()} * dv - (std::uint64_t{1} << 32);
        CHECK(dv == 1 ? (f.multiplier() == 0xFFFF'FFFFU && f.addend() == 1) : (f.addend() == 0 && e < dv),
              "reciprocal of %u", dv);
        std::vector<std::uint32_t> ns = {0, 1, dv - 1, dv, 0xFFFF'FFFF, 0xFFFF'FFFE, 0x8000'0000};
        for (std::uint64_t k = std::uint64_t{0xFFFF'FFFF} / dv * dv; k > 0 && ns.size() < 12; k -= dv)
            ns.push_back(static_cast<std::uint32_t>(k));
        for (int j = 0; j < 200; ++j) ns.push_back(static_cast<std::uint32_t>(r.next()));
        for (const std::uint32_t n : ns) {
            CHECK(f.divide(n) == n / dv && f.remainder(n) == n % dv, "%u / %u", n, dv);
            if (n != 0xFFFF'FFFFU && f.exact_below(n + 1)) CHECK(f.approx(n) == n / dv, "approx %u / %u", n, dv);
        }
    }
}

}  // namespace
}  // namespace ndshard::selfcheck

int main() {
    using namespace ndshard::selfcheck;
    const char* env = std::getenv("NDSHARD_SELFCHECK_SPECS");
    const int specs = env ? std::atoi(env) : 3000;
    check_reciprocals();
    check_static_masks();
    check_random_specs(specs);
    check_corruption(specs / 10);
    if (failures != 0) {
        std::printf("selfcheck: FAILED (%d)\n", failures);
        return 1;
    }
    std::printf("selfcheck: all agree\n");
    return 0;
}
