// balance: the pages and shards each core holds, counted from ndsc_locate_page of every
// page, are the strategy's counts (oracle::pages_on_core, oracle::shards_on_core); no
// page lies on a core outside the distribution.
#include "registry.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <ndshard/oracle/oracle.hpp>

#include "generators.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

std::optional<finding> check_balance(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    struct tally {
        std::uint64_t pages = 0;
        std::set<std::uint64_t> shards;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, tally> per_core;
    const std::uint64_t n = u64(m.num_pages);
    for (std::uint64_t p = 0; p < n; ++p) {
        const answer a = ask_page(impl, c.handle(), p);
        if (a.status != NDSC_OK) return finding{text(page_call(p)), "a location", show(a)};
        tally& t = per_core[{a.at.x, a.at.y}];
        ++t.pages;
        t.shards.insert(u64(oracle::locate(m, big(p)).shard_id));
    }
    auto counts = [](std::uint64_t pages, std::uint64_t shards) {
        return std::to_string(pages) + " pages in " + std::to_string(shards) + " shards";
    };
    const std::string query = "pages and shards per core (from ndsc_locate_page of every page)";
    for (std::size_t i = 0; i < m.cores.size(); ++i) {
        const std::pair<std::uint32_t, std::uint32_t> key{u32(m.cores[i].x), u32(m.cores[i].y)};
        const std::uint64_t want_pages = u64(oracle::pages_on_core(m, big(i)));
        const std::uint64_t want_shards = u64(oracle::shards_on_core(m, big(i)));
        const auto it = per_core.find(key);
        const std::uint64_t got_pages = it == per_core.end() ? 0 : it->second.pages;
        const std::uint64_t got_shards = it == per_core.end() ? 0 : it->second.shards.size();
        if (got_pages != want_pages || got_shards != want_shards) {
            const std::string core = "core (" + std::to_string(key.first) + "," + std::to_string(key.second) + "): ";
            return finding{query, core + counts(want_pages, want_shards), core + counts(got_pages, got_shards)};
        }
        if (it != per_core.end()) per_core.erase(it);
    }
    if (!per_core.empty()) {
        const auto& [key, t] = *per_core.begin();
        const std::string core = "core (" + std::to_string(key.first) + "," + std::to_string(key.second) + "): ";
        return finding{query, core + "no pages (not a core of the distribution)",
                       core + counts(t.pages, t.shards.size())};
    }
    return std::nullopt;
}

}  // namespace

const law balance = {.name = "balance",
                     .summary = "per-core page and shard counts are the strategy's counts",
                     .unavailable = need_page,
                     .generate = gen_small,
                     .fits = fits_small_valid,
                     .check = check_balance,
                     .retarget = retarget_address};

}  // namespace ndshard::conform::laws
