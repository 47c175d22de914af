// `ndshard svg`: the output is well-formed XML, has one cell per page, and every cell's
// core and colour agree with `ndshard map` and with the legend; the core panel's slots
// agree with map slot by slot.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>

#include "cli_test_util.hpp"
#include "ndshard/cli/palette.hpp"
#include "xml_check.hpp"

namespace ndshard::cli::test {
namespace {

using json = nlohmann::json;

struct svg_summary {
    std::size_t pages = 0;    // <g class="page">
    std::size_t padding = 0;  // <g class="pad">
    std::size_t slots = 0;    // <rect class="slot">
    std::map<std::size_t, std::string> legend_fill;
    std::string text;  // the SVG itself
};

std::size_t number(const xml_element& e, const char* key) {
    const std::string* v = e.attr(key);
    if (!v) throw std::runtime_error(std::string("<") + e.name + "> without " + key);
    return std::stoul(*v);
}

// Renders flags as SVG and as map JSON and checks the SVG against the map.
svg_summary check_svg(const std::vector<std::string>& flags, const std::vector<std::string>& svg_extra = {}) {
    std::vector<std::string> svg_args{"svg"}, map_args{"map"};
    svg_args.insert(svg_args.end(), flags.begin(), flags.end());
    svg_args.insert(svg_args.end(), svg_extra.begin(), svg_extra.end());
    map_args.insert(map_args.end(), flags.begin(), flags.end());
    const run_output svg = run_cli(svg_args);
    const run_output map = run_cli(map_args);
    EXPECT_EQ(svg.code, 0) << svg.err;
    EXPECT_EQ(map.code, 0) << map.err;
    svg_summary out;
    out.text = svg.out;

    std::unique_ptr<xml_element> root;
    try {
        root = parse_xml(svg.out);
    } catch (const xml_error& e) {
        ADD_FAILURE() << "not well-formed XML: " << e.what();
        return out;
    }
    EXPECT_EQ(root->name, "svg");
    EXPECT_NE(root->attr("xmlns"), nullptr);
    EXPECT_NE(root->attr("viewBox"), nullptr);

    // The map: page -> core index, and every core's slots.
    const json m = json::parse(map.out);
    std::map<std::size_t, std::size_t> core_of_page;
    for (std::size_t c = 0; c < m["cores"].size(); ++c)
        for (const json& p : m["cores"][c]["pages"])
            if (!p.is_null()) core_of_page[p.get<std::size_t>()] = c;

    std::map<std::size_t, std::pair<std::size_t, std::string>> pages;  // page -> (core, fill)
    root->walk([&](const xml_element& e) {
        const std::string* cls = e.attr("class");
        if (!cls) return;
        if (*cls == "page") {
            ++out.pages;
            const std::size_t page = number(e, "data-page");
            EXPECT_TRUE(pages.emplace(page, std::make_pair(number(e, "data-core"), *e.attr("fill"))).second)
                << "page " << page << " drawn twice";
        } else if (*cls == "pad") {
            ++out.padding;
            EXPECT_LT(number(e, "data-core"), m["cores"].size());
        } else if (*cls == "legend") {
            const std::size_t core = number(e, "data-core");
            if (core >= m["cores"].size()) {
                ADD_FAILURE() << "legend core " << core << " is not in the map";
                return;
            }
            EXPECT_EQ(number(e, "data-x"), m["cores"][core]["x"].get<std::size_t>());
            EXPECT_EQ(number(e, "data-y"), m["cores"][core]["y"].get<std::size_t>());
            out.legend_fill[core] = *e.attr("fill");
        } else if (*cls == "slot") {
            ++out.slots;
            const std::size_t core = number(e, "data-core"), offset = number(e, "data-offset");
            const json& want = m["cores"].at(core)["pages"].at(offset);
            const std::string* page = e.attr("data-page");
            if (want.is_null()) EXPECT_EQ(page, nullptr) << "core " << core << " offset " << offset;
            else if (page) EXPECT_EQ(std::stoul(*page), want.get<std::size_t>());
            else ADD_FAILURE() << "core " << core << " offset " << offset << " should hold page " << want;
        }
    });

    // One cell per page, on the map's core, in the legend's colour of that core.
    EXPECT_EQ(pages.size(), core_of_page.size());
    EXPECT_EQ(out.pages, core_of_page.size());
    EXPECT_EQ(out.legend_fill.size(), m["cores"].size());
    for (const auto& [page, core_fill] : pages) {
        if (!core_of_page.count(page)) {
            ADD_FAILURE() << "page " << page << " is not in the map";
            continue;
        }
        EXPECT_EQ(core_fill.first, core_of_page[page]) << "page " << page;
        EXPECT_EQ(core_fill.second, out.legend_fill[core_fill.first]) << "page " << page;
    }
    return out;
}

TEST(CliSvg, ProposalPicture) {
    const svg_summary s = check_svg({"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"});
    EXPECT_EQ(s.pages, 105u);
    EXPECT_EQ(s.padding, 4u * 8 * 6 - 105);  // the padded grid [4,8,6] minus the pages
    EXPECT_EQ(s.slots, 6u * 32);
    std::set<std::string> colours;
    for (const auto& [core, fill] : s.legend_fill) colours.insert(fill);
    EXPECT_EQ(colours.size(), 6u);
}

TEST(CliSvg, RankOneAndTwoAreFlat) {
    const svg_summary one = check_svg({"--tensor", "7", "--shard", "3", "--grid", "2x1"});
    EXPECT_EQ(one.pages, 7u);
    EXPECT_EQ(one.padding, 2u);
    const svg_summary two = check_svg({"--tensor", "5,7", "--shard", "2,3", "--grid", "2x2"});
    EXPECT_EQ(two.pages, 35u);
    EXPECT_EQ(two.padding, 6u * 9 - 35);
}

TEST(CliSvg, RankFourAndFiveAreRowsOfBlocks) {
    const svg_summary four = check_svg({"--tensor", "2,4,6,6", "--shard", "1,2,3,3", "--grid", "2x4"});
    EXPECT_EQ(four.pages, 288u);
    EXPECT_EQ(four.padding, 0u);
    EXPECT_NE(four.text.find(">[1,:,:,:]<"), std::string::npos);
    const svg_summary v4 = check_svg({"--tensor", "3,2,2,3,4", "--shard", "1,1,2,2,4", "--page", "row", "--cores",
                                      "(0,0)-(1,4)", "--orientation", "col_major"});
    EXPECT_EQ(v4.pages, 36u);
    EXPECT_EQ(v4.padding, 3u * 2 * 2 * 4 - 36);
}

TEST(CliSvg, TilePagesFoldedShardsAndStrategies) {
    EXPECT_EQ(
        check_svg({"--tensor", "2,64,96", "--shard", "1,32,64", "--page", "tile", "--cores", "(0,0)-(3,3)"}).padding,
        4u);
    // Shard rank 2 < tensor rank 4: padding is drawn along the unfolded dims only.
    EXPECT_EQ(check_svg({"--tensor", "2,3,4,5", "--shard", "3,2", "--grid", "3x1"}).padding, 2u * 3 * 4 * 6 - 120);
    check_svg({"--tensor", "4,6", "--shard", "2,3", "--grid", "3x3", "--strategy", "grid_2d"});
    check_svg({"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--strategy", "contiguous_1d"});
    check_svg({"--tensor", "2,3", "--interleaved", "--banks", "4"});
}

TEST(CliSvg, EmptyTensorAndHugePadding) {
    const svg_summary empty = check_svg({"--tensor", "0,3,3", "--shard", "1,1,1", "--grid", "2x2"});
    EXPECT_EQ(empty.pages, 0u);
    // 10^6 padding cells are not drawn; the one page still is, and the picture says so.
    const svg_summary huge = check_svg({"--tensor", "1,1,1", "--shard", "100,100,100", "--grid", "1x1"});
    EXPECT_EQ(huge.pages, 1u);
    EXPECT_EQ(huge.padding, 0u);
    EXPECT_NE(huge.text.find("padding is not drawn"), std::string::npos);
}

TEST(CliSvg, SixtyFourCoresGetDistinctColours) {
    const svg_summary s = check_svg({"--tensor", "8,8", "--shard", "1,1", "--grid", "8x8"});
    std::set<std::string> colours;
    for (const auto& [core, fill] : s.legend_fill) colours.insert(fill);
    EXPECT_EQ(colours.size(), 64u);
    double nearest = 1e9;
    for (std::size_t a = 0; a < palette_size; ++a)
        for (std::size_t b = a + 1; b < palette_size; ++b)
            nearest = std::min(nearest, colour_distance(core_colour(a), core_colour(b)));
    EXPECT_GT(nearest, 10.0) << "two of the 64 core colours are too alike";
}

TEST(CliSvg, HighlightEmphasisesOneCore) {
    const svg_summary s =
        check_svg({"--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"}, {"--highlight-core", "1,0"});
    const auto root = parse_xml(s.text);
    std::size_t strong = 0, faded = 0;
    root->walk([&](const xml_element& e) {
        const std::string* cls = e.attr("class");
        if (!cls || *cls != "page") return;
        if (number(e, "data-core") == 1) {
            EXPECT_EQ(e.attr("opacity"), nullptr);
            strong += e.attr("stroke-width") && *e.attr("stroke-width") == "1.6";
        } else {
            faded += e.attr("opacity") && *e.attr("opacity") == "0.18";
        }
    });
    EXPECT_EQ(strong, 24u);  // core 1 holds 24 pages
    EXPECT_EQ(faded, 105u - 24u);
}

// The checker itself rejects what it should.
TEST(CliSvg, XmlCheckerRejectsMalformedInput) {
    for (const char* bad : {"<a><b></a></b>", "<a x=1/>", "<a x=\"1\" x=\"2\"/>", "<a>&nope;</a>", "<a/><b/>",
                            "<a x=\"<\"/>", "<a>", "text<a/>", "<a><!-- x -- y --></a>"})
        EXPECT_THROW(parse_xml(bad), xml_error) << bad;
    EXPECT_NO_THROW(parse_xml("<?xml version=\"1.0\"?>\n<a x='1' y=\"&amp;&#65;\"><!-- c --><b/>t&lt;</a>\n"));
}

}  // namespace
}  // namespace ndshard::cli::test
