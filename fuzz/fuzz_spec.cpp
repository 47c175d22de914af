// fuzz_spec: bytes -> a distribution spec, differential against the naive oracle (lib/oracle).
//
// The bytes drive the testkit's one spec generator (byte_entropy; explicit mode lets a
// seed spell out an exact spec). Either both make_distribution and oracle::evaluate reject
// the spec with the same rule id, or both accept it and then, for sampled pages (first,
// last, edge shards, random), the fast path - host layout, accessor words and accessor -
// gives the oracle's shard, core, slot, offset and byte address; the inverse map, shard
// homes and per-core counts agree; squeezing and the legacy form (when from_nd finds one)
// keep every sampled page in place; and small specs are compared slot for slot.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <ndshard/ndshard.hpp>
#include <ndshard/oracle/oracle.hpp>
#include <ndshard/testkit/coords.hpp>
#include <ndshard/testkit/entropy.hpp>
#include <ndshard/testkit/oracle_bridge.hpp>
#include <ndshard/testkit/spec_gen.hpp>

#include "fuzz_common.hpp"

namespace {

using namespace ndshard;
using big = oracle::big;
using testkit::to_u64;

// Work per input stays bounded: whole tables only for small specs, slot walks only for
// few slots per core.
constexpr std::uint64_t table_page_limit = 512;
constexpr std::uint64_t table_slot_limit = 2048;
constexpr std::uint64_t slot_walk_limit = 1024;
constexpr std::uint64_t all_cores_limit = 256;
constexpr std::uint64_t shard_enumeration_limit = 128;

std::string str(const big& v) { return oracle::to_string(v); }

std::string str(const std::vector<big>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + str(v[i]);
    return s + "]";
}

bool same(const shape& fast, const std::vector<big>& slow) {
    if (fast.rank() != slow.size()) return false;
    for (std::size_t d = 0; d < fast.rank(); ++d)
        if (big(fast[d]) != slow[d]) return false;
    return true;
}

// The tensor-rank coordinate folded to the layout's rank: the leading dims become one.
std::vector<std::uint64_t> fold_coordinate(const std::vector<std::uint64_t>& c, const shape& tensor_pages,
                                           std::size_t rank) {
    const std::size_t lead = tensor_pages.rank() - rank + 1;
    std::uint64_t outer = 0;
    for (std::size_t d = 0; d < lead; ++d) outer = outer * tensor_pages[d] + c[d];
    std::vector<std::uint64_t> out{outer};
    for (std::size_t d = lead; d < c.size(); ++d) out.push_back(c[d]);
    return out;
}

void check_rejection(const std::string& fast_rule, const std::string& fast_message, const oracle::verdict& v) {
    NDSHARD_FUZZ_CHECK(!v.accepted,
                       "fast path rejects (" << fast_rule << ": " << fast_message << ") a spec the oracle accepts");
    NDSHARD_FUZZ_CHECK(fast_rule == v.rule, "rule ids differ: fast " << fast_rule << " (" << fast_message
                                                                     << "), oracle " << v.rule << " (" << v.message
                                                                     << ")");
    NDSHARD_FUZZ_CHECK(fast_message.find("[rule " + fast_rule + "]") != std::string::npos,
                       "the message does not name its rule: " << fast_message);
}

void check_model(const distribution& d, const oracle::model& m) {
    const page_layout& l = d.layout;
    NDSHARD_FUZZ_CHECK(same(d.tensor_pages, m.tensor_pages),
                       "tensor pages " << to_string(d.tensor_pages) << " vs " << str(m.tensor_pages));
    NDSHARD_FUZZ_CHECK(same(d.shard_pages, m.shard_pages),
                       "shard pages " << to_string(d.shard_pages) << " vs " << str(m.shard_pages));
    NDSHARD_FUZZ_CHECK(same(l.tensor, m.folded_tensor),
                       "folded tensor " << to_string(l.tensor) << " vs " << str(m.folded_tensor));
    NDSHARD_FUZZ_CHECK(same(l.shard, m.shard_pages), "layout shard " << to_string(l.shard));
    NDSHARD_FUZZ_CHECK(same(l.grid, m.grid), "shard grid " << to_string(l.grid) << " vs " << str(m.grid));
    NDSHARD_FUZZ_CHECK(big(l.num_pages) == m.num_pages, "num_pages " << l.num_pages << " vs " << str(m.num_pages));
    NDSHARD_FUZZ_CHECK(big(l.num_shards) == m.num_shards, "num_shards " << l.num_shards << " vs " << str(m.num_shards));
    NDSHARD_FUZZ_CHECK(big(l.shard_volume) == m.shard_volume,
                       "shard_volume " << l.shard_volume << " vs " << str(m.shard_volume));
    NDSHARD_FUZZ_CHECK(big(l.max_shards_per_core) == m.max_shards_per_core,
                       "max_shards_per_core " << l.max_shards_per_core << " vs " << str(m.max_shards_per_core));
    NDSHARD_FUZZ_CHECK(big(d.reserved_pages_per_core()) == m.reserved_pages_per_core,
                       "reserved pages " << d.reserved_pages_per_core() << " vs " << str(m.reserved_pages_per_core));
    NDSHARD_FUZZ_CHECK(big(d.page_size) == m.page_size, "page size " << d.page_size << " vs " << str(m.page_size));
    NDSHARD_FUZZ_CHECK(big(d.aligned_page_size) == m.aligned_page_size,
                       "aligned page size " << d.aligned_page_size << " vs " << str(m.aligned_page_size));
    NDSHARD_FUZZ_CHECK(big(d.bank_base) == m.bank_base, "bank base " << d.bank_base);
    NDSHARD_FUZZ_CHECK(
        d.cores.size() == m.cores.size() && l.num_cores == d.cores.size(),
        "effective cores: fast " << d.cores.size() << " (layout " << l.num_cores << "), oracle " << m.cores.size());
    std::size_t i = 0;  // the oracle's list walked in order (each step a count, not a search)
    for (const oracle::core_xy& c : m.cores) {
        NDSHARD_FUZZ_CHECK(big(d.cores[i].x) == c.x && big(d.cores[i].y) == c.y,
                           "effective core " << i << ": fast " << to_string(d.cores[i]) << ", oracle (" << str(c.x)
                                             << "," << str(c.y) << ")");
        ++i;
    }
    // Everything a device computes fits 32 bits once a spec passes.
    const big end = m.bank_base + m.reserved_pages_per_core * m.aligned_page_size;
    NDSHARD_FUZZ_CHECK(end <= (big(1) << 32), "accepted spec ends at byte " << str(end));
}

// The accessor built from the spec's all-runtime words, for queries next to the oracle.
template <class Accessor>
void check_accessor_page(const Accessor& a, const distribution& d, std::uint64_t page,
                         const page_place<std::uint64_t>& at, const std::vector<std::uint64_t>& folded,
                         std::uint32_t byte_offset) {
    const auto id = static_cast<std::uint32_t>(page);
    const bank_and_offset bo = a.get_bank_and_offset(id);
    NDSHARD_FUZZ_CHECK(bo.bank == at.core && bo.page_offset == at.device_offset,
                       "accessor page " << page << ": bank " << bo.bank << " offset " << bo.page_offset
                                        << ", layout core " << at.core << " offset " << at.device_offset);
    const bank_and_offset by_coord = a.get_bank_and_offset_at(folded);
    NDSHARD_FUZZ_CHECK(by_coord == bo, "accessor page " << page << " by coordinate: bank " << by_coord.bank
                                                        << " offset " << by_coord.page_offset);
    const core_coord c = d.cores[at.core];
    const noc_addr n = a.get_noc_addr(id, byte_offset);
    const std::uint64_t addr = d.byte_address(at.device_offset) + byte_offset;
    NDSHARD_FUZZ_CHECK(n.x == c.x && n.y == c.y && n.addr == addr,
                       "accessor NoC address of page " << page << ": (" << n.x << "," << n.y << ") " << n.addr
                                                       << ", expected " << to_string(c) << " " << addr);
    NDSHARD_FUZZ_CHECK(a.is_local_page(id, c), "page " << page << " is not local to its own core " << to_string(c));
    const auto shard = static_cast<std::uint32_t>(at.shard_id);
    const bank_and_offset home = a.shard_bank_and_offset(shard);
    NDSHARD_FUZZ_CHECK(home.bank == at.core && home.page_offset == at.slot * d.layout.shard_volume,
                       "accessor shard " << shard << " home: bank " << home.bank << " offset " << home.page_offset);
    NDSHARD_FUZZ_CHECK(a.is_local_shard(shard, c), "shard " << shard << " is not local to " << to_string(c));
}

// Returns the page's coordinate folded to the layout's rank (for the accessor checks).
std::vector<std::uint64_t> check_page(const distribution& d, const oracle::model& m, const page_layout& sq,
                                      std::uint64_t page) {
    const page_layout& l = d.layout;
    const auto at = l.locate(page);
    const oracle::location loc = oracle::locate(m, big(page));
    NDSHARD_FUZZ_CHECK(
        big(at.shard_id) == loc.shard_id && big(at.in_shard_offset) == loc.in_shard_offset &&
            big(at.core) == loc.core_index && big(at.slot) == loc.slot && big(at.device_offset) == loc.device_offset,
        "page " << page << ": fast shard " << at.shard_id << " in-shard " << at.in_shard_offset << " core " << at.core
                << " slot " << at.slot << " offset " << at.device_offset << "; oracle shard " << str(loc.shard_id)
                << " in-shard " << str(loc.in_shard_offset) << " core " << str(loc.core_index) << " slot "
                << str(loc.slot) << " offset " << str(loc.device_offset));
    NDSHARD_FUZZ_CHECK(
        big(d.byte_address(at.device_offset)) == loc.byte_address,
        "page " << page << " byte address " << d.byte_address(at.device_offset) << " vs " << str(loc.byte_address));
    NDSHARD_FUZZ_CHECK(big(d.cores[at.core].x) == loc.core.x && big(d.cores[at.core].y) == loc.core.y,
                       "page " << page << " core coordinate " << to_string(d.cores[at.core]));

    const shape q = l.shard_coord(at.shard_id);
    NDSHARD_FUZZ_CHECK(same(q, loc.shard_coord),
                       "page " << page << " shard coordinate " << to_string(q) << " vs " << str(loc.shard_coord));

    // The coordinate path: page id <-> coordinate, and locate by coordinate.
    const std::vector<std::uint64_t> coord = testkit::row_major_coord(page, d.tensor_pages);
    NDSHARD_FUZZ_CHECK(d.page_id_of(coord) == page,
                       "page_id_of(coordinate of " << page << ") == " << d.page_id_of(coord));
    const std::vector<std::uint64_t> folded = fold_coordinate(coord, d.tensor_pages, l.rank());
    NDSHARD_FUZZ_CHECK(l.locate_coord(folded) == at, "locate_coord disagrees with locate for page " << page);
    std::vector<big> big_coord(coord.begin(), coord.end());
    const oracle::location by_coord = oracle::locate(m, big_coord);
    NDSHARD_FUZZ_CHECK(by_coord.core_index == loc.core_index && by_coord.device_offset == loc.device_offset,
                       "oracle locate by coordinate disagrees for page " << page);

    // The inverse map.
    const auto back = l.page_at(at.core, at.device_offset);
    NDSHARD_FUZZ_CHECK(back && *back == page, "page_at(" << at.core << ", " << at.device_offset
                                                         << ") == " << (back ? std::to_string(*back) : "padding")
                                                         << ", expected " << page);
    const auto slow_back = oracle::page_at(m, loc.core_index, loc.device_offset);
    NDSHARD_FUZZ_CHECK(slow_back && *slow_back == big(page), "oracle page_at does not invert page " << page);

    // The shard's home.
    const auto home = l.shard_home(at.shard_id);
    const oracle::shard_home slow_home = oracle::shard_location(m, big(at.shard_id));
    NDSHARD_FUZZ_CHECK(big(home.core) == slow_home.core_index && big(home.slot) == slow_home.slot,
                       "shard " << at.shard_id << " home: core " << home.core << " slot " << home.slot
                                << "; oracle core " << str(slow_home.core_index) << " slot " << str(slow_home.slot));
    std::vector<big> big_q(q.begin(), q.end());
    NDSHARD_FUZZ_CHECK(oracle::shard_location(m, big_q).core_index == slow_home.core_index,
                       "oracle shard_location by coordinate");

    // Squeezing (sq is squeeze(l)) keeps the page where it is.
    const auto sq_at = sq.locate(page);
    NDSHARD_FUZZ_CHECK(sq_at.core == at.core && sq_at.device_offset == at.device_offset,
                       "squeezed " << to_string(sq.tensor) << "/" << to_string(sq.shard) << " moves page " << page
                                   << " to core " << sq_at.core << " offset " << sq_at.device_offset);
    return folded;
}

// Real pages of one shard; the oracle enumerates the shard's slots, so only small shards.
void check_shard(const distribution& d, const oracle::model& m, std::uint64_t shard) {
    if (d.layout.shard_volume > shard_enumeration_limit) return;
    const std::uint64_t real = d.layout.pages_in_shard(shard);
    const std::size_t slow_real = oracle::pages_of_shard(m, big(shard)).size();
    NDSHARD_FUZZ_CHECK(real == slow_real, "shard " << shard << " has " << real << " real pages; oracle " << slow_real);
}

// A (core, device offset) probe, padding or not.
void check_slot(const distribution& d, const oracle::model& m, std::uint64_t core, std::uint64_t offset) {
    const auto fast = d.layout.page_at(core, offset);
    const auto slow = oracle::page_at(m, big(core), big(offset));
    NDSHARD_FUZZ_CHECK(fast.has_value() == slow.has_value() && (!fast || big(*fast) == *slow),
                       "page_at(" << core << ", " << offset << "): fast " << (fast ? std::to_string(*fast) : "padding")
                                  << ", oracle " << (slow ? str(*slow) : "padding"));
    if (fast) {
        const auto at = d.layout.locate(*fast);
        NDSHARD_FUZZ_CHECK(at.core == core && at.device_offset == offset,
                           "page " << *fast << " found at (" << core << ", " << offset << ") locates to (" << at.core
                                   << ", " << at.device_offset << ")");
    }
}

void check_core(const distribution& d, const oracle::model& m, std::uint64_t core) {
    const page_layout& l = d.layout;
    const std::uint64_t shards = l.shards_on_core(core);
    const big slow = oracle::shards_on_core(m, big(core));
    NDSHARD_FUZZ_CHECK(big(shards) == slow, "core " << core << " holds " << shards << " shards; oracle " << str(slow));
    if (l.max_shards_per_core <= slot_walk_limit) {
        const std::uint64_t pages = l.pages_on_core(core);
        const big slow_pages = oracle::pages_on_core(m, big(core));
        NDSHARD_FUZZ_CHECK(big(pages) == slow_pages,
                           "core " << core << " holds " << pages << " real pages; oracle " << str(slow_pages));
    }
}

// Every slot of a small spec, through the host table, the compressed runs and the accessor.
template <class Accessor>
void check_tables(const distribution& d, const oracle::model& m, const Accessor& a) {
    const auto table = slot_table(d);
    NDSHARD_FUZZ_CHECK(table == testkit::oracle_slot_table(m), "slot_table differs from the oracle's");
    const auto runs = page_runs(d);
    NDSHARD_FUZZ_CHECK(runs.size() == table.size(), "page_runs has " << runs.size() << " cores");
    for (std::size_t core = 0; core < table.size(); ++core) {
        std::vector<std::uint64_t> expanded(table[core].size(), padding_slot);
        for (const page_run& r : runs[core])
            for (std::uint64_t i = 0; i < r.count; ++i) {
                NDSHARD_FUZZ_CHECK(r.device_offset + i < expanded.size(),
                                   "core " << core << " run past its reservation");
                expanded[r.device_offset + i] = r.first_page + i;
            }
        NDSHARD_FUZZ_CHECK(expanded == table[core], "page_runs of core " << core << " do not expand to its slots");
        std::vector<page_ref> local;
        for (const page_ref& p : a.local_pages(static_cast<std::uint32_t>(core))) local.push_back(p);
        std::size_t k = 0;
        for (std::uint64_t slot = 0; slot < table[core].size(); ++slot) {
            if (table[core][slot] == padding_slot) continue;
            NDSHARD_FUZZ_CHECK(k < local.size() && local[k].page_id == table[core][slot] && local[k].bank == core &&
                                   local[k].page_offset == slot,
                               "accessor local_pages(" << core << ") entry " << k << " differs from slot " << slot);
            ++k;
        }
        NDSHARD_FUZZ_CHECK(k == local.size(), "accessor local_pages(" << core << ") yields " << local.size()
                                                                      << " pages, the table holds " << k);
    }
    std::uint64_t expect = 0;
    for (const page_ref& p : a.pages()) {
        NDSHARD_FUZZ_CHECK(p.page_id == expect, "accessor pages() yields page " << p.page_id << " for " << expect);
        const auto at = d.layout.locate(expect);
        NDSHARD_FUZZ_CHECK(
            p.bank == at.core && p.page_offset == at.device_offset,
            "accessor pages() puts page " << expect << " on bank " << p.bank << " offset " << p.page_offset);
        ++expect;
    }
    NDSHARD_FUZZ_CHECK(expect == d.num_pages(), "accessor pages() yields " << expect << " of " << d.num_pages());
}

// When from_nd finds a legacy form, it must place every sampled page where the ND spec
// does - checked through to_nd and against the oracle's separate legacy formulas.
void check_legacy(const distribution& d, const std::vector<std::uint64_t>& pages) {
    const legacy_result lr = from_nd(d);
    NDSHARD_FUZZ_CHECK(lr.spec.has_value() != !lr.reason.empty(),
                       "from_nd gives " << (lr.spec ? "a spec" : "no spec") << " with reason '" << lr.reason << "'");
    if (!lr.spec) return;
    const legacy_spec& ls = *lr.spec;
    distribution nd;
    try {
        nd = make_distribution(to_nd(ls));
    } catch (const spec_error& e) {
        fuzz::fail(std::string("from_nd's ") + to_string(ls.layout) + " spec is rejected: " + e.what());
    }
    const auto [h, w] = legacy_view(d.tensor_pages);
    const std::vector<oracle::core_xy> listed = [&] {
        std::vector<oracle::core_range> ranges;
        for (const core_range& r : ls.cores) ranges.push_back({r.start.x, r.start.y, r.end.x, r.end.y});
        const oracle::orientation o =
            ls.orient == orientation::row_major ? oracle::orientation::row_major : oracle::orientation::col_major;
        return ls.layout == legacy_layout::block ? std::vector<oracle::core_xy>{} : oracle::expand_cores(ranges, o);
    }();
    for (std::uint64_t page : pages) {
        const auto at = d.layout.locate(page);
        const auto nd_at = nd.layout.locate(page);
        const core_coord c = d.cores[at.core];
        NDSHARD_FUZZ_CHECK(nd.cores[nd_at.core] == c && nd_at.device_offset == at.device_offset,
                           to_string(ls.layout)
                               << " form moves page " << page << " to " << to_string(nd.cores[nd_at.core]) << " offset "
                               << nd_at.device_offset << " from " << to_string(c) << " offset " << at.device_offset);
        big core_x, core_y, offset;
        const big r = page / w, col = page % w;
        switch (ls.layout) {
            case legacy_layout::interleaved: {
                const oracle::bank_offset bo = oracle::interleaved(big(page), big(listed.size()));
                core_x = listed.at(static_cast<std::size_t>(bo.bank)).x;
                core_y = listed.at(static_cast<std::size_t>(bo.bank)).y;
                offset = bo.offset;
                break;
            }
            case legacy_layout::height:
            case legacy_layout::width: {
                const oracle::legacy_place lp = ls.layout == legacy_layout::height
                                                    ? oracle::legacy_height(r, col, h, w, ls.shard_height)
                                                    : oracle::legacy_width(r, col, h, w, ls.shard_width);
                core_x = listed.at(static_cast<std::size_t>(lp.core_index)).x;
                core_y = listed.at(static_cast<std::size_t>(lp.core_index)).y;
                offset = lp.offset;
                break;
            }
            case legacy_layout::block: {
                const core_range& cr = ls.cores.front();
                oracle::core_xy out;
                const oracle::legacy_place lp =
                    oracle::legacy_block(r, col, h, w, ls.shard_height, ls.shard_width,
                                         ls.orient == orientation::row_major ? oracle::orientation::row_major
                                                                             : oracle::orientation::col_major,
                                         {cr.start.x, cr.start.y, cr.end.x, cr.end.y}, &out);
                core_x = out.x;
                core_y = out.y;
                offset = lp.offset;
                break;
            }
        }
        NDSHARD_FUZZ_CHECK(core_x == big(c.x) && core_y == big(c.y) && offset == big(at.device_offset),
                           "oracle " << to_string(ls.layout) << " puts page " << page << " on (" << str(core_x) << ","
                                     << str(core_y) << ") offset " << str(offset) << "; ND on " << to_string(c)
                                     << " offset " << at.device_offset);
    }
}

bool small_table(const distribution& d) {
    return d.num_pages() <= table_page_limit && d.layout.num_cores * d.reserved_pages_per_core() <= table_slot_limit;
}

void check_accepted(const distribution& d, const oracle::model& m, testkit::entropy& e) {
    check_model(d, m);
    const page_layout& l = d.layout;
    const std::vector<std::uint64_t> pages = testkit::sample_pages(e, d, 8);

    const accessor_words words = make_accessor_words(d, arg::all_runtime);
    const page_layout sq = squeeze(l);
    const accessor_words squeezed = make_accessor_words(d, arg::all_runtime, &sq);
    const auto base = static_cast<std::uint32_t>(d.bank_base);
    const auto page_size = static_cast<std::uint32_t>(d.aligned_page_size);
    with_runtime_accessor(words, base, page_size, [&](const auto& a) {
        NDSHARD_FUZZ_CHECK(a.num_pages() == l.num_pages && a.num_shards() == l.num_shards &&
                               a.num_banks() == l.num_cores && a.shard_volume() == l.shard_volume &&
                               a.max_shards_per_core() == l.max_shards_per_core,
                           "accessor sizes: pages " << a.num_pages() << " shards " << a.num_shards() << " banks "
                                                    << a.num_banks() << " max/core " << a.max_shards_per_core());
        for (std::uint64_t page : pages) {
            const std::vector<std::uint64_t> folded = check_page(d, m, sq, page);
            const auto at = l.locate(page);
            const auto byte_offset = static_cast<std::uint32_t>(e.between(0, d.aligned_page_size - 1));
            check_accessor_page(a, d, page, at, folded, byte_offset);
        }
        for (std::uint32_t b = 0; b < a.num_banks() && b < all_cores_limit; ++b)
            NDSHARD_FUZZ_CHECK(
                a.shards_in_bank(b) == l.shards_on_core(b),
                "bank " << b << ": accessor " << a.shards_in_bank(b) << " shards, layout " << l.shards_on_core(b));
        if (small_table(d)) check_tables(d, m, a);
    });
    with_runtime_accessor(squeezed, base, page_size, [&](const auto& a) {
        for (std::uint64_t page : pages) {
            const auto at = l.locate(page);
            const bank_and_offset bo = a.get_bank_and_offset(static_cast<std::uint32_t>(page));
            NDSHARD_FUZZ_CHECK(
                bo.bank == at.core && bo.page_offset == at.device_offset,
                "squeezed accessor puts page " << page << " on bank " << bo.bank << " offset " << bo.page_offset);
        }
    });

    if (l.num_shards > 0) {
        check_shard(d, m, l.num_shards - 1);
        check_shard(d, m, e.between(0, l.num_shards - 1));
    }
    const std::uint64_t cores = l.num_cores;
    if (l.reserved_pages_per_core() > 0)
        for (int i = 0; i < 8; ++i)
            check_slot(d, m, e.between(0, cores - 1), e.between(0, l.reserved_pages_per_core() - 1));
    if (cores <= all_cores_limit) {
        std::uint64_t shards = 0, pages_total = 0, busy = 0;
        for (std::uint64_t c = 0; c < cores; ++c) {
            check_core(d, m, c);
            shards += l.shards_on_core(c);
            busy += l.shards_on_core(c) > 0 ? 1 : 0;
            if (l.max_shards_per_core <= slot_walk_limit) pages_total += l.pages_on_core(c);
        }
        NDSHARD_FUZZ_CHECK(shards == l.num_shards, "cores hold " << shards << " of " << l.num_shards << " shards");
        NDSHARD_FUZZ_CHECK(busy == l.cores_with_data(),
                           "cores_with_data " << l.cores_with_data() << ", counted " << busy);
        if (l.max_shards_per_core <= slot_walk_limit)
            NDSHARD_FUZZ_CHECK(pages_total == l.num_pages,
                               "cores hold " << pages_total << " of " << l.num_pages << " pages");
    } else {
        check_core(d, m, 0);
        check_core(d, m, cores - 1);
        for (int i = 0; i < 4; ++i) check_core(d, m, e.between(0, cores - 1));
    }
    if (cores <= 4096 && l.num_pages > 0) check_legacy(d, pages);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ndshard;
    testkit::byte_entropy e(std::span<const std::uint8_t>(data, size));
    const distribution_spec spec = testkit::generate_spec(e, fuzz::spec_fuzz_options());
    fuzz::note_spec(spec);

    std::optional<distribution> fast;
    std::string rule, message;
    try {
        fast = make_distribution(spec);
    } catch (const spec_error& err) {
        rule = err.rule();
        message = err.what();
    } catch (const std::exception& err) {
        fuzz::fail(std::string("make_distribution throws a non-spec_error: ") + err.what());
    }
    const oracle::verdict verdict = oracle::evaluate(testkit::to_oracle(spec));
    if (!fast) {
        check_rejection(rule, message, verdict);
        return 0;
    }
    NDSHARD_FUZZ_CHECK(verdict.accepted, "fast path accepts a spec the oracle rejects: " << verdict.rule << " ("
                                                                                         << verdict.message << ")");
    try {
        check_accepted(*fast, *verdict.accepted, e);
    } catch (const std::exception& err) {
        fuzz::fail(std::string("unexpected exception on an accepted spec: ") + err.what());
    }
    return 0;
}
