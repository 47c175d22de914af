// props/gen_tt_fixed_cases.cpp - writes the header props/tt_accessor_fixed*.cpp compile:
// tt-metal's argument words of a few hard specs in all 15 compile-time mixes, as one
// kernel's compile-time arguments (KERNEL_COMPILE_TIME_ARGS) and common runtime words.
//
// Usage: gen_tt_fixed_cases OUT.hpp
//
// For each spec (the table below) and each mix (ndshard::tt::all_runtime_mixes(), the
// Runtime bits of the 15), the header holds the spec as JSON (the test rebuilds the
// distribution from it and asks the oracle), the mix, whether the banks are DRAM, and
// where the words are: the compile-time words at `cta` (ctas follow each other, as in a
// kernel with several accessors), the common runtime words at `crta`. A mix the words
// cannot hold (contiguous_1d with a runtime bank count) is listed as refused, with no
// words. The first two cases are make_tensor_accessor_args_tuple's pair: consecutive
// compile-time words, the first with no runtime words, the second's at offset 0. One case of
// each mix is marked for the runtime CRTA offset form as well.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/error.hpp"
#include "ndshard/specio/spec_text.hpp"
#include "ndshard/tt/host_words.hpp"

namespace {

using namespace ndshard;

struct fixed_spec {
    const char* name;
    distribution_spec spec;
    bool dram = false;
};

distribution_spec make(shape tensor, shape shard, std::vector<core_range> cores) {
    distribution_spec s;
    s.tensor = std::move(tensor);
    s.shard = std::move(shard);
    s.cores = std::move(cores);
    return s;
}

std::vector<core_range> single_cores(std::initializer_list<core_coord> list) {
    std::vector<core_range> out;
    for (core_coord c : list) out.push_back({c, c});
    return out;
}

// The hard cases: rank 8 with uneven edges and trailing shards, rank 1 with 2^32 - 5
// pages ending at the 32-bit limit, contiguous_1d (compile-time banks) on DRAM, more banks
// than shards, a zero-size dim, grid_2d over tile pages with folding, row-major pages on
// 12 DRAM banks.
std::vector<fixed_spec> fixed_specs() {
    std::vector<fixed_spec> out;
    {
        distribution_spec s = make({3, 2, 5, 1, 2, 3, 2, 3}, {2, 1, 3, 1, 2, 2, 1, 2},
                                   single_cores({{7, 3}, {0, 0}, {2, 9}, {4, 4}, {1, 6}}));
        s.element_size = 32;
        s.bank_base = 1U << 20;
        out.push_back({"rank 8 uneven on 5 scattered cores, 64 shards for 23 shard volumes of pages", s});
    }
    {
        distribution_spec s = make({(std::uint64_t{1} << 32) - 5}, {1U << 20}, {grid_range(4, 1)});
        s.bank_base = 3U << 30;  // 1024 slots of 2^20 one-byte pages per core: ends at 2^32
        out.push_back({"rank 1, 2^32 - 5 pages in 2^20-page shards on 4 cores, ending at 2^32", s});
    }
    {
        distribution_spec s = make({3, 7, 5}, {2, 2, 2}, {{{1, 1}, {3, 2}}});
        s.element_size = 100;
        s.alignment = 16;
        s.orient = orientation::col_major;
        s.strat = strategy::contiguous_1d;
        s.bank_base = 0x4000;
        out.push_back({"contiguous_1d [3,7,5]/[2,2,2] on 6 DRAM banks", s, true});
    }
    {
        distribution_spec s = make({4, 6}, {2, 6}, {grid_range(3, 3)});
        s.element_size = 8;
        out.push_back({"[4,6]/[2,6]: 2 shards on 9 cores", s});
    }
    {
        distribution_spec s = make({3, 0, 4}, {2, 2, 2}, {{{5, 1}, {6, 1}}});
        s.element_size = 64;
        out.push_back({"[3,0,4]/[2,2,2]: a zero-size dim, no pages", s});
    }
    {
        distribution_spec s = make({2, 3, 64, 96}, {96, 64}, {{{2, 3}, {4, 7}}});
        s.page.kind = page_kind::tile;
        s.element_size = 2;
        s.strat = strategy::grid_2d;
        s.bank_base = 0x10000;
        out.push_back({"grid_2d over 32x32 tiles, [2,3,64,96] folded to [12,3] pages in [3,2]", s});
    }
    {
        distribution_spec s = make({5, 7, 13}, {2, 3, 4}, {grid_range(12, 1)});
        s.page.kind = page_kind::row_major;
        s.element_size = 2;
        s.alignment = 32;
        s.bank_base = 0x2000;
        out.push_back({"row-major pages [5,7,13]/[2,3,4] on 12 DRAM banks", s, true});
    }
    return out;
}

struct fixed_case {
    std::string name, spec_json;
    std::size_t spec = 0, mix = 0;  // indices into fixed_specs() and all_runtime_mixes()
    bool dram = false, refused = false, runtime_offset_form = false;
    std::uint32_t config = 0;
    std::size_t cta = 0, cta_count = 0, crta = 0, crta_count = 0;
};

std::string hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%X", v);
    return buf;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: gen_tt_fixed_cases OUT.hpp\n";
        return 2;
    }
    const std::vector<fixed_spec> specs = fixed_specs();
    const std::vector<std::uint32_t> mixes = tt::all_runtime_mixes();
    // The tuple pair first: (spec 0, every part compile-time), then (spec 1, every part runtime).
    const auto index_of = [&](std::uint32_t mix) {
        return static_cast<std::size_t>(std::find(mixes.begin(), mixes.end(), mix) - mixes.begin());
    };
    const std::size_t all_compile_time = index_of(0), all_runtime = index_of(tt::flag::runtime_all);
    std::vector<std::pair<std::size_t, std::size_t>> order{{0, all_compile_time}, {1, all_runtime}};
    for (std::size_t s = 0; s < specs.size(); ++s)
        for (std::size_t m = 0; m < mixes.size(); ++m)
            if (!((s == 0 && m == all_compile_time) || (s == 1 && m == all_runtime))) order.push_back({s, m});

    std::vector<fixed_case> cases;
    std::vector<std::uint32_t> cta, crta;
    for (auto [s, m] : order) {
        const std::uint32_t mix = mixes[m];
        const fixed_spec& f = specs[s];
        const distribution d = make_distribution(f.spec);
        fixed_case c;
        c.spec = s;
        c.mix = m;
        c.name = f.name;
        c.spec_json = specio::spec_to_json(f.spec);
        c.dram = f.dram;
        c.config = mix | (f.dram ? tt::flag::is_dram : 0U);
        std::vector<core_coord> banks = d.cores;
        if (f.dram)  // a DRAM bank's coordinate is its bank id
            for (std::size_t b = 0; b < banks.size(); ++b) banks[b] = {static_cast<std::uint32_t>(b), 0};
        try {
            const tt::tt_words w =
                tt::make_tt_words(d.layout, banks, c.config, static_cast<std::uint32_t>(d.aligned_page_size));
            c.cta = cta.size();
            c.cta_count = w.compile_time.size();
            c.crta = crta.size();
            c.crta_count = w.common_runtime.size();
            cta.insert(cta.end(), w.compile_time.begin(), w.compile_time.end());
            crta.insert(crta.end(), w.common_runtime.begin(), w.common_runtime.end());
        } catch (const spec_error&) {
            c.refused = true;
        }
        cases.push_back(c);
    }
    // The runtime CRTA offset form, TensorAccessorArgs<cta>(crta), once per mix: on spec
    // mix % specs, or the next spec whose words hold that mix.
    for (std::size_t m = 0; m < mixes.size(); ++m)
        for (std::size_t k = 0; k < specs.size(); ++k) {
            const std::size_t s = (m + k) % specs.size();
            auto it = std::find_if(cases.begin(), cases.end(),
                                   [&](const fixed_case& c) { return c.spec == s && c.mix == m && !c.refused; });
            if (it != cases.end()) {
                it->runtime_offset_form = true;
                break;
            }
        }

    std::ofstream out(argv[1]);
    out << "// Generated by gen_tt_fixed_cases (props/gen_tt_fixed_cases.cpp); do not edit.\n"
        << "// " << specs.size() << " specs x " << mixes.size() << " mixes, " << cta.size() << " compile-time and "
        << crta.size() << " common runtime words.\n"
        << "#pragma once\n\n#include <cstddef>\n#include <cstdint>\n\n"
        << "#define KERNEL_COMPILE_TIME_ARGS \\\n    ";
    for (std::size_t i = 0; i < cta.size(); ++i)
        out << hex(cta[i]) << (i + 1 < cta.size() ? (i % 12 == 11 ? ", \\\n    " : ", ") : "\n\n");
    out << "namespace ndshard::props::tt_fixed {\n\n"
        << "struct fixed_case {\n"
        << "    const char* name;\n    const char* spec_json;\n"
        << "    bool dram, refused;\n"
        << "    bool runtime_offset_form;  // also checked as TensorAccessorArgs<cta>(crta) (once per mix)\n"
        << "    std::uint32_t config;  // IsDram and the Runtime bits of the mix (Sharded is added by make_tt_words)\n"
        << "    std::size_t cta, cta_count, crta, crta_count;\n};\n\n"
        << "inline constexpr fixed_case cases[] = {\n";
    for (const fixed_case& c : cases)
        out << "    {\"" << c.name << "\", R\"json(" << c.spec_json << ")json\", " << (c.dram ? "true" : "false")
            << ", " << (c.refused ? "true" : "false") << ", " << (c.runtime_offset_form ? "true" : "false") << ", "
            << hex(c.config) << ", " << c.cta << ", " << c.cta_count << ", " << c.crta << ", " << c.crta_count
            << "},\n";
    out << "};\n\ninline constexpr std::uint32_t common_runtime_words[] = {";
    for (std::size_t i = 0; i < crta.size(); ++i) out << (i % 12 == 0 ? "\n    " : " ") << hex(crta[i]) << ",";
    out << "\n};\n\n}  // namespace ndshard::props::tt_fixed\n";
    if (!out) {
        std::cerr << "gen_tt_fixed_cases: cannot write " << argv[1] << "\n";
        return 1;
    }
    std::cout << "gen_tt_fixed_cases: " << cases.size() << " cases, " << cta.size() << " compile-time words, "
              << crta.size() << " common runtime words\n";
    return 0;
}
