// contiguous_runs (ABI version 2): ndsc_page_run(p) is the maximal run from p, pages p,
// p+1, ... at consecutive aligned pages of p's core, computed from the oracle's locations:
// every page of a small spec; on a large one sampled pages, their claimed runs checked at
// both ends, inside and one page past.
#include "registry.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "generators.hpp"
#include "ndshard/conform/specs.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

std::string need_page_run(const impl_info& info) { return needs(info, NDSC_Q_PAGE_RUN); }

// A large spec whose runs a check can ask of an implementation that walks a run a shard
// at a time (ndshard's contiguous_pages does): at most 2^16 shards a core, so that no run
// crosses more. Small specs are walked whole.
bool runs_model(const oracle::model& m) {
    return m.num_pages <= big(walk_limit) || m.max_shards_per_core <= big(1 << 16);
}

// contiguous_runs' large specs: runs sampled, not walked.
bool gen_large_runs(testkit::entropy& e, const impl_info& info, distribution_spec& s) {
    bool made = false;
    for (int attempt = 0; attempt < 8 && !made; ++attempt) {
        made = generate_valid(e, info, s, 256, 100);
        if (made) {
            const auto m = model_of(s);
            made = m && runs_model(*m);
        }
    }
    return made;
}

bool gen_runs(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    return gen_v2_mix(e, info, out, gen_large_runs);
}

bool fits_runs(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info)) return false;
    const auto m = model_of(s);
    return m && runs_model(*m);
}

std::optional<finding> check_runs(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const std::uint64_t n = u64(m.num_pages), step = u64(m.aligned_page_size);
    if (n <= walk_limit) {
        const std::vector<place> at = oracle_places(m);
        const std::vector<std::uint64_t> want = oracle_runs(at, step);
        for (std::uint64_t p = 0; p < n; ++p) {
            const run_answer a = ask_run(impl, c.handle(), p);
            if (a.status != NDSC_OK || a.length != want[p]) {
                const place& last = at[p + want[p] - 1];
                std::string why = " (pages " + std::to_string(p) + ".." + std::to_string(p + want[p] - 1) +
                                  " on core (" + std::to_string(at[p].x) + "," + std::to_string(at[p].y) + ") at " +
                                  std::to_string(at[p].address) + ".." + std::to_string(last.address);
                why += p + want[p] < n ? "; page " + std::to_string(p + want[p]) + " at " + show(at[p + want[p]]) + ")"
                                       : "; the last page)";
                return finding{text(page_run_call(p)), "a run of " + std::to_string(want[p]) + why, show_run(a)};
            }
        }
        return std::nullopt;
    }
    // A large spec: its runs may hold billions of pages, so the claimed run is checked at
    // points instead of walked: its first, second, second-to-last and last page, 8 pages in
    // between, and the first page past it (which must be past the tensor or not continue
    // the run). The compromise: an adapter wrong only at an interior page no sample hits
    // passes here; the small specs, walked whole, are where such a defect shows.
    testkit::random_entropy e(spec_hash(s) ^ 0x3C3CU);
    for (const std::uint64_t p : pages_to_check(m, s)) {
        const run_answer a = ask_run(impl, c.handle(), p);
        const std::string query = text(page_run_call(p));
        if (a.status != NDSC_OK) return finding{query, "a run of at least 1", show_run(a)};
        if (a.length == 0 || a.length > n - p)
            return finding{query, "a run of 1.." + std::to_string(n - p) + " (it cannot pass the last page)",
                           show_run(a)};
        const place first = oracle_page(m, p);
        std::vector<std::uint64_t> inside = {1, a.length - 2, a.length - 1};
        for (int i = 0; i < 8; ++i) inside.push_back(e.between(0, a.length - 1));
        for (const std::uint64_t j : inside) {
            if (j == 0 || j >= a.length) continue;
            const place got = oracle_page(m, p + j);
            if (!(got.x == first.x && got.y == first.y && got.address == first.address + j * step))
                return finding{query,
                               "no run through page " + std::to_string(p + j) + ", which lies at " + show(got) +
                                   " (page " + std::to_string(p) + " at " + show(first) + ")",
                               show_run(a)};
        }
        if (p + a.length < n) {
            const place past = oracle_page(m, p + a.length);
            if (past.x == first.x && past.y == first.y && past.address == first.address + a.length * step)
                return finding{query,
                               "a longer run: page " + std::to_string(p + a.length) + " lies at " + show(past) +
                                   ", the next aligned page of page " + std::to_string(p) + "'s core",
                               show_run(a)};
        }
    }
    return std::nullopt;
}

}  // namespace

const law contiguous_runs = {
    .name = "contiguous_runs",
    .summary =
        "ndsc_page_run(p) is the oracle's maximal run from p: consecutive pages at consecutive aligned pages of "
        "p's core",
    .unavailable = need_page_run,
    .generate = gen_runs,
    .fits = fits_runs,
    .check = check_runs,
    .retarget = retarget_address};

}  // namespace ndshard::conform::laws
