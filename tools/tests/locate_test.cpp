// `ndshard locate` against the naive checked-integer oracle (lib/oracle): every answer of
// --page-id, --coord and --at is compared field by field with oracle::locate / page_at,
// which share no code with the library. Specs: uneven edge shards, every strategy, tile
// pages with alignment and a bank base, leading dims folded, the largest page count the
// 32-bit rules allow (2^32-1 pages) and a tensor of 2^38 elements. Round trip: page ->
// locate -> --at gives the page back. Bad input: one line, exit 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "ndshard/cli/locate.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"

namespace ndshard::cli::test {
namespace {

using json = nlohmann::json;
using testkit::to_u64;

struct spec_case {
    const char* name;
    std::vector<std::string> flags;  // as given to `ndshard locate`
};

// Every spec is given as flags, so the command line's own parsing is part of the test.
const std::vector<spec_case> specs = {
    {"proposal_uneven", {"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"}},
    {"contiguous_col_major",
     {"--tensor", "5,9", "--shard", "2,4", "--cores", "(0,0)-(1,1),(4,4)", "--strategy", "contiguous_1d",
      "--orientation", "col_major"}},
    {"grid_2d", {"--tensor", "7,10", "--shard", "3,4", "--grid", "4x3", "--strategy", "grid_2d"}},
    {"tile_aligned_base",
     {"--tensor", "2,70,100", "--shard", "1,64,64", "--page", "tile", "--element-size", "3", "--alignment", "4096",
      "--bank-base", "4096", "--cores", "(1,1)-(2,2),(5,0)"}},
    {"folded_rank", {"--tensor", "3,2,2,3,4", "--shard", "1,2,2,4", "--page", "row", "--cores", "(0,0)-(1,4)"}},
    {"interleaved", {"--tensor", "4,8,8", "--interleaved", "--banks", "12"}},
    // 65535 x 65537 = 2^32-1 pages: the most the rule tensor_pages_32bit allows.
    {"max_pages", {"--tensor", "65535,65537", "--shard", "1000,999", "--grid", "8x8"}},
    // 64 x 65536 x 65536 = 2^38 elements in 32x32 tiles: 2^28 pages.
    {"elements_2_38", {"--tensor", "64,65536,65536", "--shard", "1,4096,2048", "--page", "tile", "--grid", "8x8"}},
};

std::vector<std::string> locate_args(const spec_case& s, std::vector<std::string> query) {
    std::vector<std::string> args{"locate"};
    args.insert(args.end(), s.flags.begin(), s.flags.end());
    args.insert(args.end(), query.begin(), query.end());
    return args;
}

distribution_spec spec_of(const spec_case& s) {
    const parse_result r = parse_args(locate_args(s, {"--page-id", "0"}));
    if (!r.cmd) throw std::runtime_error(s.name + std::string(": ") + r.error);
    return std::get<locate_command>(*r.cmd).spec;
}

std::vector<std::uint64_t> u64s(const std::vector<oracle::big>& v) {
    std::vector<std::uint64_t> out;
    for (const auto& x : v) out.push_back(to_u64(x));
    return out;
}

// The pages a spec is checked at: all of them when there are few, else the first and
// last few and some spread between.
std::vector<std::uint64_t> sample_pages(std::uint64_t n) {
    std::vector<std::uint64_t> out;
    if (n <= 2000) {
        for (std::uint64_t p = 0; p < n; ++p) out.push_back(p);
        return out;
    }
    for (std::uint64_t p : {std::uint64_t{0}, std::uint64_t{1}, n / 3, n / 2 + 7, n - 2, n - 1}) out.push_back(p);
    std::uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 40; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        out.push_back(x % n);
    }
    return out;
}

void expect_same(const page_location& got, const oracle::location& want, const oracle::model& m,
                 const std::string& where) {
    EXPECT_EQ(got.shard, to_u64(want.shard_id)) << where;
    EXPECT_EQ(got.shard_coord, u64s(want.shard_coord)) << where;
    EXPECT_EQ(got.core_index, to_u64(want.core_index)) << where;
    EXPECT_EQ(got.core, testkit::to_core_coord(want.core)) << where;
    EXPECT_EQ(got.slot, to_u64(want.slot)) << where;
    EXPECT_EQ(got.in_shard_offset, to_u64(want.in_shard_offset)) << where;
    EXPECT_EQ(got.device_offset, to_u64(want.device_offset)) << where;
    EXPECT_EQ(got.address, to_u64(want.byte_address)) << where;
    (void)m;
}

TEST(CliLocate, PagesAndCoordinatesAgreeWithTheOracle) {
    for (const spec_case& s : specs) {
        const distribution_spec spec = spec_of(s);
        const distribution d = make_distribution(spec);
        const oracle::model m = testkit::accepted_model(spec);
        ASSERT_EQ(d.num_pages(), to_u64(m.num_pages)) << s.name;
        for (std::uint64_t page : sample_pages(d.num_pages())) {
            const std::string where = std::string(s.name) + " page " + std::to_string(page);
            const oracle::location want = oracle::locate(m, oracle::big(page));
            const page_location by_id = locate_page(d, page);
            expect_same(by_id, want, m, where);
            // The coordinate the command printed goes back in through --coord.
            std::vector<oracle::big> coord;
            for (std::uint64_t c : by_id.coord) coord.emplace_back(c);
            expect_same(locate_coord(d, by_id.coord), oracle::locate(m, coord), m, where + " by coord");
            EXPECT_EQ(oracle::locate(m, coord).shard_id, want.shard_id) << where << ": coordinate of the wrong page";
            // Round trip: what lives at that core and address is this page.
            const address_content at = locate_address(d, by_id.core, by_id.address);
            EXPECT_EQ(at.kind, address_kind::page) << where << ": " << at.reason;
            ASSERT_TRUE(at.page.has_value()) << where;
            EXPECT_EQ(at.page->page, page) << where;
        }
    }
}

// Every byte address of every core of the small specs (and one byte either side of the
// buffer): page, padding or outside exactly where the oracle's page_at says.
TEST(CliLocate, EveryAddressOfSmallSpecsAgreesWithTheOracle) {
    for (const spec_case& s : specs) {
        const distribution_spec spec = spec_of(s);
        const distribution d = make_distribution(spec);
        if (d.num_pages() > 2000) continue;
        const oracle::model m = testkit::accepted_model(spec);
        const std::uint64_t reserved = to_u64(m.reserved_pages_per_core);
        const std::uint64_t page_bytes = to_u64(m.aligned_page_size), base = to_u64(m.bank_base);
        const std::uint64_t real_bytes = to_u64(m.page_size);
        for (std::size_t ci = 0; ci < m.cores.size(); ++ci) {
            const core_coord core = testkit::to_core_coord(m.cores[ci]);
            // Bytes are sampled at each page slot's first, last real and last byte.
            for (std::uint64_t off = 0; off < reserved; ++off)
                for (std::uint64_t byte : {std::uint64_t{0}, real_bytes - 1, page_bytes - 1}) {
                    const std::uint64_t address = base + off * page_bytes + byte;
                    const std::string where =
                        std::string(s.name) + " core " + to_string(core) + " address " + std::to_string(address);
                    const address_content got = locate_address(d, core, address);
                    EXPECT_EQ(got.core_index, ci) << where;
                    const std::optional<oracle::big> want = oracle::page_at(m, oracle::big(ci), oracle::big(off));
                    if (!want) {
                        EXPECT_EQ(got.kind, address_kind::padding) << where;
                        EXPECT_FALSE(got.page.has_value()) << where;
                        EXPECT_FALSE(got.reason.empty()) << where;
                        continue;
                    }
                    ASSERT_TRUE(got.page.has_value()) << where << ": " << got.reason;
                    EXPECT_EQ(got.page->page, to_u64(*want)) << where;
                    EXPECT_EQ(got.byte_in_page, byte) << where;
                    EXPECT_EQ(got.kind, byte < real_bytes ? address_kind::page : address_kind::padding) << where;
                }
            if (base > 0) {
                EXPECT_EQ(locate_address(d, core, base - 1).kind, address_kind::outside) << s.name;
            }
            EXPECT_EQ(locate_address(d, core, base + reserved * page_bytes).kind, address_kind::outside) << s.name;
        }
    }
}

// The command itself: --format json, parsed, against the oracle; --at on what it printed.
TEST(CliLocate, JsonOutputAndRoundTripThroughTheCommand) {
    for (const spec_case& s : specs) {
        const distribution_spec spec = spec_of(s);
        const oracle::model m = testkit::accepted_model(spec);
        const std::uint64_t n = to_u64(m.num_pages);
        for (std::uint64_t page : {std::uint64_t{0}, n / 2 + 1, n - 1}) {
            const std::string where = std::string(s.name) + " page " + std::to_string(page);
            const run_output r = run_cli(locate_args(s, {"--page-id", std::to_string(page), "--format", "json"}));
            ASSERT_EQ(r.code, 0) << where << ": " << r.err;
            ASSERT_TRUE(is_one_line(r.out)) << where;
            const json j = json::parse(r.out);
            const oracle::location want = oracle::locate(m, oracle::big(page));
            EXPECT_EQ(j.at("page").get<std::uint64_t>(), page) << where;
            EXPECT_EQ(j.at("shard").get<std::uint64_t>(), to_u64(want.shard_id)) << where;
            EXPECT_EQ(j.at("shard_coord").get<std::vector<std::uint64_t>>(), u64s(want.shard_coord)) << where;
            EXPECT_EQ(j.at("core_index").get<std::uint64_t>(), to_u64(want.core_index)) << where;
            EXPECT_EQ(j.at("core").at("x").get<std::uint64_t>(), to_u64(want.core.x)) << where;
            EXPECT_EQ(j.at("core").at("y").get<std::uint64_t>(), to_u64(want.core.y)) << where;
            EXPECT_EQ(j.at("slot").get<std::uint64_t>(), to_u64(want.slot)) << where;
            EXPECT_EQ(j.at("device_offset").get<std::uint64_t>(), to_u64(want.device_offset)) << where;
            EXPECT_EQ(j.at("address").get<std::uint64_t>(), to_u64(want.byte_address)) << where;

            std::string coord;
            for (auto c : j.at("coord")) coord += (coord.empty() ? "" : ",") + std::to_string(c.get<std::uint64_t>());
            const run_output by_coord = run_cli(locate_args(s, {"--coord", coord, "--format", "json"}));
            ASSERT_EQ(by_coord.code, 0) << where << ": " << by_coord.err;
            EXPECT_EQ(json::parse(by_coord.out), j) << where;

            std::ostringstream at;
            at << j["core"]["x"].get<std::uint64_t>() << "," << j["core"]["y"].get<std::uint64_t>() << ":0x" << std::hex
               << j["address"].get<std::uint64_t>();
            const run_output back = run_cli(locate_args(s, {"--at", at.str(), "--format", "json"}));
            ASSERT_EQ(back.code, 0) << where << ": " << back.err;
            const json b = json::parse(back.out);
            EXPECT_EQ(b.at("holds"), "page") << where;
            EXPECT_EQ(b.at("location"), j) << where << " via --at " << at.str();
        }
    }
}

// The text form of the proposal's page 20, typed by hand from docs/semantics.md's
// numbers: [3,7,5] = 35 pages per dim-0 step, 20 = [0,4,0]; shard [0,2,0] of the [2,4,3]
// grid is 0*12 + 2*3 + 0 = 6; 6 cores round robin: core 0, slot 1; offset 0, device
// offset 1*8 + 0 = 8.
TEST(CliLocate, TextOfOnePage) {
    const run_output r =
        run_cli({"locate", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--page-id", "20"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out,
              "page         20 of 105\n"
              "coordinate   [0,4,0] in the [3,7,5] page grid\n"
              "shard        6 at [0,2,0] in the [2,4,3] shard grid\n"
              "core         (0,0), index 0 of 6\n"
              "slot         1 of 4\n"
              "offset       page 0 of the shard's 8, page 8 from the bank base\n"
              "address      8 (0x8)\n");
    // Core (1,0) is index 1: shards 1, 7, 13, 19; 19 = [1,2,1] is an edge shard (dim 0
    // holds 1 of 2), so its page 4 = [1,0,0] in the shard (dim-0 index 3) is padding.
    const run_output pad =
        run_cli({"locate", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--at", "1,0:28"});
    EXPECT_EQ(pad.code, 0) << pad.err;
    EXPECT_EQ(pad.out,
              "at           core (1,0) (index 1), address 28 (0x1c)\n"
              "holds        padding: slot 3 holds shard 19, an edge shard; its page 4 lies past the tensor's edge\n");
}

// --arch: the page's NoC address in tt-metal's encoding, worked by hand. [3,7,5]/[2,2,2]
// on a 2x3 grid: page [2,6,4] is in core (1,2) at byte 24; Wormhole and Blackhole put y at
// bit 42 and x at bit 36 (2 << 42 | 1 << 36 | 24), Grayskull at bits 38 and 32.
TEST(CliLocate, NocAddressInTheChipsEncoding) {
    const std::vector<std::string> spec{"locate", "--tensor", "3,7,5", "--shard",  "2,2,2", "--grid",
                                        "2x3",    "--coord",  "2,6,4", "--format", "json",  "--arch"};
    const std::pair<const char*, const char*> cases[] = {
        {"wormhole_b0", "0x81000000018"}, {"blackhole", "0x81000000018"}, {"grayskull", "0x8100000018"}};
    for (const auto& [arch, want] : cases) {
        std::vector<std::string> args = spec;
        args.push_back(arch);
        const run_output r = run_cli(args);
        ASSERT_EQ(r.code, 0) << arch << ": " << r.err;
        const json j = json::parse(r.out);
        EXPECT_EQ(j.at("address").get<std::uint64_t>(), 24U) << arch;
        EXPECT_EQ(j.at("noc_addr").get<std::string>(), want) << arch;
    }
    std::vector<std::string> bad = spec;
    bad.push_back("wormhole_c0");
    const run_output r = run_cli(bad);
    EXPECT_EQ(r.code, 2);
    EXPECT_TRUE(is_one_line(r.err)) << r.err;
}

TEST(CliLocate, BadInputIsOneLineAndExit2) {
    const std::vector<std::string> p{"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"};
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--page-id", "105"},
         "ndshard locate: --page-id 105: past the last page; the tensor has 105 pages (ids 0..104)"},
        {{"--coord", "1,2"},
         "ndshard locate: --coord [1,2]: 2 dims; a page coordinate has the tensor's rank, 3 (pages [3,7,5])"},
        {{"--coord", "0,7,0"}, "ndshard locate: --coord [0,7,0]: dim 1 is 7, past the page grid [3,7,5] (0..6)"},
        {{"--at", "5,5:0"}, "ndshard locate: --at core (5,5): not one of the 6 cores of this distribution"},
        {{"--at", "1,0"}, "ndshard locate: --at \"1,0\": expected X,Y:ADDR (a core and a byte address), e.g. 1,0:0x40"},
        {{"--at", "1;0:8"}, "ndshard locate: --at core \"1;0\": expected ',' at character 2"},
        {{"--at", "1,0:0xZ"},
         "ndshard locate: --at \"1,0:0xZ\": address \"0xZ\" is not a hex number (0x...) or a decimal one"},
        {{"--at", "1,0:-8"}, "ndshard locate: --at address \"-8\": negative numbers are not allowed"},
        {{"--page-id", "x"}, "ndshard locate: --page-id \"x\": not a non-negative decimal integer"},
        {{}, "ndshard locate: give a question: --page-id N, --coord I,J,K or --at X,Y:ADDR"},
        {{"--page-id", "1", "--coord", "0,0,0"},
         "ndshard locate: --page-id, --coord and --at: give only one: --page-id N, --coord I,J,K or --at X,Y:ADDR"},
        {{"--page-id", "1", "--format", "xml"}, "ndshard locate: --format \"xml\": expected text or json"},
    };
    for (const auto& [query, message] : cases) {
        std::vector<std::string> args{"locate"};
        args.insert(args.end(), p.begin(), p.end());
        args.insert(args.end(), query.begin(), query.end());
        const run_output r = run_cli(args);
        EXPECT_EQ(r.code, 2) << message;
        EXPECT_EQ(r.out, "") << message;
        EXPECT_EQ(r.err, message + "\n");
    }
    // More than 2^32-1 pages is refused by the spec's own rule, before any question.
    const run_output big =
        run_cli({"locate", "--tensor", "65536,65536", "--shard", "1,1", "--grid", "1x1", "--page-id", "0"});
    EXPECT_EQ(big.code, 2);
    EXPECT_NE(big.err.find("[rule tensor_pages_32bit]"), std::string::npos) << big.err;
}

}  // namespace
}  // namespace ndshard::cli::test
