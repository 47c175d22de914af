// ndshard/testkit/accessor_check.hpp - the one check of an accessor against a reference,
// used by props/ (law 5, precomputed words), fuzz/fuzz_accessor_args and bench/selfcheck.
//
// A reference is written down first as an `accessor_expectation`: the sizes, and for
// chosen pages, shards and banks what they must answer, in plain 64-bit numbers. Two
// builders fill one in: from the checked-integer oracle (expect_from_oracle: props and the fuzzer)
// or from the host page_layout (expect_from_layout: the bench self-check, which holds the
// fast path against the host side of the same formulas). check_accessor then walks every
// entry point of the accessor against it:
//   sizes (rank, num_banks, num_pages, num_shards, shard_volume, max_shards_per_core);
//   per page: get_bank_and_offset, get_noc_addr and bank_address with a byte offset,
//     and by coordinate get_bank_and_offset_at, get_noc_addr_at, shard_id_at;
//     is_local_page and is_local_addr on its own core and on other cores;
//   per shard: shard_bank_and_offset, get_shard_noc_addr, get_shard_noc_addr_at,
//     is_local_shard, and shard_pages(s) (ids, banks, offsets, remaining()) when listed;
//   per bank: bank_coord, shards_in_bank, and local_pages(b) when listed;
//   pages(): every page in id order, when listed.
// A mismatch is handed to the caller's reporter (entry point, query, expected, got): props
// throw, the fuzzer aborts with the input noted, the bench self-check counts and prints.
// The accessor is reached through accessor_probe (virtual), so the walk is compiled once.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/accessor.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/layout.hpp"

