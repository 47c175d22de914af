// Law 17: tt-metal's TensorAccessor (lib/ttmetal/include/api/tensor/tensor_accessor.h),
// built from tt-metal's argument words as a kernel builds it, equals the oracle on every
// entry point, for generated specs.
//
// Each case: a spec from the testkit generator -> its tt-metal words
// (ndshard::tt::make_tt_words, every part runtime) -> the common runtime words installed in
// the host platform (after three words of another buffer, before two more) ->
// TensorAccessorArgs at a fixed offset of this file's compile-time words ->
// TensorAccessor(args, bank base, page size) -> every page by id and by coordinate, every
// shard by id and by coordinate, get_bank_and_offset, num_contiguous_pages, locality
// (is_local_page / shard / addr / bank on several cores), pages(), pages(start, end),
// shard_pages(shard, start, end), strided_pages(t, k) for k = 1, 2, 3, 5 (together every
// page once), strided_shard_pages(t, k) (every shard of the grid, vol(G) of them, the
// trailing ones that ceil(pages / shard volume) misses included) and the platform-thread
// forms of both; large specs by samples, windows and prefixes (props/tt_accessor_check.cpp).
//  - L1 banks carry the spec's cores; DRAM banks carry (bank id, 0), with the platform's
//    DRAM table giving random endpoints and nonzero per-bank offsets, which every address
//    must add.
//  - contiguous_1d needs a compile-time bank count (bit 31 of that word): the all-runtime
//    words must be refused, and the spec is checked through the compile-time words of 1,
//    3 or 8 banks below (its cores redrawn as a row of one of those counts when it has
//    another count).
//  - One case in ten has its cores moved to x in 64..255 (past the NoC's 6-bit node ids,
//    still in the words' 8 bits), one in ten past 255, where the words must be refused.
//  - The interleaved accessor (no Sharded bit) against oracle::interleaved over a
//    platform bank table, L1 and DRAM.
// props/tt_accessor_fixed*.cpp check all 15 compile-time mixes on fixed specs.

// The compile-time words of this kernel, at these offsets (the aligned page size word is
// 0: every accessor here gets its page size from the constructor):
//   0  0x7D, 0               Sharded, every part runtime (L1)
//   2  0x7F, 0               Sharded | IsDram, every part runtime
//   4  0x00, 0               interleaved, L1
//   6  0x02, 0               interleaved, DRAM
//   8  0x75, 0, 0x80000001   Sharded, 1 bank at compile time dealt contiguously, the rest runtime
//  11  0x75, 0, 0x80000003   the same with 3 banks
//  14  0x75, 0, 0x80000008   the same with 8 banks
#define KERNEL_COMPILE_TIME_ARGS \
    0x7D, 0, 0x7F, 0, 0x00, 0, 0x02, 0, 0x75, 0, 0x80000001, 0x75, 0, 0x80000003, 0x75, 0, 0x80000008

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"
#include "ndshard/testkit/spec_gen.hpp"
#include "ndshard/tt/host_words.hpp"
#include "tt_accessor_probe.hpp"

