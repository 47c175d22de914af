// ctest -L kernels: program factories written with tt-metal's host API (lib/ttmetal_host),
// compiled from their source as `ndshard kcheck --program` does: copy's factory
// (kernels/ops/copy/program.cpp) passes kcheck; a factory's bad calls are one finding
// naming the call and the value; a declined case is not a failure; a factory that does not
// compile is one error; a factory whose CB is an input's shard (set_globally_allocated_address)
// passes and fails without it. Few cases, one page size, runtime accessor words: few kernel compiles.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/ttmetal_host/bridge.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "ops/ops.hpp"

namespace {

using namespace ndshard;
namespace fs = std::filesystem;

ttsim::check_options options(std::uint32_t page_bytes) {
    ttsim::check_options o;
    o.cases = 6;
    o.seed = 3;
    o.max_pages = 48;
    o.static_mix_percent = 0;
    o.page_bytes = {page_bytes};
    o.launch.cache = NDSHARD_KERNEL_CACHE_DIR;
    return o;
}

// The factory in `folder` (kernels/ops/<folder>/program.cpp) passes kcheck against
// `reference`, by running its cases rather than declining them.
void expect_factory_passes(const ttsim::op_desc& reference, const std::string& folder) {
    SCOPED_TRACE(folder);
    const fs::path dir = kernels::kernels_dir() / "ops" / folder;
    const ttsim::op_desc op = ttmetal_host::program_op(
        reference, ttmetal_host::load_factory(dir / "program.cpp", NDSHARD_KERNEL_CACHE_DIR), dir);
    const ttsim::check_report r = ttsim::check_kernel(op, options(16));
    EXPECT_GT(r.cases_run, 0u);
    EXPECT_EQ(r.cases_failed, 0u) << r.smallest_result.summary << "\n" << r.replay;
    testkit::random_entropy e(2);
    const ttsim::check_options o = options(16);
    const std::optional<ttsim::case_spec> c = ttsim::draw_case(op, e, o);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(ttsim::run_case(op, *c, o.launch).summary, "passed");
}

TEST(ProgramFactory, CopyWrittenWithTtMetalHostCallsPassesKcheck) { expect_factory_passes(kernels::copy_op(), "copy"); }

// The other ops' factories in tt-metal's host names (kernels/ops/*/program.cpp, sharing
// kernels/ops/host_program.hpp): each passes kcheck against its reference, permute and reduce
// with the reference's parameter as make_program's third argument.
TEST(ProgramFactory, TheOtherOpsWrittenWithTtMetalHostCallsPassKcheck) {
    for (const auto& [name, folder] : std::vector<std::pair<std::string, std::string>>{
             {"copy_shards", "copy_shards"}, {"permute:2,0,1", "permute"}, {"reduce:1", "reduce"}})
        expect_factory_passes(kernels::make_op(name), folder);
    EXPECT_EQ(ttmetal_host::params_of("permute:2,0,1"), (ttmetal_host::op_params{2, 0, 1}));
    EXPECT_EQ(ttmetal_host::params_of("copy"), ttmetal_host::op_params{});
    EXPECT_THROW((void)ttmetal_host::params_of("reduce:x"), std::invalid_argument);
}

// A whole factory whose reader's CB is the input's shard memory
// (kernels/examples/cb_in_shard: set_globally_allocated_address on an L1-sharded input)
// copies over many distributions; the same factory without set_globally_allocated_address
// (a CB of fresh memory, never written) fails.
TEST(ProgramFactory, ACopyWhoseCbIsTheInputsShardPassesAndFailsWithoutIt) {
    const fs::path dir = kernels::kernels_dir() / "examples/cb_in_shard";
    const fs::path work = fs::path(NDSHARD_KERNEL_CACHE_DIR) / "program-factory-test";
    fs::create_directories(work);
    std::ifstream good_file(dir / "program.cpp");
    std::string source((std::istreambuf_iterator<char>(good_file)), std::istreambuf_iterator<char>());
    const std::string placing = ".set_globally_allocated_address(input)";
    const std::size_t at = source.find(placing);
    ASSERT_NE(at, std::string::npos);
    std::ofstream(work / "cb_not_in_shard.cpp") << source.erase(at, placing.size());

    const ttsim::op_desc good = ttmetal_host::program_op(
        kernels::copy_op(), ttmetal_host::load_factory(dir / "program.cpp", NDSHARD_KERNEL_CACHE_DIR), dir);
    const ttsim::op_desc broken = ttmetal_host::program_op(
        kernels::copy_op(), ttmetal_host::load_factory(work / "cb_not_in_shard.cpp", work), dir);
    const ttsim::check_options o = options(16);
    std::set<std::string> passed;
    std::size_t broken_failed = 0;
    testkit::random_entropy e(5);
    for (int draw = 0; draw < 40; ++draw) {
        const std::optional<ttsim::case_spec> c = ttsim::draw_case(good, e, o);
        if (!c) continue;
        const ttsim::case_result r = ttsim::run_case(good, *c, o.launch);
        if (r.summary.starts_with("not applicable")) continue;  // not an L1-sharded input
        EXPECT_EQ(r.summary, "passed") << ttsim::describe(*c);
        passed.insert(ttsim::describe(*c));
        if (!ttsim::run_case(broken, *c, o.launch).passed) ++broken_failed;
    }
    EXPECT_GE(passed.size(), 8u) << "too few L1-sharded inputs drawn";
    EXPECT_GT(broken_failed, 0u);
    RecordProperty("distributions_passed", static_cast<int>(passed.size()));
    RecordProperty("broken_failed", static_cast<int>(broken_failed));
}

// A factory that declines 4-byte pages and puts its kernel off the device otherwise.
constexpr const char* bad_factory = R"(
#include <tt-metalium/host_api.hpp>
using namespace tt::tt_metal;
Program make_program(Buffer& input, Buffer&) {
    if (input.page_size() == 4) throw not_applicable("4-byte pages");
    Program p = CreateProgram();
    CreateKernel(p, "reader.cpp", CoreRange({0, 0}, {9, 0}), DataMovementConfig{});
    return p;
}
)";

