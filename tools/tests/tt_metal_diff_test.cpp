// Where ndshard's answer differs from tt-metal's published code (docs/tt-args.md, the section
// of that name): for each known defect, the smallest spec that shows it, ndshard's answer
// and tt-metal's, both computed here and both checked against the numbers the page prints.
//
// ndshard's answer comes from ndshard itself: its tt-metal front end (lib/ttmetal, the
// TensorAccessor a kernel builds from the words below, on the host platform of the testkit)
// or its library (make_distribution, the words of ndshard/tt/host_words.hpp). tt-metal's
// answer comes from a model of the published code written here in a few lines each: the
// same arithmetic in the same integer widths, named after the tt-metal function it follows,
// with the file and version it was read from. The model is ours; none of tt-metal's code is.

// The kernel's compile-time words: five accessors one after the other, layout 2
// ([config] [aligned page size] [rank] [banks] [tensor] [shard] [coords]), 64-byte pages.
//   A  (a) [2] / [1] pages on L1 banks (1,1),(2,1)
//   B  (b) [2,1] / [1,2] pages on L1 banks (1,1),(2,1)
//   C  (g) [2] / [1] pages on L1 bank (1,1)
//   D  (f) [2] / [1] pages on DRAM banks 0 and 1 (coordinates (0,0), (1,0): x is the bank id)
//   E  B's words with the bank coordinates at run time: TensorAccessorArgs<CTA>(crta_offset)
// clang-format off
#define KERNEL_COMPILE_TIME_ARGS                        \
    0x1,  64, 1, 2, 2, 1, 0x02010101,       /* A */ \
    0x1,  64, 2, 2, 2, 1, 1, 2, 0x02010101, /* B */ \
    0x1,  64, 1, 1, 2, 1, 0x0101,           /* C */ \
    0x3,  64, 1, 2, 2, 1, 0x01000000,       /* D */ \
    0x41, 64, 2, 2, 2, 1, 1, 2              /* E */
// clang-format on

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "api/tensor/tensor_accessor.h"
#include "ndshard/distribution.hpp"
#include "ndshard/error.hpp"
#include "ndshard/legacy.hpp"
#include "ndshard/testkit/tt_host_platform.hpp"
#include "ndshard/tt/host_words.hpp"
#include "ndshard/tt/noc.hpp"

