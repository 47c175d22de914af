// fuzz_accessor_args: bytes -> compile-time/runtime accessor words, against the oracle.
//
// Every input ends in an accessor built from a word list (all-runtime or rank-static:
// a template needs its compile-time words, so those are the kinds a fuzzer can pick).
// A small reference reading of the word format (args.hpp) plus oracle::evaluate says
// whether the words must be accepted; the accessor must agree, and when it accepts, every
// sampled page, shard and bank gets the oracle's bank, offset, address and counts
// (testkit/accessor_check.hpp, the check props/ and bench/ share).
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
#include <ndshard/testkit/accessor_check.hpp>
#include <ndshard/testkit/arg_words.hpp>
#include <ndshard/testkit/entropy.hpp>
#include <ndshard/testkit/oracle_bridge.hpp>
#include <ndshard/testkit/spec_gen.hpp>
#include <ndshard/testkit/static_kinds.hpp>

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

// f.template operator()<CT>() with the compile-time words of `kind`: all-runtime or a
// static rank, either deal rule (testkit/static_kinds.hpp).
template <class F>
void with_kind(std::uint64_t kind, F&& f) {
    const std::uint32_t rank = kind_static_rank(kind);
    if (rank == 0) testkit::with_runtime_kind(kind_contiguous(kind), f);
    else testkit::with_static_rank(rank, kind_contiguous(kind), f);
}

// Builds the accessor of `kind` over runtime words `rt` and calls f with it; throws
// spec_error when the accessor rejects the words.
template <class F>
void with_accessor(std::uint64_t kind, std::span<const std::uint32_t> rt, std::uint32_t base, std::uint32_t page,
                   F&& f) {
    with_kind(
        kind, [&]<auto CT>() { f(accessor<CT>(rt, base, page)); });
}

// The same through the accessor's non-throwing constructor: f is called only when the words
// are accepted; a refusal is reported in the returned status, as a kernel build sees it.
template <class F>
args_status with_accessor_status(std::uint64_t kind, std::span<const std::uint32_t> rt, std::uint32_t base,
                                 std::uint32_t page, F&& f) {
    args_status status{};
    with_kind(
        kind, [&]<auto CT>() {
            const accessor<CT> a(rt, base, page, status);
            if (status.ok()) f(a);
        });
    return status;
}

// --- an accepted accessor against the oracle ----------------------------------------------

// The pages, shards and banks to ask, drawn in the order this fuzzer has always drawn them
// (so the corpus replays the same inputs), then testkit/accessor_check.hpp's walk: shards
// and banks list their pages up to enumerate_limit, pages() is walked up to
// iterate_page_limit pages.
template <class A>
void check_accessor(const A& a, const parsed_args& p, const oracle::model& m, std::uint32_t page_size,
                    testkit::entropy& e) {
    std::vector<std::uint32_t> banks;
    auto add_bank = [&](std::uint32_t b) {
        if (std::find(banks.begin(), banks.end(), b) == banks.end()) banks.push_back(b);
    };
    if (p.banks > 0)
        for (std::uint32_t b : {std::uint32_t{0}, p.banks - 1, static_cast<std::uint32_t>(e.between(0, p.banks - 1))})
            add_bank(b);
    const std::uint64_t pages = testkit::to_u64(m.num_pages);
    std::vector<std::uint64_t> sample, shards;
    std::vector<std::uint32_t> bytes;
    if (pages > 0) {
        sample = {0, pages - 1};
        for (int i = 0; i < 8; ++i) sample.push_back(e.between(0, pages - 1));
        for (std::size_t i = 0; i < sample.size(); ++i)
            bytes.push_back(static_cast<std::uint32_t>(e.between(0, page_size - 1)));
        const std::uint64_t n = testkit::to_u64(m.num_shards);
        for (std::uint64_t s : {std::uint64_t{0}, n - 1, e.between(0, n - 1)})
            if (std::find(shards.begin(), shards.end(), s) == shards.end()) shards.push_back(s);
        add_bank(static_cast<std::uint32_t>(e.between(0, p.banks - 1)));
    }
    testkit::accessor_expectation x =
        testkit::expect_from_oracle(m, sample, shards, banks, enumerate_limit, iterate_page_limit, &p.coords);
    x.rank = p.rank;
    for (std::size_t i = 0; i < bytes.size(); ++i) x.pages[i].byte = bytes[i];
    testkit::check_accessor(a, x, [](const testkit::accessor_mismatch& mm) { fail("accessor: " + mm.text()); });
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
