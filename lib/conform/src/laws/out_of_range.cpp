// out_of_range: a page id, coordinate, shard slot or core outside the spec is
// NDSC_OUT_OF_RANGE: past the end, past 32 bits with valid low bits, a coordinate of the
// wrong rank, a core in a hole of the list; ndsc_page_run past the last page,
// ndsc_thread_pages with no thread or a thread at or past the thread count.
#include "registry.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "generators.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

std::string need_any_query(const impl_info& info) {
    return info.queries ? "" : "needs a query, and the implementation declares none";
}

std::optional<finding> check_out_of_range(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    const std::string want = status_name(NDSC_OUT_OF_RANGE);
    auto bad = [&](const answer& a, std::string query) -> std::optional<finding> {
        if (a.status == NDSC_OUT_OF_RANGE) return std::nullopt;
        return finding{std::move(query), want, show(a)};
    };
    // Arguments past 32 bits whose low 32 bits are valid: an implementation that narrows a
    // 64-bit argument to its device's 32 bits before the range check answers for them.
    if (impl.locate_page) {
        const std::uint64_t n = u64(m.num_pages);
        if (auto f = bad(ask_page(impl, c.handle(), n), text(page_call(n)) + ", the page count")) return f;
        for (const std::uint64_t p : {two_32, two_32 + n / 2, ~std::uint64_t{0}})
            if (auto f = bad(ask_page(impl, c.handle(), p), text(page_call(p)) + ", past 32 bits")) return f;
    }
    if (impl.locate_coord) {
        const std::size_t rank = m.tensor_pages.size();
        for (std::size_t d = 0; d < rank; ++d) {
            std::vector<std::uint64_t> coord(rank, 0);
            coord[d] = u64(m.tensor_pages[d]);
            if (auto f = bad(ask_coord(impl, c.handle(), coord), text(coord_call(coord)))) return f;
            coord[d] = two_32;
            if (auto f = bad(ask_coord(impl, c.handle(), coord), text(coord_call(coord)) + ", past 32 bits")) return f;
        }
        // A coordinate of the wrong rank (one entry short or one too many), every entry in range.
        for (const std::size_t wrong : {rank - 1, rank + 1}) {
            if (wrong == 0 || wrong > NDSC_MAX_RANK) continue;
            const std::vector<std::uint64_t> coord(wrong, 0);
            if (auto f = bad(ask_coord(impl, c.handle(), coord), text(coord_call(coord)) + ", " +
                                                                     std::to_string(wrong) + " entries for a rank-" +
                                                                     std::to_string(rank) + " tensor"))
                return f;
        }
    }
    if (impl.locate_shard_page) {
        const std::uint64_t shards = u64(m.num_shards), volume = u64(m.shard_volume);
        if (auto f = bad(ask_shard(impl, c.handle(), shards, 0), text(shard_call(shards, 0)) + ", the shard count"))
            return f;
        if (auto f = bad(ask_shard(impl, c.handle(), two_32, 0), text(shard_call(two_32, 0)) + ", past 32 bits"))
            return f;
        if (shards > 0) {
            if (auto f =
                    bad(ask_shard(impl, c.handle(), 0, volume), text(shard_call(0, volume)) + ", the shard volume"))
                return f;
            if (auto f = bad(ask_shard(impl, c.handle(), 0, two_32), text(shard_call(0, two_32)) + ", past 32 bits"))
                return f;
        }
    }
    if (impl.page_run) {
        const std::uint64_t n = u64(m.num_pages);
        auto bad_run = [&](std::uint64_t p, const std::string& why) -> std::optional<finding> {
            const run_answer a = ask_run(impl, c.handle(), p);
            if (a.status == NDSC_OUT_OF_RANGE) return std::nullopt;
            return finding{text(page_run_call(p)) + ", " + why, want, show_run(a)};
        };
        if (auto f = bad_run(n, "the page count")) return f;
        for (const std::uint64_t p : {two_32, two_32 + n / 2, ~std::uint64_t{0}})
            if (auto f = bad_run(p, "past 32 bits")) return f;
    }
    if (impl.thread_pages) {
        // No thread at all, and a thread number at or past the thread count.
        for (const auto& [thread, threads] : std::initializer_list<std::pair<std::uint32_t, std::uint32_t>>{
                 {0, 0}, {1, 0}, {1, 1}, {3, 3}, {4, 3}, {UINT32_MAX, UINT32_MAX}}) {
            ndsc_page_location buffer[4] = {};
            std::uint64_t count = 0;
            note(thread_pages_call(thread, threads));
            const int status = impl.thread_pages(c.handle(), thread, threads, buffer, 4, &count);
            if (status != NDSC_OUT_OF_RANGE)
                return finding{text(thread_pages_call(thread, threads)) +
                                   (threads == 0 ? ", no thread" : ", a thread past the thread count"),
                               want, status_name(status) + " with count " + std::to_string(count)};
        }
    }
    if (impl.core_pages) {
        // Cores not in the list: past the largest x; at a listed x below the largest y; a
        // listed core moved by 2^8 or 2^16 in x or y (what a coordinate kept in too few bits
        // takes for that core); and a hole of the list's bounding box next to a listed core
        // (what a membership test by comparisons or by the bounding box takes for a core).
        const oracle::spec os = testkit::to_oracle(s);
        std::set<std::pair<std::uint32_t, std::uint32_t>> listed;
        for (const auto& core : oracle::expand_cores(os.cores, os.orient)) listed.insert({u32(core.x), u32(core.y)});
        std::uint32_t max_x = 0, max_y = 0;
        for (const auto& [x, y] : listed) {
            max_x = std::max(max_x, x);
            max_y = std::max(max_y, y);
        }
        const auto [x0, y0] = *listed.begin();
        std::vector<std::pair<std::uint64_t, std::uint64_t>> probes = {{std::uint64_t{max_x} + 1, 0},
                                                                       {x0, std::uint64_t{max_y} + 1},
                                                                       {x0 + 256ULL, y0},
                                                                       {x0, y0 + 256ULL},
                                                                       {x0 + 65536ULL, y0},
                                                                       {x0, y0 + 65536ULL}};
        std::size_t looked = 0;  // the first hole right of or below a listed core, inside the bounding box
        for (auto it = listed.begin(); it != listed.end() && looked < 4096; ++it, ++looked) {
            const auto [x, y] = *it;
            if (x < max_x && !listed.count({x + 1, y})) {
                probes.emplace_back(x + 1, y);
                break;
            }
            if (y < max_y && !listed.count({x, y + 1})) {
                probes.emplace_back(x, y + 1);
                break;
            }
        }
        for (const auto& [px, py] : probes) {
            if (px > UINT32_MAX || py > UINT32_MAX) continue;
            const auto x = static_cast<std::uint32_t>(px), y = static_cast<std::uint32_t>(py);
            if (listed.count({x, y})) continue;
            const core_list got = ask_core_pages(impl, c.handle(), x, y, 0, 0);
            if (got.status != NDSC_OUT_OF_RANGE)
                return finding{
                    text(core_pages_call(x, y)) + ", a core not in the list", want,
                    got.status == NDSC_OK ? "NDSC_OK with " + show_list(got.pages) : status_name(got.status)};
        }
    }
    return std::nullopt;
}

}  // namespace

const law out_of_range = {.name = "out_of_range",
                          .summary = "a page, coordinate, shard slot or core outside the spec is NDSC_OUT_OF_RANGE",
                          .unavailable = need_any_query,
                          .generate = gen_placement,
                          .fits = fits_valid,
                          .check = check_out_of_range,
                          .retarget = retarget_address};

}  // namespace ndshard::conform::laws
