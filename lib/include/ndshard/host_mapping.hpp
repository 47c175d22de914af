// ndshard/host_mapping.hpp - the whole mapping, per core, for host-side transfers.
//
// slot_table materialises every slot (O(pages)); page_runs produces the compressed form
// directly, one run per contiguous stretch, in O(runs) time and memory. page_runs
// expands to slot_table exactly (props/iterators.cpp). real_pages_per_core counts every
// core's real pages in closed form, without a walk (props/balance.cpp checks it).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <limits>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/squeeze.hpp"

namespace ndshard {

inline constexpr std::uint64_t padding_slot = std::numeric_limits<std::uint64_t>::max();

// table[core][slot-page] = page id, or padding_slot. Every core of the effective list
// has reserved_pages_per_core entries. V1: core 1 of [2,2,3]/[1,1,2] -> {2, padding}.
inline std::vector<std::vector<std::uint64_t>> slot_table(const distribution& d) {
    const page_layout& l = d.layout;
    std::vector<std::vector<std::uint64_t>> table(
        l.num_cores, std::vector<std::uint64_t>(l.reserved_pages_per_core(), padding_slot));
    for (std::uint64_t p = 0; p < l.num_pages; ++p) {
        const auto at = l.locate(p);
        table[at.core][at.device_offset] = p;
    }
    return table;
}

struct page_run {
    std::uint64_t device_offset;  // first slot, pages from the bank base
    std::uint64_t first_page;     // page id there; the run covers consecutive ids
    std::uint64_t count;
    friend constexpr bool operator==(const page_run&, const page_run&) = default;
};

// runs[core] in device order; consecutive runs never touch (they would have merged).
// [3,7,5]/[2,2,2] on 6 cores, core 0 starts {0,0,2},{2,5,2},{4,35,2},...
inline std::vector<std::vector<page_run>> page_runs(const distribution& d) {
    const page_layout l = squeeze(d.layout);  // longest rows, same mapping
    const std::size_t r = l.rank();
    std::vector<std::vector<page_run>> runs(l.num_cores);
    for (std::uint64_t core = 0; core < l.num_cores; ++core) {
        std::vector<page_run>& out = runs[core];
        for (std::uint64_t slot = 0;; ++slot) {
            const auto s = l.shard_in_slot(core, slot);
            if (!s) break;
            const shape q = l.shard_coord(*s);
            const shape limit = l.real_shard_shape(*s);
            // Odometer over the shard's real rows (every dim but the last).
            shape row = l.shard;
            for (std::size_t k = 0; k < r; ++k) row[k] = 0;
            for (;;) {
                std::uint64_t offset = slot * l.shard_volume;
                for (std::size_t k = 0; k < r; ++k) offset += row[k] * l.shard_stride[k];
                const std::uint64_t page = *l.page_in_shard(q, row);  // row is inside `limit`: a real page
                const std::uint64_t count = limit[r - 1];
                if (!out.empty() && out.back().device_offset + out.back().count == offset &&
                    out.back().first_page + out.back().count == page)
                    out.back().count += count;
                else out.push_back({offset, page, count});
                std::size_t k = r - 1;
                while (k-- > 0) {
                    if (++row[k] < limit[k]) break;
                    row[k] = 0;
                }
                if (k == static_cast<std::size_t>(-1)) break;
            }
        }
    }
    return runs;
}

namespace detail {

// acc[(start + q * step) % P] -= value for q in [0, n): the shards of one arithmetic
// progression of ids, dealt round robin. The residues repeat with period P / gcd(step, P),
// so this takes min(n, period) steps, not n. start 1, step 4, n 5, P 6 -> residues 1 5 3 1 5.
inline std::uint64_t subtract_progression(std::vector<std::uint64_t>& acc, std::uint64_t start, std::uint64_t step,
                                          std::uint64_t n, std::uint64_t value) {
    const std::uint64_t P = acc.size();
    const std::uint64_t step_mod = step % P;
    const std::uint64_t period = P / std::gcd(step_mod, P);
    const std::uint64_t rounds = n / period, rest = n % period;
    std::uint64_t r = start % P;
    const std::uint64_t visits = std::min(n, period);
    for (std::uint64_t q = 0; q < visits; ++q) {
        acc[r] -= value * (rounds + (q < rest ? 1 : 0));  // unsigned: wraps back once the totals are in
        r = (r + step_mod) % P;
    }
    return visits;
}

}  // namespace detail

// Real pages of every core, in closed form over the shard grid instead of a walk over
// each core's slots: contiguous deals from prefix sums of the grid digits (2 * rank
// steps a core); round robin counts every shard full and takes back the missing pages
// of edge shards, as arithmetic progressions of shard ids whose residues mod P repeat,
// so at most P steps each. `steps`, if given, gets the number of steps taken.
// [3,7,5]/[2,2,2] on 6 cores -> {24,24,12,18,18,9}.
inline std::vector<std::uint64_t> real_pages_per_core(const page_layout& l, std::uint64_t* steps = nullptr) {
    const std::uint64_t P = l.num_cores;
    std::vector<std::uint64_t> pages(P, 0);
    std::uint64_t work = 0;
    const std::size_t r = l.rank();
    if (l.num_shards != 0 && P != 0) {
        // edge[d]: the real extent of the last shard along d ([3,7,5]/[2,2,2]: 1,1,1).
        std::uint64_t edge[max_rank] = {};
        for (std::size_t d = 0; d < r; ++d) edge[d] = detail::real_extent(l.tensor[d], l.shard[d], l.grid[d] - 1);
        if (l.rule == deal_rule::contiguous) {
            // Real pages in shards [0, s): split s into grid digits a[d]. The shards below s
            // that first differ from it at dim d have q[d] < a[d] (never an edge: S[d] pages
            // along d), the digits a[j] before d, and anything after d (T[j] pages along j).
            // [3,7,5]/[2,2,2], s = 6 = (0,2,0): at d1, lead 2 (q0 = 0 keeps S[0] = 2) * a 2 *
            // S[1] 2 * T[2] 5 = 40 = the pages of shards 0..5 (8+8+4+8+8+4).
            auto before = [&](std::uint64_t s) {
                if (s >= l.num_shards) return l.num_pages;
                std::uint64_t total = 0, lead = 1;
                for (std::size_t d = 0; d < r; ++d) {
                    const std::uint64_t a = s / l.grid_stride[d] % l.grid[d];
                    total += lead * a * l.shard[d] * l.tensor_stride[d];
                    lead *= a == l.grid[d] - 1 ? edge[d] : l.shard[d];
                }
                return total;
            };
            const std::uint64_t k = l.shards_per_block;
            for (std::uint64_t c = 0; c < P; ++c) {
                const std::uint64_t first = std::min(c * k, l.num_shards), end = std::min(first + k, l.num_shards);
                pages[c] = before(end) - before(first);
                work += 2 * r;
            }
        } else {
            // Round robin: every shard counted full, then each edge shard's missing pages
            // taken back from its core. An edge shard lies at G[d]-1 along each dim of a
            // nonempty set E of uneven dims (T[d] % S[d] != 0) and below it along the
            // other uneven dims; for one E those shards form a box of the grid, walked as
            // arithmetic progressions along its longest side.
            for (std::uint64_t c = 0; c < P; ++c) pages[c] = l.shards_on_core(c) * l.shard_volume;
            work += P;
            std::size_t uneven[max_rank] = {};
            std::size_t nu = 0;
            for (std::size_t d = 0; d < r; ++d)
                if (edge[d] != l.shard[d]) uneven[nu++] = d;
            for (std::uint32_t E = 1; E < (1U << nu); ++E) {
                std::uint64_t count[max_rank] = {}, base = 0, kept = 1;
                bool in_e[max_rank] = {};
                for (std::size_t i = 0; i < nu; ++i) in_e[uneven[i]] = (E >> i) & 1U;
                bool empty = false;
                for (std::size_t d = 0; d < r; ++d) {
                    const bool is_uneven = edge[d] != l.shard[d];
                    count[d] = in_e[d] ? 1 : is_uneven ? l.grid[d] - 1 : l.grid[d];
                    if (in_e[d]) base += (l.grid[d] - 1) * l.grid_stride[d];
                    kept *= in_e[d] ? edge[d] : l.shard[d];
                    empty = empty || count[d] == 0;
                }
                if (empty) continue;
                const std::uint64_t missing = l.shard_volume - kept;
                std::size_t along = 0;  // the progression runs along the box's longest side
                for (std::size_t d = 1; d < r; ++d)
                    if (count[d] > count[along]) along = d;
                std::uint64_t q[max_rank] = {};
                for (;;) {  // odometer over the other dims of the box
                    std::uint64_t start = base;
                    for (std::size_t d = 0; d < r; ++d)
                        if (d != along) start += q[d] * l.grid_stride[d];
                    work += detail::subtract_progression(pages, start, l.grid_stride[along], count[along], missing);
                    std::size_t d = r;
                    while (d-- > 0) {
                        if (d == along) continue;
                        if (++q[d] < count[d]) break;
                        q[d] = 0;
                    }
                    if (d == static_cast<std::size_t>(-1)) break;
                }
            }
        }
    }
    if (steps) *steps = work;
    return pages;
}

}  // namespace ndshard
