// ndshard::ttsim::draw_case and draw_hard_case: the cases check_kernel runs (kcheck.hpp), and
// hard_classes, the integer-width classes a case belongs to.
#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kcheck_internal.hpp"
#include "ndshard/checked.hpp"
#include "ndshard/error.hpp"
#include "ndshard/sim/scenario.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "ndshard/tt/noc.hpp"
#include "ndshard/ttsim/kcheck.hpp"

namespace ndshard::ttsim {

namespace detail {

sim::device_config case_device(const case_grid& g) { return kernel_device_config(g.x, g.y, g.dram_banks); }

distribution_spec whole_table_interleaved(const sim::device_config& cfg, const shape& pages, std::uint64_t bytes,
                                          sim::memory_kind memory) {
    distribution_spec s;
    s.tensor = pages;
    s.shard = shape{};
    for (std::size_t d = 0; d < pages.rank(); ++d) s.shard.push_back(1);
    s.page = {page_kind::pages};
    s.element_size = bytes;
    s.alignment = memory == sim::memory_kind::dram ? 32 : 16;
    if (memory == sim::memory_kind::dram) {
        for (std::uint32_t b = 0; b < cfg.num_dram_banks; ++b) {
            const core_coord c{cfg.grid_x + b / cfg.grid_y, b % cfg.grid_y};
            s.cores.push_back({c, c});
        }
    } else {
        s.cores = {{{0, 0}, {cfg.grid_x - 1, cfg.grid_y - 1}}};  // row-major: the L1 bank order
    }
    return s;
}

}  // namespace detail

namespace {

using detail::case_device;
using detail::whole_table_interleaved;

std::uint64_t round_up(std::uint64_t v, std::uint64_t a) { return ceil_div(v, a) * a; }

std::uint64_t chip_alignment(sim::memory_kind m) {
    return m == sim::memory_kind::dram ? tt::chip_dram_alignment : tt::chip_l1_alignment;
}

// What a hard case fixes of an ordinary draw.
struct draw_hint {
    std::optional<std::size_t> rank;
    std::optional<std::uint64_t> max_pages;
    std::optional<std::uint64_t> bytes;
    std::optional<sim::memory_kind> memory;
};

// The op's ranks, lo..hi (lo > hi: none).
std::pair<std::size_t, std::size_t> ranks_of(const op_desc& op) {
    return {std::max<std::size_t>(op.min_rank, 1), std::min<std::size_t>(op.max_rank, 8)};
}

// The mix, cores and seed of a case, as every draw picks them.
void draw_rest(const op_desc& op, testkit::entropy& e, const check_options& o, const sim::device_config& cfg,
               case_spec& c) {
    const std::vector<std::uint32_t> mixes = tt::all_runtime_mixes();
    c.mix = e.chance(o.static_mix_percent) ? mixes[e.between(0, mixes.size() - 1)] : all_runtime;
    if (!op.contract.mixes.empty()) c.mix = op.contract.mixes[e.between(0, op.contract.mixes.size() - 1)];
    c.num_cores =
        static_cast<std::uint32_t>(e.between(1, std::min<std::uint64_t>(o.max_cores, cfg.grid_x * cfg.grid_y)));
    c.seed = e.between(0, 1'000'000);
}

// One draw, steered into the op's contract where that is cheap (memory, layout, same spec,
// mixes, aligned page sizes); draw_case checks the rest.
std::optional<case_spec> draw_once(const op_desc& op, testkit::entropy& e, const check_options& o,
                                   const draw_hint& hint = {}) {
    const op_contract& k = op.contract;
    const sim::device_config cfg = case_device(o.device);
    case_spec c;
    c.device = o.device;
    const auto [lo, hi] = ranks_of(op);
    // Ranks 1..4 mostly, 8 on purpose now and then.
    const std::size_t rank = hint.rank      ? *hint.rank
                             : e.chance(10) ? hi
                                            : e.between(lo, std::min(hi, std::max<std::size_t>(lo, 4)));
    const shape pages = sim::draw_page_grid(e, rank, hint.max_pages.value_or(o.max_pages));
    std::vector<shape> in_pages(op.num_inputs, pages);
    const std::optional<shape> out_pages = op.output_pages(in_pages);
    if (!out_pages) return std::nullopt;
    if (k.same_spec && !(*out_pages == pages)) return std::nullopt;
    const std::uint64_t bytes = hint.bytes             ? *hint.bytes
                                : o.page_bytes.empty() ? 4 * e.between(1, 16)
                                                       : o.page_bytes[e.between(0, o.page_bytes.size() - 1)];
    const std::optional<sim::memory_kind> memory = hint.memory ? hint.memory : k.memory;
    bool missed = false;
    auto draw = [&](const shape& p, distribution_spec& s, sim::memory_kind& m) {
        const bool whole_table =
            k.layout == op_contract::layouts::interleaved || (k.layout == op_contract::layouts::any && e.chance(12));
        if (whole_table) {
            m = memory ? *memory : e.chance(50) ? sim::memory_kind::dram : sim::memory_kind::l1;
            s = whole_table_interleaved(cfg, p, bytes, m);
        } else {
            sim::draw_options opt;
            opt.l1_only = memory == sim::memory_kind::l1;
            sim::drawn_spec d = sim::draw_distribution(e, cfg, p, bytes, opt);
            const int most = hint.memory ? 32 : 8;
            for (int tries = 0; memory && d.memory != *memory && tries < most; ++tries)
                d = sim::draw_distribution(e, cfg, p, bytes, opt);
            if (hint.memory && d.memory != *hint.memory) missed = true;
            s = d.spec;
            m = d.memory;
        }
        // tt-metal's allocator aligns every page to the NoC's alignment of its memory.
        s.alignment = std::max<std::uint64_t>(s.alignment, chip_alignment(m));
    };
    for (std::size_t i = 0; i < op.num_inputs; ++i) {
        c.inputs.emplace_back();
        c.input_memory.emplace_back();
        draw(pages, c.inputs.back(), c.input_memory.back());
    }
    if (k.same_spec && !c.inputs.empty()) {
        c.output = c.inputs.front();
        c.output_memory = c.input_memory.front();
    } else {
        draw(*out_pages, c.output, c.output_memory);
    }
    if (missed) return std::nullopt;
    if (k.same_aligned_page) {  // every buffer at the largest alignment drawn
        std::uint64_t a = c.output.alignment;
        for (const distribution_spec& s : c.inputs) a = std::max(a, s.alignment);
        for (distribution_spec& s : c.inputs) s.alignment = a;
        c.output.alignment = a;
    }
    draw_rest(op, e, o, cfg, c);
    return c;
}

shape ones(std::size_t rank) {
    shape t;
    for (std::size_t d = 0; d < rank; ++d) t.push_back(1);
    return t;
}

// A page grid of `rank` dims with at least `pages` pages: [2, 1, ..., 1, n] (rank 1: [n]).
shape long_grid(std::size_t rank, std::uint64_t pages) {
    shape t;
    for (std::size_t d = 0; d < rank; ++d) t.push_back(1);
    if (rank > 1) t[0] = 2;
    t[rank - 1] = ceil_div(pages, t[0]);
    return t;
}

// Bytes of one buffer in each of its banks.
std::uint64_t bank_bytes(const distribution_spec& s) {
    const distribution d = make_distribution(s);
    return d.reserved_pages_per_core() * d.aligned_page_size;
}

// A case of the big classes: every buffer built by `make(grid, memory)` in one memory, L1
// when it fits (a quarter of L1 left for the program), else DRAM when the contract allows.
template <class Make>
std::optional<case_spec> big_case(const op_desc& op, testkit::entropy& e, const check_options& o, const shape& grid,
                                  Make&& make) {
    const op_contract& k = op.contract;
    const sim::device_config cfg = case_device(o.device);
    const std::optional<shape> out_grid = op.output_pages(std::vector<shape>(op.num_inputs, grid));
    if (!out_grid || (k.same_spec && !(*out_grid == grid))) return std::nullopt;
    std::vector<sim::memory_kind> order{sim::memory_kind::l1, sim::memory_kind::dram};
    if (e.chance(30)) std::swap(order[0], order[1]);
    if (k.memory) order = {*k.memory};
    for (const sim::memory_kind m : order) {
        if (m == sim::memory_kind::dram && cfg.num_dram_banks == 0) continue;
        case_spec c;
        c.device = o.device;
        try {
            std::uint64_t total = 0;
            for (std::size_t i = 0; i < op.num_inputs; ++i) {
                c.inputs.push_back(make(grid, m));
                c.input_memory.push_back(m);
                total += bank_bytes(c.inputs.back());
            }
            c.output = k.same_spec && !c.inputs.empty() ? c.inputs.front() : make(*out_grid, m);
            c.output_memory = m;
            total += bank_bytes(c.output);
            const std::uint64_t room = m == sim::memory_kind::l1 ? cfg.l1_size * 3 / 4 : cfg.dram_bank_size / 2;
            if (total > room) continue;
        } catch (const spec_error&) {
            continue;
        }
        draw_rest(op, e, o, cfg, c);
        return c;
    }
    return std::nullopt;
}

// The banks of memory `m` to deal shards over: `count` of them from the first.
std::vector<core_range> first_banks(const sim::device_config& cfg, sim::memory_kind m, std::uint64_t count) {
    std::vector<core_range> out;
    for (std::uint64_t b = 0; b < count; ++b) {
        const core_coord c =
            m == sim::memory_kind::dram
                ? core_coord{cfg.grid_x + static_cast<std::uint32_t>(b) / cfg.grid_y,
                             static_cast<std::uint32_t>(b) % cfg.grid_y}
                : core_coord{static_cast<std::uint32_t>(b) % cfg.grid_x, static_cast<std::uint32_t>(b) / cfg.grid_x};
        out.push_back({c, c});
    }
    return out;
}

// A sharded buffer of `grid`: shards of `shard` dealt round robin over `banks` banks.
distribution_spec dealt(const sim::device_config& cfg, const shape& grid, shape shard, std::uint64_t bytes,
                        sim::memory_kind m, std::uint64_t banks) {
    distribution_spec s;
    s.tensor = grid;
    s.shard = std::move(shard);
    s.page = {page_kind::pages};
    s.element_size = bytes;
    s.alignment = chip_alignment(m);
    s.strat = strategy::round_robin_1d;
    const std::uint64_t most = m == sim::memory_kind::dram ? cfg.num_dram_banks : cfg.grid_x * cfg.grid_y;
    s.cores = first_banks(cfg, m, std::min(banks, most));
    return s;
}

}  // namespace

std::optional<case_spec> draw_case(const op_desc& op, testkit::entropy& e, const check_options& o) {
    for (int attempt = 0; attempt < 16; ++attempt) {
        std::optional<case_spec> c = draw_once(op, e, o);
        if (!c) return std::nullopt;
        if (outside_contract(op.contract, *c).empty()) return c;
    }
    return std::nullopt;
}

std::optional<case_spec> draw_hard_case(const op_desc& op, testkit::entropy& e, const check_options& o, std::uint64_t k,
                                        bool tiles) {
    const auto [lo, hi] = ranks_of(op);
    if (lo > hi) return std::nullopt;
    const std::size_t rank = lo + k % (hi - lo + 1);
    const sim::device_config cfg = case_device(o.device);
    const op_contract& kc = op.contract;
    const std::uint64_t smallest =
        o.page_bytes.empty() ? 4 : *std::min_element(o.page_bytes.begin(), o.page_bytes.end());
    const std::uint64_t largest =
        o.page_bytes.empty() ? 64 : *std::max_element(o.page_bytes.begin(), o.page_bytes.end());
    const bool interleaved = kc.layout == op_contract::layouts::interleaved;
    const bool sharded = kc.layout == op_contract::layouts::sharded;
    std::optional<case_spec> c;
    switch (k % 8) {
        case 0: {  // pages>65536: interleaved over every bank (one-page shards dealt over a few when sharded only)
            const shape grid = long_grid(rank, 65537 + e.between(0, 64));
            c = big_case(op, e, o, grid, [&](const shape& g, sim::memory_kind m) {
                return sharded ? dealt(cfg, g, ones(rank), smallest, m, 2)
                               : whole_table_interleaved(cfg, g, smallest, m);
            });
            break;
        }
        case 1: {  // pages>4095 in one-page shards: more than 255 shards a core
            const std::uint64_t banks = interleaved ? std::uint64_t{cfg.grid_x} * cfg.grid_y : 2;
            const shape grid = long_grid(rank, std::max<std::uint64_t>(4096, 256 * banks + 1) + e.between(0, 256));
            c = big_case(op, e, o, grid, [&](const shape& g, sim::memory_kind m) {
                return interleaved ? whole_table_interleaved(cfg, g, smallest, m)
                                   : dealt(cfg, g, ones(rank), smallest, m, 2);
            });
            break;
        }
        case 2: {  // shard>64KiB: shards of 2^16 bytes and one page more (at L1's alignment), on two banks
            const std::uint64_t per = 65536 / round_up(smallest, tt::chip_l1_alignment) + 1;
            shape grid = long_grid(rank, 1), shard = ones(rank);
            grid[rank - 1] = 2 * per;
            shard[rank - 1] = per;
            c = big_case(op, e, o, grid, [&](const shape& g, sim::memory_kind m) {
                if (interleaved) return whole_table_interleaved(cfg, g, smallest, m);
                shape cut = shard;  // the op's output grid may be another order of the dims
                for (std::size_t d = 0; d < rank; ++d) cut[d] = g[d] == grid[rank - 1] ? per : 1;
                return dealt(cfg, g, cut, smallest, m, 2);
            });
            break;
        }
        case 3:
        case 4:
        case 5: {  // tile pages, a few of them
            static constexpr std::array<std::uint64_t, 3> tile{1088, 2048, 4096};
            c = draw_once(op, e, o, {rank, 48, tiles ? tile[k % 8 - 3] : largest, std::nullopt});
            break;
        }
        default: {  // l1 top, dram top
            const sim::memory_kind m = k % 8 == 6 ? sim::memory_kind::l1 : sim::memory_kind::dram;
            if ((kc.memory && *kc.memory != m) || (m == sim::memory_kind::dram && cfg.num_dram_banks == 0))
                return std::nullopt;
            c = draw_once(op, e, o, {rank, std::nullopt, std::nullopt, m});
            if (c) c->top = true;
            break;
        }
    }
    if (!c || !outside_contract(kc, *c).empty()) return std::nullopt;
    try {
        for (const distribution_spec& s : c->inputs) (void)make_distribution(s);
        (void)make_distribution(c->output);
    } catch (const spec_error&) {
        return std::nullopt;
    }
    return c;
}

std::vector<std::optional<case_spec>> draw_cases(const op_desc& op, const check_options& given) {
    testkit::random_entropy e(given.seed);
    check_options o = given;
    const bool tiles = o.page_bytes.empty();  // hard cases draw tile pages only when no sizes are given
    if (o.page_bytes.empty())
        for (const auto& [lo, hi] : {std::pair{1, 3}, std::pair{4, 8}, std::pair{9, 16}})
            o.page_bytes.push_back(static_cast<std::uint32_t>(4 * e.between(lo, hi)));
    std::vector<std::optional<case_spec>> out;
    for (std::uint64_t i = 0; i < o.cases; ++i) {
        // Every hard_every-th case a hard one; the ordinary draw where its class does not fit the op.
        std::optional<case_spec> c;
        if (o.hard_every != 0 && i % o.hard_every == o.hard_every - 1)
            c = draw_hard_case(op, e, o, i / o.hard_every, tiles);
        if (!c) c = draw_case(op, e, o);
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<std::string> hard_classes(const case_spec& c) {
    std::vector<std::string> out;
    std::uint64_t pages = 0, shard_bytes = 0, per_core = 0;
    std::vector<std::uint64_t> sizes;
    bool l1 = false, dram = false;
    auto one = [&](const distribution_spec& s, sim::memory_kind m) {
        try {
            const distribution d = make_distribution(s);
            pages = std::max(pages, d.num_pages());
            shard_bytes = std::max(shard_bytes, volume_of(s.shard) * d.aligned_page_size);
            if (!d.cores.empty()) per_core = std::max(per_core, ceil_div(d.num_shards(), d.cores.size()));
            sizes.push_back(d.page_size);
        } catch (const spec_error&) {}
        (m == sim::memory_kind::dram ? dram : l1) = true;
    };
    for (std::size_t i = 0; i < c.inputs.size(); ++i) one(c.inputs[i], c.input_memory.at(i));
    one(c.output, c.output_memory);
    if (pages > 255) out.emplace_back("pages>255");
    if (pages > 4095) out.emplace_back("pages>4095");
    if (pages > 65536) out.emplace_back("pages>65536");
    if (shard_bytes > 65536) out.emplace_back("shard>64KiB");
    if (per_core > 255) out.emplace_back("shards/core>255");
    for (const std::uint64_t t : {1088, 2048, 4096})
        if (std::find(sizes.begin(), sizes.end(), t) != sizes.end()) out.push_back("page:" + std::to_string(t) + "B");
    if (c.top && l1) out.emplace_back("l1 top");
    if (c.top && dram) out.emplace_back("dram top");
    if (!c.inputs.empty()) out.push_back("rank:" + std::to_string(c.inputs.front().tensor.rank()));
    return out;
}

std::vector<std::string> all_hard_classes(std::size_t lo, std::size_t hi) {
    std::vector<std::string> out{"pages>255",  "pages>4095", "pages>65536", "shard>64KiB", "shards/core>255",
                                 "page:1088B", "page:2048B", "page:4096B",  "l1 top",      "dram top"};
    for (std::size_t r = std::max<std::size_t>(lo, 1); r <= std::min<std::size_t>(hi, 8); ++r)
        out.push_back("rank:" + std::to_string(r));
    return out;
}

}  // namespace ndshard::ttsim
