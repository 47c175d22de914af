// props/accessor_check.hpp - the checks of law 5 (props/accessor.cpp, props/accessor_fixed.cpp):
// what the oracle says about a page or a shard, and one type-erased probe through which
// any accessor<CT> is compared with it, so the comparison is compiled once. The two
// source files are one executable (property.accessor), split so they compile in parallel.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/testkit/coords.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"

namespace ndshard::props {

using oracle::big;
using testkit::to_u64;
using coord8 = std::array<std::uint32_t, max_rank>;

// ---------------------------------------------------------------------------------
// What the oracle says.

using testkit::accepted_model;
using testkit::to_core_coord;

// Row-major digits of `index` over `extents` (testkit/coords.hpp) in a fixed-size array.
inline coord8 digits_of(std::uint64_t index, const std::vector<big>& extents) {
    const std::vector<std::uint64_t> digits = testkit::row_major_coord(index, extents);
    coord8 c{};
    std::transform(digits.begin(), digits.end(), c.begin(),
                   [](std::uint64_t v) { return static_cast<std::uint32_t>(v); });
    return c;
}

// A page or a shard as the oracle places it.
struct expected_place {
    std::uint64_t id;
    coord8 coord;  // page: digits in the folded tensor; shard: digits in the shard grid
    std::uint64_t bank;
    std::uint64_t device_offset;
    std::uint64_t byte_address;
    core_coord core;
};

inline expected_place expected_page(const oracle::model& m, std::uint64_t page) {
    const oracle::location loc = oracle::locate(m, big(page));
    return {page,
            digits_of(page, m.folded_tensor),
            to_u64(loc.core_index),
            to_u64(loc.device_offset),
            to_u64(loc.byte_address),
            to_core_coord(loc.core)};
}

inline expected_place expected_shard(const oracle::model& m, std::uint64_t shard) {
    const coord8 c = digits_of(shard, m.grid);
    const std::vector<big> coord(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(m.grid.size()));
    const oracle::shard_home h = oracle::shard_location(m, coord);  // the oracle finds the id itself
    return {shard, c, to_u64(h.core_index), to_u64(h.device_offset), to_u64(h.byte_address), to_core_coord(h.core)};
}

// Which pages and shards to ask, what the oracle answers, and which cores to ask
// locality questions for (besides the right one).
struct check_plan {
    std::vector<expected_place> pages, shards;
    std::vector<core_coord> other_cores;
    std::uint64_t page_size = 1;  // aligned
    bool coords = true;           // ask the coordinate entry points (the accessor's rank is the folded one)
};

inline check_plan plan_for(const oracle::model& m, const std::vector<std::uint64_t>& pages,
                           const std::vector<std::uint64_t>& shards) {
    check_plan p;
    for (std::uint64_t id : pages) p.pages.push_back(expected_page(m, id));
    for (std::uint64_t id : shards) p.shards.push_back(expected_shard(m, id));
    const std::size_t n = m.cores.size();
    for (std::size_t i = 0; i < n; i += std::max<std::size_t>(1, n / 6))
        p.other_cores.push_back(to_core_coord(m.cores[i]));
    if (n > 0) p.other_cores.push_back(to_core_coord(m.cores[n - 1]));
    p.other_cores.push_back({0xFFFF, 0xFFFF});
    p.page_size = to_u64(m.aligned_page_size);
    return p;
}

// ---------------------------------------------------------------------------------
// Any accessor<CT> behind one interface, so the checks are compiled once.

class accessor_probe {
public:
    virtual ~accessor_probe() = default;
    virtual bank_and_offset page(std::uint32_t id) const = 0;
    virtual noc_addr page_noc(std::uint32_t id, std::uint32_t byte) const = 0;
    virtual bank_and_offset page_at(const coord8& c) const = 0;
    virtual noc_addr page_noc_at(const coord8& c, std::uint32_t byte) const = 0;
    virtual bank_and_offset shard(std::uint32_t id) const = 0;
    virtual noc_addr shard_noc(std::uint32_t id, std::uint32_t byte) const = 0;
    virtual noc_addr shard_noc_at(const coord8& c, std::uint32_t byte) const = 0;
    virtual bool local_page(std::uint32_t id, core_coord me) const = 0;
    virtual bool local_shard(std::uint32_t id, core_coord me) const = 0;
    virtual bool local_addr(noc_addr a, core_coord me) const = 0;
};

template <class A>
class probe final : public accessor_probe {
public:
    explicit probe(const A& a) : a_(a) {}
    bank_and_offset page(std::uint32_t id) const override { return a_.get_bank_and_offset(id); }
    noc_addr page_noc(std::uint32_t id, std::uint32_t byte) const override { return a_.get_noc_addr(id, byte); }
    bank_and_offset page_at(const coord8& c) const override { return a_.get_bank_and_offset_at(c); }
    noc_addr page_noc_at(const coord8& c, std::uint32_t byte) const override { return a_.get_noc_addr_at(c, byte); }
    bank_and_offset shard(std::uint32_t id) const override { return a_.shard_bank_and_offset(id); }
    noc_addr shard_noc(std::uint32_t id, std::uint32_t byte) const override { return a_.get_shard_noc_addr(id, byte); }
    noc_addr shard_noc_at(const coord8& c, std::uint32_t byte) const override {
        return a_.get_shard_noc_addr_at(c, byte);
    }
    bool local_page(std::uint32_t id, core_coord me) const override { return a_.is_local_page(id, me); }
    bool local_shard(std::uint32_t id, core_coord me) const override { return a_.is_local_shard(id, me); }
    bool local_addr(noc_addr a, core_coord me) const override { return A::is_local_addr(a, me); }

private:
    const A& a_;
};

inline std::string show(core_coord c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }
inline std::string show(const bank_and_offset& b) {
    return "{bank " + std::to_string(b.bank) + ", offset " + std::to_string(b.page_offset) + "}";
}
inline std::string show(const noc_addr& n) {
    return "{(" + std::to_string(n.x) + "," + std::to_string(n.y) + "), addr " + std::to_string(n.addr) + "}";
}

class mismatch : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Throws `mismatch` naming the accessor, the entry point and both answers.
inline void check_accessor(const accessor_probe& a, const check_plan& plan, const std::string& label) {
    auto fail = [&](const std::string& what, const expected_place& e, const std::string& got) {
        throw mismatch(label + ": " + what + " " + std::to_string(e.id) + " -> " + got + ", the oracle says bank " +
                       std::to_string(e.bank) + " " + show(e.core) + ", offset " + std::to_string(e.device_offset) +
                       ", address " + std::to_string(e.byte_address));
    };
    auto same_bo = [](const bank_and_offset& b, const expected_place& e) {
        return b.bank == e.bank && b.page_offset == e.device_offset;
    };
    auto same_noc = [](const noc_addr& n, const expected_place& e, std::uint32_t byte) {
        return n.x == e.core.x && n.y == e.core.y && n.addr == e.byte_address + byte;
    };
    // Byte offsets inside the page: the first byte, the last byte, one in between.
    auto byte_for = [&](std::uint64_t id) {
        const std::uint64_t pick = id % 3;
        return static_cast<std::uint32_t>(pick == 0   ? 0
                                          : pick == 1 ? plan.page_size - 1
                                                      : (id * 7919) % plan.page_size);
    };
    auto check_locality = [&](const std::string& what, const expected_place& e, auto&& is_local) {
        if (!is_local(e.core)) fail(what + " (own core " + show(e.core) + ": false)", e, "not local");
        for (core_coord me : plan.other_cores)
            if (is_local(me) != (me == e.core))
                fail(what + " asked on " + show(me), e, is_local(me) ? "local" : "not local");
    };
    for (const expected_place& e : plan.pages) {
        const auto id = static_cast<std::uint32_t>(e.id);
        const std::uint32_t byte = byte_for(e.id);
        if (const auto b = a.page(id); !same_bo(b, e)) fail("get_bank_and_offset(page)", e, show(b));
        if (const auto n = a.page_noc(id, byte); !same_noc(n, e, byte))
            fail("get_noc_addr(page, byte " + std::to_string(byte) + ")", e, show(n));
        if (plan.coords) {
            if (const auto b = a.page_at(e.coord); !same_bo(b, e))
                fail("get_bank_and_offset_at(coord of page)", e, show(b));
            if (const auto n = a.page_noc_at(e.coord, byte); !same_noc(n, e, byte))
                fail("get_noc_addr_at(coord of page, byte " + std::to_string(byte) + ")", e, show(n));
        }
        check_locality("is_local_page", e, [&](core_coord me) { return a.local_page(id, me); });
        const noc_addr there{e.core.x, e.core.y, static_cast<std::uint32_t>(e.byte_address)};
        check_locality("is_local_addr", e, [&](core_coord me) { return a.local_addr(there, me); });
    }
    for (const expected_place& e : plan.shards) {
        const auto id = static_cast<std::uint32_t>(e.id);
        const std::uint32_t byte = byte_for(e.id);
        if (const auto b = a.shard(id); !same_bo(b, e)) fail("shard_bank_and_offset(shard)", e, show(b));
        if (const auto n = a.shard_noc(id, byte); !same_noc(n, e, byte))
            fail("get_shard_noc_addr(shard, byte " + std::to_string(byte) + ")", e, show(n));
        if (plan.coords)
            if (const auto n = a.shard_noc_at(e.coord, byte); !same_noc(n, e, byte))
                fail("get_shard_noc_addr_at(coord of shard, byte " + std::to_string(byte) + ")", e, show(n));
        check_locality("is_local_shard", e, [&](core_coord me) { return a.local_shard(id, me); });
    }
}

// Builds accessor<CT> over `rt` and checks it.
template <auto CT>
void check_static(const std::vector<std::uint32_t>& rt, std::uint32_t base, std::uint32_t page_size,
                  const check_plan& plan, const std::string& label) {
    const accessor<CT> a(rt, base, page_size);
    check_accessor(probe<accessor<CT>>(a), plan, label);
}

}  // namespace ndshard::props
