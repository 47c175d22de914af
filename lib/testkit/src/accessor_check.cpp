// The accessor check (testkit/accessor_check.hpp): the two reference builders and the walk.
#include "ndshard/testkit/accessor_check.hpp"

#include <algorithm>
#include <cstddef>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/testkit/coords.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"

namespace ndshard::testkit {
namespace {

using oracle::big;

coord8 to_coord8(const std::vector<std::uint64_t>& digits) {
    coord8 c{};
    for (std::size_t i = 0; i < digits.size() && i < c.size(); ++i) c[i] = static_cast<std::uint32_t>(digits[i]);
    return c;
}

template <class Extents>
coord8 digits_of(std::uint64_t id, const Extents& extents) {
    return to_coord8(row_major_coord(id, extents));
}

// Every n/6-th core, the last one, and a coordinate no device has.
std::vector<core_coord> some_other_cores(const std::vector<core_coord>& cores) {
    std::vector<core_coord> out;
    const std::size_t n = cores.size();
    for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 6)) out.push_back(cores[i]);
    if (n > 0) out.push_back(cores[n - 1]);
    out.push_back({0xFFFF, 0xFFFF});
    return out;
}

std::string show(core_coord c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }
std::string show(const bank_and_offset& b) {
    return "{bank " + std::to_string(b.bank) + ", offset " + std::to_string(b.page_offset) + "}";
}
std::string show(const noc_addr& n) {
    return "{(" + std::to_string(n.x) + "," + std::to_string(n.y) + "), addr " + std::to_string(n.addr) + "}";
}
std::string show(const page_ref& r) {
    return "{page " + std::to_string(r.page_id) + ", bank " + std::to_string(r.bank) + ", offset " +
           std::to_string(r.page_offset) + "}";
}
std::string show(const expected_ref& r) {
    return "{page " + std::to_string(r.page) + ", bank " + std::to_string(r.bank) + ", offset " +
           std::to_string(r.device_offset) + "}";
}
std::string show(const expected_place& e) {
    return "bank " + std::to_string(e.bank) + " " + show(e.core) + ", offset " + std::to_string(e.device_offset) +
           ", address " + std::to_string(e.byte_address);
}
std::string show(const coord8& c, std::size_t rank) {
    std::string s = "[";
    for (std::size_t i = 0; i < rank && i < c.size(); ++i) s += (i ? "," : "") + std::to_string(c[i]);
    return s + "]";
}

bool same(const page_ref& r, const expected_ref& e) {
    return r.page_id == e.page && r.bank == e.bank && r.page_offset == e.device_offset;
}

}  // namespace

std::uint32_t default_byte(std::uint64_t id, std::uint64_t page_size) {
    if (page_size == 0) return 0;
    const std::uint64_t pick = id % 3;
    return static_cast<std::uint32_t>(pick == 0 ? 0 : pick == 1 ? page_size - 1 : (id * 7919) % page_size);
}

std::string accessor_mismatch::text() const { return entry + "(" + query + ") -> " + got + ", expected " + expected; }

// ---------------------------------------------------------------------------------
// From the oracle.

