// One kernel for every distribution: on the simulated device, reshard, eltwise_add,
// reduce_sum and permute agree with the dense oracle for random distributions drawn by
// sim::draw_distribution (ND with all three strategies, interleaved in L1 and DRAM,
// legacy HEIGHT / WIDTH / BLOCK, uneven and oversized shards, more cores than shards,
// ranks 1..8). Any NoC access outside its buffer throws and fails the case. Plus the
// locality laws of issue 4, and a check that the generator reaches every hard case.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "ndshard/sim/kernels.hpp"
#include "ndshard/sim/scenario.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ndshard/testkit/rc_oracle.hpp"

namespace {

using namespace ndshard;
using namespace ndshard::sim;

namespace tk = ndshard::testkit;

// --- classification -------------------------------------------------------------

std::string family_label(const drawn_spec& s) {
    return s.family == layout_family::nd ? std::string("nd:") + ndshard::to_string(s.spec.strat) : to_string(s.family);
}

// Feature counts per property over every case run, printed when the executable ends,
// so the output shows each hard case occurring (RapidCheck's own table shows
// combinations, which is kept small: the iterated layout, uneven, cores>shards).
std::map<std::string, std::map<std::string, int>>& tallies() {
    static std::map<std::string, std::map<std::string, int>> t;
    return t;
}

class print_tallies : public ::testing::Environment {
public:
    void TearDown() override {
        for (const auto& [prop, counts] : tallies()) {
            const int cases = counts.count("#cases") ? counts.at("#cases") : 0;
            std::printf("\n%s: features over %d distributions of %d cases\n", prop.c_str(),
                        counts.count("#specs") ? counts.at("#specs") : 0, cases);
            for (const auto& [feature, n] : counts)
                if (feature[0] != '#') std::printf("  %-26s %6d\n", feature.c_str(), n);
        }
    }
};
[[maybe_unused]] const auto* const tally_printer = ::testing::AddGlobalTestEnvironment(new print_tallies);

// `iterated` is the distribution whose local pages the kernel walks (the output).
void classify(const char* prop, const drawn_spec& iterated, const std::vector<drawn_spec>& all) {
    bool uneven = false, more_cores = false;
    auto& t = tallies()[prop];
    ++t["#cases"];
    for (const drawn_spec& s : all) {
        const auto f = features(s);
        uneven = uneven || tk::has_feature(f, "uneven");
        more_cores = more_cores || tk::has_feature(f, "cores>shards");
        ++t["#specs"];
        for (const std::string& x : f) ++t[x];
    }
    RC_TAG(family_label(iterated));
    RC_CLASSIFY(uneven, "uneven");
    RC_CLASSIFY(more_cores, "cores>shards");
}

// --- checks ----------------------------------------------------------------------

void expect_same(const dense_tensor& got, const dense_tensor& want, const std::string& what) {
    const std::string diff = first_difference(got, want);
    if (!diff.empty()) RC_FAIL(what + ": " + diff);
}

void expect_padding_intact(const device& dev, buffer_id id) {
    const auto bad = dev.padding_violations(id);
    if (!bad.empty()) RC_FAIL("'" + dev.buffer(id).name + "': " + bad.front());
}

// Each access of the given direction touched a distinct (core, address) of `buffer`,
// and there were exactly `pages` of them.
void expect_each_page_once(const std::vector<noc_access>& log, bool writes, buffer_id buffer, std::uint64_t pages) {
    std::vector<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> seen;
    for (const noc_access& a : log)
        if (a.is_write == writes) {
            RC_ASSERT(a.buffer == buffer);
            seen.emplace_back(a.target.x, a.target.y, a.addr);
        }
    RC_ASSERT(seen.size() == pages);
    std::sort(seen.begin(), seen.end());
    RC_ASSERT(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
}

// An input buffer with what the host wrote to it: a kernel must leave it unchanged.
struct written_input {
    buffer_id id;
    const dense_tensor& data;
    const char* what;
};

// After a kernel: every input still holds its tensor, and no buffer's padding was written.
void expect_inputs_kept(const device& dev, std::initializer_list<written_input> inputs,
                        std::initializer_list<buffer_id> buffers) {
    for (const written_input& in : inputs) expect_same(dev.read(in.id), in.data, in.what);
    for (buffer_id id : buffers) expect_padding_intact(dev, id);
}

// What every kernel property draws first, in this order: a page grid of rank 1..8 with up
// to 48 pages (a zero-size dim in 4% of the grids unless `no_zero`), then 1..4 int32
// elements per page. Its distributions and tensors are drawn on the scenario device.
struct kernel_case {
    device_config cfg = scenario_device_config();
    shape pages;
    std::uint32_t elems = 1;

    explicit kernel_case(testkit::entropy& e, bool no_zero = false)
        : pages(draw_page_grid(e, e.between(1, 8), 48, no_zero ? 0 : 4)),
          elems(static_cast<std::uint32_t>(e.between(1, 4))) {}

    // A distribution of a `grid` of pages of this case's size (4 bytes an element).
    [[nodiscard]] drawn_spec distribution(testkit::entropy& e, const shape& grid, const draw_options& opt = {}) const {
        return draw_distribution(e, cfg, grid, elems * 4, opt);
    }
    [[nodiscard]] dense_tensor random_tensor(testkit::entropy& e) const {
        return dense_tensor::random(pages, elems, e.between(0, 1 << 20));
    }
};

}  // namespace

// Reshard A -> B equals the input; B -> A' gives it back; every page is read once and
// written once; padding keeps its sentinel; the input is untouched.
RC_GTEST_PROP(SimKernels, ReshardMatchesTheOracleAndRoundTrips, ()) {
    testkit::rc_entropy e;
    const kernel_case k(e);
    const drawn_spec a = k.distribution(e, k.pages);
    const drawn_spec b = k.distribution(e, k.pages);
    classify("reshard", b, {a, b});

    device dev(k.cfg);
    const buffer_id in = dev.allocate(a.spec, "a"), mid = dev.allocate(b.spec, "b"), back = dev.allocate(a.spec, "a'");
    const dense_tensor t = k.random_tensor(e);
    dev.write(in, t);
    dev.record_accesses(true);
    const traffic_stats s = reshard(dev, in, mid, e.between(0, 1000));
    expect_same(dev.read(mid), t, "A -> B");
    const std::uint64_t n = t.num_pages();
    RC_ASSERT(s.pages_read == n);
    RC_ASSERT(s.pages_written == n);
    RC_ASSERT(s.bytes_read == n * k.elems * 4);
    RC_ASSERT(s.remote_writes == 0U || b.memory == memory_kind::dram);
    expect_each_page_once(dev.accesses(), false, in, n);
    expect_each_page_once(dev.accesses(), true, mid, n);
    dev.clear_accesses();

    reshard(dev, mid, back, e.between(0, 1000));
    expect_same(dev.read(back), t, "A -> B -> A");
    expect_inputs_kept(dev, {{in, t, "the input"}}, {in, mid, back});
}

// out = a + b with three independent distributions (a and b sometimes the same buffer).
RC_GTEST_PROP(SimKernels, EltwiseAddMatchesTheOracle, ()) {
    testkit::rc_entropy e;
    const kernel_case k(e);
    const drawn_spec da = k.distribution(e, k.pages);
    const drawn_spec db = k.distribution(e, k.pages);
    const drawn_spec dout = k.distribution(e, k.pages);
    const bool same_input = sim::detail::chance(e, 10);
    classify("eltwise_add", dout, {da, db, dout});
    RC_CLASSIFY(same_input, "a is b");

    device dev(k.cfg);
    const buffer_id a = dev.allocate(da.spec, "a");
    const buffer_id b = same_input ? a : dev.allocate(db.spec, "b");
    const buffer_id out = dev.allocate(dout.spec, "out");
    const dense_tensor x = k.random_tensor(e);
    const dense_tensor y = same_input ? x : k.random_tensor(e);
    dev.write(a, x);
    if (!same_input) dev.write(b, y);
    const traffic_stats s = eltwise_add(dev, a, b, out, e.between(0, 1000));
    expect_same(dev.read(out), dense::eltwise_add(x, y), "a + b");
    RC_ASSERT(s.pages_read == 2 * x.num_pages());
    RC_ASSERT(s.pages_written == x.num_pages());
    expect_inputs_kept(dev, {{a, x, "input a"}, {b, y, "input b"}}, {a, b, out});
}

// Sum over one page-grid dim (dropped, or kept as 1).
RC_GTEST_PROP(SimKernels, ReduceSumMatchesTheOracle, ()) {
    testkit::rc_entropy e;
    const kernel_case k(e);
    const std::size_t dim = e.between(0, k.pages.rank() - 1);
    const bool keep = k.pages.rank() == 1 || sim::detail::chance(e, 30);
    const dense_tensor t = k.random_tensor(e);
    const dense_tensor want = dense::reduce_sum(t, dim, keep);
    const drawn_spec din = k.distribution(e, k.pages);
    const drawn_spec dout = k.distribution(e, want.pages);
    classify("reduce_sum", dout, {din, dout});
    RC_TAG("dim " + std::to_string(dim) + (keep ? " kept" : ""));

    device dev(k.cfg);
    const buffer_id in = dev.allocate(din.spec, "in"), out = dev.allocate(dout.spec, "out");
    dev.write(in, t);
    const traffic_stats s = reduce_sum(dev, in, out, dim, e.between(0, 1000));
    expect_same(dev.read(out), want, "reduce_sum:" + std::to_string(dim));
    RC_ASSERT(s.pages_read == t.num_pages());
    RC_ASSERT(s.pages_written == want.num_pages());
    expect_inputs_kept(dev, {{in, t, "the input"}}, {in, out});
}

// Permute page-grid dims by a random order.
RC_GTEST_PROP(SimKernels, PermuteMatchesTheOracle, ()) {
    testkit::rc_entropy e;
    const kernel_case k(e);
    std::vector<std::size_t> order(k.pages.rank());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (std::size_t i = 0; i + 1 < order.size(); ++i) std::swap(order[i], order[e.between(i, order.size() - 1)]);
    const dense_tensor t = k.random_tensor(e);
    const dense_tensor want = dense::permute(t, order);
    const drawn_spec din = k.distribution(e, k.pages);
    const drawn_spec dout = k.distribution(e, want.pages);
    classify("permute", dout, {din, dout});

    device dev(k.cfg);
    const buffer_id in = dev.allocate(din.spec, "in"), out = dev.allocate(dout.spec, "out");
    dev.write(in, t);
    const traffic_stats s = permute(dev, in, out, order, e.between(0, 1000));
    expect_same(dev.read(out), want, "permute");
    RC_ASSERT(s.pages_read == t.num_pages());
    RC_ASSERT(s.pages_written == t.num_pages());
    expect_inputs_kept(dev, {}, {in, out});
}

// Locality: the input's shards cover the whole reduced dim and the output has the same
// shards without it (or with it as 1), on the same L1 cores with the same strategy:
// reduce_sum reads nothing remote.
RC_GTEST_PROP(SimKernels, AlignedReduceSumReadsNothingRemote, ()) {
    testkit::rc_entropy e;
    // No zero-size dim: an empty reduced dim leaves the input without shards to match.
    const kernel_case k(e, true);
    const shape& pages = k.pages;
    const std::size_t dim = e.between(0, pages.rank() - 1);
    draw_options opt;
    opt.l1_only = true;
    opt.cover_dim = static_cast<int>(dim);
    const drawn_spec din = k.distribution(e, pages, opt);
    // The output spec: the input's with the dim kept as 1, or dropped (grid_2d keeps it,
    // since dropping the last dim would change its 2D view).
    const bool keep = pages.rank() == 1 || din.spec.strat == strategy::grid_2d || sim::detail::chance(e, 50);
    drawn_spec dout = din;
    dout.spec.tensor = {};
    dout.spec.shard = {};
    for (std::size_t d = 0; d < pages.rank(); ++d)
        if (d != dim || keep) {
            dout.spec.tensor.push_back(d == dim ? 1 : pages[d]);
            dout.spec.shard.push_back(d == dim ? 1 : din.spec.shard[d]);
        }
    classify("aligned reduce_sum", dout, {din, dout});

    device dev(k.cfg);
    const buffer_id in = dev.allocate(din.spec, "in"), out = dev.allocate(dout.spec, "out");
    const dense_tensor t = k.random_tensor(e);
    dev.write(in, t);
    const traffic_stats s = reduce_sum(dev, in, out, dim, e.between(0, 1000));
    expect_same(dev.read(out), dense::reduce_sum(t, dim, keep), "aligned reduce_sum");
    RC_ASSERT(s.remote_reads == 0U);
    RC_ASSERT(s.remote_writes == 0U);
    RC_ASSERT(s.hops == 0U);
    RC_ASSERT(s.local_reads == t.num_pages());
}

// Reshard between identical L1 distributions moves nothing remote.
RC_GTEST_PROP(SimKernels, ReshardBetweenIdenticalDistributionsIsLocal, ()) {
    testkit::rc_entropy e;
    const kernel_case k(e);
    draw_options opt;
    opt.l1_only = true;
    const drawn_spec d = k.distribution(e, k.pages, opt);
    classify("identical reshard", d, {d});

    device dev(k.cfg);
    const buffer_id in = dev.allocate(d.spec, "in"), out = dev.allocate(d.spec, "out");
    const dense_tensor t = k.random_tensor(e);
    dev.write(in, t);
    const traffic_stats s = reshard(dev, in, out, e.between(0, 1000));
    expect_same(dev.read(out), t, "identical reshard");
    RC_ASSERT(s.remote_reads == 0U);
    RC_ASSERT(s.remote_writes == 0U);
    RC_ASSERT(s.hops == 0U);
}

// The generator behind every property above reaches each hard case in at least 0.5% of
// its distributions (seeded PRNG, so the table is the same on every run).
TEST(SimScenario, GeneratorReachesTheHardCases) {
    constexpr int draws = 3000;
    testkit::random_entropy e(2024);
    std::map<std::string, int> counts;
    for (int i = 0; i < draws; ++i) {
        const kernel_case k(e);
        const drawn_spec s = k.distribution(e, k.pages);
        ASSERT_NO_THROW((void)make_distribution(s.spec)) << to_string(k.pages);
        for (const std::string& f : features(s)) ++counts[f];
    }
    std::vector<std::string> required = {"family:nd",
                                         "family:interleaved",
                                         "family:height",
                                         "family:width",
                                         "family:block",
                                         "strategy:round_robin_1d",
                                         "strategy:contiguous_1d",
                                         "strategy:grid_2d",
                                         "dram",
                                         "folded",
                                         "uneven",
                                         "shard>tensor",
                                         "cores>shards",
                                         "multi_slot",
                                         "gap",
                                         "empty"};
    for (int r = 1; r <= 8; ++r) required.push_back("rank:" + std::to_string(r));
    std::printf("sim::draw_distribution over %d draws:\n", draws);
    for (const auto& [f, n] : counts) std::printf("  %-24s %5d  %5.1f%%\n", f.c_str(), n, 100.0 * n / draws);
    for (const std::string& f : required) EXPECT_GE(counts[f], draws / 200) << f << " is (almost) never drawn";
}
