// interleaved_equivalence: a spec whose every shard dim is 1 is interleaved: page i on
// bank i % B at offset i / B (oracle::interleaved), B the number of cores.
#include "registry.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/conform/specs.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

std::string need_interleaved(const impl_info& info) {
    if (auto missing = needs(info, NDSC_Q_PAGE_ID); !missing.empty()) return missing;
    if (!info.has_strategy(NDSC_ROUND_ROBIN_1D))
        return "needs round_robin_1d, which the implementation does not declare";
    if (!info.has_page_kind(NDSC_PAGES) && !info.has_page_kind(NDSC_ROW_MAJOR_PAGES))
        return "needs page kind pages or row_major, which the implementation does not declare";
    return "";
}

bool gen_interleaved(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    distribution_spec s;
    const auto rank = static_cast<std::size_t>(e.between(info.min_rank, info.max_rank));
    const std::uint64_t per_dim = rank <= 1 ? 64 : rank == 2 ? 12 : rank == 3 ? 5 : 3;
    std::uint64_t volume = 1;
    for (std::size_t d = 0; d < rank; ++d) {
        const std::uint64_t extent = e.between(1, per_dim);
        s.tensor.push_back(extent);
        volume *= extent;
    }
    (void)volume;
    const std::size_t shard_rank = e.chance(30) ? static_cast<std::size_t>(e.between(1, rank)) : rank;
    for (std::size_t d = 0; d < shard_rank; ++d) s.shard.push_back(1);
    const auto banks = static_cast<std::uint32_t>(e.between(1, 12));
    s.orient = e.chance(50) ? orientation::col_major : orientation::row_major;
    switch (e.between(0, 2)) {
        case 0:
            s.cores = {{{0, 0}, {banks - 1, 0}}};
            break;
        case 1: {
            const auto x = static_cast<std::uint32_t>(e.between(1, 4));
            s.cores = {{{0, 0}, {x - 1, static_cast<std::uint32_t>((banks + x - 1) / x - 1)}}};
            break;
        }
        default: {
            std::set<std::pair<std::uint32_t, std::uint32_t>> used;
            for (std::uint32_t i = 0; i < banks * 3 && used.size() < banks; ++i) {
                const auto x = static_cast<std::uint32_t>(e.between(0, 7)),
                           y = static_cast<std::uint32_t>(e.between(0, 7));
                if (used.insert({x, y}).second) s.cores.push_back({{x, y}, {x, y}});
            }
        }
    }
    s.element_size = e.pick<std::uint64_t>({1, 2, 32, 100});
    s.alignment = e.pick<std::uint64_t>({1, 1, 16, 32});
    s.bank_base = e.chance(30) ? e.between(0, 1024) * 32 : 0;
    if (!info.has_page_kind(NDSC_PAGES)) {
        // A row of one element per page: still one page per shard.
        s.page.kind = page_kind::row_major;
        s.shard.back() = 1;
    }
    if (!in_domain(s, info) || !model_of(s)) return false;
    out = std::move(s);
    return true;
}

bool fits_interleaved(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info) || s.strat != strategy::round_robin_1d) return false;
    const auto m = model_of(s);
    if (!m || !small_model(*m)) return false;
    return std::all_of(m->shard_pages.begin(), m->shard_pages.end(), [](const big& d) { return d == 1; });
}

std::optional<finding> check_interleaved(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const big banks(m.cores.size());
    const std::uint64_t n = u64(m.num_pages);
    for (std::uint64_t p = 0; p < n; ++p) {
        const oracle::bank_offset b = oracle::interleaved(big(p), banks);
        const auto& core = m.cores[static_cast<std::size_t>(b.bank)];
        const place want{u32(core.x), u32(core.y), u64(m.bank_base + b.offset * m.aligned_page_size)};
        const answer a = ask_page(impl, c.handle(), p);
        if (!(a.status == NDSC_OK && a.at == want))
            return finding{
                text(page_call(p)),
                show(want) + " (bank " + oracle::to_string(b.bank) + ", offset " + oracle::to_string(b.offset) + ")",
                show(a)};
    }
    return std::nullopt;
}

}  // namespace

const law interleaved_equivalence = {.name = "interleaved_equivalence",
                                     .summary = "every shard dim 1: page i -> bank i % B, offset i / B",
                                     .unavailable = need_interleaved,
                                     .generate = gen_interleaved,
                                     .fits = fits_interleaved,
                                     .check = check_interleaved,
                                     .retarget = retarget_address};

}  // namespace ndshard::conform::laws
