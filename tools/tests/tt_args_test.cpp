// `ndshard convert --from tt-args / --to tt-args`: tt-metal's accessor words (docs/tt-args.md),
// in layout 2 (tt-metal today: the aligned page size at compile-time word 1) and layout 1 (its
// older words). Expected words and specs are written out by hand from the layout in that
// page; the page's own commands are run as they are printed there.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_test_util.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/cli/tt_args.hpp"
#include "ndshard/distribution.hpp"
#include "ndshard/tt/host_words.hpp"

namespace ndshard::cli::test {
namespace {

using json = nlohmann::json;

std::string words_text(const json& words) {
    std::string s;
    for (const json& w : words) s += (s.empty() ? "" : ",") + std::to_string(w.get<std::uint64_t>());
    return s;
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// The worked example of docs/tt-args.md: a bf16 [2,64,96] tensor in 32x32 tiles is [2,2,3]
// pages of 2048 bytes, in [1,1,2]-page shards on four Wormhole cores
// (18,18),(19,18),(18,19),(19,19), bank coords at run time.
const std::string doc_spec =
    R"js({"tensor":[2,2,3],"shard":[1,1,2],"page":"pages","element_size":2048,"alignment":1,)js"
    R"js("cores":"(18,18)-(19,18),(18,19)-(19,19)","orientation":"row_major",)js"
    R"js("strategy":"round_robin_1d","bank_base":0})js";

TEST(CliTtArgs, DocExampleDecodesLayout2) {
    // Layout 2, the default: the page size is compile-time word 1, so no --page-size.
    const std::string spec =
        ok({"convert", "--from", "tt-args", "--ct", "0x41,2048,3,4,2,2,3,1,1,2", "--crta", "0x13121212,0x13131213"});
    EXPECT_EQ(spec, doc_spec);
    // Page 8 by hand: shard 5, bank 1 = (19,18), page offset 2; at bank base 0x40000 its
    // byte address is 0x41000 and its Wormhole NoC address 0x493000041000.
    distribution_spec s = parse_spec_json(spec);
    s.bank_base = 0x40000;
    const distribution d = make_distribution(s);
    const auto at = d.layout.locate(8);
    EXPECT_EQ(at.shard_id, 5U);
    EXPECT_EQ(d.cores[at.core], (core_coord{19, 18}));
    EXPECT_EQ(at.device_offset, 2U);
    EXPECT_EQ(d.byte_address(at.device_offset), 0x41000U);
    EXPECT_EQ(tt_noc_xy_addr(tt_arch::wormhole_b0, 19, 18, 0x41000), 0x493000041000ULL);
    // The same words as JSON arrays (as --to tt-args prints them), with --tt-layout 2 said
    // and a --page-size that agrees with the word.
    EXPECT_EQ(ok({"convert", "--from", "tt-args", "--tt-layout", "2", "--ct", "[65,2048,3,4,2,2,3,1,1,2]", "--crta",
                  "[319951378,320016915]", "--page-size", "2048"}),
              spec);
}

TEST(CliTtArgs, DocExampleDecodesLayout1) {
    // tt-metal's older words: no page size word; the page size comes from --page-size.
    EXPECT_EQ(ok({"convert", "--from", "tt-args", "--tt-layout", "1", "--ct", "0x41,3,4,2,2,3,1,1,2", "--crta",
                  "0x13121212,0x13131213", "--page-size", "2048"}),
              doc_spec);
}

TEST(CliTtArgs, DocExampleEncodes) {
    const std::vector<std::string> to =
        with({"convert", "--to", "tt-args", "--tensor", "2,64,96", "--shard", "1,32,64", "--page", "tile"},
             {"--element-size", "2", "--cores", "(18,18)-(19,18),(18,19)-(19,19)", "--runtime", "bank_coords", "--arch",
              "wormhole_b0", "--bank-base", "262144"});
    const json j = json::parse(ok(to));
    EXPECT_EQ(j["config"], 0x41);
    EXPECT_EQ(j["flags"], "Sharded|RuntimeBankCoords");
    EXPECT_EQ(j["layout"], 2);
    EXPECT_EQ(j["compile_time"], json::parse("[65,2048,3,4,2,2,3,1,1,2]"));
    EXPECT_EQ(j["common_runtime"], json::array({0x13121212, 0x13131213}));
    EXPECT_EQ(j["arch"], "wormhole_b0");
    // Bank 1 = (19,18) at 0x40000: 18 << 42 | 19 << 36 | 0x40000.
    EXPECT_EQ(j["banks"][1]["noc_addr"], "0x493000040000");
    const json j1 = json::parse(ok(with(to, {"--tt-layout", "1"})));
    EXPECT_EQ(j1["layout"], 1);
    EXPECT_EQ(j1["compile_time"], json::parse("[65,3,4,2,2,3,1,1,2]"));
    EXPECT_EQ(j1["common_runtime"], j["common_runtime"]);
    // Blackhole uses the same 36 + 6 bit encoding; Grayskull had 32 local bits.
    EXPECT_EQ(tt_noc_xy_addr(tt_arch::blackhole, 1, 2, 0x10200), 0x81000010200ULL);
    EXPECT_EQ(tt_noc_xy_addr(tt_arch::grayskull, 1, 2, 0x10200), 0x8100010200ULL);
    // All compile-time, the default: every part in the CTA, an odd bank count leaves the
    // last word's high half 0 (0x03040102, 0x0506).
    const std::vector<std::string> dram = {"convert",        "--to", "tt-args", "--tensor",          "4,6",
                                           "--shard",        "2,3",  "--cores", "(1,2),(3,4),(5,6)", "--dram",
                                           "--element-size", "64"};
    const json k = json::parse(ok(dram));
    EXPECT_EQ(k["compile_time"], json::parse("[3,64,2,3,4,6,2,3,50594050,1286]"));
    EXPECT_EQ(k["common_runtime"], json::array());
    EXPECT_EQ(json::parse(ok(with(dram, {"--tt-layout", "1"})))["compile_time"],
              json::parse("[3,2,3,4,6,2,3,50594050,1286]"));
}

// The specs the round trips use: folded ranks, col_major, grid_2d's trimmed list, tiles.
const std::vector<std::vector<std::string>> round_trip_specs = {
    {"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--element-size", "64", "--bank-base", "4096"},
    {"--tensor", "2,3,4,5", "--shard", "2,3", "--cores", "(0,0)-(2,0),(5,5)", "--element-size", "32"},  // folded
    {"--tensor", "9", "--shard", "4", "--cores", "(1,1)-(1,3)", "--orientation", "col_major"},
    {"--tensor", "4,6", "--shard", "2,3", "--grid", "3x3", "--strategy", "grid_2d"},  // trimmed list
    {"--tensor", "2,64,96", "--shard", "1,32,64", "--page", "tile", "--element-size", "2", "--grid", "4x4"},
    {"--tensor", "7,5", "--shard", "2,2", "--grid", "3x1", "--strategy", "contiguous_1d", "--alignment", "16"},
};

// spec -> words -> spec for each of tt-metal's 15 runtime mixes (the library's list) in both
// layouts: the decoded spec maps every page where the original does (compared through
// `map`), with the same banks, page size and bank base. A contiguous_1d spec has words
// exactly when its bank count is compile-time.
TEST(CliTtArgs, RoundTripsEveryMixBothLayouts) {
    const std::vector<std::uint32_t> mixes = tt::all_runtime_mixes();
    ASSERT_EQ(mixes.size(), 15U);
    for (const auto& flags : round_trip_specs) {
        const std::vector<std::string> map_args = with({"map"}, flags);
        const std::string expected_map = ok(map_args);
        const parse_result parsed = parse_args(map_args);
        ASSERT_TRUE(parsed.cmd) << parsed.error;
        const distribution src = make_distribution(std::get<map_command>(*parsed.cmd).spec);
        const bool contiguous = src.layout.rule == deal_rule::contiguous;
        for (const unsigned layout : {tt::layout_without_page_size, tt::layout_with_page_size}) {
            for (const std::uint32_t mix : mixes) {
                const std::string runtime = describe_tt_runtime(mix);
                ASSERT_EQ(parse_tt_runtime(runtime, "--runtime"), mix);
                const std::vector<std::string> to = with(
                    {"convert", "--to", "tt-args", "--runtime", runtime, "--tt-layout", std::to_string(layout)}, flags);
                const run_output r = run_cli(to);
                if (contiguous && (mix & tt::flag::runtime_num_banks)) {
                    EXPECT_EQ(r.code, 1) << runtime;
                    EXPECT_EQ(r.err,
                              "ndshard convert: no tt-metal accessor words for this spec: a contiguous_1d deal "
                              "travels as bit 31 of the bank count, which must then be a compile-time word\n");
                    continue;
                }
                ASSERT_EQ(r.code, 0) << runtime << ": " << r.err;
                const json w = json::parse(r.out);
                EXPECT_EQ(w["layout"], layout);
                // The words are the library's, and the library reads the compile-time ones back.
                const tt::tt_words lib = tt::make_tt_words(src, mix, layout);
                EXPECT_EQ(w["compile_time"].get<std::vector<std::uint32_t>>(), lib.compile_time);
                EXPECT_EQ(w["common_runtime"].get<std::vector<std::uint32_t>>(), lib.common_runtime);
                const tt::cta_layout cta = tt::read_cta(lib.compile_time, lib.compile_time.size(), 0, layout);
                EXPECT_EQ(cta.error, tt::cta_error::none);
                EXPECT_EQ(cta.end, lib.compile_time.size());
                EXPECT_EQ(cta.contiguous, contiguous);
                // Bank base travels outside the words, and the page size too in layout 1.
                std::vector<std::string> from = {"convert",
                                                 "--from",
                                                 "tt-args",
                                                 "--tt-layout",
                                                 std::to_string(layout),
                                                 "--ct",
                                                 words_text(w["compile_time"]),
                                                 "--crta",
                                                 words_text(w["common_runtime"]),
                                                 "--bank-base",
                                                 std::to_string(src.bank_base)};
                if (layout == tt::layout_without_page_size)
                    from = with(from, {"--page-size", std::to_string(src.aligned_page_size)});
                const std::string back = ok(from);
                // The decoded spec is in pages and at the folded rank: compare where pages go.
                EXPECT_EQ(json::parse(ok({"map", "--spec", back}))["cores"], json::parse(expected_map)["cores"])
                    << runtime << " layout " << layout << "\n"
                    << back;
                const distribution dst = make_distribution(parse_spec_json(back));
                EXPECT_EQ(dst.cores, src.cores);
                EXPECT_EQ(dst.aligned_page_size, src.aligned_page_size);
                EXPECT_EQ(dst.bank_base, src.bank_base);
                EXPECT_EQ(dst.layout.rule, src.layout.rule);
            }
        }
        // The other 17 of the 32 flag sets are refused as --runtime.
        int accepted = 0;
        for (std::uint32_t bits = 0; bits < 32; ++bits) {
            const std::uint32_t runtime = bits << 2;  // the five Runtime bits are bits 2..6
            const run_output r =
                run_cli(with({"convert", "--to", "tt-args", "--runtime", describe_tt_runtime(runtime)}, flags));
            if (r.code == 2) continue;
            ++accepted;
            EXPECT_TRUE(tt::is_valid_runtime_mix(runtime));
        }
        EXPECT_EQ(accepted, 15);
    }
}

// A contiguous_1d deal is bit 31 of a compile-time bank count, in both directions.
TEST(CliTtArgs, ContiguousBit) {
    const std::vector<std::string> spec = {"--tensor", "8",   "--shard",    "2",
                                           "--grid",   "2x1", "--strategy", "contiguous_1d"};
    const json j = json::parse(ok(with({"convert", "--to", "tt-args"}, spec)));
    // [config] [page size 1] [rank 1] [2 banks | bit 31] [8] [2] [(0,0) low, (1,0) high]
    EXPECT_EQ(j["compile_time"], json::parse("[1,1,1,2147483650,8,2,16777216]"));
    const std::string contiguous_spec =
        R"js({"tensor":[8],"shard":[2],"page":"pages","element_size":1,"alignment":1,"cores":"(0,0)-(1,0)",)js"
        R"js("orientation":"row_major","strategy":"contiguous_1d","bank_base":0})js";
    EXPECT_EQ(ok({"convert", "--from", "tt-args", "--ct", "1,1,1,0x80000002,8,2,0x01000000"}), contiguous_spec);
    EXPECT_EQ(ok({"convert", "--from", "tt-args", "--tt-layout", "1", "--ct", "1,1,0x80000002,8,2,0x01000000"}),
              contiguous_spec);
    // Bank coords at run time keep the bit in the compile-time count.
    const json rt = json::parse(ok(with({"convert", "--to", "tt-args", "--runtime", "bank_coords"}, spec)));
    EXPECT_EQ(rt["compile_time"], json::parse("[65,1,1,2147483650,8,2]"));
    EXPECT_EQ(rt["common_runtime"], json::parse("[16777216]"));
    // A runtime bank count cannot carry it: refused both ways, naming the word or the rule.
    const run_output to = run_cli(with({"convert", "--to", "tt-args", "--runtime", "num_banks,bank_coords"}, spec));
    EXPECT_EQ(to.code, 1);
    EXPECT_EQ(to.err,
              "ndshard convert: no tt-metal accessor words for this spec: a contiguous_1d deal travels as bit 31 of "
              "the bank count, which must then be a compile-time word\n");
    const run_output from =
        run_cli({"convert", "--from", "tt-args", "--ct", "0x49,1,1,8,2", "--crta", "0x80000002,0x01000000"});
    EXPECT_EQ(from.code, 2);
    EXPECT_EQ(from.err,
              "ndshard convert: --crta word 0 = 2147483650 (num_banks): bit 31 (the contiguous_1d deal) in a runtime "
              "bank count; ndshard reads the deal from a compile-time bank count only\n");
}

// `ndshard convert` with these arguments fails: exit code (2, a usage error, unless given),
// nothing on stdout, one line on stderr.
void refused(const std::vector<std::string>& args, const std::string& expected, int code = 2) {
    const run_output r = run_cli(args);
    EXPECT_EQ(r.code, code) << expected;
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(is_one_line(r.err)) << r.err;
    EXPECT_EQ(r.err, "ndshard convert: " + expected + "\n");
}

// `--from tt-args` of these words in this layout is refused with this message.
void refused_words(unsigned layout, const std::string& ct, const std::string& crta, const std::string& expected) {
    std::vector<std::string> args{"convert", "--from", "tt-args", "--tt-layout", std::to_string(layout), "--ct", ct};
    if (!crta.empty()) args = with(args, {"--crta", crta});
    refused(args, expected);
}

// Every class of malformed words in tt-metal's older layout: exit 2 and one line naming the
// list, the word index and its value.
TEST(CliTtArgs, MalformedWordsRefusedLayout1) {
    auto words = [](const std::string& ct, const std::string& crta, const std::string& expected) {
        refused_words(1, ct, crta, expected);
    };
    // Too few words.
    words("0x1,2,2,4,6,2", "", "--ct: 6 words, but config 0x1 (Sharded) puts shard shape dim 1 at word 6 of this list");
    words("0x41,2,2,4,6,2,3", "",
          "--crta: 0 words, but config 0x41 (Sharded|RuntimeBankCoords) puts the coords of banks 0..1 at word 0 "
          "of this list");
    // Bad flags.
    words("0x101,1,1,1,1,0", "", "--ct word 0 = 257 (config): bits 0x100 are not ArgConfig flags (bits 0..7)");
    words("0x2", "",
          "--ct word 0 = 2 (config IsDram): not Sharded; an interleaved accessor's words are [config] in layout 1, "
          "with no shapes or banks to decode (its banks are the device's bank table)");
    words("0x5,1,1,1,0", "",
          "--ct word 0 = 5 (config Sharded|RuntimeRank): a runtime rank needs runtime tensor and shard shapes, "
          "runtime num_banks needs runtime bank coords");
    words("0x9,1,1,1,0", "",
          "--ct word 0 = 9 (config Sharded|RuntimeNumBanks): a runtime rank needs runtime tensor and shard "
          "shapes, runtime num_banks needs runtime bank coords");
    // Rank 0 or past 8.
    words("0x1,0,1", "", "--ct word 1 = 0 (rank): must be 1..8");
    words("0x35", "9,1", "--crta word 0 = 9 (rank): must be 1..8");
    // Zero dims and a zero bank count.
    words("0x1,2,1,4,0,2,3,0", "", "--ct word 4 = 0 (tensor shape dim 1): a dim must be at least 1 page");
    words("0x21,1,1,4,0", "0", "--crta word 0 = 0 (shard shape dim 0): a dim must be at least 1 page");
    words("0x49,1,4,2", "0", "--crta word 0 = 0 (num_banks): must be at least 1");
    // Bank coordinates out of range, a stray bank in an odd count's last word, a duplicate.
    words("0x1,1,1,4,2,0x4000", "",
          "--ct word 5 = 16384 (coords): bank 0 at (64,0) is off the NoC: a coordinate is a 6-bit node id, at "
          "most 63");
    words("0x1,1,1,4,2,0x10001", "",
          "--ct word 5 = 65537 (coords): the high half 0x1 names bank 1, but there are 1; it must be 0");
    words("0x1,1,2,4,2,0x01020102", "", "--ct word 5 = 16908546 (coords): bank 1 at (1,2) is also bank 0");
    // Trailing words.
    words("0x1,1,1,4,2,0x0102,7", "",
          "--ct word 6 = 7: trailing word; config 0x1 with rank 1 and 1 banks takes 6 words here");
    words("0x41,1,1,4,2", "0x0102,0",
          "--crta word 1 = 0: trailing word; config 0x41 with rank 1 and 1 banks takes 1 words here");
    // Not a word at all.
    words("0x1,1,x", "", "--ct word 2 \"x\": not a 32-bit word (decimal, or hex with 0x)");
    words("0x1,4294967296", "", "--ct word 1 \"4294967296\": not a 32-bit word (decimal, or hex with 0x)");
    // Layout 2's words read as layout 1 run one word long, and the message says so.
    words("0x1,64,1,1,4,2,0x0102", "", "--ct word 1 = 64 (rank): must be 1..8");
    words("0x41,8,1,1,4,2", "0x0102",
          "--ct: 6 words, but config 0x41 (Sharded|RuntimeBankCoords) puts tensor shape dim 3 at word 6 of this "
          "list; these compile-time words are a whole list in layout 2 (tt-metal today: the aligned page size is "
          "word 1): give --tt-layout 2");
}

// The same classes in layout 2, where word 1 is the aligned page size, and what is new there.
TEST(CliTtArgs, MalformedWordsRefusedLayout2) {
    auto words = [](const std::string& ct, const std::string& crta, const std::string& expected) {
        refused_words(2, ct, crta, expected);
    };
    words("0x1", "", "--ct: 1 word, but config 0x1 (Sharded) puts the aligned page size at word 1 of this list");
    words("0x1,0,1,1,4,2,0x0102", "", "--ct word 1 = 0 (aligned page size): a page is at least 1 byte");
    words("0x1,64,2,2,4,6,2", "",
          "--ct: 7 words, but config 0x1 (Sharded) puts shard shape dim 1 at word 7 of this list");
    words("0x1,64,0,1", "", "--ct word 2 = 0 (rank): must be 1..8");
    words("0x1,64,1,0x80000000,4,2,0x0102", "", "--ct word 3 = 2147483648 (num_banks): must be at least 1");
    words("0x1,64,1,65537", "", "--ct word 3 = 65537 (num_banks): more than 65536 banks");
    words("0x1,64,2,1,4,0,2,3,0", "", "--ct word 5 = 0 (tensor shape dim 1): a dim must be at least 1 page");
    words("0x1,64,1,1,4,2,0x0102,7", "",
          "--ct word 7 = 7: trailing word; config 0x1 with rank 1 and 1 banks takes 7 words here");
    words("0x41,64,1,1,4,2", "",
          "--crta: 0 words, but config 0x41 (Sharded|RuntimeBankCoords) puts the coords of "
          "banks 0..0 at word 0 of this list");
    words("0x49,64,1,4,2", "0", "--crta word 0 = 0 (num_banks): must be at least 1");
    // Interleaved words are [config] [aligned page size] now: still nothing to decode.
    words("0x2,2048", "",
          "--ct word 0 = 2 (config IsDram): not Sharded; an interleaved accessor's words are [config] [aligned page "
          "size] in layout 2, with no shapes or banks to decode (its banks are the device's bank table)");
    words("0x0", "",
          "--ct word 0 = 0 (config None): not Sharded; an interleaved accessor's words are [config] [aligned page "
          "size] in layout 2, with no shapes or banks to decode (its banks are the device's bank table)");
    // Layout 1's words read as layout 2 (the default) are one word short, and the message says so.
    words("0x1,1,1,4,2,0x0102", "",
          "--ct: 6 words, but config 0x1 (Sharded) puts the coords of banks 0..1 at word 6 of this list; these "
          "compile-time words are a whole list in layout 1 (tt-metal's older words: no page size word): give "
          "--tt-layout 1");
}

TEST(CliTtArgs, PageSizeAndLayoutFlags) {
    const std::vector<std::string> from = {"convert", "--from", "tt-args", "--ct", "0x1,64,1,1,4,2,0x0102"};
    // Layout 2 carries the page size: the spec takes it; a --page-size must agree.
    EXPECT_EQ(json::parse(ok(from))["element_size"], 64);
    EXPECT_EQ(json::parse(ok(with(from, {"--page-size", "64"})))["element_size"], 64);
    refused(with(from, {"--page-size", "32"}),
            "--page-size 32 disagrees with --ct word 1 = 64 (aligned page size): in layout 2 the words carry the "
            "page size, so --page-size must equal it or be left out");
    // Layout 1 has no page size word: --page-size, default 1.
    const std::vector<std::string> older = {"convert", "--from", "tt-args",           "--tt-layout",
                                            "1",       "--ct",   "0x1,1,1,4,2,0x0102"};
    EXPECT_EQ(json::parse(ok(older))["element_size"], 1);
    EXPECT_EQ(json::parse(ok(with(older, {"--page-size", "32"})))["element_size"], 32);
    // The switch itself.
    const std::string layouts =
        "expected 2 (tt-metal today: the aligned page size is compile-time word 1, the default) or 1 (tt-metal's "
        "older words, without it)";
    refused(with(from, {"--tt-layout", "3"}), "--tt-layout \"3\": " + layouts);
    refused({"convert", "--to", "tt-args", "--tensor", "8", "--shard", "2", "--grid", "2x1", "--tt-layout", "two"},
            "--tt-layout \"two\": " + layouts);
    refused(
        {"convert", "--from", "height", "--tensor", "8,4", "--shard-height", "2", "--grid", "4x1", "--tt-layout", "1"},
        "--tt-layout \"1\": the layout of tt-metal's words goes with --from tt-args or --to tt-args");
    // --tt_layout is the same flag.
    EXPECT_EQ(ok({"convert", "--from", "tt-args", "--tt_layout", "1", "--ct", "0x1,1,1,4,2,0x0102"}), ok(older));
}

TEST(CliTtArgs, SpecsWithoutTtWords) {
    // A valid spec that tt-metal's words cannot carry exits 1; a mix tt-metal cannot read, 2.
    refused({"convert", "--to", "tt-args", "--tensor", "8", "--shard", "2", "--cores", "(300,0)"},
            "no tt-metal accessor words for this spec: bank 0 at (300,0): tt-metal packs a coordinate into 8 bits", 1);
    refused({"convert", "--to", "tt-args", "--tensor", "0,4", "--shard", "1,2", "--grid", "1x1"},
            "no tt-metal accessor words for this spec: tensor dim 0 is 0 pages; tt-metal's accessor needs every dim "
            ">= 1",
            1);
    refused({"convert", "--to", "tt-args", "--tensor", "8", "--shard", "2", "--grid", "2x1", "--runtime", "rank"},
            "--runtime \"rank\": tt-metal needs runtime tensor_shape and shard_shape with a runtime rank, and "
            "runtime bank_coords with runtime num_banks");
}

// --- docs/tt-args.md's commands, run as printed --------------------------------------------

// "a \"b c\" 'd'" -> {a, b c, d}: the shell's words, for the plain commands the page prints.
std::vector<std::string> shell_words(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    char quote = 0;
    for (const char c : line) {
        if (quote) {
            if (c == quote) quote = 0;
            else word += c;
        } else if (c == '"' || c == '\'') {
            quote = c;
            in_word = true;
        } else if (c == ' ') {
            if (in_word) words.push_back(word);
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (in_word) words.push_back(word);
    return words;
}

struct doc_block {
    std::string info;                // sh, json, ...
    std::vector<std::string> lines;  // a line ending in '\' joined with the next
};

std::vector<doc_block> fenced_blocks(const std::string& text) {
    std::vector<doc_block> blocks;
    std::istringstream in(text);
    std::string line;
    doc_block* open = nullptr;
    bool continued = false;
    while (std::getline(in, line)) {
        if (line.rfind("```", 0) == 0) {
            if (open) open = nullptr;
            else open = &blocks.emplace_back(doc_block{line.substr(3), {}});
            continued = false;
            continue;
        }
        if (!open) continue;
        const bool continues = !line.empty() && line.back() == '\\';
        if (continues) line.pop_back();
        if (continued) open->lines.back() += line;
        else open->lines.push_back(line);
        continued = continues;
    }
    return blocks;
}

// Every `ndshard` command of every ```sh block exits 0; a ```json block right after a ```sh
// block is what that block's last command prints, line for line.
TEST(CliTtArgs, DocCommandsRunAsPrinted) {
    const std::string page = read_text(NDSHARD_DOCS_DIR "/tt-args.md");
    ASSERT_FALSE(page.empty());
    const std::vector<doc_block> blocks = fenced_blocks(page);
    int commands = 0, outputs = 0;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        if (blocks[b].info != "sh") continue;
        std::string last_out;
        for (const std::string& line : blocks[b].lines) {
            if (line.empty() || line[0] == '#') continue;
            std::vector<std::string> words = shell_words(line);
            ASSERT_FALSE(words.empty());
            ASSERT_EQ(words[0], "ndshard") << line;
            words.erase(words.begin());
            const run_output r = run_cli(words);
            EXPECT_EQ(r.code, 0) << line << "\n" << r.err;
            last_out = r.out;
            ++commands;
        }
        if (b + 1 < blocks.size() && blocks[b + 1].info == "json") {
            std::istringstream printed(last_out);
            std::string got;
            for (const std::string& expected : blocks[b + 1].lines) {
                ASSERT_TRUE(std::getline(printed, got)) << expected;
                EXPECT_EQ(json::parse(got), json::parse(expected));
            }
            EXPECT_FALSE(std::getline(printed, got)) << got;
            ++outputs;
        }
    }
    EXPECT_GE(commands, 8);
    EXPECT_GE(outputs, 4);
}

}  // namespace
}  // namespace ndshard::cli::test
