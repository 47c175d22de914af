// thread_split_iteration (ABI version 2): ndsc_thread_pages(i, k) is pages i, i+k,
// i+2k, ... below the page count with the oracle's locations (one thread, k dividing the
// runs or not, more threads than pages, the last thread); a capacity of the share is
// enough; one short or half is NDSC_BUFFER_TOO_SMALL with the count, nothing written past it.
#include "registry.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <span>
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

std::string need_thread_pages(const impl_info& info) { return needs(info, NDSC_Q_THREAD_PAGES); }

struct thread_choice {
    std::uint32_t thread, threads;
};

// The (thread, threads) pairs asked of a spec of n pages whose longest oracle run is
// `run` and whose shard holds `volume` slots: one thread; a few threads, dividing the run
// lengths or not; as many threads as the longest run, one more and one fewer; more threads
// than pages (a thread past the last page holds none); and each with thread 0, 1, a middle
// one, the last, and the one that holds the last page. A share above `share_limit` pages
// is not asked (a larger spec is split among enough threads). Deterministic in the spec,
// so that a shrunk spec is asked alike.
std::vector<thread_choice> thread_choices(std::uint64_t n, std::uint64_t run, std::uint64_t volume,
                                          std::uint64_t share_limit) {
    std::vector<std::uint64_t> counts = {1, 2, 3, 4, 5, 7, run, run + 1, volume, volume + 1, n, n + 1, n + 3};
    if (run > 1) counts.push_back(run - 1);
    if (n > 0) counts.push_back(2 * n - 1);
    const std::uint64_t least = n / share_limit + 1;  // every share at most share_limit pages
    counts.push_back(least);
    counts.push_back(least + 1);
    counts.push_back(least * 3 + 2);
    std::vector<thread_choice> out;
    std::set<std::pair<std::uint64_t, std::uint64_t>> seen;
    for (const std::uint64_t k : counts) {
        if (k == 0 || k > UINT32_MAX || (n + k - 1) / k > share_limit) continue;
        for (const std::uint64_t i : {std::uint64_t{0}, std::uint64_t{1}, k / 2, k - 1, n > 0 ? (n - 1) % k : 0})
            if (i < k && seen.insert({i, k}).second)
                out.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(k)});
    }
    return out;
}

// The specs of thread_split_iteration: at most 2^20 pages, since an implementation may
// walk every run before a thread's first page and between its pages (ndshard's
// page_iterator does, as a device thread would).
bool thread_model(const oracle::model& m) { return m.num_pages <= big(1 << 20); }

bool fits_thread_split(const distribution_spec& s, const impl_info& info) {
    if (!in_domain(s, info)) return false;
    const auto m = model_of(s);
    return m && thread_model(*m);
}

std::string show_share(std::span<const ndsc_page_location> v) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i == 8) {
            out += ",... (" + std::to_string(v.size()) + " in all)";
            break;
        }
        out += (i ? ", " : "") + std::to_string(v[i].page_id) + "@(" + std::to_string(v[i].core_x) + "," +
               std::to_string(v[i].core_y) + "):" + std::to_string(v[i].address);
    }
    return out + "]";
}

