// Spec generator: see spec_gen.hpp for what it aims at.
#include "ndshard/testkit/spec_gen.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "ndshard/checked.hpp"
#include "ndshard/layout.hpp"

namespace ndshard::testkit {
namespace {

// A random divisor of n (n >= 1).
std::uint64_t some_divisor(entropy& e, std::uint64_t n) {
    std::vector<std::uint64_t> divs;
    for (std::uint64_t k = 1; k * k <= n && divs.size() < 64; ++k)
        if (n % k == 0) {
            divs.push_back(k);
            divs.push_back(n / k);
        }
    return divs[e.between(0, divs.size() - 1)];
}

// Tensor page shape of rank r with vol <= budget.
shape small_tensor(entropy& e, std::size_t r, std::uint64_t budget) {
    const auto per_dim =
        static_cast<std::uint64_t>(std::pow(static_cast<double>(budget), 1.0 / static_cast<double>(r)));
    shape t;
    for (std::size_t d = 0; d < r; ++d) t.push_back(e.between(1, std::max<std::uint64_t>(2, per_dim * 2)));
    while (volume_of(t) > budget) {
        // A dim of 1 cannot shrink: take the largest instead, so every step makes progress
        // even when the entropy keeps answering the same (an exhausted byte_entropy, or
        // RapidCheck shrinking towards lo would otherwise loop forever).
        std::size_t d = e.between(0, r - 1);
        if (t[d] <= 1) d = static_cast<std::size_t>(std::max_element(t.begin(), t.end()) - t.begin());
        t[d] = std::max<std::uint64_t>(1, t[d] / 2);
    }
    if (e.chance(6)) t[e.between(0, r - 1)] = 0;
    return t;
}

// A shard dim for a (folded) tensor dim: whole, even, uneven, one, or past the edge.
std::uint64_t shard_dim(entropy& e, std::uint64_t t) {
    if (t == 0) return e.between(1, 3);
    switch (e.between(0, 9)) {
        case 0:
        case 1:
            return t;  // whole dim
        case 2:
        case 3:
            return some_divisor(e, t);  // even split
        case 4:
            return 1;
        case 5:
            return t + e.between(1, 3);  // past the tensor's edge
        default:
            return e.between(1, t);  // usually uneven
    }
}

// Convert page dims of the last one/two dims back to elements so that
// ceil(elements / page side) == pages, with a random remainder.
std::uint64_t to_elements(entropy& e, std::uint64_t pages, std::uint64_t side) {
    if (pages == 0) return 0;
    return (pages - 1) * side + e.between(1, side);
}

std::vector<core_range> make_cores(entropy& e, std::uint64_t want, orientation& orient) {
    std::vector<core_range> cores;
    orient = e.chance(50) ? orientation::col_major : orientation::row_major;
    want = std::clamp<std::uint64_t>(want, 1, 4096);
    switch (e.between(0, 3)) {
        case 0:
        case 1: {  // one grid range XxY
            const std::uint64_t x = e.between(1, std::min<std::uint64_t>(want, 64));
            const std::uint64_t y = std::max<std::uint64_t>(1, ceil_div(want, x));
            const auto x0 = static_cast<std::uint32_t>(e.chance(20) ? e.between(1, 5) : 0);
            const auto y0 = static_cast<std::uint32_t>(e.chance(20) ? e.between(1, 5) : 0);
            cores.push_back(
                {{x0, y0}, {static_cast<std::uint32_t>(x0 + x - 1), static_cast<std::uint32_t>(y0 + y - 1)}});
            break;
        }
        case 2: {  // a few ranges in separate row bands (y), possibly out of order
            const std::uint64_t n = e.between(2, 3);
            std::uint32_t y = 0;
            for (std::uint64_t i = 0; i < n; ++i) {
                const auto w = static_cast<std::uint32_t>(e.between(1, 8));
                const auto h = static_cast<std::uint32_t>(e.between(1, 3));
                const auto x0 = static_cast<std::uint32_t>(e.between(0, 4));
                cores.push_back({{x0, y}, {x0 + w - 1, y + h - 1}});
                y += h + static_cast<std::uint32_t>(e.between(0, 2));
            }
            if (e.chance(50)) std::reverse(cores.begin(), cores.end());
            break;
        }
        default: {  // explicit distinct cores in a 16x16 area
            std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
            const std::uint64_t n = std::min<std::uint64_t>(want, 40);
            for (std::uint64_t i = 0; i < n * 3 && seen.size() < n; ++i) {
                const auto x = static_cast<std::uint32_t>(e.between(0, 15));
                const auto y = static_cast<std::uint32_t>(e.between(0, 15));
                if (seen.insert({x, y}).second) cores.push_back({{x, y}, {x, y}});
            }
            break;
        }
    }
    return cores;
}

// Break exactly one rule of docs/rules.md.
// Inserts a range at a random position, so broken ranges are not always last.
void insert_range(entropy& e, distribution_spec& s, core_range r) {
    s.cores.insert(s.cores.begin() + static_cast<std::ptrdiff_t>(e.between(0, s.cores.size())), r);
}

void break_one_rule(entropy& e, distribution_spec& s) {
    const bool has_tensor = s.tensor.rank() > 0, has_shard = s.shard.rank() > 0;
    switch (e.between(0, 16)) {
        case 0:
            s.tensor = shape{};
            break;
        case 16:
            s.alignment = std::uint64_t{1} << e.between(32, 40);
            break;  // aligned page >= 2^32
        case 15:    // a shard whose volume, not any one dim, reaches 2^32 pages
            if (has_shard) {
                s.page.kind = page_kind::pages;
                for (auto& d : s.shard) d = 1;
                s.shard[0] = s.shard.rank() == 1 ? std::uint64_t{1} << 32 : 65536;
                s.shard[s.shard.rank() - 1] = s.shard.rank() == 1 ? s.shard[0] : 65536;
            }
            break;
        case 12:
            insert_range(e, s, {{0, 0}, {300, 300}});
            break;  // 90601 cores
        case 13:
            if (has_shard) s.shard[0] = (std::uint64_t{1} << 32) + e.between(0, 3);
            break;
        case 14:
            s.element_size = std::uint64_t{1} << e.between(32, 40);
            s.page.kind = page_kind::pages;
            break;
        case 1:  // shard rank > tensor rank
            if (has_tensor && has_shard) {
                s.tensor = shape{s.tensor[0]};
                s.shard = shape{s.shard[0], 1};
            }
            break;
        case 2:
            if (has_shard) s.shard[e.between(0, s.shard.rank() - 1)] = 0;
            break;
        case 3:
            s.page.kind = page_kind::tile;
            if (has_shard) s.shard = shape{s.shard[0]};
            break;
        case 4:
            s.element_size = 0;
            break;
        case 5:
            s.alignment = e.pick<std::uint64_t>({0, 3, 24, 48, 100});
            break;
        case 6:
            s.cores.clear();
            break;
        case 7:
            insert_range(e, s, e.chance(50) ? core_range{{5, 5}, {3, 5}} : core_range{{5, 5}, {5, 3}});
            break;
        case 8:
            insert_range(e, s, e.chance(50) ? core_range{{70000, 0}, {70000, 0}} : core_range{{0, 0}, {1, 65536}});
            break;
        case 9:
            if (!s.cores.empty()) insert_range(e, s, s.cores[e.between(0, s.cores.size() - 1)]);
            break;
        case 10:
            s.strat = strategy::grid_2d;
            s.cores.push_back({{200, 200}, {201, 201}});
            break;
        default:
            if (has_tensor) s.tensor[0] = (std::uint64_t{1} << 32) + e.between(0, 5);
            break;
    }
}

// Breaks one rule; now and then two or three, which pins down the order of the checks
// (docs/rules.md: the first rule in table order is the one reported).
void break_a_rule(entropy& e, distribution_spec& s) {
    break_one_rule(e, s);
    if (e.chance(20)) break_one_rule(e, s);
    if (e.chance(5)) break_one_rule(e, s);
}

distribution_spec huge_spec(entropy& e) {
    distribution_spec s;
    const std::uint64_t near = e.chance(50) ? (std::uint64_t{1} << 32) : (std::uint64_t{1} << 31);
    const std::uint64_t delta = e.between(0, 3);
    const bool above = e.chance(30);
    const std::uint64_t total = above ? near + delta : near - 1 - delta;
    switch (e.between(0, 3)) {
        case 0:
            s.tensor = {total};
            s.shard = {e.between(1, 1U << 20)};
            break;
        case 1: {
            const std::uint64_t a = e.pick<std::uint64_t>({2, 3, 4, 65536, 65535});
            s.tensor = {a, total / a + e.between(0, 1)};
            s.shard = {e.between(1, a), e.between(1, 1U << 16)};
            break;
        }
        case 2: {  // a zero dim beside huge ones: no pages, wide id span
            s.tensor = {0, e.between(1, 1U << 16), total / 65536};
            s.shard = {1, e.between(1, 8), e.between(1, 1U << 12)};
            break;
        }
        default: {
            s.tensor = {e.between(1, 4), 1U << 15, (total >> 15) / 4};
            s.shard = {1, e.between(1, 1U << 15), e.between(1, 1U << 10)};
            break;
        }
    }
    s.element_size = e.pick<std::uint64_t>({1, 1, 2, 4});
    std::uint64_t p = e.pick<std::uint64_t>({1, 2, 7, 12, 64});
    s.cores = {grid_range(static_cast<std::uint32_t>(p), 1)};
    s.strat = e.chance(25) ? strategy::contiguous_1d : strategy::round_robin_1d;
    return s;
}

// --- explicit mode: one listing of the fields, read by choice_reader, written by choice_writer.

// A 64-bit field: small, 16-bit, next to a power of two 2^0..2^63 (wrapping to just under
// 2^64 for k < 3), or any value (entropy.hpp).
template <class Io>
void wide_value(Io& io, std::uint64_t& v) {
    edge_value<63>(io, v);
}

// A core coordinate: small, 16-bit (the valid range), or any 32-bit value.
template <class Io>
void coord_value(Io& io, std::uint32_t& v) {
    std::uint64_t form = 0;
    if constexpr (Io::writing) form = v <= 15 ? 0 : v <= 65535 ? 1 : 2;
    io(0, 2, form);
    io(0, form == 0 ? 15 : form == 1 ? 65535 : 0xFFFF'FFFFULL, v);
}

template <class Io>
void shape_value(Io& io, shape& s) {
    std::uint64_t rank = s.rank();
    io(0, max_rank, rank);
    if constexpr (!Io::writing) {
        s = shape{};
        for (std::uint64_t d = 0; d < rank; ++d) s.push_back(0);
    }
    for (auto& d : s) wide_value(io, d);
}

template <class Io, class Enum>
void enum_value(Io& io, Enum& v, std::uint64_t last) {
    auto raw = static_cast<std::uint64_t>(v);
    io(0, last, raw);
    v = static_cast<Enum>(raw);
}

template <class Io>
void explicit_fields(Io& io, distribution_spec& s) {
    shape_value(io, s.tensor);
    shape_value(io, s.shard);
    enum_value(io, s.page.kind, 2);
    if (s.page.kind == page_kind::tile) {
        wide_value(io, s.page.tile_h);
        wide_value(io, s.page.tile_w);
    }
    wide_value(io, s.element_size);
    // Alignment: a power of two 2^k, or any value.
    std::uint64_t power = 0, k = 0;
    if constexpr (Io::writing) {
        power = std::has_single_bit(s.alignment) ? 1 : 0;
        k = power ? static_cast<std::uint64_t>(std::countr_zero(s.alignment)) : 0;
    }
    io(0, 1, power);
    if (power) {
        io(0, 63, k);
        s.alignment = std::uint64_t{1} << k;
    } else {
        wide_value(io, s.alignment);
    }
    enum_value(io, s.orient, 1);
    enum_value(io, s.strat, 2);
    std::uint64_t ranges = s.cores.size();
    io(0, 16, ranges);
    if constexpr (!Io::writing) s.cores.assign(ranges, core_range{});
    for (core_range& r : s.cores) {
        coord_value(io, r.start.x);
        coord_value(io, r.start.y);
        coord_value(io, r.end.x);
        coord_value(io, r.end.y);
    }
    wide_value(io, s.bank_base);
}

}  // namespace

std::vector<std::uint8_t> explicit_spec_bytes(const distribution_spec& spec, const spec_options& o) {
    if (o.explicit_percent == 0 || o.explicit_percent > 100)
        throw std::invalid_argument("explicit_spec_bytes: options.explicit_percent must be in 1..100");
    std::vector<std::uint8_t> bytes;
    choice_writer io{bytes};
    std::uint64_t pick = 99;  // chance(p) holds for between(0, 99) >= 100 - p
    io(0, 99, pick);
    distribution_spec copy = spec;
    explicit_fields(io, copy);
    return bytes;
}

distribution_spec generate_spec(entropy& e, const spec_options& o) {
    if (o.explicit_percent && e.chance(o.explicit_percent)) {
        distribution_spec s;
        choice_reader io{e};
        explicit_fields(io, s);
        return s;
    }
    if (o.huge_percent && e.chance(o.huge_percent)) {
        distribution_spec s = huge_spec(e);
        if (o.invalid_percent && e.chance(o.invalid_percent)) break_a_rule(e, s);
        return s;
    }
    distribution_spec s;
    const std::size_t rank = e.chance(15) ? 8 : e.chance(18) ? 1 : e.between(1, 8);
    const shape tp = small_tensor(e, rank, o.max_pages);
    const std::size_t shard_rank = e.chance(25) ? e.between(1, rank) : rank;
    const shape folded = fold_to_rank(tp, shard_rank);
    shape sp;
    for (std::size_t d = 0; d < shard_rank; ++d) sp.push_back(shard_dim(e, folded[d]));

    // Page kind: shapes in elements for tile / row_major.
    s.tensor = tp;
    s.shard = sp;
    const std::uint64_t kind = e.between(0, 9);
    if (kind >= 8 && shard_rank >= 2) {
        s.page.kind = page_kind::tile;
        s.page.tile_h = e.pick<std::uint64_t>({32, 32, 16, 1, 2, 4});
        s.page.tile_w = e.pick<std::uint64_t>({32, 32, 16, 1, 3, 8});
        for (shape* x : {&s.tensor, &s.shard}) {
            x->back() = to_elements(e, x->back(), s.page.tile_w);
            (*x)[x->rank() - 2] = to_elements(e, (*x)[x->rank() - 2], s.page.tile_h);
        }
    } else if (kind >= 6) {
        s.page.kind = page_kind::row_major;
        const std::uint64_t row = e.between(1, 8);
        s.shard.back() = row;
        s.tensor.back() = to_elements(e, tp.back(), row);
    }
    s.element_size = s.page.kind == page_kind::pages ? e.pick<std::uint64_t>({1, 2, 32, 1024, 2048, 100})
                                                     : e.pick<std::uint64_t>({1, 2, 4});
    s.alignment = e.pick<std::uint64_t>({1, 1, 16, 32, 64, 2});

    // Cores: often more than there are shards, sometimes far fewer.
    const std::uint64_t shards = volume_of(grid_of(folded, sp));
    const std::uint64_t want =
        e.pick<std::uint64_t>({1, e.between(2, 8), shards, shards + e.between(1, 5), e.between(1, o.max_cores), 12});
    s.cores = make_cores(e, want, s.orient);
    const std::uint64_t strat = e.between(0, 9);
    if (strat >= 8 && o.allow_grid_2d) {
        // One range sized to the 2D shard grid (plus slack), as legacy block sharding.
        s.strat = strategy::grid_2d;
        std::uint64_t gh = 1;
        for (std::size_t d = 0; d + 1 < shard_rank; ++d) gh *= ceil_div(folded[d], sp[d]);
        const std::uint64_t gw = ceil_div(folded.back(), sp.back());
        if (gh <= 64 && gw <= 64) {
            std::uint64_t w = (s.orient == orientation::row_major ? gw : gh) + e.between(0, 2);
            std::uint64_t h = (s.orient == orientation::row_major ? gh : gw) + e.between(0, 2);
            // The grid_2d_fit boundary: when invalid specs are wanted, now and then a range
            // exactly one column or one row short of the shard grid (an off-by-one accepts it).
            if (o.invalid_percent && e.chance(o.invalid_percent / 2)) {
                w = s.orient == orientation::row_major ? gw : gh;
                h = s.orient == orientation::row_major ? gh : gw;
                std::uint64_t& cut = e.chance(50) ? w : h;
                if (cut > 1) --cut;
            }
            s.cores = {{{0, 0},
                        {static_cast<std::uint32_t>(std::max<std::uint64_t>(w, 1) - 1),
                         static_cast<std::uint32_t>(std::max<std::uint64_t>(h, 1) - 1)}}};
        } else {
            s.strat = strategy::round_robin_1d;
        }
    } else if (strat >= 6) {
        s.strat = strategy::contiguous_1d;
    }
    if (e.chance(10)) {
        // Put the buffer's end exactly at 2^32 (or one page past it when invalid is allowed).
        try {
            distribution_spec probe = s;
            probe.bank_base = 0;
            const distribution d = make_distribution(probe);
            const std::uint64_t bytes = d.reserved_pages_per_core() * d.aligned_page_size;
            if (bytes < two_pow_32) s.bank_base = two_pow_32 - bytes;
        } catch (const spec_error&) {}
    } else if (e.chance(20)) {
        s.bank_base = e.between(0, 1U << 20) * 32;
    }
    if (o.invalid_percent && e.chance(o.invalid_percent)) break_a_rule(e, s);
    return s;
}

distribution generate_distribution(entropy& e, spec_options o) {
    o.invalid_percent = 0;
    for (int attempt = 0; attempt < 8; ++attempt) {
        try {
            return make_distribution(generate_spec(e, o));
        } catch (const spec_error&) {}
    }
    distribution_spec s;
    s.tensor = {3, 7, 5};
    s.shard = {2, 2, 2};
    s.cores = {grid_range(2, 3)};
    return make_distribution(s);
}

std::vector<std::string> features(const distribution_spec& spec) {
    std::vector<std::string> f;
    try {
        const distribution d = make_distribution(spec);
        const page_layout& l = d.layout;
        f.push_back("rank:" + std::to_string(spec.tensor.rank()));
        if (spec.shard.rank() < spec.tensor.rank()) f.emplace_back("folded");
        bool uneven = false, past = false, zero = false;
        for (std::size_t k = 0; k < l.rank(); ++k) {
            uneven |= l.tensor[k] % l.shard[k] != 0;
            past |= l.shard[k] > l.tensor[k];
            zero |= l.tensor[k] == 0;
        }
        for (auto t : d.tensor_pages) zero |= t == 0;
        if (uneven) f.emplace_back("uneven");
        if (past) f.emplace_back("shard>tensor");
        if (zero) f.emplace_back("zero_dim");
        if (l.num_cores > l.num_shards) f.emplace_back("cores>shards");
        f.push_back(std::string("strategy:") + to_string(spec.strat));
        f.push_back(std::string("page:") + to_string(spec.page.kind));
        const std::uint64_t end = d.bank_base + d.reserved_pages_per_core() * d.aligned_page_size;
        if (volume_of(d.tensor_pages, true) >= (std::uint64_t{1} << 31) || end >= (std::uint64_t{1} << 31))
            f.emplace_back("near_2^32");
        if (d.aligned_page_size != d.page_size) f.emplace_back("aligned");
        if (end == two_pow_32 && l.reserved_pages_per_core() > 0) f.emplace_back("base_at_limit");
    } catch (const spec_error& err) {
        f.push_back("rejected:" + err.rule());
    }
    return f;
}

bool small_enough(const distribution& d, std::uint64_t limit) {
    return d.num_pages() <= limit && d.layout.num_cores * d.reserved_pages_per_core() <= 4 * limit;
}

std::vector<std::uint64_t> sample_pages(entropy& e, const distribution& d, std::size_t random_count) {
    std::vector<std::uint64_t> pages;
    const std::uint64_t n = d.num_pages();
    if (n == 0) return pages;
    pages.push_back(0);
    pages.push_back(n - 1);
    // The first and last page of the last (edge) shard along every dim, and its corner.
    const page_layout& l = d.layout;
    shape corner;
    for (std::size_t k = 0; k < l.rank(); ++k) corner.push_back((l.grid[k] - 1) * l.shard[k]);
    std::uint64_t id = 0;
    for (std::size_t k = 0; k < l.rank(); ++k) id += corner[k] * l.tensor_stride[k];
    pages.push_back(id);
    for (std::size_t k = 0; k < l.rank(); ++k) {
        const std::uint64_t edge = corner[k] * l.tensor_stride[k];
        pages.push_back(edge);
        if (edge > 0) pages.push_back(edge - 1);
    }
    for (std::size_t i = 0; i < random_count; ++i) pages.push_back(e.between(0, n - 1));
    return pages;
}

}  // namespace ndshard::testkit