namespace ndshard::test {
namespace {

using testkit::tt_host;

// --- the kernel side: ndshard's TensorAccessor over the words above ----------------------

constexpr auto all_args = make_tensor_accessor_args_tuple<4, 0>();
constexpr auto args_a = std::get<0>(all_args);
constexpr auto args_b = std::get<1>(all_args);
constexpr auto args_c = std::get<2>(all_args);
constexpr auto args_d = std::get<3>(all_args);
constexpr std::uint32_t cta_e = args_d.next_compile_time_args_offset();
static_assert(cta_e == 30, "E starts where D ends: A, C and D take 7 words, B 9");
// E's one common runtime word (its bank coordinates) sits at CRTA offset 3 of the kernel.
constexpr std::uint32_t crta_e = 3;

constexpr std::uint32_t bank_base = 0x1000;

distribution dist(const distribution_spec& s) { return make_distribution(s); }

distribution_spec pages_spec(shape tensor, shape shard, std::vector<core_range> cores) {
    distribution_spec s;
    s.tensor = std::move(tensor);
    s.shard = std::move(shard);
    s.page.kind = page_kind::pages;
    s.element_size = 64;
    s.bank_base = bank_base;
    s.cores = std::move(cores);
    return s;
}

const std::vector<core_range> two_l1_banks = {{{1, 1}, {2, 1}}};

// The words above are the library's words for these specs (make_tt_words, layout 2).
TEST(TtMetalDiff, KernelWordsAreTheLibrarys) {
    const std::vector<std::uint32_t> ct(kernel_compile_time_args.begin(), kernel_compile_time_args.end());
    std::vector<std::uint32_t> expected;
    const tt::tt_words e = tt::make_tt_words(dist(pages_spec({2, 1}, {1, 2}, two_l1_banks)),
                                             tt::flag::runtime_bank_coords, tt::layout_with_page_size);
    distribution_spec dram = pages_spec({2}, {1}, {{{0, 0}, {1, 0}}});
    for (const tt::tt_words& w :
         {tt::make_tt_words(dist(pages_spec({2}, {1}, two_l1_banks)), 0, tt::layout_with_page_size),
          tt::make_tt_words(dist(pages_spec({2, 1}, {1, 2}, two_l1_banks)), 0, tt::layout_with_page_size),
          tt::make_tt_words(dist(pages_spec({2}, {1}, {{{1, 1}, {1, 1}}})), 0, tt::layout_with_page_size),
          tt::make_tt_words(dist(dram), tt::flag::is_dram, tt::layout_with_page_size), e})
        expected.insert(expected.end(), w.compile_time.begin(), w.compile_time.end());
    EXPECT_EQ(ct, expected);
    EXPECT_EQ(e.common_runtime, (std::vector<std::uint32_t>{0x02010101}));
}

void set_platform() {
    tt_host = {};
    tt_host.common_runtime_args = {0, 0, 0, 0x02010101};  // E's bank coordinates at CRTA offset 3
    // A DRAM bank table, as a device has one: bank b's NoC endpoint and the offset added to
    // every address in it. The values are an example; the point is that bank 1's offset is not 0.
    tt_host.dram_banks = {{0, 11}, {0, 11}};
    tt_host.dram_offsets = {0, 0x40000000};
}

// --- tt-metal's published code, modelled -------------------------------------------------

// tt-metal's dspec(): shard grid, its row-major strides, volumes (internal/tensor/dspec.h).
struct tt_dspec {
    std::vector<std::uint32_t> tensor, shard;
    std::uint32_t num_banks;
    std::vector<std::uint32_t> shard_grid() const {
        std::vector<std::uint32_t> g;
        for (std::size_t i = 0; i < tensor.size(); ++i) g.push_back((tensor[i] + shard[i] - 1) / shard[i]);
        return g;
    }
    std::vector<std::uint32_t> shard_grid_strides() const {
        const std::vector<std::uint32_t> g = shard_grid();
        std::vector<std::uint32_t> s(g.size(), 1);
        for (std::size_t i = g.size() - 1; i-- > 0;) s[i] = s[i + 1] * g[i + 1];
        return s;
    }
    std::uint32_t tensor_volume() const {
        std::uint32_t v = 1;
        for (std::uint32_t t : tensor) v *= t;
        return v;
    }
    std::uint32_t shard_volume() const {
        std::uint32_t v = 1;
        for (std::uint32_t s : shard) v *= s;
        return v;
    }
};

// TensorAccessor::get_shard_noc_addr(shard_coord) before tt-metal #49594 (fixing #48260),
// tt_metal/hw/inc/api/tensor/tensor_accessor.h at fbdec7e: the id starts at 0 and is only
// ever multiplied, so it stays 0; then the shard-id overload: bank id % banks, slot id / banks.
std::pair<std::uint32_t, std::uint32_t> tt_shard_coord_bank_and_offset(const tt_dspec& d,
                                                                       const std::vector<std::uint32_t>& coord) {
    std::uint32_t shard_id = 0;
    for (std::size_t i = 0; i < coord.size(); ++i) shard_id *= d.shard_grid_strides()[i];
    return {shard_id % d.num_banks, shard_id / d.num_banks * d.shard_volume()};
}

// TensorAccessor::strided_shard_pages() as tt-metal #57506 (item 5) quotes it, and as
// tt-metal's own host test of it counts: ceil(tensor volume / shard volume) shards, thread t
// taking t, t + threads, ...
std::vector<std::uint32_t> tt_strided_shards(const tt_dspec& d, std::uint32_t thread, std::uint32_t threads) {
    const std::uint32_t total = (d.tensor_volume() + d.shard_volume() - 1) / d.shard_volume();
    std::vector<std::uint32_t> out;
    for (std::uint32_t s = thread; s < total; s += threads) out.push_back(s);
    return out;
}

// PagesAddressIteratorSharded (api/tensor/pages_address_iterator.h): made at an id, kept as
// is; += adds and clamps at the tensor volume, and does nothing there; end() is the iterator
// made at end_page_id, and a loop stops on ==. At most `cap` ids, to see a loop that never ends.
std::vector<std::uint32_t> tt_pages_walk(std::uint32_t volume, std::uint32_t start, std::uint32_t end,
                                         std::uint32_t step, std::size_t cap) {
    std::vector<std::uint32_t> ids;
    for (std::uint32_t id = start; id != end && ids.size() < cap;) {
        ids.push_back(id);
        if (id < volume) id = id + step >= volume ? volume : id + step;
    }
    return ids;
}

// The coordinate half-word the host writes (tt_metal/impl/buffers/tensor_accessor_args.cpp,
// append_sharded_args): ((x & 0xFF) << 8) | (y & 0xFF).
std::uint32_t tt_pack_coord(std::uint32_t x, std::uint32_t y) { return ((x & 0xFF) << 8) | (y & 0xFF); }

// BufferDistributionSpec's squeeze_shape_ranks (tt_metal/impl/buffers/buffer_distribution_spec.cpp
// at ed81d1f): from the last dim back, a dim merges into the one after it while the dims
// after it match the shard exactly (or the shard dim is 1 and the previous dim divided);
// the tensor dims left of the shard's rank are multiplied into its first dim. The new
// shapes are SmallVector<uint32_t>: every product is taken mod 2^32.
std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>> tt_squeeze(const std::vector<std::uint32_t>& t,
                                                                             const std::vector<std::uint32_t>& s) {
    std::uint64_t tensor_volume = 1, shard_volume = 1;
    for (std::uint32_t v : t) tensor_volume *= v;
    for (std::uint32_t v : s) shard_volume *= v;
    std::vector<std::uint32_t> nt, ns;
    bool matching = false, last_divisible = false;
    std::uint64_t cur_t = 1, cur_s = 1;
    const auto rt = static_cast<int>(t.size()), rs = static_cast<int>(s.size());
    for (int dim = -1; dim >= -rs; --dim) {
        const std::uint32_t ts = t[static_cast<std::size_t>(rt + dim)], ss = s[static_cast<std::size_t>(rs + dim)];
        if (dim < -1 && (matching || (ss == 1 && last_divisible))) {
            nt.back() *= ts;  // uint32_t *= uint32_t
            ns.back() *= ss;
        } else {
            nt.push_back(ts);
            ns.push_back(ss);
            matching = true;
        }
        matching = matching && ts == ss;
        last_divisible = ts % ss == 0;
        cur_t *= ts;
        cur_s *= ss;
        if (cur_t == tensor_volume && cur_s == shard_volume) break;
    }
    for (int dim = -rs - 1; dim >= -rt; --dim) nt.back() *= t[static_cast<std::size_t>(rt + dim)];
    return {{nt.rbegin(), nt.rend()}, {ns.rbegin(), ns.rend()}};
}

// BufferDistributionSpec::compute_core_list for GRID_2D (same file): shards along width and
// height from the last two dims of the shapes as given (before squeeze_shape_ranks), swapped
// for COL_MAJOR, the core range trimmed to them and listed in the orientation's order.
std::vector<core_coord> tt_grid_2d_cores(const std::vector<std::uint32_t>& t, const std::vector<std::uint32_t>& s,
                                         core_range grid, bool row_major) {
    const std::size_t rt = t.size(), rs = s.size();
    std::uint32_t w = std::max((t[rt - 1] + s[rs - 1] - 1) / s[rs - 1], 1U);
    std::uint32_t h = std::max((t[rt - 2] + s[rs - 2] - 1) / s[rs - 2], 1U);
    if (!row_major) std::swap(w, h);
    std::vector<core_coord> cores;
    append_range(cores, {grid.start, {grid.start.x + w - 1, grid.start.y + h - 1}},
                 row_major ? orientation::row_major : orientation::col_major);
    return cores;
}

// TensorAccessor::get_noc_addr before the DRAM fix for #24933 (tt_metal/hw/inc/accessor/
// tensor_accessor.h at adc4f05): NOC_XY_ADDR of the coordinate word's x and y, for DRAM as for
// L1, at bank_base + page offset * page size.
std::uint64_t tt_old_noc_addr(core_coord bank, std::uint32_t page_offset, std::uint32_t page_size) {
    return tt::noc_xy_addr(bank.x, bank.y, bank_base + page_offset * page_size);
}

// --- the defects -------------------------------------------------------------------------

// (a) The shard at coordinate (1) of [2] / [1] pages on banks (1,1),(2,1).
TEST(TtMetalDiff, ShardCoordinateLookup) {
    set_platform();
    const auto a = TensorAccessor(args_a, bank_base);
    // ndshard: shard 1, bank 1 = (2,1), slot 0.
    EXPECT_EQ(a.get_shard_noc_addr(std::array<std::uint32_t, 1>{1}), tt::noc_xy_addr(2, 1, 0x1000));
    EXPECT_EQ(a.get_shard_noc_addr(std::array<std::uint32_t, 1>{1}), 0x42000001000ULL);
    // tt-metal: shard 0, bank 0 = (1,1), slot 0, whatever the coordinate.
    const tt_dspec d{{2}, {1}, 2};
    for (std::uint32_t c : {0U, 1U}) EXPECT_EQ(tt_shard_coord_bank_and_offset(d, {c}), std::make_pair(0U, 0U));
    EXPECT_EQ(tt::noc_xy_addr(1, 1, 0x1000), 0x41000001000ULL);
}

// (b) [2,1] / [1,2] pages: a 2x1 shard grid, 2 shards (the second holds page 1).
TEST(TtMetalDiff, StridedShardPagesCountsEveryShard) {
    set_platform();
    const auto b = TensorAccessor(args_b, bank_base);
    std::vector<std::uint32_t> shards, pages;
    for (std::uint32_t s = 0; const auto& shard : b.strided_shard_pages(0, 1)) {
        shards.push_back(s++);
        for (const auto& page : shard) pages.push_back(page.page_id());
    }
    EXPECT_EQ(shards, (std::vector<std::uint32_t>{0, 1}));
    EXPECT_EQ(pages, (std::vector<std::uint32_t>{0, 1}));  // every page once
    const tt_dspec d{{2, 1}, {1, 2}, 2};
    EXPECT_EQ(tt_strided_shards(d, 0, 1), (std::vector<std::uint32_t>{0}));  // ceil(2 / 2) = 1
    // The shard tt-metal never visits holds page 1 = (1,0): ndshard locates it there.
    const distribution nd = dist(pages_spec({2, 1}, {1, 2}, two_l1_banks));
    EXPECT_EQ(nd.layout.locate(1).shard_id, 1U);
    // With shards no larger than the tensor: [3,2] / [2,1], 4 shards against ceil(6 / 2) = 3;
    // and the issue's own example, [3,3] / [2,2], 4 shards against ceil(9 / 4) = 3.
    EXPECT_EQ(tt_strided_shards({{3, 2}, {2, 1}, 2}, 0, 1).size(), 3U);
    EXPECT_EQ(dist(pages_spec({3, 2}, {2, 1}, two_l1_banks)).num_shards(), 4U);
    EXPECT_EQ(tt_strided_shards({{3, 3}, {2, 2}, 2}, 0, 1).size(), 3U);
    EXPECT_EQ(dist(pages_spec({3, 3}, {2, 2}, two_l1_banks)).num_shards(), 4U);
}

// (c) [1] / [1] pages on the core (256,0).
TEST(TtMetalDiff, BankCoordinatesPast8Bits) {
    const distribution d = dist(pages_spec({1}, {1}, {{{256, 0}, {256, 0}}}));
    EXPECT_EQ(tt::why_no_words(d.layout, d.cores, tt::flag::sharded),
              "bank 0 at (256,0): tt-metal packs a coordinate into 8 bits");
    EXPECT_EQ(tt_pack_coord(256, 0), 0U);  // the device reads core (0,0)
    EXPECT_EQ(tt::unpack_bank(std::array<std::uint32_t, 1>{tt_pack_coord(256, 0)}, 0, 0), (core_coord{0, 0}));
}

// (d) [4, 2^30] pages in [1, 2^30] shards.
TEST(TtMetalDiff, SqueezeIn32Bits) {
    try {
        (void)dist(pages_spec({4, 1U << 30}, {1, 1U << 30}, {{{0, 0}, {0, 0}}}));
        ADD_FAILURE() << "ndshard accepted a tensor of 2^32 pages";
    } catch (const spec_error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "tensor page grid [4,1073741824] spans 4294967296 page ids (zero dims counted as 1); the limit "
                  "is 2^32-1 [rule tensor_pages_32bit]");
    }
    const auto [t, s] = tt_squeeze({4, 1U << 30}, {1, 1U << 30});
    EXPECT_EQ(t, (std::vector<std::uint32_t>{0}));  // 4 * 2^30 mod 2^32
    EXPECT_EQ(s, (std::vector<std::uint32_t>{1U << 30}));
    // The same through the leading-dims fold: a rank-1 shard.
    EXPECT_EQ(tt_squeeze({4, 1U << 30}, {1U << 30}).first, (std::vector<std::uint32_t>{0}));
    // Below 2^32 pages the model folds as ndshard does: [2,3,4] / [3,4] -> [24] / [12].
    EXPECT_EQ(tt_squeeze({2, 3, 4}, {3, 4}).first, (std::vector<std::uint32_t>{24}));
}

// (e) GRID_2D, tensor [2,2,1] pages, shard [2,1], cores (0,0)-(1,0), COL_MAJOR.
TEST(TtMetalDiff, Grid2dSizesTheGridBeforeFolding) {
    distribution_spec s = pages_spec({2, 2, 1}, {2, 1}, {{{0, 0}, {1, 0}}});
    s.strat = strategy::grid_2d;
    s.orient = orientation::col_major;
    const distribution nd = dist(s);
    // ndshard: the fold first ([4,1]), a 2x1 shard grid, one shard per core.
    EXPECT_EQ(nd.cores, (std::vector<core_coord>{{0, 0}, {1, 0}}));
    auto core_of = [&](std::uint64_t page) { return nd.cores[nd.layout.locate(page).core]; };
    EXPECT_EQ(core_of(0), (core_coord{0, 0}));
    EXPECT_EQ(core_of(1), (core_coord{0, 0}));
    EXPECT_EQ(core_of(2), (core_coord{1, 0}));
    EXPECT_EQ(core_of(3), (core_coord{1, 0}));
    // tt-metal's legacy BLOCK layout of the same pages ([4,1], shards 2x1, COL_MAJOR) agrees.
    legacy_spec block;
    block.layout = legacy_layout::block;
    block.tensor = {4, 1};
    block.shard_height = 2;
    block.shard_width = 1;
    block.cores = {{{0, 0}, {1, 0}}};
    block.orient = orientation::col_major;
    const distribution legacy = dist(to_nd(block));
    for (std::uint64_t p = 0; p < 4; ++p)
        EXPECT_EQ(legacy.cores[legacy.layout.locate(p).core], core_of(p)) << "page " << p;
    // tt-metal's GRID_2D: the last two dims [2,1] / [2,1] give a 1x1 grid, trimmed to (0,0)
    // alone; squeezed to [4] / [2], both shards go round robin to that one core.
    const std::vector<core_coord> tt_cores = tt_grid_2d_cores({2, 2, 1}, {2, 1}, {{0, 0}, {1, 0}}, false);
    EXPECT_EQ(tt_cores, (std::vector<core_coord>{{0, 0}}));
    const auto [t, sh] = tt_squeeze({2, 2, 1}, {2, 1});
    EXPECT_EQ(t, (std::vector<std::uint32_t>{4}));
    EXPECT_EQ(sh, (std::vector<std::uint32_t>{2}));
    for (std::uint32_t shard = 0; shard < 2; ++shard) EXPECT_EQ(tt_cores[shard % tt_cores.size()], (core_coord{0, 0}));
}

// (f) [2] / [1] pages on DRAM banks 0 and 1: page 1 is bank 1's first page.
TEST(TtMetalDiff, DramBankOffset) {
    set_platform();
    const auto d = TensorAccessor(args_d, bank_base);
    // ndshard: the bank table's endpoint (0,11) and offset 0x40000000, plus the bank base.
    EXPECT_EQ(d.get_noc_addr(1), tt::noc_packed_addr(tt::noc_xy_encoding(0, 11), 0x40000000 + 0x1000));
    EXPECT_EQ(d.get_noc_addr(1), 0x2c0040001000ULL);
    // tt-metal before the fix: NOC_XY_ADDR(1, 0, 0x1000), the bank id taken for a core's x.
    EXPECT_EQ(tt_old_noc_addr({1, 0}, 0, 64), 0x1000001000ULL);
}

// (g) pages(0, 1) of [2] / [1] pages, walked with += 2.
TEST(TtMetalDiff, PagesIteratorEnd) {
    set_platform();
    const auto c = TensorAccessor(args_c, bank_base);
    const auto range = c.pages(0, 1);
    std::vector<std::uint32_t> ids;
    for (auto it = range.begin(); it != range.end() && ids.size() < 8; it += 2) ids.push_back(it.page_id());
    EXPECT_EQ(ids, (std::vector<std::uint32_t>{0}));
    // tt-metal: 0, then the clamped end-of-tensor id 2 for ever.
    EXPECT_EQ(tt_pages_walk(2, 0, 1, 2, 4), (std::vector<std::uint32_t>{0, 2, 2, 2}));
    // With [3] / [1] pages it also yields page 2, outside [0, 1), before sticking at 3.
    EXPECT_EQ(tt_pages_walk(3, 0, 1, 2, 6), (std::vector<std::uint32_t>{0, 2, 3, 3, 3, 3}));
}

// The CRTA offset form: E (B's words, bank coordinates at CRTA offset 3) answers as B.
TEST(TtMetalDiff, RuntimeCrtaOffsetForm) {
    set_platform();
    const auto args_e = TensorAccessorArgs<cta_e>(crta_e);
    EXPECT_EQ(args_e.num_common_runtime_args(), 1U);
    EXPECT_EQ(args_e.next_common_runtime_args_offset(), 4U);
    const auto b = TensorAccessor(args_b, bank_base);
    const auto e = TensorAccessor(args_e, bank_base);
    for (std::uint32_t p = 0; p < 2; ++p) EXPECT_EQ(e.get_noc_addr(p), b.get_noc_addr(p)) << "page " << p;
    EXPECT_EQ(e.get_aligned_page_size(), 64U);
}

}  // namespace
}  // namespace ndshard::test