std::optional<finding> check_thread_split(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const std::uint64_t n = u64(m.num_pages);
    // Small specs: every page's oracle location once, and the longest run for the choices.
    std::vector<place> at;
    std::uint64_t longest = 1;
    if (n <= walk_limit) {
        at = oracle_places(m);
        for (const std::uint64_t r : oracle_runs(at, u64(m.aligned_page_size))) longest = std::max(longest, r);
    }
    auto expected_at = [&](std::uint64_t p) { return n <= walk_limit ? at[p] : oracle_page(m, p); };
    ndsc_page_location blank{};
    std::memset(&blank, 0xA5, sizeof blank);
    auto is_blank = [&](const ndsc_page_location& l) { return std::memcmp(&l, &blank, sizeof l) == 0; };
    // A spec past the walk is located page by page: its shares are kept to 512 pages.
    const std::uint64_t share_limit = n <= walk_limit ? std::max<std::uint64_t>(n, 1) : 512;
    for (const thread_choice& tc : thread_choices(n, longest, u64(m.shard_volume), share_limit)) {
        const std::uint64_t held = tc.thread < n ? (n - 1 - tc.thread) / tc.threads + 1 : 0;
        const call query = thread_pages_call(tc.thread, tc.threads);
        std::vector<ndsc_page_location> buffer(held + 4, blank);
        std::uint64_t count = ~std::uint64_t{0};
        note(query);
        const int status = impl.thread_pages(c.handle(), tc.thread, tc.threads, buffer.data(), buffer.size(), &count);
        const std::string want = held == 0 ? std::string("no page (NDSC_OK, count 0)")
                                           : std::to_string(held) + (held == 1 ? " page: " : " pages: ") +
                                                 std::to_string(tc.thread) + ", " + std::to_string(tc.thread) + " + " +
                                                 std::to_string(tc.threads) + ", ... below " + std::to_string(n);
        auto count_text = [](std::uint64_t k) {
            return k == ~std::uint64_t{0} ? std::string("the count not set") : "count " + std::to_string(k);
        };
        if (status != NDSC_OK) return finding{text(query), want, status_name(status) + " with " + count_text(count)};
        if (count != held)
            return finding{text(query), want,
                           std::to_string(count) + (count == 1 ? " page" : " pages") +
                               (count <= buffer.size()
                                    ? ": " + show_share(std::span(buffer.data(), static_cast<std::size_t>(count)))
                                    : std::string(" (more than the capacity)"))};
        for (std::uint64_t j = 0; j < held; ++j) {
            const std::uint64_t p = tc.thread + j * tc.threads;
            const place w = expected_at(p);
            const ndsc_page_location& g = buffer[j];
            if (g.page_id != p || g.core_x != w.x || g.core_y != w.y || g.address != w.address)
                return finding{
                    text(query) + " element " + std::to_string(j), "page " + std::to_string(p) + " at " + show(w),
                    "page " + std::to_string(g.page_id) + " at " + show(place{g.core_x, g.core_y, g.address})};
        }
        for (std::size_t k = held; k < buffer.size(); ++k)
            if (!is_blank(buffer[k]))
                return finding{text(query) + " with capacity " + std::to_string(buffer.size()),
                               want + ", nothing written at index " + std::to_string(held) + " or later",
                               "element " + std::to_string(k) + " written"};
        if (held == 0) continue;
        // A capacity of exactly the share is enough: NDSC_OK.
        {
            std::vector<ndsc_page_location> exact(held, blank);
            count = ~std::uint64_t{0};
            note(query);
            const int exact_status = impl.thread_pages(c.handle(), tc.thread, tc.threads, exact.data(), held, &count);
            if (exact_status != NDSC_OK || count != held)
                return finding{text(query) + " with capacity " + std::to_string(held), want,
                               status_name(exact_status) + " with " + count_text(count)};
        }
        // A capacity one short, and half the share: NDSC_BUFFER_TOO_SMALL, the count, nothing
        // written at or past the capacity (the mutation study found a write past a capacity
        // two short that one short does not show).
        for (const std::uint64_t capacity : {held - 1, held / 2}) {
            if (capacity != held - 1 && held < 4) continue;
            std::vector<ndsc_page_location> short_buffer(held + 3, blank);
            count = ~std::uint64_t{0};
            note(query);
            const int short_status =
                impl.thread_pages(c.handle(), tc.thread, tc.threads, short_buffer.data(), capacity, &count);
            const std::string short_query = text(query) + " with capacity " + std::to_string(capacity);
            const std::string short_want = "NDSC_BUFFER_TOO_SMALL with count " + std::to_string(held);
            if (short_status != NDSC_BUFFER_TOO_SMALL || count != held)
                return finding{short_query, short_want, status_name(short_status) + " with " + count_text(count)};
            for (std::uint64_t k = capacity; k < short_buffer.size(); ++k)
                if (!is_blank(short_buffer[k]))
                    return finding{
                        short_query,
                        short_want + ", nothing written at index " + std::to_string(capacity) + " or later",
                        "page " + std::to_string(short_buffer[k].page_id) + " written at index " + std::to_string(k)};
        }
    }
    return std::nullopt;
}

// thread_split_iteration's medium specs, split among enough threads that a share stays
// below 512 pages. At most 2^15 pages: an implementation that walks its runs to a thread's
// first page and from page to page (ndshard's page_iterator does) spends about n / run
// steps on each of the ~35 (thread, threads) pairs asked; at 2^18 pages this law cost 50x
// any other and cut fuzz_conform's executions per second five times.
bool gen_medium_split(testkit::entropy& e, const impl_info& info, distribution_spec& s) {
    bool made = false;
    for (int attempt = 0; attempt < 64 && !made; ++attempt) {
        testkit::spec_options o;
        o.max_pages = 1 << 15;
        o.max_cores = 4096;
        o.allow_grid_2d = info.has_strategy(NDSC_GRID_2D);
        s = testkit::generate_spec(e, o);
        if (!fit_to_domain(s, info)) continue;
        const auto m = model_of(s);
        made = m && thread_model(*m) && m->num_pages > big(walk_limit);
    }
    return made;
}

bool gen_thread_split(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    return gen_v2_mix(e, info, out, gen_medium_split);
}

}  // namespace

const law thread_split_iteration = {
    .name = "thread_split_iteration",
    .summary = "ndsc_thread_pages(i, k) is pages i, i+k, ... with the oracle's locations, within the buffer's capacity",
    .unavailable = need_thread_pages,
    .generate = gen_thread_split,
    .fits = fits_thread_split,
    .check = check_thread_split,
    .retarget = retarget_address};

}  // namespace ndshard::conform::laws
