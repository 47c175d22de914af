// fuzz_seedgen: writes (or checks) the named seed inputs of corpus/fuzz_spec,
// corpus/fuzz_accessor_args, corpus/fuzz_cli_spec and corpus/fuzz_cli_args (the program's
// command line: the argument seeds of fuzz_cli_spec without their mode byte; fuzz_kernel's seeds are what
// scripts/fuzz.sh merged: its inputs are the sim scenario generator's choices).
//
//   fuzz_seedgen write <corpus-dir>   (re)write every seed-* file and the spec regressions
//   fuzz_seedgen check <corpus-dir>   every seed file holds exactly the bytes below, and
//                                     those bytes still decode to the spec they are named
//                                     after (so a change to the generator that shifts the
//                                     meaning of the seeds fails a test instead of silently
//                                     turning the docs/semantics.md vectors into noise)
//
// Seeds are specs spelled out in the generator's explicit mode (choice_writer writes the
// bytes byte_entropy decodes): the conformance vectors of docs/semantics.md's conformance vectors, the
// squeezing examples of section 5, legacy shapes, specs at the 32-bit limits, one spec per
// rejection rule; for the CLI, the JSON specs, command lines and flag values of the
// issue and README examples, good and bad.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <ndshard/ndshard.hpp>
#include <ndshard/testkit/entropy.hpp>
#include <ndshard/testkit/spec_gen.hpp>

#include "args_input.hpp"
#include "fuzz_common.hpp"

