// bijectivity: distinct pages at distinct (core, address), inside the buffer, aligned, on
// a core of the list. Structural: no placement from the oracle is used, only the buffer's
// bounds and the core list.
#include "registry.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include <ndshard/oracle/oracle.hpp>

#include "generators.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

std::optional<finding> check_bijectivity(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    std::set<std::pair<std::uint32_t, std::uint32_t>> listed;
    for (const auto& core : oracle::expand_cores(testkit::to_oracle(s).cores, testkit::to_oracle(s).orient))
        listed.insert({u32(core.x), u32(core.y)});
    const std::uint64_t base = u64(m.bank_base), aligned = u64(m.aligned_page_size);
    const std::uint64_t end = u64(m.bank_base + m.reserved_pages_per_core * m.aligned_page_size);
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>, std::uint64_t> seen;
    const std::uint64_t n = u64(m.num_pages);
    for (std::uint64_t p = 0; p < n; ++p) {
        const answer a = ask_page(impl, c.handle(), p);
        const call query = page_call(p);
        if (a.status != NDSC_OK) return finding{text(query), "a location", show(a)};
        if (!listed.count({a.at.x, a.at.y})) return finding{text(query), "a core of the list", show(a)};
        if (a.at.address < base || a.at.address >= end)
            return finding{text(query), "an address in [" + std::to_string(base) + ", " + std::to_string(end) + ")",
                           show(a)};
        if ((a.at.address - base) % aligned != 0)
            return finding{text(query), "an address bank_base + k * " + std::to_string(aligned), show(a)};
        const auto [it, fresh] = seen.emplace(std::make_tuple(a.at.x, a.at.y, a.at.address), p);
        if (!fresh)
            return finding{text(page_call(it->second)) + " and " + text(query), "two different locations",
                           "both at " + show(a)};
    }
    return std::nullopt;
}

}  // namespace

const law bijectivity = {
    .name = "bijectivity",
    .summary = "distinct pages at distinct (core, address), inside the buffer, aligned, on a listed core",
    .unavailable = need_page,
    .generate = gen_small,
    .fits = fits_small_valid,
    .check = check_bijectivity,
    .retarget = retarget_address};

}  // namespace ndshard::conform::laws
