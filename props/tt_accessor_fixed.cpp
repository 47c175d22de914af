// Law 17 on fixed specs, all 15 compile-time mixes: the first quarter of the cases, the
// helpers every part uses, make_tensor_accessor_args_tuple over the first two cases, and
// the words of docs/tt-args.md's worked example typed in by hand
// (props/tt_accessor_fixed.hpp says what is checked).
#include "tt_accessor_fixed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <type_traits>

#include "ndshard/testkit/oracle_bridge.hpp"

namespace ndshard::props::tt_fixed {

std::string mix_name(std::uint32_t config) {
    namespace f = ::ndshard::tt::flag;
    std::string out;
    out += (config & f::runtime_rank) ? '-' : 'R';
    out += (config & f::runtime_num_banks) ? '-' : 'B';
    out += (config & f::runtime_tensor_shape) ? '-' : 'T';
    out += (config & f::runtime_shard_shape) ? '-' : 'S';
    out += (config & f::runtime_bank_coords) ? '-' : 'C';
    return out + ((config & f::is_dram) ? " DRAM" : " L1");
}

namespace {

// The bank coordinates the words carry: the cores, or for DRAM each bank's id as its x.
std::vector<core_coord> word_banks(const distribution& d, bool dram) {
    std::vector<core_coord> banks = d.cores;
    if (dram)
        for (std::size_t b = 0; b < banks.size(); ++b) banks[b] = {static_cast<std::uint32_t>(b), 0};
    return banks;
}

}  // namespace

prepared::prepared(std::size_t index)
    : dist(make_distribution(specio::parse_spec_json(cases[index].spec_json))),
      model(testkit::accepted_model(dist.spec)),
      label("case " + std::to_string(index) + " (" + cases[index].name + "), " + mix_name(cases[index].config)) {
    const fixed_case& f = cases[index];
    prepared& p = *this;
    tt::tt_case& c = p.check;
    c.label = p.label;
    c.bank_base = static_cast<std::uint32_t>(p.dist.bank_base);
    if (f.dram) {
        // Endpoints on a 13 x 11 grid and offsets that keep the buffer below 2^32.
        const std::uint64_t end = p.dist.bank_base + p.dist.reserved_pages_per_core() * p.dist.aligned_page_size;
        std::vector<core_coord> endpoints;
        std::vector<std::uint32_t> offsets;
        for (std::size_t b = 0; b < p.dist.cores.size(); ++b) {
            endpoints.push_back({static_cast<std::uint32_t>((5 * b + 1) % 13), static_cast<std::uint32_t>(b % 11)});
            offsets.push_back(static_cast<std::uint32_t>(std::min<std::uint64_t>(two_pow_32 - end, (b + 1) * 0x1040)));
        }
        c.banks = tt::dram_banks(p.dist.cores.size(), endpoints, offsets);
    } else {
        c.banks.word_coords = word_banks(p.dist, false);
    }
    c.cores_asked = {{0, 0}, {1, 0}, {3, 2}};
    c.model = &p.model;
    if (!tt::can_check_exhaustively(p.model)) tt::sample(c, 0x7A11 + index);
}

void install(const prepared& p) {
    testkit::tt_host.common_runtime_args.assign(std::begin(common_runtime_words), std::end(common_runtime_words));
    p.check.banks.install();
}

void expect_refused(std::size_t index) {
    const fixed_case& f = cases[index];
    const distribution d = make_distribution(specio::parse_spec_json(f.spec_json));
    const std::string label = "case " + std::to_string(index) + " (" + f.name + "), " + mix_name(f.config);
    if (d.layout.rule != deal_rule::contiguous || (f.config & ::ndshard::tt::flag::runtime_num_banks) == 0)
        throw tt::mismatch(label + ": refused, but only contiguous_1d with a runtime bank count is");
    try {
        (void)::ndshard::tt::make_tt_words(d.layout, word_banks(d, f.dram), f.config,
                                           static_cast<std::uint32_t>(d.aligned_page_size));
    } catch (const spec_error& err) {
        if (err.rule() != "args_config") throw tt::mismatch(label + ": refused with rule " + err.rule());
        return;
    }
    throw tt::mismatch(label + ": make_tt_words gave words for contiguous_1d with a runtime bank count");
}

}  // namespace ndshard::props::tt_fixed