TEST(ProgramFactory, BadCallsAreOneFindingAndADeclinedCaseIsNoFailure) {
    const fs::path dir = fs::path(NDSHARD_KERNEL_CACHE_DIR) / "program-factory-test";
    fs::create_directories(dir);
    std::ofstream(dir / "bad.cpp") << bad_factory;
    const ttsim::op_desc op =
        ttmetal_host::program_op(kernels::copy_op(), ttmetal_host::load_factory(dir / "bad.cpp", dir), dir);

    const ttsim::check_report off = ttsim::check_kernel(op, options(8));
    ASSERT_EQ(off.cases_failed, 1u);
    ASSERT_FALSE(off.smallest_result.findings.empty());
    EXPECT_NE(off.smallest_result.findings.front().what.find(
                  "CreateKernel(reader.cpp): core (x=4,y=0) is outside the device's 4x2 worker grid"),
              std::string::npos)
        << off.smallest_result.summary;

    const ttsim::check_report declined = ttsim::check_kernel(op, options(4));
    EXPECT_GT(declined.cases_run, 0u);
    EXPECT_EQ(declined.cases_failed, 0u);
    testkit::random_entropy e(1);
    ttsim::check_options o = options(4);
    const std::optional<ttsim::case_spec> c = ttsim::draw_case(op, e, o);
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(ttsim::run_case(op, *c, o.launch).summary, "not applicable: 4-byte pages");

    std::ofstream(dir / "broken.cpp") << "Program make_program(\n";
    try {
        (void)ttmetal_host::load_factory(dir / "broken.cpp", dir);
        ADD_FAILURE() << "a factory that does not compile loaded";
    } catch (const std::runtime_error& err) {
        EXPECT_NE(std::string(err.what()).find("broken.cpp does not compile"), std::string::npos) << err.what();
    }
}

}  // namespace
