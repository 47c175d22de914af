// legacy_equivalence: HEIGHT / WIDTH / BLOCK sharding spelled as ND specs (shard rank 2,
// shapes in pages, never two shards on a core) agree with the legacy formulas
// (oracle::legacy_height, legacy_width, legacy_block).
#include "registry.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/conform/specs.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

enum class legacy { none, height, width, block };

std::string need_legacy(const impl_info& info) {
    if (auto missing = needs(info, NDSC_Q_PAGE_ID); !missing.empty()) return missing;
    if (!info.has_page_kind(NDSC_PAGES)) return "needs page kind pages, which the implementation does not declare";
    if (info.max_rank < 2) return "needs rank 2 or more, which the implementation does not declare";
    if ((info.strategies & 0x7U) == 0) return "needs a strategy";
    return "";
}

// Which legacy layout an ND spec spells (shapes in pages, shard rank 2).
legacy classify(const distribution_spec& s, const oracle::model& m) {
    if (s.page.kind != page_kind::pages || s.tensor.rank() < 2 || s.shard.rank() != 2) return legacy::none;
    const big H = m.folded_tensor[0], W = m.folded_tensor[1];
    if (s.strat == strategy::grid_2d) return s.cores.size() == 1 ? legacy::block : legacy::none;
    if (big(m.cores.size()) < m.num_shards) return legacy::none;  // legacy never puts two shards on a core
    if (big(s.shard[1]) == W) return legacy::height;
    if (big(s.shard[0]) == H) return legacy::width;
    return legacy::none;
}

bool gen_legacy(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    const bool one_d = info.has_strategy(NDSC_ROUND_ROBIN_1D) || info.has_strategy(NDSC_CONTIGUOUS_1D);
    const bool block = info.has_strategy(NDSC_GRID_2D);
    const std::uint32_t lo = std::max<std::uint32_t>(2, info.min_rank), hi = std::min<std::uint32_t>(4, info.max_rank);
    if (lo > hi || (!one_d && !block)) return false;
    distribution_spec s;
    const auto rank = static_cast<std::size_t>(e.between(lo, hi));
    std::uint64_t H = 1;
    for (std::size_t d = 0; d + 1 < rank; ++d) {
        const std::uint64_t extent = e.between(1, d + 2 == rank ? 8 : 3);
        s.tensor.push_back(extent);
        H *= extent;
    }
    const std::uint64_t W = e.between(1, 8);
    s.tensor.push_back(W);
    const std::uint64_t kind = !one_d ? 2 : !block ? e.between(0, 1) : e.between(0, 2);
    s.orient = e.chance(50) ? orientation::col_major : orientation::row_major;
    auto line_of_cores = [&](std::uint64_t n) {
        if (e.chance(50)) {
            s.cores = {{{0, 0}, {static_cast<std::uint32_t>(n - 1), 0}}};
        } else {
            const auto x = static_cast<std::uint32_t>(e.between(1, 4));
            s.cores = {{{0, 0}, {x - 1, static_cast<std::uint32_t>((n + x - 1) / x - 1)}}};
        }
    };
    if (kind == 0) {  // HEIGHT
        const std::uint64_t sh = e.between(1, H);
        s.shard = {sh, W};
        line_of_cores((H + sh - 1) / sh + e.between(0, 2));
    } else if (kind == 1) {  // WIDTH
        const std::uint64_t sw = e.between(1, W);
        s.shard = {H, sw};
        line_of_cores((W + sw - 1) / sw + e.between(0, 2));
    } else {  // BLOCK
        const std::uint64_t sh = e.between(1, H), sw = e.between(1, W);
        s.shard = {sh, sw};
        const std::uint64_t gh = (H + sh - 1) / sh, gw = (W + sw - 1) / sw;
        const bool rows = s.orient == orientation::row_major;
        const auto x0 = static_cast<std::uint32_t>(e.chance(30) ? e.between(1, 3) : 0);
        const auto y0 = static_cast<std::uint32_t>(e.chance(30) ? e.between(1, 3) : 0);
        const auto w = static_cast<std::uint32_t>((rows ? gw : gh) + e.between(0, 1));
        const auto h = static_cast<std::uint32_t>((rows ? gh : gw) + e.between(0, 1));
        s.cores = {{{x0, y0}, {x0 + w - 1, y0 + h - 1}}};
        s.strat = strategy::grid_2d;
    }
    if (kind != 2)
        s.strat = info.has_strategy(NDSC_ROUND_ROBIN_1D) ? strategy::round_robin_1d : strategy::contiguous_1d;
    s.element_size = e.pick<std::uint64_t>({1, 2, 32, 2048});
    s.alignment = e.pick<std::uint64_t>({1, 1, 16, 32});
    s.bank_base = e.chance(30) ? e.between(0, 1024) * 32 : 0;
    const auto m = model_of(s);
    if (!in_domain(s, info) || !m || classify(s, *m) == legacy::none) return false;
    out = std::move(s);
    return true;
}

bool fits_legacy(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info)) return false;
    const auto m = model_of(s);
    return m && small_model(*m) && classify(s, *m) != legacy::none;
}

std::optional<finding> check_legacy(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const legacy kind = classify(s, m);
    const big H = m.folded_tensor[0], W = m.folded_tensor[1];
    const oracle::spec os = testkit::to_oracle(s);
    const std::vector<oracle::core_xy> list = oracle::expand_cores(os.cores, os.orient);
    const std::uint64_t n = u64(m.num_pages);
    for (std::uint64_t p = 0; p < n; ++p) {
        const big r = big(p) / W, col = big(p) % W;
        oracle::legacy_place lp;
        oracle::core_xy core;
        const char* name = "HEIGHT";
        if (kind == legacy::height) {
            lp = oracle::legacy_height(r, col, H, W, big(s.shard[0]));
            core = list[static_cast<std::size_t>(lp.core_index)];
        } else if (kind == legacy::width) {
            name = "WIDTH";
            lp = oracle::legacy_width(r, col, H, W, big(s.shard[1]));
            core = list[static_cast<std::size_t>(lp.core_index)];
        } else {
            name = "BLOCK";
            lp = oracle::legacy_block(r, col, H, W, big(s.shard[0]), big(s.shard[1]), os.orient, os.cores[0], &core);
        }
        const place want{u32(core.x), u32(core.y), u64(m.bank_base + lp.offset * m.aligned_page_size)};
        const answer a = ask_page(impl, c.handle(), p);
        if (!(a.status == NDSC_OK && a.at == want))
            return finding{text(page_call(p)),
                           show(want) + " (" + name + ": row " + oracle::to_string(r) + ", column " +
                               oracle::to_string(col) + ", offset " + oracle::to_string(lp.offset) + ")",
                           show(a)};
    }
    return std::nullopt;
}

}  // namespace

const law legacy_equivalence = {.name = "legacy_equivalence",
                                .summary = "HEIGHT / WIDTH / BLOCK specs agree with the legacy formulas",
                                .unavailable = need_legacy,
                                .generate = gen_legacy,
                                .fits = fits_legacy,
                                .check = check_legacy,
                                .retarget = retarget_address};

}  // namespace ndshard::conform::laws
