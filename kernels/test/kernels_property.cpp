// kernels.property: the ops of kernels/ops, as RapidCheck properties. RapidCheck draws the
// case (ttsim::draw_case over rc_entropy: its choices shrink like any generated value),
// ttsim runs it in a child process, and every output page, padding slot, NoC access and CB
// call is checked. Each property classifies its cases by the distribution features that
// make kernels go wrong (rank, uneven edge shards, more cores than shards, DRAM, grid_2d,
// compile-time words), so a run shows how often each was reached.
//
// One case in five is a hard one (ttsim::draw_hard_case, its class and rank drawn by
// RapidCheck too): more than 65,536 pages, one-page shards more than 255 a core, shards over
// 64 KiB, tile pages of 1,088 / 2,048 / 4,096 bytes, buffers at the top of L1 or DRAM, ranks
// 5-7; each is classified by the hard classes it reaches (ttsim::hard_classes).
//
// The page sizes come from a fixed pool and most accessor words are runtime ones: each
// distinct compile-time argument set is a kernel compiled anew (about 2 s), while a case
// whose kernels are cached runs in milliseconds. RC_PARAMS is set by the ctest (kernels/CMakeLists.txt).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/testkit/rc_entropy.hpp"
#include "ops/ops.hpp"

namespace {

using namespace ndshard;

ttsim::check_options options() {
    ttsim::check_options o;
    o.max_pages = 128;
    o.max_cores = 8;
    o.static_mix_percent = 10;
    o.page_bytes = {8, 24, 48};  // padded in both memories, in DRAM only, in neither
    o.launch.cache = NDSHARD_KERNEL_CACHE_DIR;
    return o;
}

// The features of one buffer's distribution that a kernel most often gets wrong.
void classify_buffer(const char* which, const distribution_spec& s, sim::memory_kind m) {
    const distribution d = make_distribution(s);
    const page_layout& l = d.layout;
    bool uneven = false;
    for (std::size_t i = 0; i < l.rank(); ++i) uneven = uneven || (l.shard[i] != 0 && l.tensor[i] % l.shard[i] != 0);
    const std::string w = which;
    RC_CLASSIFY(l.rank() == 1, w + " rank 1");
    RC_CLASSIFY(l.rank() >= 4, w + " rank >= 4");
    RC_CLASSIFY(uneven, w + " uneven edge shards");
    RC_CLASSIFY(l.num_cores > l.num_shards, w + " more cores than shards");
    RC_CLASSIFY(m == sim::memory_kind::dram, w + " in DRAM");
    RC_CLASSIFY(s.strat == strategy::grid_2d, w + " grid_2d");
    RC_CLASSIFY(s.strat == strategy::contiguous_1d, w + " contiguous_1d");
}

void check_op(const ttsim::op_desc& op) {
    testkit::rc_entropy e;
    const ttsim::check_options o = options();
    std::optional<ttsim::case_spec> c;
    if (e.chance(20)) {
        // k picks the class (k % 8) and the rank (k % the op's ranks) of the hard case.
        c = ttsim::draw_hard_case(op, e, o, e.between(0, 63), true);
        if (c)
            for (const std::string& h : ttsim::hard_classes(*c)) RC_CLASSIFY(true, "hard " + h);
    } else {
        c = ttsim::draw_case(op, e, o);
    }
    RC_PRE(c.has_value());
    for (std::size_t i = 0; i < c->inputs.size(); ++i) classify_buffer("input", c->inputs[i], c->input_memory[i]);
    classify_buffer("output", c->output, c->output_memory);
    RC_CLASSIFY(c->mix != ttsim::all_runtime, "compile-time words");
    const ttsim::case_result r = ttsim::run_one(op, *c, o);
    RC_LOG() << ttsim::describe(*c) << "\n"
             << "replay: ndshard kcheck " << op.name << " " << ttsim::replay_flags(*c) << "\n";
    for (const ttsim::finding& f : r.findings)
        RC_LOG() << ttsim::to_string(f.kind) << " in " << f.kernel << ": " << f.what << "\n";
    RC_ASSERT(r.passed);
}

RC_GTEST_PROP(kernels, copy_is_right_for_every_pair_of_distributions, ()) { check_op(kernels::copy_op()); }

RC_GTEST_PROP(kernels, copy_shards_is_right_for_every_pair_of_distributions, ()) {
    check_op(kernels::copy_shards_op());
}

RC_GTEST_PROP(kernels, reduce_is_right_for_every_pair_of_distributions, ()) { check_op(kernels::make_op("reduce:0")); }

// The property itself can fail: a defective reader (every page one too far) is caught.
TEST(kernels, the_property_fails_on_a_defective_reader) {
    kernels::kernel_swap swap;
    swap.reader = "defects/start_id_off_by_one.cpp";
    const ttsim::op_desc bad = kernels::make_op("copy", swap);
    const auto result = rc::check("a defective copy passes", [&] { check_op(bad); });
    EXPECT_FALSE(result);
}

}  // namespace