namespace {

using namespace ndshard;
using namespace ndshard::props::tt_fixed;
namespace ptt = ndshard::props::tt;

TEST(tt_accessor_fixed, the_cases_are_every_mix_of_every_spec) {
    std::vector<std::pair<std::string, std::uint32_t>> seen;
    for (const fixed_case& f : cases) seen.push_back({f.spec_json, f.config & ~ndshard::tt::flag::is_dram});
    std::sort(seen.begin(), seen.end());
    EXPECT_TRUE(std::adjacent_find(seen.begin(), seen.end()) == seen.end()) << "a case is listed twice";
    const std::vector<std::uint32_t> mixes = ndshard::tt::all_runtime_mixes();
    ASSERT_EQ(mixes.size(), 15U);
    EXPECT_EQ(seen.size() % mixes.size(), 0U);
    for (const auto& [spec, config] : seen)
        EXPECT_NE(std::find(mixes.begin(), mixes.end(), config), mixes.end()) << spec << " mix " << config;
    // Compile-time words follow each other as a kernel's accessors do.
    std::size_t next = 0;
    for (const fixed_case& f : cases)
        if (!f.refused) {
            EXPECT_EQ(f.cta, next);
            next = f.cta + f.cta_count;
        }
    EXPECT_EQ(next, kernel_compile_time_args.size());
    // The runtime CRTA offset form: once for each mix.
    std::vector<std::uint32_t> offset_form;
    for (const fixed_case& f : cases)
        if (f.runtime_offset_form) offset_form.push_back(f.config & ~ndshard::tt::flag::is_dram);
    std::sort(offset_form.begin(), offset_form.end());
    std::vector<std::uint32_t> sorted_mixes = mixes;
    std::sort(sorted_mixes.begin(), sorted_mixes.end());
    EXPECT_EQ(offset_form, sorted_mixes);
}

TEST(tt_accessor_fixed, every_case_equals_the_oracle_part_1_of_4) { check_part<0, 4>(); }

// make_tensor_accessor_args_tuple<2, 0>: the first two cases' words, one after the other;
// make_tensor_accessor_tuple takes their bank bases from the runtime arguments.
TEST(tt_accessor_fixed, a_tuple_of_two_accessors_reads_consecutive_words) {
    static_assert(cases[0].cta == 0 && cases[0].crta_count == 0 && !cases[0].refused);
    static_assert(cases[1].cta == cases[0].cta_count && cases[1].crta == 0 && !cases[1].refused);
    constexpr auto args = make_tensor_accessor_args_tuple<2, 0>();
    static_assert(std::is_same_v<std::tuple_element_t<0, std::decay_t<decltype(args)>>, TensorAccessorArgs<0>>);
    static_assert(
        std::is_same_v<std::tuple_element_t<1, std::decay_t<decltype(args)>>, TensorAccessorArgs<cases[0].cta_count>>);
    const prepared first(0), second(1);
    install(second);
    testkit::tt_host.runtime_args = {static_cast<std::uint32_t>(first.dist.bank_base),
                                     static_cast<std::uint32_t>(second.dist.bank_base)};
    const auto accessors = make_tensor_accessor_tuple(args, 0);
    try {
        const auto& a = std::get<0>(accessors);
        const auto& b = std::get<1>(accessors);
        ptt::check_sharded(ptt::probe_of<std::decay_t<decltype(a)>>(a), first.check);
        ptt::check_sharded(ptt::probe_of<std::decay_t<decltype(b)>>(b), second.check);
        // The same pages through tt-metal's type-erased wrapper.
        const auto wrapped = make_abstract_tensor_accessor_wrappers(accessors);
        for (std::uint32_t p : {0U, 17U, 1000U}) {
            EXPECT_EQ(wrapped[0].get_noc_addr(p, 3), a.get_noc_addr(p, 3));
            EXPECT_EQ(wrapped[1].get_noc_addr(p, 3), b.get_noc_addr(p, 3));
        }
    } catch (const ptt::mismatch& err) {
        ADD_FAILURE() << err.what();
    }
}

// docs/tt-args.md, "A worked example, by hand": [2,2,3]/[1,1,2] pages over (18,18),
// (19,18), (18,19), (19,19) with runtime bank coordinates, 2048-byte pages.
TEST(tt_accessor_fixed, the_worked_example_of_the_docs_has_the_words_typed_there) {
    distribution_spec s;
    s.tensor = {2, 2, 3};
    s.shard = {1, 1, 2};
    s.element_size = 2048;
    s.cores = {{{18, 18}, {19, 19}}};
    const distribution d = make_distribution(s);
    const ndshard::tt::tt_words w = ndshard::tt::make_tt_words(d, ndshard::tt::flag::runtime_bank_coords);
    EXPECT_EQ(w.compile_time, (std::vector<std::uint32_t>{0x41, 2048, 3, 4, 2, 2, 3, 1, 1, 2}));
    EXPECT_EQ(w.common_runtime, (std::vector<std::uint32_t>{0x13121212, 0x13131213}));
    const ndshard::tt::tt_words w1 =
        ndshard::tt::make_tt_words(d, ndshard::tt::flag::runtime_bank_coords, ndshard::tt::layout_without_page_size);
    EXPECT_EQ(w1.compile_time, (std::vector<std::uint32_t>{0x41, 3, 4, 2, 2, 3, 1, 1, 2}));
}

}  // namespace
