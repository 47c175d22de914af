// iteration_order: ndsc_core_pages(c) is the oracle's real pages of core c in device
// order (ascending addresses on c); a capacity one short is NDSC_BUFFER_TOO_SMALL with the
// count and nothing written past it; grid_2d cores trimmed off the shard grid hold none.
#include "registry.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "generators.hpp"
#include "ndshard/conform/specs.hpp"
#include "ndshard/testkit/spec_gen.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

// ndsc_core_pages' buffer contract, with a capacity one short of the `held` ids of core
// (x, y): NDSC_BUFFER_TOO_SMALL, *count = held, and no id written at or past the capacity.
std::optional<finding> check_capacity(const loaded_impl& impl, const created& c, std::uint32_t x, std::uint32_t y,
                                      std::uint64_t held) {
    if (held == 0) return std::nullopt;
    constexpr std::uint64_t untouched = 0xA5A5A5A5A5A5A5A5ULL;
    std::vector<std::uint64_t> buffer(held + 3, untouched);
    std::uint64_t count = ~std::uint64_t{0};
    const std::uint64_t capacity = held - 1;
    note(core_pages_call(x, y));
    const int status = impl.core_pages(c.handle(), x, y, buffer.data(), capacity, &count);
    const std::string query = text(core_pages_call(x, y)) + " with capacity " + std::to_string(capacity);
    const std::string want = "NDSC_BUFFER_TOO_SMALL with count " + std::to_string(held);
    if (status != NDSC_BUFFER_TOO_SMALL || count != held)
        return finding{query, want, status_name(status) + " with count " + std::to_string(count)};
    for (std::uint64_t k = capacity; k < buffer.size(); ++k)
        if (buffer[k] != untouched)
            return finding{query, want + ", nothing written at index " + std::to_string(capacity) + " or later",
                           "id " + std::to_string(buffer[k]) + " written at index " + std::to_string(k)};
    return std::nullopt;
}

std::string need_core_pages(const impl_info& info) { return needs(info, NDSC_Q_CORE_PAGES); }

// Past the small walk, yet every core's list cheap: more than 65,536 slots in all (where an
// implementation may switch to another code path, as ndsc_table does at that size), at most
// 8,192 per core and 2^20 pages.
bool medium_model(const oracle::model& m) {
    return !small_model(m) && m.reserved_pages_per_core <= 8192 && m.num_pages <= big(1 << 20);
}

// Mostly small specs (every core's list compared); 10% medium ones (three cores' lists).
bool gen_iteration(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    if (e.chance(10)) {
        for (int attempt = 0; attempt < 64; ++attempt) {
            testkit::spec_options o;
            o.max_pages = 1 << 18;
            o.max_cores = 4096;
            o.allow_grid_2d = info.has_strategy(NDSC_GRID_2D);
            distribution_spec s = testkit::generate_spec(e, o);
            if (!fit_to_domain(s, info)) continue;
            const auto m = model_of(s);
            if (!m || !medium_model(*m)) continue;
            out = std::move(s);
            return true;
        }
    }
    return gen_small(e, info, out);
}

bool fits_iteration(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info)) return false;
    const auto m = model_of(s);
    return m && (small_model(*m) || medium_model(*m));
}

std::optional<finding> check_iteration(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const std::uint64_t n = u64(m.num_pages);
    // Every core of a small spec; of a medium one the first, the middle and the last.
    std::vector<std::size_t> cores;
    if (small_model(m)) {
        for (std::size_t i = 0; i < m.cores.size(); ++i) cores.push_back(i);
    } else if (!m.cores.empty()) {
        cores = {0, m.cores.size() / 2, m.cores.size() - 1};
    }
    for (const std::size_t i : cores) {
        const std::uint32_t x = u32(m.cores[i].x), y = u32(m.cores[i].y);
        std::vector<std::uint64_t> want;
        for (const big& p : oracle::local_pages(m, big(i))) want.push_back(u64(p));
        const call query = core_pages_call(x, y);
        const core_list got = ask_core_pages(impl, c.handle(), x, y, want.size(), 4 * n + 64);
        if (got.status == -1000)
            return finding{text(query), show_list(want),
                           "a count of " + std::to_string(got.pages[0]) + " above the capacity"};
        if (got.status != NDSC_OK) return finding{text(query), show_list(want), status_name(got.status)};
        if (got.pages != want) return finding{text(query), show_list(want), show_list(got.pages)};
        if (auto f = check_capacity(impl, c, x, y, want.size())) return f;
        if (impl.locate_page) {
            // Device order: the pages' addresses ascend, all on this core.
            std::uint64_t last = 0;
            for (std::size_t j = 0; j < got.pages.size(); ++j) {
                const answer a = ask_page(impl, c.handle(), got.pages[j]);
                if (a.status != NDSC_OK || a.at.x != x || a.at.y != y || (j > 0 && a.at.address <= last))
                    return finding{text(query) + " then " + text(page_call(got.pages[j])),
                                   "on core (" + std::to_string(x) + "," + std::to_string(y) + ") above address " +
                                       std::to_string(last),
                                   show(a)};
                last = a.at.address;
            }
        }
    }
    if (s.strat == strategy::grid_2d && !s.cores.empty()) {
        // Cores of the range trimmed off the shard grid hold no page (NDSC_OK, count 0);
        // the first few in row-major order of the range.
        std::set<std::pair<std::uint32_t, std::uint32_t>> effective;
        for (const auto& core : m.cores) effective.insert({u32(core.x), u32(core.y)});
        const core_range& r = s.cores.front();
        int asked = 0;
        for (std::uint64_t y = r.start.y; y <= r.end.y && asked < 4; ++y)
            for (std::uint64_t x = r.start.x; x <= r.end.x && asked < 4; ++x) {
                const auto cx = static_cast<std::uint32_t>(x), cy = static_cast<std::uint32_t>(y);
                if (effective.count({cx, cy})) continue;
                ++asked;
                const core_list got = ask_core_pages(impl, c.handle(), cx, cy, 0, 4 * n + 64);
                if (got.status != NDSC_OK || !got.pages.empty())
                    return finding{
                        text(core_pages_call(cx, cy)) + ", a core of the range trimmed off the shard grid",
                        "NDSC_OK with []",
                        got.status == NDSC_OK ? "NDSC_OK with " + show_list(got.pages) : status_name(got.status)};
            }
    }
    return std::nullopt;
}

}  // namespace

const law iteration_order = {
    .name = "iteration_order",
    .summary = "ndsc_core_pages(c) is the oracle's real pages of c in device order, within the buffer's capacity",
    .unavailable = need_core_pages,
    .generate = gen_iteration,
    .fits = fits_iteration,
    .check = check_iteration,
    .retarget = retarget_address};

}  // namespace ndshard::conform::laws