namespace ndshard::testkit {

using coord8 = std::array<std::uint32_t, max_rank>;

// A page as the reference places it, listed by a shard or a bank or pages().
struct expected_ref {
    std::uint64_t page, bank, device_offset;
};

// A page or a shard as the reference places it.
struct expected_place {
    std::uint64_t id = 0;
    coord8 coord{};  // page: digits in the accessor's page grid; shard: digits in the shard grid
    std::uint64_t bank = 0, device_offset = 0, byte_address = 0;
    core_coord core{};
    std::uint32_t byte = 0;  // the byte inside the page asked of the NoC entry points
    // A page: its shard and that shard's grid coordinate (shard_id_at).
    std::uint64_t shard_id = 0;
    coord8 shard_coord{};
    // A shard: its real pages in device order (shard_pages), when listed.
    std::optional<std::vector<expected_ref>> pages;
};

struct expected_bank {
    std::uint32_t bank = 0;
    core_coord core{};
    std::uint64_t shards = 0;
    std::optional<std::vector<expected_ref>> pages;  // local_pages(bank) in device order, when listed
};

struct accessor_expectation {
    std::optional<std::uint32_t> rank;  // unset: not asked (another rank's words, e.g. squeezed)
    std::uint64_t num_banks = 0, num_pages = 0, num_shards = 0, shard_volume = 0, max_shards_per_core = 0;
    std::uint64_t page_size = 1;  // aligned
    std::vector<expected_place> pages, shards;
    std::vector<expected_bank> banks;
    std::vector<core_coord> other_cores;                 // asked locality questions besides a page's own core
    bool coords = true;                                  // ask the coordinate entry points
    std::optional<std::vector<expected_ref>> all_pages;  // pages() in id order, when listed
};

// The byte asked of page or shard `id` unless a builder's caller chooses: the first, the
// last or one in between.
std::uint32_t default_byte(std::uint64_t id, std::uint64_t page_size);

// From the oracle. `pages`, `shards` and `banks` are the ids to ask; shards and banks have
// their pages listed when shard_volume (reserved_pages_per_core) <= list_limit, and pages()
// is walked when num_pages <= walk_limit. `cores` are the bank coordinates the accessor was
// given (nullptr: the oracle's core list); other_cores are a few of them and (0xFFFF,0xFFFF).
accessor_expectation expect_from_oracle(const oracle::model& m, const std::vector<std::uint64_t>& pages,
                                        const std::vector<std::uint64_t>& shards,
                                        const std::vector<std::uint32_t>& banks = {}, std::uint64_t list_limit = 0,
                                        std::uint64_t walk_limit = 0, const std::vector<core_coord>* cores = nullptr);

// From the host layout `l` of `d` (d.layout or squeeze(d.layout)): the listed pages, their
// shards and the first 64 banks; when num_pages <= walk_limit and the reserved pages of all
// cores <= 10 x walk_limit, every shard and bank with its pages, and pages().
accessor_expectation expect_from_layout(const distribution& d, const page_layout& l,
                                        const std::vector<std::uint64_t>& pages, std::uint64_t walk_limit);

// One disagreement: the entry point, what it was asked, the reference's and the accessor's answers.
struct accessor_mismatch {
    std::string entry, query, expected, got;
    [[nodiscard]] std::string text() const;  // "entry(query) -> got, expected ..."
};
using mismatch_reporter = std::function<void(const accessor_mismatch&)>;

// A reporter that throws accessor_error("label: entry(query) -> got, expected ...").
class accessor_error : public std::runtime_error {
    using std::runtime_error::runtime_error;
};
inline mismatch_reporter throw_mismatch(std::string label) {
    return [label = std::move(label)](const accessor_mismatch& m) { throw accessor_error(label + ": " + m.text()); };
}

// Any accessor<CT> behind one interface.
class accessor_probe {
public:
    virtual ~accessor_probe() = default;
    virtual std::uint32_t rank() const = 0;
    virtual std::uint32_t num_banks() const = 0;
    virtual std::uint32_t num_pages() const = 0;
    virtual std::uint32_t num_shards() const = 0;
    virtual std::uint32_t shard_volume() const = 0;
    virtual std::uint32_t max_shards_per_core() const = 0;
    virtual core_coord bank_coord(std::uint32_t bank) const = 0;
    virtual std::uint32_t bank_address(std::uint32_t offset, std::uint32_t byte) const = 0;
    virtual bank_and_offset page(std::uint32_t id) const = 0;
    virtual noc_addr page_noc(std::uint32_t id, std::uint32_t byte) const = 0;
    virtual bank_and_offset page_at(const coord8& c) const = 0;
    virtual noc_addr page_noc_at(const coord8& c, std::uint32_t byte) const = 0;
    virtual std::uint32_t shard_id_at(const coord8& c) const = 0;
    virtual bank_and_offset shard(std::uint32_t id) const = 0;
    virtual noc_addr shard_noc(std::uint32_t id, std::uint32_t byte) const = 0;
    virtual noc_addr shard_noc_at(const coord8& c, std::uint32_t byte) const = 0;
    virtual std::uint32_t shards_in_bank(std::uint32_t bank) const = 0;
    virtual bool local_page(std::uint32_t id, core_coord me) const = 0;
    virtual bool local_shard(std::uint32_t id, core_coord me) const = 0;
    virtual bool local_addr(noc_addr a, core_coord me) const = 0;
    // Iterators: `visit` returns false to stop. shard_pages also passes remaining().
    virtual void pages(const std::function<bool(const page_ref&)>& visit) const = 0;
    virtual void shard_pages(std::uint32_t s,
                             const std::function<bool(const page_ref&, std::uint64_t)>& visit) const = 0;
    virtual void local_pages(std::uint32_t b, const std::function<bool(const page_ref&)>& visit) const = 0;
};

template <class A>
class probe final : public accessor_probe {
public:
    explicit probe(const A& a) : a_(a) {}
    std::uint32_t rank() const override { return a_.rank(); }
    std::uint32_t num_banks() const override { return a_.num_banks(); }
    std::uint32_t num_pages() const override { return a_.num_pages(); }
    std::uint32_t num_shards() const override { return a_.num_shards(); }
    std::uint32_t shard_volume() const override { return a_.shard_volume(); }
    std::uint32_t max_shards_per_core() const override { return a_.max_shards_per_core(); }
    core_coord bank_coord(std::uint32_t bank) const override { return a_.bank_coord(bank); }
    std::uint32_t bank_address(std::uint32_t offset, std::uint32_t byte) const override {
        return a_.bank_address(offset, byte);
    }
    bank_and_offset page(std::uint32_t id) const override { return a_.get_bank_and_offset(id); }
    noc_addr page_noc(std::uint32_t id, std::uint32_t byte) const override { return a_.get_noc_addr(id, byte); }
    bank_and_offset page_at(const coord8& c) const override { return a_.get_bank_and_offset_at(c); }
    noc_addr page_noc_at(const coord8& c, std::uint32_t byte) const override { return a_.get_noc_addr_at(c, byte); }
    std::uint32_t shard_id_at(const coord8& c) const override { return a_.shard_id_at(c); }
    bank_and_offset shard(std::uint32_t id) const override { return a_.shard_bank_and_offset(id); }
    noc_addr shard_noc(std::uint32_t id, std::uint32_t byte) const override { return a_.get_shard_noc_addr(id, byte); }
    noc_addr shard_noc_at(const coord8& c, std::uint32_t byte) const override {
        return a_.get_shard_noc_addr_at(c, byte);
    }
    std::uint32_t shards_in_bank(std::uint32_t bank) const override { return a_.shards_in_bank(bank); }
    bool local_page(std::uint32_t id, core_coord me) const override { return a_.is_local_page(id, me); }
    bool local_shard(std::uint32_t id, core_coord me) const override { return a_.is_local_shard(id, me); }
    bool local_addr(noc_addr a, core_coord me) const override { return A::is_local_addr(a, me); }
    void pages(const std::function<bool(const page_ref&)>& visit) const override {
        for (const page_ref& r : a_.pages())
            if (!visit(r)) return;
    }
    void shard_pages(std::uint32_t s, const std::function<bool(const page_ref&, std::uint64_t)>& visit) const override {
        for (auto it = a_.shard_pages(s).begin(); it != std::default_sentinel; ++it)
            if (!visit(*it, it.remaining())) return;
    }
    void local_pages(std::uint32_t b, const std::function<bool(const page_ref&)>& visit) const override {
        for (const page_ref& r : a_.local_pages(b))
            if (!visit(r)) return;
    }

private:
    const A& a_;
};

// Walks every entry point of `a` against `x`; each disagreement goes to `report` (which
// may throw or abort; if it returns, the walk goes on, skipping the rest of an iterator
// that went astray).
void check_probe(const accessor_probe& a, const accessor_expectation& x, const mismatch_reporter& report);

template <class A>
void check_accessor(const A& a, const accessor_expectation& x, const mismatch_reporter& report) {
    check_probe(probe<A>(a), x, report);
}

}  // namespace ndshard::testkit