accessor_expectation expect_from_oracle(const oracle::model& m, const std::vector<std::uint64_t>& pages,
                                        const std::vector<std::uint64_t>& shards,
                                        const std::vector<std::uint32_t>& banks, std::uint64_t list_limit,
                                        std::uint64_t walk_limit, const std::vector<core_coord>* cores) {
    accessor_expectation x;
    std::vector<core_coord> own;
    if (cores == nullptr) {
        for (const auto& c : m.cores) own.push_back(to_core_coord(c));
        cores = &own;
    }
    x.rank = static_cast<std::uint32_t>(m.folded_tensor.size());
    x.num_banks = cores->size();
    x.num_pages = to_u64(m.num_pages);
    x.num_shards = to_u64(m.num_shards);
    x.shard_volume = to_u64(m.shard_volume);
    x.max_shards_per_core = to_u64(m.max_shards_per_core);
    x.page_size = to_u64(m.aligned_page_size);
    x.other_cores = some_other_cores(*cores);
    if (x.num_pages <= walk_limit) {
        x.all_pages.emplace();
        for (std::uint64_t p = 0; p < x.num_pages; ++p) {
            const oracle::location loc = oracle::locate(m, big(p));
            x.all_pages->push_back({p, to_u64(loc.core_index), to_u64(loc.device_offset)});
        }
    }
    auto refs = [&](const std::vector<big>& ids) {
        std::vector<expected_ref> out;
        for (const big& id : ids) {
            const std::uint64_t p = to_u64(id);
            if (x.all_pages) {
                out.push_back((*x.all_pages)[p]);
            } else {
                const oracle::location loc = oracle::locate(m, id);
                out.push_back({p, to_u64(loc.core_index), to_u64(loc.device_offset)});
            }
        }
        return out;
    };
    for (const std::uint64_t id : pages) {
        const oracle::location loc = oracle::locate(m, big(id));
        expected_place e;
        e.id = id;
        e.coord = digits_of(id, m.folded_tensor);
        e.bank = to_u64(loc.core_index);
        e.device_offset = to_u64(loc.device_offset);
        e.byte_address = to_u64(loc.byte_address);
        e.core = cores == &own ? to_core_coord(loc.core) : (*cores)[e.bank];
        e.byte = default_byte(id, x.page_size);
        e.shard_id = to_u64(loc.shard_id);
        std::vector<std::uint64_t> sc;
        for (const big& v : loc.shard_coord) sc.push_back(to_u64(v));
        e.shard_coord = to_coord8(sc);
        x.pages.push_back(std::move(e));
    }
    for (const std::uint64_t id : shards) {
        expected_place e;
        e.id = id;
        e.coord = digits_of(id, m.grid);
        const std::vector<big> coord(e.coord.begin(), e.coord.begin() + static_cast<std::ptrdiff_t>(m.grid.size()));
        const oracle::shard_home h = oracle::shard_location(m, coord);  // the oracle finds the id itself
        e.bank = to_u64(h.core_index);
        e.device_offset = to_u64(h.device_offset);
        e.byte_address = to_u64(h.byte_address);
        e.core = cores == &own ? to_core_coord(h.core) : (*cores)[e.bank];
        e.byte = default_byte(id, x.page_size);
        if (x.shard_volume <= list_limit) e.pages = refs(oracle::pages_of_shard(m, big(id)));
        x.shards.push_back(std::move(e));
    }
    for (const std::uint32_t b : banks) {
        expected_bank e{b, (*cores)[b], to_u64(oracle::shards_on_core(m, big(b))), std::nullopt};
        if (m.reserved_pages_per_core <= list_limit) e.pages = refs(oracle::local_pages(m, big(b)));
        x.banks.push_back(std::move(e));
    }
    return x;
}

// ---------------------------------------------------------------------------------
// From the host layout.

accessor_expectation expect_from_layout(const distribution& d, const page_layout& l,
                                        const std::vector<std::uint64_t>& pages, std::uint64_t walk_limit) {
    accessor_expectation x;
    x.rank = static_cast<std::uint32_t>(l.rank());
    x.num_banks = l.num_cores;
    x.num_pages = l.num_pages;
    x.num_shards = l.num_shards;
    x.shard_volume = l.shard_volume;
    x.max_shards_per_core = l.max_shards_per_core;
    x.page_size = d.aligned_page_size;
    x.other_cores = some_other_cores(d.cores);
    const bool listing = l.num_pages <= walk_limit && l.num_cores * l.reserved_pages_per_core() <= 10 * walk_limit;
    std::vector<std::vector<expected_ref>> by_shard, by_core;
    if (listing) {
        x.all_pages.emplace();
        by_shard.resize(l.num_shards);
        by_core.resize(l.num_cores);
        for (std::uint64_t p = 0; p < l.num_pages; ++p) {
            const auto at = l.locate(p);
            const expected_ref r{p, at.core, at.device_offset};
            x.all_pages->push_back(r);
            by_shard[at.shard_id].push_back(r);
            by_core[at.core].push_back(r);
        }
        const auto by_offset = [](const expected_ref& a, const expected_ref& b) {
            return a.device_offset < b.device_offset;
        };
        for (auto& v : by_shard) std::sort(v.begin(), v.end(), by_offset);
        for (auto& v : by_core) std::sort(v.begin(), v.end(), by_offset);
    }
    std::vector<std::uint64_t> shards;
    std::set<std::uint64_t> seen;
    for (const std::uint64_t id : pages) {
        const auto at = l.locate(id);
        const std::vector<std::uint64_t> c = row_major_coord(id, std::span<const std::uint64_t>(l.tensor));
        std::vector<std::uint64_t> q(c.size());
        for (std::size_t k = 0; k < c.size(); ++k) q[k] = c[k] / l.shard[k];
        expected_place e;
        e.id = id;
        e.coord = to_coord8(c);
        e.bank = at.core;
        e.device_offset = at.device_offset;
        e.byte_address = d.byte_address(at.device_offset);
        e.core = d.cores[at.core];
        e.byte = default_byte(id, x.page_size);
        e.shard_id = at.shard_id;
        e.shard_coord = to_coord8(q);
        x.pages.push_back(e);
        if (!listing && seen.insert(at.shard_id).second) shards.push_back(at.shard_id);
    }
    if (listing)
        for (std::uint64_t s = 0; s < l.num_shards; ++s) shards.push_back(s);
    for (const std::uint64_t s : shards) {
        const deal_result<std::uint64_t> home = l.shard_home(s);
        expected_place e;
        e.id = s;
        e.coord = digits_of(s, std::span<const std::uint64_t>(l.grid));
        e.bank = home.core;
        e.device_offset = home.slot * l.shard_volume;
        e.byte_address = d.byte_address(e.device_offset);
        e.core = d.cores[home.core];
        e.byte = default_byte(s, x.page_size);
        if (listing) e.pages = std::move(by_shard[s]);
        x.shards.push_back(std::move(e));
    }
    const std::uint64_t banks = listing ? l.num_cores : std::min<std::uint64_t>(l.num_cores, 64);
    for (std::uint64_t b = 0; b < banks; ++b) {
        expected_bank e{static_cast<std::uint32_t>(b), d.cores[b], l.shards_on_core(b), std::nullopt};
        if (listing) e.pages = std::move(by_core[b]);
        x.banks.push_back(std::move(e));
    }
    return x;
}

