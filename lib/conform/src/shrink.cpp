// Shrink candidates of a spec (see shrink.hpp).
#include "shrink.hpp"

#include <algorithm>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/testkit/oracle_bridge.hpp"

namespace ndshard::conform::detail {

namespace {

shape without(const shape& s, std::size_t drop) {
    shape out;
    for (std::size_t d = 0; d < s.rank(); ++d)
        if (d != drop) out.push_back(s[d]);
    return out;
}

// Smaller values (>= 1) for one dim, smallest first: small constants, then fractions of v
// (a greedy shrinker stuck at v often gets on from v/4 or 3v/4, rarely from v/2 alone),
// then v less v/2^k for k = 3..24: a failure that needs v above a threshold (an element dim
// past 2^32) nears it by halving the excess each step, not by v - 2 each step (4.8e9 ->
// 2^32 took 22,112 steps, now about 60).
std::vector<std::uint64_t> smaller(std::uint64_t v) {
    std::vector<std::uint64_t> out;
    auto add = [&](std::uint64_t c) {
        if (c >= 1 && c < v && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    };
    for (std::uint64_t c :
         {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{4}, v / 8, v / 4, v / 2, v - v / 4})
        add(c);
    for (unsigned k = 3; k <= 24 && (v >> k) > 2; ++k) add(v - (v >> k));
    add(v - 2);
    add(v - 1);
    return out;
}

std::vector<std::uint64_t> complexity(const distribution_spec& s) {
    std::uint64_t volume = 1, dims = 0, shard_dims = 0, cores = 0, coords = 0;
    for (auto d : s.tensor) {
        volume = d != 0 && volume > UINT64_MAX / d ? UINT64_MAX : volume * d;
        dims += d;
    }
    for (auto d : s.shard) shard_dims += d;
    for (const core_range& r : s.cores) {
        const std::uint64_t w = r.end.x >= r.start.x ? std::uint64_t{r.end.x} - r.start.x + 1 : 1;
        const std::uint64_t h = r.end.y >= r.start.y ? std::uint64_t{r.end.y} - r.start.y + 1 : 1;
        cores += w * h;
        coords += std::uint64_t{r.start.x} + r.start.y + r.end.x + r.end.y;
    }
    return {volume,
            s.tensor.rank(),
            dims,
            s.shard.rank(),
            shard_dims,
            cores,
            s.cores.size(),
            coords,
            static_cast<std::uint64_t>(s.page.kind),
            s.page.kind == page_kind::tile ? s.page.tile_h + s.page.tile_w : 0,
            s.element_size,
            s.alignment,
            static_cast<std::uint64_t>(s.orient),
            static_cast<std::uint64_t>(s.strat),
            s.bank_base};
}

}  // namespace

bool simpler(const distribution_spec& a, const distribution_spec& b) { return complexity(a) < complexity(b); }

std::vector<distribution_spec> shrink_candidates(const distribution_spec& s) {
    std::vector<distribution_spec> out;
    const std::size_t rank = s.tensor.rank(), shard_rank = s.shard.rank();
    const std::size_t lead = rank >= shard_rank ? rank - shard_rank : 0;

    // 1. Fewer dims. A folded (leading) tensor dim goes alone; otherwise with its shard dim.
    for (std::size_t d = 0; d < rank && rank > 1; ++d) {
        distribution_spec c = s;
        c.tensor = without(s.tensor, d);
        if (d >= lead && shard_rank > 1 && d - lead < shard_rank) c.shard = without(s.shard, d - lead);
        out.push_back(std::move(c));
    }
    if (shard_rank > 1) {  // fold one more tensor dim into the shard's outermost
        distribution_spec c = s;
        c.shard = without(s.shard, 0);
        out.push_back(std::move(c));
    }
    // 2. A single core range, then fewer ranges.
    if (s.cores.size() > 1) {
        distribution_spec c = s;
        c.cores = {s.cores.front()};
        out.push_back(c);
        c.cores = {s.cores.back()};
        out.push_back(c);
        for (std::size_t i = 0; i < s.cores.size(); ++i) {
            distribution_spec d = s;
            d.cores.erase(d.cores.begin() + static_cast<std::ptrdiff_t>(i));
            out.push_back(std::move(d));
        }
    }
    // 3. Smaller dims.
    for (std::size_t d = 0; d < rank; ++d)
        for (std::uint64_t v : smaller(s.tensor[d])) {
            distribution_spec c = s;
            c.tensor[d] = v;
            out.push_back(std::move(c));
        }
    for (std::size_t d = 0; d < shard_rank; ++d)
        for (std::uint64_t v : smaller(s.shard[d])) {
            distribution_spec c = s;
            c.shard[d] = v;
            out.push_back(std::move(c));
        }
    // 4. Smaller ranges, closer to the origin.
    for (std::size_t i = 0; i < s.cores.size(); ++i) {
        const core_range r = s.cores[i];
        auto with = [&](core_range n) {
            distribution_spec c = s;
            c.cores[i] = n;
            out.push_back(std::move(c));
        };
        if (r.end.x > r.start.x)
            for (std::uint64_t w : smaller(std::uint64_t{r.end.x} - r.start.x + 1))
                with({r.start, {static_cast<std::uint32_t>(r.start.x + w - 1), r.end.y}});
        if (r.end.y > r.start.y)
            for (std::uint64_t h : smaller(std::uint64_t{r.end.y} - r.start.y + 1))
                with({r.start, {r.end.x, static_cast<std::uint32_t>(r.start.y + h - 1)}});
        if (r.start.x > 0 && r.end.x >= r.start.x) with({{0, r.start.y}, {r.end.x - r.start.x, r.end.y}});
        if (r.start.y > 0 && r.end.y >= r.start.y) with({{r.start.x, 0}, {r.end.x, r.end.y - r.start.y}});
    }
    // 5. Simpler scalars.
    auto scalar = [&](auto change) {
        distribution_spec c = s;
        change(c);
        if (!(c == s)) out.push_back(std::move(c));
    };
    scalar([](distribution_spec& c) { c.alignment = 1; });
    scalar([](distribution_spec& c) { c.element_size = 1; });
    scalar([](distribution_spec& c) { c.bank_base = 0; });
    if (s.bank_base > 1) scalar([](distribution_spec& c) { c.bank_base /= 2; });
    if (s.bank_base > 1) scalar([](distribution_spec& c) { c.bank_base -= c.bank_base / 4; });
    if (s.element_size > 1) scalar([](distribution_spec& c) { c.element_size /= 2; });
    if (s.alignment > 1) scalar([](distribution_spec& c) { c.alignment /= 2; });
    scalar([](distribution_spec& c) { c.orient = orientation::row_major; });
    scalar([](distribution_spec& c) { c.strat = strategy::round_robin_1d; });
    if (s.page.kind == page_kind::tile) {
        scalar([](distribution_spec& c) { c.page.tile_h = 1; });
        scalar([](distribution_spec& c) { c.page.tile_w = 1; });
        if (s.page.tile_h > 1) scalar([](distribution_spec& c) { c.page.tile_h /= 2; });
        if (s.page.tile_w > 1) scalar([](distribution_spec& c) { c.page.tile_w /= 2; });
    }
    if (s.page.kind != page_kind::pages) {
        // The same page grid in pages (when the oracle accepts the spec), else the same numbers.
        try {
            const oracle::verdict v = oracle::evaluate(testkit::to_oracle(s));
            if (v.accepted) {
                distribution_spec c = s;
                c.tensor = shape{};
                c.shard = shape{};
                for (const auto& d : v.accepted->tensor_pages) c.tensor.push_back(testkit::to_u64(d));
                for (const auto& d : v.accepted->shard_pages) c.shard.push_back(testkit::to_u64(d));
                c.element_size = testkit::to_u64(v.accepted->page_size);
                c.page = page_config{};
                out.push_back(std::move(c));
            }
        } catch (const std::exception&) {}
        scalar([](distribution_spec& c) { c.page = page_config{}; });
    }
    return out;
}

}  // namespace ndshard::conform::detail