namespace {

using namespace ndshard;
namespace tk = ndshard::testkit;
namespace ttw = ndshard::tt;
namespace ptt = ndshard::props::tt;

constexpr std::size_t runtime_at = 3;  // the buffer's common runtime words start here
const std::vector<std::uint32_t> words_before{0xDEAD0001, 0xDEAD0002, 0xDEAD0003}, words_after{0xBEEF0001, 0xBEEF0002};

struct contiguous_slot {
    std::uint32_t banks;
    std::size_t cta;
};
constexpr contiguous_slot contiguous_slots[] = {{1, 8}, {3, 11}, {8, 14}};
constexpr std::uint32_t contiguous_runtime = ttw::flag::runtime_rank | ttw::flag::runtime_tensor_shape |
                                             ttw::flag::runtime_shard_shape | ttw::flag::runtime_bank_coords;

// The words this file's compile-time list holds at `at`, as make_tt_words writes them
// (the page size word apart, which is 0 here).
void expect_compile_time_words(const std::vector<std::uint32_t>& made, std::size_t at) {
    RC_ASSERT(made.size() >= 2);
    RC_ASSERT(at + made.size() <= kernel_compile_time_args.size());
    for (std::size_t i = 0; i < made.size(); ++i)
        if (i != 1) RC_ASSERT(made[i] == kernel_compile_time_args[at + i]);
}

void install_runtime_words(const std::vector<std::uint32_t>& words) {
    tk::tt_host.common_runtime_args = words_before;
    tk::tt_host.common_runtime_args.insert(tk::tt_host.common_runtime_args.end(), words.begin(), words.end());
    tk::tt_host.common_runtime_args.insert(tk::tt_host.common_runtime_args.end(), words_after.begin(),
                                           words_after.end());
}

// Words tt-metal's format cannot hold are refused (rule args_config), saying why.
void expect_refused(const distribution& d, std::uint32_t config, const std::string& why) {
    try {
        (void)ttw::make_tt_words(d, config);
    } catch (const spec_error& err) {
        RC_ASSERT(err.rule() == "args_config");
        RC_ASSERT(std::string(err.what()).find(why) != std::string::npos);
        return;
    }
    RC_FAIL("make_tt_words did not refuse words that cannot say this spec (" + why + ")");
}

// Pages past the exhaustive limit are sampled (with a seed the case draws).
ptt::tt_case make_case(tk::entropy& e, const oracle::model& m, ptt::bank_setup banks, std::uint32_t base,
                       const std::string& label) {
    ptt::tt_case c;
    c.label = label;
    c.model = &m;
    c.banks = std::move(banks);
    c.bank_base = base;
    c.cores_asked = {{0, 0},
                     {static_cast<std::uint32_t>(e.between(0, 15)), static_cast<std::uint32_t>(e.between(0, 15))}};
    if (!ptt::can_check_exhaustively(m)) ptt::sample(c, e.between(0, ~std::uint64_t{0} - 1));
    RC_CLASSIFY(!c.exhaustive, "sampled (large)");
    return c;
}

// DRAM: a random endpoint per bank and offsets that keep every address below 2^32.
ptt::bank_setup random_dram(tk::entropy& e, std::size_t banks, std::uint64_t end_of_buffer) {
    const std::uint64_t room = two_pow_32 - end_of_buffer;
    std::vector<core_coord> endpoints;
    std::vector<std::uint32_t> offsets;
    for (std::size_t b = 0; b < banks; ++b) {
        endpoints.push_back(
            {static_cast<std::uint32_t>(e.between(0, 12)), static_cast<std::uint32_t>(e.between(0, 11))});
        offsets.push_back(
            room == 0 ? 0U : static_cast<std::uint32_t>(e.between(1, std::min<std::uint64_t>(room, 1U << 24))));
    }
    RC_CLASSIFY(room == 0, "DRAM offsets 0 (buffer ends at 2^32)");
    return ptt::dram_banks(banks, std::move(endpoints), std::move(offsets));
}

// A mismatch as the property's failure, with the message that names it.
template <class Check>
void run(Check&& check) {
    try {
        check();
    } catch (const ptt::mismatch& err) {
        RC_FAIL(err.what());
    }
}

std::uint64_t trailing_shards(const oracle::model& m) {
    if (m.shard_volume == 0) return 0;
    const oracle::big by_volume = (m.num_pages + m.shard_volume - 1) / m.shard_volume;
    return tk::to_u64(m.num_shards - std::min(m.num_shards, by_volume));
}

bool coordinates_fit_8_bits(const distribution& d) {
    return std::all_of(d.cores.begin(), d.cores.end(), [](core_coord c) { return c.x <= 255 && c.y <= 255; });
}

// The generator keeps most cores near the origin: now and then the whole list moves along x
// so that its coordinates pass the NoC's 6 bits (64..255, which the words still hold and
// get_noc_addr encodes as tt-metal does) or the words' 8 bits (which must be refused).
// Distinct cores stay distinct, and grid_2d's fit does not depend on where its range is.
distribution far_cores(tk::entropy& e, const distribution& d) {
    const auto where = tk::rc_choose(0, 10);
    if (where > 1 || d.spec.cores.empty()) return d;
    std::uint32_t low = ~0U, high = 0;
    for (const core_range& r : d.spec.cores) {
        low = std::min({low, r.start.x, r.end.x});
        high = std::max({high, r.start.x, r.end.x});
    }
    const std::uint32_t width = high - low;
    if (width > 191) return d;
    const auto to = static_cast<std::uint32_t>(where == 0 ? e.between(64, 255 - width) : e.between(256 - width, 300));
    distribution_spec s = d.spec;
    for (core_range& r : s.cores) {
        r.start.x = r.start.x - low + to;
        r.end.x = r.end.x - low + to;
    }
    RC_LOG() << "cores moved along x to " << to << "\n";
    return make_distribution(s);
}

// contiguous_1d through the compile-time bank counts of this file: the spec itself when it
// has 1, 3 or 8 cores, else its cores redrawn as a row of one of those counts.
void check_contiguous(tk::rc_entropy& e, const distribution& drawn) {
    distribution d = drawn;
    const auto slot = std::find_if(std::begin(contiguous_slots), std::end(contiguous_slots),
                                   [&](const contiguous_slot& s) { return s.banks == d.cores.size(); });
    const contiguous_slot* use = slot;
    if (slot == std::end(contiguous_slots)) {
        use = &contiguous_slots[tk::rc_choose<std::size_t>(0, std::size(contiguous_slots))];
        distribution_spec s = d.spec;
        s.cores = {grid_range(use->banks, 1)};
        try {
            d = make_distribution(s);
        } catch (const spec_error&) {
            RC_CLASSIFY(true, "contiguous: redrawn cores refused");
            return;
        }
        RC_LOG() << "cores redrawn: " << tk::describe(d.spec) << "\n";
    }
    if (!coordinates_fit_8_bits(d)) {
        expect_refused(d, contiguous_runtime, "8 bits");
        return;
    }
    const oracle::model m = tk::accepted_model(d.spec);
    const ttw::tt_words w = ttw::make_tt_words(d, contiguous_runtime);
    RC_ASSERT(w.compile_time.size() == 3U);
    RC_ASSERT(w.compile_time[2] == (use->banks | ttw::contiguous_banks_bit));
    expect_compile_time_words(w.compile_time, use->cta);
    install_runtime_words(w.common_runtime);
    const auto base = static_cast<std::uint32_t>(d.bank_base), page = static_cast<std::uint32_t>(d.aligned_page_size);
    const ptt::tt_case c =
        make_case(e, m, ptt::l1_banks(m), base, "contiguous, " + std::to_string(use->banks) + " banks");
    run([&] {
        switch (use->cta) {
            case 8:
                ptt::check_sharded_accessor(TensorAccessorArgs<8, runtime_at>(), base, page, c);
                break;
            case 11:
                ptt::check_sharded_accessor(TensorAccessorArgs<11, runtime_at>(), base, page, c);
                break;
            default:
                ptt::check_sharded_accessor(TensorAccessorArgs<14, runtime_at>(), base, page, c);
                break;
        }
    });
}

static_assert(TensorAccessorArgs<0>::is_sharded && !TensorAccessorArgs<0>::is_dram &&
              TensorAccessorArgs<0>::rank_is_crta && TensorAccessorArgs<0>::bank_coords_is_crta);
static_assert(TensorAccessorArgs<2>::is_dram && !TensorAccessorArgs<4>::is_sharded && TensorAccessorArgs<6>::is_dram);
static_assert(TensorAccessorArgs<8>::is_shard_contiguous && TensorAccessorArgs<8>::NumBanksCT == 1 &&
              !TensorAccessorArgs<8>::num_banks_is_crta && TensorAccessorArgs<14>::NumBanksCT == 8);
static_assert(TensorAccessorArgs<0>::next_compile_time_args_offset() == 2 &&
              TensorAccessorArgs<8>::next_compile_time_args_offset() == 11);

RC_GTEST_PROP(tt_accessor, sharded_words_give_the_oracles_pages_shards_and_walks, ()) {
    tk::rc_entropy e;
    tk::spec_options o;
    o.max_pages = 4096;
    o.huge_percent = 8;
    const distribution d = far_cores(e, tk::generate_distribution(e, o));
    tk::log_and_classify(d.spec, {{"rank:1", "rank 1"},
                                  {"rank:8", "rank 8"},
                                  "uneven",
                                  "cores>shards",
                                  "zero_dim",
                                  "near_2^32",
                                  {"strategy:grid_2d", "grid_2d"},
                                  {"strategy:contiguous_1d", "contiguous"}});
    RC_CLASSIFY(!coordinates_fit_8_bits(d), "coordinates past 8 bits");
    const oracle::model m = tk::accepted_model(d.spec);
    RC_CLASSIFY(trailing_shards(m) > 0, "trailing shards (vol(G) > ceil(pages / shard volume))");

    if (d.layout.rule == deal_rule::contiguous) {
        // The all-runtime words cannot say contiguous: refused, never dealt round robin.
        expect_refused(d, ttw::flag::runtime_all, "bit 31 of the bank count");
        check_contiguous(e, d);
        return;
    }
    if (d.cores.empty()) {
        // grid_2d with no shard has no core: tt-metal's words need at least one bank.
        RC_CLASSIFY(true, "no bank (refused)");
        expect_refused(d, ttw::flag::runtime_all, "banks");
        return;
    }
    const bool dram = d.cores.size() <= 256 && tk::rc_choose(0, 3) == 0;
    RC_CLASSIFY(dram, "DRAM");
    ptt::bank_setup banks;
    ttw::tt_words w;
    if (dram) {
        const std::uint64_t end = d.bank_base + d.reserved_pages_per_core() * d.aligned_page_size;
        banks = random_dram(e, d.cores.size(), end);
        w = ttw::make_tt_words(d.layout, banks.word_coords, ttw::flag::is_dram | ttw::flag::runtime_all,
                               static_cast<std::uint32_t>(d.aligned_page_size));
        expect_compile_time_words(w.compile_time, 2);
    } else {
        if (!coordinates_fit_8_bits(d)) {
            expect_refused(d, ttw::flag::runtime_all, "8 bits");
            return;
        }
        banks = ptt::l1_banks(m);
        RC_CLASSIFY(!std::all_of(banks.word_coords.begin(), banks.word_coords.end(), ptt::fits_noc_node_id),
                    "coordinates past the NoC's 6 bits");
        w = ttw::make_tt_words(d, ttw::flag::runtime_all);
        expect_compile_time_words(w.compile_time, 0);
    }
    RC_ASSERT(w.compile_time.size() == 2U);
    install_runtime_words(w.common_runtime);
    banks.install();
    const auto base = static_cast<std::uint32_t>(d.bank_base), page = static_cast<std::uint32_t>(d.aligned_page_size);
    const ptt::tt_case c = make_case(e, m, banks, base, dram ? "DRAM, every part runtime" : "L1, every part runtime");
    if (dram) {
        // The CRTA offset given at run time (tt-metal's TensorAccessorArgs<CTA>(crta)).
        const auto args = TensorAccessorArgs<2>(runtime_at);
        RC_ASSERT(args.num_common_runtime_args() == w.common_runtime.size());
        RC_ASSERT(args.next_common_runtime_args_offset() == runtime_at + w.common_runtime.size());
        run([&] { ptt::check_sharded_accessor(args, base, page, c); });
    } else {
        const auto args = TensorAccessorArgs<0, runtime_at>();
        RC_ASSERT(args.num_common_runtime_args() == w.common_runtime.size());
        RC_ASSERT(args.bank_coords_crta_offset() + ttw::coord_words(static_cast<std::uint32_t>(d.cores.size())) ==
                  runtime_at + w.common_runtime.size());
        run([&] { ptt::check_sharded_accessor(args, base, page, c); });
    }
}

RC_GTEST_PROP(tt_accessor, interleaved_pages_are_the_oracles_over_the_platform_banks, ()) {
    tk::rc_entropy e;
    const bool dram = tk::rc_choose(0, 2) == 1;
    const auto banks = static_cast<std::uint32_t>(e.between(1, 20));
    const auto page_size = static_cast<std::uint32_t>(e.pick<std::uint64_t>({1, 2, 32, 100, 1024, 2048, 2050}));
    const auto pages = static_cast<std::uint32_t>(e.between(0, 300));
    const auto base = static_cast<std::uint32_t>(e.between(0, 1U << 15) * 32);
    RC_CLASSIFY(dram, "DRAM");
    RC_CLASSIFY(pages < banks, "fewer pages than banks");

    ptt::interleaved_case c;
    c.label = std::string(dram ? "interleaved DRAM, " : "interleaved L1, ") + std::to_string(banks) + " banks, " +
              std::to_string(page_size) + "-byte pages";
    c.banks = banks;
    c.bank_base = base;
    c.page_size = page_size;
    c.num_pages = pages;
    // Rows are the page size rounded up to the allocator's alignment: Wormhole's
    // DRAM_ALIGNMENT 32 and L1_ALIGNMENT 16.
    const std::uint32_t alignment = dram ? 32 : 16;
    c.row_bytes = (page_size + alignment - 1) / alignment * alignment;
    for (std::uint32_t b = 0; b < banks; ++b) {
        c.nodes.push_back({static_cast<std::uint32_t>(e.between(0, 63)), static_cast<std::uint32_t>(e.between(0, 63))});
        c.bank_offsets.push_back(dram ? static_cast<std::uint32_t>(e.between(0, 1U << 16) * 32) : 0U);
    }
    RC_LOG() << c.label << ", " << pages << " pages, base " << base << "\n";
    tk::tt_host.l1_banks = c.nodes;
    tk::tt_host.dram_banks = c.nodes;
    tk::tt_host.dram_offsets = c.bank_offsets;
    const ttw::tt_words w = ttw::make_interleaved_tt_words(dram, page_size);
    RC_ASSERT(w.common_runtime.empty());
    expect_compile_time_words(w.compile_time, dram ? 6 : 4);
    try {
        if (dram) {
            const auto a = TensorAccessor(TensorAccessorArgs<6>(), base, page_size);
            static_assert(decltype(a)::DSpec::is_interleaved && decltype(a)::is_dram);
            ptt::check_interleaved(ptt::interleaved_probe_of<decltype(a)>(a), c);
        } else {
            const auto a = TensorAccessor(TensorAccessorArgs<4>(), base, page_size);
            static_assert(decltype(a)::DSpec::is_interleaved && !decltype(a)::is_dram);
            ptt::check_interleaved(ptt::interleaved_probe_of<decltype(a)>(a), c);
        }
    } catch (const ptt::mismatch& err) {
        RC_FAIL(err.what());
    }
}

}  // namespace