// ---------------------------------------------------------------------------------
// The walk.

void check_probe(const accessor_probe& a, const accessor_expectation& x, const mismatch_reporter& report) {
    auto fail = [&](std::string entry, std::string query, std::string expected, std::string got) {
        report({std::move(entry), std::move(query), std::move(expected), std::move(got)});
    };
    auto size = [&](const char* entry, std::uint64_t got, std::uint64_t expected) {
        if (got != expected) fail(entry, "", std::to_string(expected), std::to_string(got));
    };
    if (x.rank) size("rank", a.rank(), *x.rank);
    size("num_banks", a.num_banks(), x.num_banks);
    size("num_pages", a.num_pages(), x.num_pages);
    size("num_shards", a.num_shards(), x.num_shards);
    size("shard_volume", a.shard_volume(), x.shard_volume);
    size("max_shards_per_core", a.max_shards_per_core(), x.max_shards_per_core);
    const std::size_t rank = x.rank ? *x.rank : max_rank;

    auto same_bo = [](const bank_and_offset& b, const expected_place& e) {
        return b.bank == e.bank && b.page_offset == e.device_offset;
    };
    auto same_noc = [](const noc_addr& n, const expected_place& e) {
        return n.x == e.core.x && n.y == e.core.y && std::uint64_t{n.addr} == e.byte_address + e.byte;
    };
    auto noc_of = [](const expected_place& e) {
        return show(e.core) + ", address " + std::to_string(e.byte_address) + " + " + std::to_string(e.byte);
    };
    // On its own core, and on each other core exactly when that is its own.
    auto check_locality = [&](const char* entry, const std::string& query, const expected_place& e, auto&& is_local) {
        if (!is_local(e.core)) fail(entry, query + " on its own core " + show(e.core), "local", "not local");
        for (const core_coord me : x.other_cores)
            if (is_local(me) != (me == e.core))
                fail(entry, query + " on " + show(me), (me == e.core) ? "local" : "not local",
                     is_local(me) ? "local" : "not local");
    };

    for (const expected_place& e : x.pages) {
        const auto id = static_cast<std::uint32_t>(e.id);
        const std::string q = "page " + std::to_string(e.id);
        const std::string qb = q + ", byte " + std::to_string(e.byte);
        const bank_and_offset bo = a.page(id);
        if (!same_bo(bo, e)) fail("get_bank_and_offset", q, show(e), show(bo));
        if (const std::uint32_t addr = a.bank_address(static_cast<std::uint32_t>(e.device_offset), e.byte);
            std::uint64_t{addr} != e.byte_address + e.byte)
            fail("bank_address", "offset " + std::to_string(e.device_offset) + ", byte " + std::to_string(e.byte),
                 std::to_string(e.byte_address + e.byte), std::to_string(addr));
        const noc_addr n = a.page_noc(id, e.byte);
        if (!same_noc(n, e)) fail("get_noc_addr", qb, noc_of(e), show(n));
        if (x.coords) {
            const std::string qc = q + " at " + show(e.coord, rank);
            if (const auto b = a.page_at(e.coord); !same_bo(b, e)) fail("get_bank_and_offset_at", qc, show(e), show(b));
            if (const auto m = a.page_noc_at(e.coord, e.byte); !same_noc(m, e))
                fail("get_noc_addr_at", qc + ", byte " + std::to_string(e.byte), noc_of(e), show(m));
            if (const std::uint32_t s = a.shard_id_at(e.shard_coord); s != e.shard_id)
                fail("shard_id_at", "shard coordinate " + show(e.shard_coord, rank) + " of " + q,
                     std::to_string(e.shard_id), std::to_string(s));
        }
        check_locality("is_local_page", q, e, [&](core_coord me) { return a.local_page(id, me); });
        const noc_addr there{e.core.x, e.core.y, static_cast<std::uint32_t>(e.byte_address)};
        check_locality("is_local_addr", "the address of " + q, e,
                       [&](core_coord me) { return a.local_addr(there, me); });
    }

    for (const expected_place& e : x.shards) {
        const auto id = static_cast<std::uint32_t>(e.id);
        const std::string q = "shard " + std::to_string(e.id);
        if (const auto b = a.shard(id); !same_bo(b, e)) fail("shard_bank_and_offset", q, show(e), show(b));
        if (const auto n = a.shard_noc(id, e.byte); !same_noc(n, e))
            fail("get_shard_noc_addr", q + ", byte " + std::to_string(e.byte), noc_of(e), show(n));
        if (x.coords)
            if (const auto n = a.shard_noc_at(e.coord, e.byte); !same_noc(n, e))
                fail("get_shard_noc_addr_at", q + " at " + show(e.coord, rank) + ", byte " + std::to_string(e.byte),
                     noc_of(e), show(n));
        check_locality("is_local_shard", q, e, [&](core_coord me) { return a.local_shard(id, me); });
        if (!e.pages) continue;
        const std::vector<expected_ref>& want = *e.pages;
        std::size_t k = 0;
        bool astray = false;
        a.shard_pages(id, [&](const page_ref& r, std::uint64_t remaining) {
            const std::string qk = q + ", entry " + std::to_string(k);
            if (k >= want.size() || !same(r, want[k])) {
                fail("shard_pages", qk, k < want.size() ? show(want[k]) : "the end", show(r));
                astray = true;
                return false;
            }
            if (remaining != want.size() - k)
                fail("shard_pages remaining()", qk, std::to_string(want.size() - k), std::to_string(remaining));
            ++k;
            return true;
        });
        if (!astray && k < want.size())
            fail("shard_pages", q, std::to_string(want.size()) + " pages", std::to_string(k) + " pages");
    }

    for (const expected_bank& e : x.banks) {
        const std::string q = "bank " + std::to_string(e.bank);
        if (e.bank < x.num_banks)
            if (const core_coord c = a.bank_coord(e.bank); c != e.core) fail("bank_coord", q, show(e.core), show(c));
        if (const std::uint32_t n = a.shards_in_bank(e.bank); n != e.shards)
            fail("shards_in_bank", q, std::to_string(e.shards), std::to_string(n));
        if (!e.pages) continue;
        const std::vector<expected_ref>& want = *e.pages;
        std::size_t k = 0;
        bool astray = false;
        a.local_pages(e.bank, [&](const page_ref& r) {
            const std::string qk = q + ", entry " + std::to_string(k);
            if (k >= want.size() || !same(r, want[k])) {
                fail("local_pages", qk, k < want.size() ? show(want[k]) : "the end", show(r));
                astray = true;
                return false;
            }
            ++k;
            return true;
        });
        if (!astray && k < want.size())
            fail("local_pages", q, std::to_string(want.size()) + " pages", std::to_string(k) + " pages");
    }

    if (!x.all_pages) return;
    const std::vector<expected_ref>& want = *x.all_pages;
    std::size_t k = 0;
    bool astray = false;
    a.pages([&](const page_ref& r) {
        if (k >= want.size() || !same(r, want[k])) {
            fail("pages", "entry " + std::to_string(k), k < want.size() ? show(want[k]) : "the end", show(r));
            astray = true;
            return false;
        }
        ++k;
        return true;
    });
    if (!astray && k < want.size())
        fail("pages", "", std::to_string(want.size()) + " pages", std::to_string(k) + " pages");
}

}  // namespace ndshard::testkit