namespace {

using namespace ndshard;
using bytes = std::vector<std::uint8_t>;
constexpr std::uint64_t two32 = std::uint64_t{1} << 32;

struct named_spec {
    std::string name;
    distribution_spec spec;
};

distribution_spec make(shape tensor, shape shard, std::vector<core_range> cores,
                       strategy strat = strategy::round_robin_1d, orientation orient = orientation::row_major) {
    distribution_spec s;
    s.tensor = tensor;
    s.shard = shard;
    s.cores = std::move(cores);
    s.strat = strat;
    s.orient = orient;
    return s;
}

core_range range(std::uint32_t x0, std::uint32_t y0, std::uint32_t x1, std::uint32_t y1) {
    return {{x0, y0}, {x1, y1}};
}
core_range one(std::uint32_t x, std::uint32_t y) { return {{x, y}, {x, y}}; }
core_range row_of(std::uint32_t n) { return range(0, 0, n - 1, 0); }

std::vector<named_spec> spec_seeds() {
    std::vector<named_spec> v;
    auto add = [&](std::string name, distribution_spec s) { v.push_back({std::move(name), std::move(s)}); };
    using strat = strategy;
    using orient = orientation;

    // docs/semantics.md, Conformance vectors.
    {
        distribution_spec s = make({2, 64, 96}, {1, 32, 64}, {range(0, 0, 3, 3)});
        s.page = {page_kind::tile, 32, 32};
        s.element_size = 2;
        add("v1-tile-16-cores", s);
    }
    {
        distribution_spec s =
            make({3, 2, 2, 3, 4}, {1, 1, 2, 2, 4}, {range(0, 0, 1, 4)}, strat::round_robin_1d, orient::col_major);
        s.page = {page_kind::row_major};
        s.element_size = 2;
        add("v4-row-major-pages-col-major-cores", s);
    }
    add("v7-2x3-4-banks", make({2, 3}, {1, 2}, {row_of(4)}));
    add("v7-2x1x3x4-6-banks", make({2, 1, 3, 4}, {2, 2, 1, 2}, {row_of(6)}));
    add("v8-2x2x2-unit-shards", make({2, 2, 2}, {1, 1, 1}, {range(0, 0, 1, 1)}));
    add("v8-3x3x3-uneven", make({3, 3, 3}, {2, 2, 2}, {range(0, 0, 1, 1)}));
    add("v8-2x2x4-two-shards", make({2, 2, 4}, {2, 2, 2}, {range(0, 0, 1, 1)}));
    add("v8-0x0x0-no-shards", make({0, 0, 0}, {1, 1, 1}, {range(0, 0, 1, 1)}));
    add("picture-3x7x5-6-cores", make({3, 7, 5}, {2, 2, 2}, {range(0, 0, 1, 2)}));
    add("picture-contiguous-5-cores", make({3, 7, 5}, {2, 2, 2}, {row_of(5)}, strat::contiguous_1d));
    // docs/semantics.md, Squeezing, and folding.
    add("squeeze-5x3x6-folded", make({5, 3, 6}, {2, 2}, {row_of(4)}));
    add("squeeze-4x4x6", make({4, 4, 6}, {1, 2, 2}, {row_of(3)}));
    add("squeeze-5x1x11x11", make({5, 1, 11, 11}, {5, 1, 1}, {row_of(7)}));
    add("squeeze-2x3x6-stays", make({2, 3, 6}, {1, 2, 2}, {row_of(2)}));
    // Legacy layouts as ND specs (docs/semantics.md, Legacy sharding).
    add("legacy-height", make({64, 8}, {16, 8}, {row_of(4)}));
    add("legacy-width", make({8, 64}, {8, 16}, {row_of(4)}));
    add("legacy-block-row-major", make({64, 64}, {16, 32}, {range(0, 0, 1, 3)}, strat::grid_2d));
    add("legacy-block-col-major", make({64, 64}, {16, 32}, {range(0, 0, 3, 1)}, strat::grid_2d, orient::col_major));
    add("interleaved-100-pages-12-banks", make({100}, {1}, {row_of(12)}));
    add("grid-2d-trimmed-offset-range", make({5, 7}, {2, 2}, {range(1, 1, 6, 5)}, strat::grid_2d));
    add("multi-range-col-major", make({10, 10}, {3, 3}, {range(0, 0, 1, 1), range(4, 0, 4, 3), one(7, 7)},
                                      strat::round_robin_1d, orient::col_major));
    {
        distribution_spec s = make({37}, {5}, {row_of(3)});
        s.element_size = 100;
        s.alignment = 64;
        s.bank_base = 4096;
        add("aligned-pages-with-base", s);
    }
    add("rank-8", make({2, 2, 2, 2, 2, 2, 2, 3}, {1, 2, 1, 2, 1, 2, 1, 2}, {row_of(5)}));
    add("rank-1-contiguous", make({1000}, {7}, {row_of(9)}, strat::contiguous_1d));
    add("shard-past-tensor", make({3, 5}, {4, 8}, {row_of(2)}));

    // The 32-bit limits.
    add("near-2pow32-pages-accepted", make({two32 - 1}, {1}, {one(0, 0)}));
    add("vol-2pow32-minus-65536-accepted", make({65536, 65535}, {1, 65535}, {one(0, 0)}));
    add("vol-2pow32-rejected", make({65536, 65536}, {1, 1}, {one(0, 0)}));
    add("dim-2pow32-rejected", make({two32}, {1}, {one(0, 0)}));
    add("zero-dim-beside-2pow32-span-rejected", make({0, 65536, 65536}, {1, 1, 1}, {one(0, 0)}));
    add("shard-2pow32-minus-1-accepted", make({1}, {two32 - 1}, {one(0, 0)}));
    add("shard-2pow32-rejected", make({1}, {two32}, {one(0, 0)}));
    {
        distribution_spec s = make({1024}, {1}, {one(0, 0)});
        s.element_size = 4;
        s.bank_base = two32 - 4096;
        add("address-ends-at-2pow32-accepted", s);
        s.bank_base += 1;
        add("address-one-past-2pow32-rejected", s);
        s.bank_base = two32;
        add("bank-base-2pow32-rejected", s);
    }
    {
        distribution_spec s = make({2}, {1}, {one(0, 0), one(1, 0)});
        s.element_size = two32 - 1;
        add("page-size-2pow32-minus-1-accepted", s);
        s.element_size = (two32 >> 1) + 1;
        s.alignment = two32 >> 1;
        add("aligned-page-size-2pow32-rejected", s);
    }
    {
        distribution_spec s = make({std::uint64_t{1} << 21, std::uint64_t{1} << 21}, {32, 32}, {one(0, 0)});
        s.page = {page_kind::tile, 32, 32};
        add("tile-pages-2pow32-rejected", s);
    }
    add("cores-65536-accepted", make({65536}, {1}, {range(0, 0, 255, 255)}));
    add("cores-65537-rejected", make({65536}, {1}, {range(0, 0, 255, 255), one(300, 300)}));
    add("core-coord-65535-accepted", make({4}, {1}, {one(65535, 65535), one(0, 65535)}));
    add("core-coord-65536-rejected", make({4}, {1}, {one(65536, 0)}));

    // One rule each (docs/rules.md, in table order).
    add("rule-rank", make({}, {1}, {one(0, 0)}));
    add("rule-shard-rank-0", make({4}, {}, {one(0, 0)}));
    add("rule-shard-rank-above-tensor", make({4}, {1, 1}, {one(0, 0)}));
    add("rule-zero-shard-dim", make({4, 4}, {2, 0}, {one(0, 0)}));
    {
        distribution_spec s = make({64}, {32}, {one(0, 0)});
        s.page = {page_kind::tile, 32, 32};
        add("rule-tile-rank-1", s);
        s = make({64, 64}, {32, 32}, {one(0, 0)});
        s.page = {page_kind::tile, 0, 32};
        add("rule-tile-zero-side", s);
    }
    {
        distribution_spec s = make({4}, {1}, {one(0, 0)});
        s.element_size = 0;
        add("rule-element-size", s);
        s.element_size = 1;
        s.alignment = 24;
        add("rule-alignment", s);
    }
    add("rule-no-cores", make({4}, {1}, {}));
    add("rule-bad-range", make({4}, {1}, {range(5, 5, 3, 5)}));
    add("rule-duplicate-core", make({4}, {1}, {range(0, 0, 1, 1), one(1, 1)}));
    add("rule-grid-2d-ranges", make({4, 4}, {2, 2}, {one(0, 0), one(1, 1)}, strat::grid_2d));
    add("rule-grid-2d-fit", make({64, 64}, {16, 16}, {range(0, 0, 1, 1)}, strat::grid_2d));
    return v;
}

// Specs that exposed a defect, found by fuzz_spec (the rule ids of the fast path and the
// oracle differed); written to corpus/fuzz_spec/regressions/ with the fix:
//  - the fast path checked the core rules range by range, not each rule over all ranges;
//  - grid_2d_fit was decided on a fold saturated at 2^64-1 (ceil((2^64-1)/2^50) = 2^14
//    fits a 16384-core row, the true 2^30 does not).
std::vector<named_spec> regression_spec_seeds() {
    std::vector<named_spec> v;
    v.push_back({"order-core-coord-then-bad-range", make({4}, {1}, {one(70000, 0), range(5, 5, 3, 5)})});
    v.push_back({"order-too-many-cores-then-bad-range", make({4}, {1}, {range(0, 0, 300, 300), range(5, 5, 3, 5)})});
    v.push_back({"order-grid-2d-fit-of-saturated-fold",
                 make({std::uint64_t{1} << 40, std::uint64_t{1} << 40}, {std::uint64_t{1} << 50},
                      {range(0, 0, 16383, 0)}, strategy::grid_2d)});
    return v;
}

bytes spec_bytes(const distribution_spec& s) { return testkit::explicit_spec_bytes(s, fuzz::spec_fuzz_options()); }

// fuzz_accessor_args, mode 1: the spec, then the tail.
bytes args_spec_bytes(const distribution_spec& s, std::uint64_t mask) {
    bytes b;
    testkit::choice_writer io{b};
    std::uint64_t mode = 1;
    io(0, 1, mode);
    const bytes spec = testkit::explicit_spec_bytes(s, fuzz::args_spec_options());
    b.insert(b.end(), spec.begin(), spec.end());
    fuzz::spec_tail t;
    t.mask = mask;
    fuzz::tail_fields(io, t);
    return b;
}

// fuzz_accessor_args, mode 0: raw args.
bytes args_raw_bytes(const fuzz::raw_args& a) {
    bytes b;
    testkit::choice_writer io{b};
    std::uint64_t mode = 0;
    io(0, 1, mode);
    fuzz::raw_args copy = a;
    fuzz::raw_fields(io, copy);
    return b;
}

// The raw args of a valid spec's all-runtime words, for an accessor kind.
fuzz::raw_args raw_of(const distribution& d, std::uint32_t static_rank) {
    fuzz::raw_args a;
    const page_layout& l = d.layout;
    a.kind = fuzz::kind_of(static_rank, l.rule == deal_rule::contiguous);
    a.rank = static_cast<std::uint32_t>(l.rank());
    a.banks = static_cast<std::uint32_t>(l.num_cores);
    for (auto t : l.tensor) a.tensor.push_back(static_cast<std::uint32_t>(t));
    for (auto s : l.shard) a.shard.push_back(static_cast<std::uint32_t>(s));
    a.listed = 1;
    for (const core_coord& c : d.cores) a.coords.push_back((c.x << 16) | c.y);
    a.bank_base = static_cast<std::uint32_t>(d.bank_base);
    a.page_size = static_cast<std::uint32_t>(d.aligned_page_size);
    return a;
}

fuzz::raw_args raw(std::uint32_t rank, std::uint32_t banks, std::vector<std::uint32_t> tensor,
                   std::vector<std::uint32_t> shard, std::uint32_t page_size, std::uint32_t base = 0) {
    fuzz::raw_args a;
    a.kind = 0;
    a.rank = rank;
    a.banks = banks;
    a.tensor = std::move(tensor);
    a.shard = std::move(shard);
    a.width = 256;
    a.page_size = page_size;
    a.bank_base = base;
    return a;
}

struct seed_file {
    std::string target, name;
    bytes content;
};

std::vector<seed_file> cli_seeds();

std::vector<seed_file> all_seeds() {
    std::vector<seed_file> out;
    for (const named_spec& s : spec_seeds()) {
        out.push_back({"fuzz_spec", "seed-" + s.name, spec_bytes(s.spec)});
        distribution d;
        try {
            d = make_distribution(s.spec);
        } catch (const spec_error&) {
            continue;
        }
        if (d.cores.size() > fuzz::coord_list_limit) continue;
        const auto rank = static_cast<std::uint32_t>(d.layout.rank());
        out.push_back({"fuzz_accessor_args", "seed-spec-" + s.name, args_spec_bytes(s.spec, 0)});
        out.push_back({"fuzz_accessor_args", "seed-spec-rank-static-" + s.name, args_spec_bytes(s.spec, arg::rank)});
        out.push_back({"fuzz_accessor_args", "seed-raw-" + s.name, args_raw_bytes(raw_of(d, 0))});
        out.push_back({"fuzz_accessor_args", "seed-raw-rank-static-" + s.name, args_raw_bytes(raw_of(d, rank))});
    }
    // Masks beyond the instantiable ones: the word layout is still checked.
    const distribution_spec picture = make({3, 7, 5}, {2, 2, 2}, {range(0, 0, 1, 2)});
    for (std::uint64_t mask : {3U, 31U, 4U})
        out.push_back({"fuzz_accessor_args", "seed-spec-mask-" + std::to_string(mask), args_spec_bytes(picture, mask)});
    // Raw words at the limits.
    auto add_raw = [&](std::string name, const fuzz::raw_args& a) {
        out.push_back({"fuzz_accessor_args", "seed-raw-" + name, args_raw_bytes(a)});
    };
    add_raw("no-banks-no-pages", raw(1, 0, {0}, {1}, 32));
    add_raw("no-banks-with-pages-rejected", raw(1, 0, {4}, {1}, 32));
    add_raw("65536-banks", raw(1, 65536, {65536}, {1}, 32));
    add_raw("65537-banks-rejected", raw(1, 65537, {65536}, {1}, 32));
    add_raw("rank-0-rejected", raw(0, 1, {}, {}, 32));
    add_raw("rank-9-rejected", raw(9, 1, {1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1}, 32));
    add_raw("zero-shard-dim-rejected", raw(2, 4, {4, 4}, {2, 0}, 32));
    add_raw("page-size-0-rejected", raw(1, 4, {4}, {1}, 0));
    add_raw("tensor-span-2pow32-rejected", raw(2, 1, {65536, 65536}, {1, 1}, 1));
    add_raw("tensor-span-2pow32-minus-1", raw(2, 1, {65535, 65537}, {65535, 65537}, 1));
    add_raw("address-ends-at-2pow32", raw(1, 1, {1024}, {1}, 4, 0xFFFF'F000U));
    add_raw("address-one-past-2pow32-rejected", raw(1, 1, {1024}, {1}, 4, 0xFFFF'F001U));
    {
        fuzz::raw_args a = raw(2, 3, {5, 7}, {2, 3}, 64);
        a.dmg = {11, 4, 0x100};  // flip a tensor dim
        add_raw("flipped-word-rejected", a);
        a.dmg = {12, 5, 0};  // truncate
        add_raw("truncated-rejected", a);
        a.dmg = {14, 0, 1};  // checksum off by one
        add_raw("checksum-off-by-one-rejected", a);
    }
    for (seed_file& f : cli_seeds()) out.push_back(std::move(f));
    for (const named_spec& s : regression_spec_seeds())
        out.push_back({"fuzz_spec", "regressions/" + s.name, spec_bytes(s.spec)});
    return out;
}

// fuzz_cli_spec: a mode byte, then text (arguments separated by NUL bytes). An argument
// list (mode 1) is also a seed of fuzz_cli_args, as it is (no mode byte).
std::vector<seed_file> cli_seeds() {
    std::vector<seed_file> out;
    auto add = [&](std::string name, char mode, std::string text) {
        if (mode == 1) out.push_back({"fuzz_cli_args", "seed-" + name, bytes(text.begin(), text.end())});
        bytes b{static_cast<std::uint8_t>(mode)};
        b.insert(b.end(), text.begin(), text.end());
        out.push_back({"fuzz_cli_spec", "seed-" + name, std::move(b)});
    };
    auto args = [](std::initializer_list<std::string> list) {
        std::string joined;
        for (const std::string& a : list) joined += (joined.empty() ? "" : std::string(1, '\0')) + a;
        return joined;
    };
    const std::string picture = R"j({"tensor":[3,7,5],"shard":[2,2,2],"grid":"2x3"})j";
    const std::string interleaved = R"j({"tensor":[4,8,8],"interleaved":true,"banks":12})j";
    add("json-picture", 0, picture);
    add("json-v1-tile", 0, R"j({"tensor":[2,64,96],"shard":[1,32,64],"page":"tile","cores":"(0,0)-(3,3)"})j");
    add("json-v4-row-col-major", 0,
        R"j({"tensor":[3,2,2,3,4],"shard":[1,1,2,2,4],"page":"row","cores":"(0,0)-(1,4)","orientation":"col_major"})j");
    add("json-interleaved-banks", 0, interleaved);
    add("json-every-key", 0,
        R"j({"tensor":"5,7","shard":[2,3],"cores":["(0,0)-(1,1)","(3,3)"],"page":"tile:2x4","orientation":"row_major",)j"
        R"j("strategy":"contiguous_1d","element_size":"2","alignment":32,"bank_base":4096})j");
    add("json-grid-2d-list-grid", 0, R"j({"tensor":[64,64],"shard":[16,32],"grid":[2,4],"strategy":"grid_2d"})j");
    add("json-missing-shard", 0, R"j({"tensor":[3,7,5],"grid":"2x3"})j");
    add("json-unknown-key", 0, R"j({"tensor":[3],"shard":[1],"grid":"1x1","colour":1})j");
    add("json-rank-9", 0, R"j({"tensor":[1,1,1,1,1,1,1,1,1],"shard":[1],"grid":"1x1"})j");
    add("json-huge-number", 0, R"j({"tensor":[18446744073709551616],"shard":[1],"grid":"1x1"})j");
    add("json-banks-and-grid-disagree", 0, R"j({"tensor":[8],"interleaved":true,"banks":3,"grid":"2x2"})j");
    add("args-map", 1, args({"map", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"}));
    add("args-map-csv-spec", 1, args({"map", "--format", "csv", "--spec", interleaved}));
    add("args-show-color", 1,
        args({"show", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--color", "always"}));
    add("args-explain-v1", 1,
        args({"explain", "--tensor", "2,64,96", "--shard", "1,32,64", "--page", "tile", "--cores", "(0,0)-(3,3)"}));
    add("args-svg-highlight", 1,
        args({"svg", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3", "--highlight-core", "1,0"}));
    add("args-convert-from-height", 1,
        args({"convert", "--from", "height", "--tensor", "2,64,96", "--shard-height", "32", "--grid", "1x4"}));
    add("args-convert-from-block", 1,
        args({"convert", "--from", "block", "--tensor", "64,64", "--shard-height", "32", "--shard-width", "16",
              "--grid", "4x2"}));
    add("args-convert-to-legacy", 1,
        args({"convert", "--to", "legacy", "--tensor", "8,5", "--shard", "2,5", "--grid", "4x1"}));
    add("args-convert-not-expressible", 1,
        args({"convert", "--to", "legacy", "--tensor", "3,7,5", "--shard", "2,2,2", "--grid", "2x3"}));
    add("args-sim-reshard", 1,
        args({"sim", "--op", "reshard", "--in", interleaved, "--out",
              R"j({"tensor":[4,8,8],"shard":[4,1,1],"grid":"2x3"})j"}));
    add("args-sim-reduce", 1,
        args({"sim", "--op", "reduce_sum:0", "--in", R"j({"tensor":[4,8,8],"shard":[4,1,1],"grid":"2x3"})j", "--out",
              R"j({"tensor":[8,8],"shard":[1,1],"grid":"2x3"})j", "--page-elems", "2"}));
    add("args-bad-flag", 1, args({"map", "--tensr", "3"}));
    add("args-help", 1, args({"map", "--help"}));
    add("value-u64-max", 2, std::string(1, '\0') + "18446744073709551615");
    add("value-shape", 2, std::string(1, '\1') + "[3,7,5]");
    add("value-grid", 2, std::string(1, '\2') + "2x3");
    add("value-cores", 2, std::string(1, '\3') + "(0,0)-(3,3),(5,5)");
    add("value-core", 2, std::string(1, '\4') + "(1,2)");
    add("value-page", 2, std::string(1, '\5') + "tile:16x32");
    add("value-orientation", 2, std::string(1, '\6') + "col_major");
    add("value-strategy", 2, std::string(1, '\7') + "contiguous_1d");
    for (const named_spec& s : spec_seeds())
        if (s.name.rfind("v", 0) == 0 || s.name.rfind("picture", 0) == 0) {
            bytes b{3};
            const bytes spec = spec_bytes(s.spec);
            b.insert(b.end(), spec.begin(), spec.end());
            out.push_back({"fuzz_cli_spec", "seed-generated-" + s.name, std::move(b)});
        }
    return out;
}

// The bytes still decode to what the seed is named after.
bool decodes(const seed_file& f, std::string& why) {
    testkit::byte_entropy e(f.content);
    if (f.target == "fuzz_spec") {
        for (const named_spec& s : spec_seeds())
            if ("seed-" + s.name == f.name) {
                const distribution_spec got = testkit::generate_spec(e, fuzz::spec_fuzz_options());
                why = "decodes to " + fuzz::describe(got) + ", not " + fuzz::describe(s.spec);
                return got == s.spec;
            }
        for (const named_spec& s : regression_spec_seeds())
            if ("regressions/" + s.name == f.name) {
                const distribution_spec got = testkit::generate_spec(e, fuzz::spec_fuzz_options());
                why = "decodes to " + fuzz::describe(got) + ", not " + fuzz::describe(s.spec);
                return got == s.spec;
            }
        why = "unknown seed";
        return false;
    }
    if (f.target == "fuzz_cli_spec" || f.target == "fuzz_cli_args") return true;  // literal text
    // fuzz_accessor_args: decoding again and encoding the result must give the same bytes.
    bytes again;
    testkit::choice_writer out{again};
    std::uint64_t mode = e.between(0, 1);
    out(0, 1, mode);
    if (mode == 0) {
        fuzz::raw_args a;
        testkit::choice_reader in{e};
        fuzz::raw_fields(in, a);
        fuzz::raw_fields(out, a);
    } else {
        const distribution d = testkit::generate_distribution(e, fuzz::args_spec_options());
        const bytes spec = testkit::explicit_spec_bytes(d.spec, fuzz::args_spec_options());
        again.insert(again.end(), spec.begin(), spec.end());
        fuzz::spec_tail t;
        testkit::choice_reader in{e};
        fuzz::tail_fields(in, t);
        fuzz::tail_fields(out, t);
    }
    why = "does not decode back to its own fields";
    return again == f.content;
}

bytes read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc == 3 ? argv[1] : "";
    if (mode != "write" && mode != "check") {
        std::fprintf(stderr, "usage: fuzz_seedgen write|check <corpus-dir>\n");
        return 2;
    }
    const std::filesystem::path root = argv[2];
    int bad = 0;
    const std::vector<seed_file> seeds = all_seeds();
    for (const seed_file& f : seeds) {
        const std::filesystem::path path = root / f.target / f.name;
        std::string why;
        if (!decodes(f, why)) {
            std::fprintf(stderr, "%s/%s: %s\n", f.target.c_str(), f.name.c_str(), why.c_str());
            ++bad;
            continue;
        }
        if (mode == "check") {
            if (!std::filesystem::exists(path)) {
                std::fprintf(stderr, "%s: missing (run fuzz_seedgen write)\n", path.c_str());
                ++bad;
            } else if (read_file(path) != f.content) {
                std::fprintf(stderr, "%s: stale bytes (run fuzz_seedgen write)\n", path.c_str());
                ++bad;
            }
            continue;
        }
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(f.content.data()), static_cast<std::streamsize>(f.content.size()));
    }
    std::fprintf(stderr, "fuzz_seedgen %s: %zu seeds, %d problems\n", mode.c_str(), seeds.size(), bad);
    return bad == 0 ? 0 : 1;
}
