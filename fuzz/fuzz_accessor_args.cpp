// fuzz_accessor_args: bytes -> compile-time/runtime accessor words, against the oracle.
//
// Every input ends in an accessor built from a word list (all-runtime or rank-static:
// a template needs its compile-time words, so those are the kinds a fuzzer can pick).
// A small reference reading of the word format (args.hpp) plus oracle::evaluate says
// whether the words must be accepted; the accessor must agree, and when it accepts, every
// sampled page, shard and bank gets the oracle's bank, offset, address and counts.
// Words made from a valid spec (input mode 1) must round-trip exactly: every static mask
// lays out the same words, the checksum is four-lane FNV-1a over them, an intact list is accepted
// and answers like the host layout, and any damaged list is rejected.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <ndshard/ndshard.hpp>
#include <ndshard/oracle/oracle.hpp>
#include <ndshard/testkit/arg_words.hpp>
#include <ndshard/testkit/coords.hpp>
#include <ndshard/testkit/entropy.hpp>
#include <ndshard/testkit/oracle_bridge.hpp>
#include <ndshard/testkit/spec_gen.hpp>

#include "args_input.hpp"
#include "fuzz_common.hpp"

namespace {

using namespace ndshard;
using namespace ndshard::fuzz;
using big = oracle::big;

constexpr std::uint32_t iterate_page_limit = 2048;
constexpr std::uint64_t enumerate_limit = 512;

std::string str(const big& v) { return oracle::to_string(v); }

// --- the words as the format documents them (testkit/arg_words.hpp) -----------------

namespace arg_words = testkit::arg_words;
using parsed_args = arg_words::fields;

// The spec the words stand for: shapes in pages, the aligned page size as the page size,
// and distinct stand-in cores (the words' own coordinates may repeat: a device does not
// care, the oracle would reject them).
oracle::spec oracle_spec(const parsed_args& p, bool contiguous, std::uint32_t cores, std::uint32_t base,
                         std::uint32_t page_size) {
    oracle::spec s;
    for (std::uint32_t d = 0; d < p.rank; ++d) {
        s.tensor.emplace_back(p.tensor[d]);
        s.shard.emplace_back(p.shard[d]);
    }
    s.page = oracle::page_kind::pages;
    s.element_size = page_size;
    s.alignment = 1;
    const std::uint32_t rows = cores / 256, rest = cores % 256;
    if (rows > 0) s.cores.push_back({0, 0, 255, rows - 1});
    if (rest > 0) s.cores.push_back({0, rows, rest - 1, rows});
    s.strat = contiguous ? oracle::strategy::contiguous_1d : oracle::strategy::round_robin_1d;
    s.bank_base = base;
    return s;
}

struct expectation {
    std::optional<parsed_args> parsed;
    std::optional<oracle::model> model;  // set when the words must be accepted
    std::string why;                     // why not
};

expectation expect(const std::vector<std::uint32_t>& ct, const std::vector<std::uint32_t>& rt, std::uint32_t base,
                   std::uint32_t page_size) {
    expectation x;
    std::optional<arg_words::read_words> read = arg_words::read(ct, rt);
    if (!read) {
        x.why = "malformed words";
        return x;
    }
    x.parsed = std::move(read->args);  // its bank coordinates: up to 65,536
    // No banks is fine when there is nothing to place: judge the rest with one bank.
    const std::uint32_t cores = x.parsed->banks == 0 ? 1 : x.parsed->banks;
    oracle::verdict v = oracle::evaluate(oracle_spec(*x.parsed, read->contiguous(), cores, base, page_size));
    if (!v.accepted) {
        x.why = v.rule + ": " + v.message;
        return x;
    }
    if (x.parsed->banks == 0 && v.accepted->num_shards != 0) {
        x.why = "no banks for " + str(v.accepted->num_shards) + " shards";
        return x;
    }
    x.model = std::move(v.accepted);
    return x;
}

// --- accessor kinds -------------------------------------------------------------------

template <std::uint32_t Rank, bool Contiguous>
inline constexpr std::array<std::uint32_t, 2> rank_static_words{
    arg::magic | arg::rank | (Contiguous ? arg::contiguous : 0U), Rank};

template <std::uint32_t Rank, bool Contiguous, class F>
void build_rank_static(std::uint32_t rank, std::span<const std::uint32_t> rt, std::uint32_t base, std::uint32_t page,
                       F& f) {
    if (rank == Rank) f(accessor<rank_static_words<Rank, Contiguous>>(rt, base, page));
}

template <std::uint32_t Rank, bool Contiguous, class F>
void build_rank_static(std::uint32_t rank, std::span<const std::uint32_t> rt, std::uint32_t base, std::uint32_t page,
                       args_status& status, F& f) {
    if (rank != Rank) return;
    const accessor<rank_static_words<Rank, Contiguous>> a(rt, base, page, status);
    if (status.ok()) f(a);
}

// Builds the accessor of `kind` over runtime words `rt` and calls f with it; throws
// spec_error when the accessor rejects the words.
template <class F>
void with_accessor(std::uint64_t kind, std::span<const std::uint32_t> rt, std::uint32_t base, std::uint32_t page,
                   F&& f) {
    const std::uint32_t rank = kind_static_rank(kind);
    if (rank == 0) {
        if (kind_contiguous(kind)) f(accessor<runtime_contiguous>(rt, base, page));
        else f(accessor<runtime_round_robin>(rt, base, page));
        return;
    }
    [&]<std::uint32_t... R>(std::integer_sequence<std::uint32_t, R...>) {
        if (kind_contiguous(kind)) (build_rank_static<R + 1, true>(rank, rt, base, page, f), ...);
        else (build_rank_static<R + 1, false>(rank, rt, base, page, f), ...);
    }
    (std::make_integer_sequence<std::uint32_t, 8>{});
}

// The same through the accessor's non-throwing constructor: f is called only when the words
// are accepted; a refusal is reported in the returned status, as a kernel build sees it.
template <class F>
args_status with_accessor_status(std::uint64_t kind, std::span<const std::uint32_t> rt, std::uint32_t base,
                                 std::uint32_t page, F&& f) {
    args_status status{};
    const std::uint32_t rank = kind_static_rank(kind);
    if (rank == 0) {
        if (kind_contiguous(kind)) {
            const accessor<runtime_contiguous> a(rt, base, page, status);
            if (status.ok()) f(a);
        } else {
            const accessor<runtime_round_robin> a(rt, base, page, status);
            if (status.ok()) f(a);
        }
        return status;
    }
    [&]<std::uint32_t... R>(std::integer_sequence<std::uint32_t, R...>) {
        if (kind_contiguous(kind)) (build_rank_static<R + 1, true>(rank, rt, base, page, status, f), ...);
        else (build_rank_static<R + 1, false>(rank, rt, base, page, status, f), ...);
    }
    (std::make_integer_sequence<std::uint32_t, 8>{});
    return status;
}

// --- an accepted accessor against the oracle ----------------------------------------------

template <class A>
void check_accessor(const A& a, const parsed_args& p, const oracle::model& m, std::uint32_t page_size,
                    testkit::entropy& e) {
    NDSHARD_FUZZ_CHECK(a.rank() == p.rank && a.num_banks() == p.banks,
                       "accessor rank " << a.rank() << " banks " << a.num_banks());
    NDSHARD_FUZZ_CHECK(big(a.num_pages()) == m.num_pages && big(a.num_shards()) == m.num_shards &&
                           big(a.shard_volume()) == m.shard_volume &&
                           big(a.max_shards_per_core()) == m.max_shards_per_core,
                       "accessor sizes: pages " << a.num_pages() << " shards " << a.num_shards() << " volume "
                                                << a.shard_volume() << " max/core " << a.max_shards_per_core()
                                                << "; oracle " << str(m.num_pages) << " " << str(m.num_shards) << " "
                                                << str(m.shard_volume) << " " << str(m.max_shards_per_core));
    if (p.banks > 0) {
        for (std::uint32_t b : {std::uint32_t{0}, p.banks - 1, static_cast<std::uint32_t>(e.between(0, p.banks - 1))})
            NDSHARD_FUZZ_CHECK(a.bank_coord(b) == p.coords[b], "bank " << b << " coordinate");
    }
    const std::uint32_t pages = a.num_pages();
    if (pages == 0) return;
    // The model's page and shard grids in 64 bits, once (coordinates below are their digits).
    std::vector<std::uint64_t> tensor_extents, grid_extents;
    for (const big& e : m.tensor_pages) tensor_extents.push_back(testkit::to_u64(e));
    for (const big& e : m.grid) grid_extents.push_back(testkit::to_u64(e));
    const std::span<const std::uint64_t> tensor_pages(tensor_extents), grid(grid_extents);
    std::vector<std::uint32_t> sample{0, pages - 1};
    for (int i = 0; i < 8; ++i) sample.push_back(static_cast<std::uint32_t>(e.between(0, pages - 1)));
    for (std::uint32_t page : sample) {
        const oracle::location loc = oracle::locate(m, big(page));
        const bank_and_offset bo = a.get_bank_and_offset(page);
        NDSHARD_FUZZ_CHECK(big(bo.bank) == loc.core_index && big(bo.page_offset) == loc.device_offset,
                           "page " << page << ": accessor bank " << bo.bank << " offset " << bo.page_offset
                                   << "; oracle core " << str(loc.core_index) << " offset " << str(loc.device_offset));
        const auto byte = static_cast<std::uint32_t>(e.between(0, page_size - 1));
        NDSHARD_FUZZ_CHECK(big(a.bank_address(bo.page_offset, byte)) == loc.byte_address + byte,
                           "page " << page << " byte " << byte << ": address " << a.bank_address(bo.page_offset, byte)
                                   << "; oracle " << str(loc.byte_address + byte));
        const noc_addr n = a.get_noc_addr(page, byte);
        const core_coord c = p.coords[bo.bank];
        NDSHARD_FUZZ_CHECK(n.x == c.x && n.y == c.y && n.addr == a.bank_address(bo.page_offset, byte),
                           "page " << page << " NoC address (" << n.x << "," << n.y << ") " << n.addr);
        NDSHARD_FUZZ_CHECK(a.is_local_page(page, c), "page " << page << " is not local to its bank's core");
        const std::vector<std::uint64_t> coord = testkit::row_major_coord(page, tensor_pages);
        NDSHARD_FUZZ_CHECK(a.get_bank_and_offset_at(coord) == bo, "page " << page << " by coordinate");
        NDSHARD_FUZZ_CHECK(a.get_noc_addr_at(coord, byte) == n, "page " << page << " NoC address by coordinate");
        NDSHARD_FUZZ_CHECK(big(a.shard_id_at(testkit::row_major_coord(static_cast<std::uint64_t>(loc.shard_id),
                                                                      grid))) == loc.shard_id,
                           "shard id of shard coordinate " << str(loc.shard_id));
    }
    // First, last and a drawn shard (then bank); one that is already checked is not checked again.
    const std::uint32_t shards = a.num_shards();
    const std::array<std::uint32_t, 3> shard_probe{0, shards - 1, static_cast<std::uint32_t>(e.between(0, shards - 1))};
    for (std::size_t i = 0; i < shard_probe.size(); ++i) {
        const std::uint32_t s = shard_probe[i];
        if (std::find(shard_probe.begin(), shard_probe.begin() + static_cast<std::ptrdiff_t>(i), s) !=
            shard_probe.begin() + static_cast<std::ptrdiff_t>(i))
            continue;
        const oracle::shard_home home = oracle::shard_location(m, big(s));
        const bank_and_offset bo = a.shard_bank_and_offset(s);
        NDSHARD_FUZZ_CHECK(big(bo.bank) == home.core_index && big(bo.page_offset) == home.device_offset,
                           "shard " << s << ": accessor bank " << bo.bank << " offset " << bo.page_offset
                                    << "; oracle core " << str(home.core_index) << " offset "
                                    << str(home.device_offset));
        NDSHARD_FUZZ_CHECK(big(a.get_shard_noc_addr(s).addr) == home.byte_address, "shard " << s << " address");
        NDSHARD_FUZZ_CHECK(a.get_shard_noc_addr_at(testkit::row_major_coord(s, grid)) == a.get_shard_noc_addr(s),
                           "shard " << s << " address by coordinate");
        NDSHARD_FUZZ_CHECK(a.is_local_shard(s, p.coords[bo.bank]), "shard " << s << " locality");
        if (m.shard_volume <= enumerate_limit) {
            const std::vector<big> expect = oracle::pages_of_shard(m, big(s));
            std::size_t k = 0;
            for (const page_ref& r : a.shard_pages(s)) {
                NDSHARD_FUZZ_CHECK(k < expect.size() && big(r.page_id) == expect[k] && r.bank == bo.bank &&
                                       r.page_offset == a.get_bank_and_offset(r.page_id).page_offset,
                                   "shard_pages(" << s << ") entry " << k << ": page " << r.page_id);
                ++k;
            }
            NDSHARD_FUZZ_CHECK(k == expect.size(), "shard_pages(" << s << ") yields " << k << " of " << expect.size());
        }
    }
    const std::array<std::uint32_t, 3> bank_probe{0, p.banks - 1,
                                                  static_cast<std::uint32_t>(e.between(0, p.banks - 1))};
    for (std::size_t i = 0; i < bank_probe.size(); ++i) {
        const std::uint32_t b = bank_probe[i];
        if (std::find(bank_probe.begin(), bank_probe.begin() + static_cast<std::ptrdiff_t>(i), b) !=
            bank_probe.begin() + static_cast<std::ptrdiff_t>(i))
            continue;
        NDSHARD_FUZZ_CHECK(big(a.shards_in_bank(b)) == oracle::shards_on_core(m, big(b)),
                           "bank " << b << " holds " << a.shards_in_bank(b) << " shards; oracle "
                                   << str(oracle::shards_on_core(m, big(b))));
        if (m.reserved_pages_per_core <= enumerate_limit) {
            const std::vector<big> expect = oracle::local_pages(m, big(b));
            std::size_t k = 0;
            for (const page_ref& r : a.local_pages(b)) {
                NDSHARD_FUZZ_CHECK(k < expect.size() && big(r.page_id) == expect[k] && r.bank == b,
                                   "local_pages(" << b << ") entry " << k << ": page " << r.page_id);
                ++k;
            }
            NDSHARD_FUZZ_CHECK(k == expect.size(), "local_pages(" << b << ") yields " << k << " of " << expect.size());
        }
    }
    if (pages <= iterate_page_limit) {
        std::uint32_t expect = 0;
        for (const page_ref& r : a.pages()) {
            const bank_and_offset bo = a.get_bank_and_offset(expect);
            NDSHARD_FUZZ_CHECK(r.page_id == expect && r.bank == bo.bank && r.page_offset == bo.page_offset,
                               "pages() entry " << expect << ": page " << r.page_id << " bank " << r.bank << " offset "
                                                << r.page_offset);
            ++expect;
        }
        NDSHARD_FUZZ_CHECK(expect == pages, "pages() yields " << expect << " of " << pages);
    }
}

// Whether a refusal's host message is checked this time: the first 64 refusals of each
// status kind (error, and the missing part of a short list) in a process, then one in 16.
// A refusal is reported by status, without an exception; the throwing constructor, whose
// message formatting and unwinding cost more than the rest of a raw input, is built on
// this sample. A fresh process checks its first refusals, so a replayed input always is.
bool message_check_due(const args_status& s) {
    static std::array<std::array<std::uint32_t, 8>, 16> seen{};
    const std::size_t error = static_cast<std::size_t>(s.error) % 16;
    const std::size_t part = s.error == args_error::short_words ? s.extra % 8 : 0;
    const std::uint32_t n = seen[error][part]++;
    return n < 64 || n % 16 == 0;
}

struct refusal {
    std::string rule, what;
};

// What the throwing constructor of `kind` throws for words `rt` (nullopt: it accepts them).
// The exception is caught in this small frame: an unwinder scans the exception table of
// every frame it passes, and run_words' own (its checks inlined) is long.
[[gnu::noinline]] std::optional<refusal> throwing_refusal(std::uint64_t kind, std::span<const std::uint32_t> rt,
                                                          std::uint32_t base, std::uint32_t page_size) {
    try {
        bool accepted = false;
        with_accessor(kind, rt, base, page_size, [&](const auto&) { accepted = true; });
        if (accepted) return std::nullopt;
    } catch (const spec_error& err) {
        return refusal{err.rule(), err.what()};
    }
    return refusal{"", "the throwing constructor neither accepts nor throws"};
}

// Builds the accessor and holds it to the expectation; returns whether it accepted.
bool run_words(std::uint64_t kind, const std::vector<std::uint32_t>& rt, std::uint32_t base, std::uint32_t page_size,
               testkit::entropy& e) {
    const expectation x = expect(kind_words(kind), rt, base, page_size);
    bool accepted = false;
    const args_status status = with_accessor_status(kind, rt, base, page_size, [&](const auto& a) {
        accepted = true;
        NDSHARD_FUZZ_CHECK(x.model.has_value(), "accessor kind " << kind << " accepts words it must reject: " << x.why);
        check_accessor(a, *x.parsed, *x.model, page_size, e);
    });
    if (accepted) return true;
    const char* rule = args_status_rule(status.error);
    NDSHARD_FUZZ_CHECK(!x.model.has_value(), "accessor kind " << kind << " rejects valid words: status " << rule << " ("
                                                              << status.value << ", " << status.extra << ")");
    if (!message_check_due(status)) return false;
    // The host's throwing constructor refuses the same words with the same rule, and its
    // message names the rule.
    const std::optional<refusal> thrown = throwing_refusal(kind, rt, base, page_size);
    if (!thrown)
        fail("accessor kind " + std::to_string(kind) + " refuses words by status (" + rule +
             ") that its throwing constructor accepts");
    NDSHARD_FUZZ_CHECK(thrown->rule == rule,
                       "accessor kind " << kind << " throws rule " << thrown->rule << ", its status says " << rule);
    NDSHARD_FUZZ_CHECK(thrown->what.find("[rule " + thrown->rule + "]") != std::string::npos,
                       "the message does not name its rule: " << thrown->what);
    return false;
}

std::string describe(const raw_args& a, const std::vector<std::uint32_t>& rt) {
    std::string s = "raw kind " + std::to_string(a.kind) + " base " + std::to_string(a.bank_base) + " page " +
                    std::to_string(a.page_size) + " words [";
    for (std::size_t i = 0; i < rt.size() && i < 40; ++i) s += (i ? "," : "") + std::to_string(rt[i]);
    return s + (rt.size() > 40 ? ",...]" : "]");
}

void raw_mode(testkit::entropy& e) {
    raw_args a;
    testkit::choice_reader io{e};
    raw_fields(io, a);
    std::vector<std::uint32_t> rt = runtime_words(a);
    damage_words(a.dmg, rt);
    using raw_input = std::pair<const raw_args*, const std::vector<std::uint32_t>*>;
    const raw_input input{&a, &rt};
    const scoped_note<raw_input> noted(input, [](const raw_input& n) { return describe(*n.first, *n.second); });
    run_words(a.kind, rt, a.bank_base, a.page_size, e);
}

// --- mode 1: words made from a valid spec -----------------------------------------------

void spec_mode(testkit::entropy& e) {
    const distribution d = testkit::generate_distribution(e, args_spec_options());
    spec_tail t;
    testkit::choice_reader io{e};
    tail_fields(io, t);
    using spec_input = std::pair<const distribution_spec*, const spec_tail*>;
    const spec_input input{&d.spec, &t};
    const scoped_note<spec_input> noted(input, [](const spec_input& n) {
        return fuzz::describe(*n.first) + " mask " + std::to_string(n.second->mask) +
               (n.second->squeeze ? " squeezed" : "");
    });
    const page_layout sq = squeeze(d.layout);
    const page_layout& l = t.squeeze ? sq : d.layout;
    const auto mask = static_cast<std::uint32_t>(t.mask);

    accessor_words w;
    try {
        w = make_accessor_words(d, mask, &l);
        NDSHARD_FUZZ_CHECK(arg_words::valid_mask(mask), "static mask " << mask << " is accepted");
    } catch (const spec_error& err) {
        NDSHARD_FUZZ_CHECK(!arg_words::valid_mask(mask) && err.rule() == "args_config",
                           "static mask " << mask << " rejected: " << err.what());
        return;
    }

    // The words, written out from the layout: [rank, P, T..., S..., (x << 16 | y)...].
    parsed_args fields{
        static_cast<std::uint32_t>(l.rank()), static_cast<std::uint32_t>(d.cores.size()), {}, {}, d.cores};
    for (auto v : l.tensor) fields.tensor.push_back(static_cast<std::uint32_t>(v));
    for (auto v : l.shard) fields.shard.push_back(static_cast<std::uint32_t>(v));
    const bool contiguous = d.spec.strat == strategy::contiguous_1d;
    const accessor_words documented = arg_words::write(fields, mask, contiguous);
    NDSHARD_FUZZ_CHECK(w == documented, "words of mask " << mask << " differ from their documented layout ("
                                                         << w.compile_time.size() << "+" << w.runtime.size()
                                                         << " words, expected " << documented.compile_time.size() << "+"
                                                         << documented.runtime.size() << ")");
    NDSHARD_FUZZ_CHECK(static_word_count(l, d.cores, mask) == documented.compile_time.size(), "static_word_count");

    // Only the instantiable kinds go on to an accessor.
    if (mask != 0 && mask != arg::rank) return;
    const std::uint64_t kind = kind_of(mask == arg::rank ? static_cast<std::uint32_t>(l.rank()) : 0, contiguous);
    std::vector<std::uint32_t> damaged = w.runtime;
    damage_words(t.dmg, damaged);
    const auto base = static_cast<std::uint32_t>(d.bank_base);
    const auto page_size = static_cast<std::uint32_t>(d.aligned_page_size);
    const bool accepted = run_words(kind, damaged, base, page_size, e);
    if (damaged != w.runtime) {
        NDSHARD_FUZZ_CHECK(!accepted, "a damaged word list is accepted");
        return;
    }
    NDSHARD_FUZZ_CHECK(accepted, "the words of a valid spec are rejected");
    if (d.num_pages() == 0) return;
    with_accessor(kind, w.runtime, base, page_size, [&](const auto& a) {
        for (std::uint64_t page : testkit::sample_pages(e, d, 4)) {
            const auto at = d.layout.locate(page);
            const bank_and_offset bo = a.get_bank_and_offset(static_cast<std::uint32_t>(page));
            NDSHARD_FUZZ_CHECK(bo.bank == at.core && bo.page_offset == at.device_offset,
                               "page " << page << ": accessor bank " << bo.bank << " offset " << bo.page_offset
                                       << ", host layout core " << at.core << " offset " << at.device_offset);
        }
    });
    // The same words under another kind (other rank or deal rule) must not parse as valid
    // unless the reference reading agrees (run_words checks that).
    run_words((kind + 1 + e.between(0, kind_count - 2)) % kind_count, w.runtime, base, page_size, e);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    testkit::byte_entropy e(std::span<const std::uint8_t>(data, size));
    try {
        if (e.between(0, 1) == 0) raw_mode(e);
        else spec_mode(e);
    } catch (const std::exception& err) {
        fail(std::string("unexpected exception: ") + err.what());
    }
    return 0;
}
