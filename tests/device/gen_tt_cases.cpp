// tests/device/gen_tt_cases.cpp - the cases tt_reader_test checks on rv32im: tt-metal's
// accessor words made on the host (ndshard/tt/host_words.hpp) for generated specs, every one
// of the 15 compile-time/runtime mixes in turn, L1 and DRAM banks, with the NoC address the
// oracle (lib/oracle, independent of lib/include) gives each page and shard.
//
// Usage: gen_tt_cases OUT.hpp [CASES] [SEED]
// The header defines KERNEL_COMPILE_TIME_ARGS (every case's compile-time words, one after
// the other) and, in namespace tt_cases: crta (every case's common runtime words), cases
// (where each case's words are, its bank base, sizes and expectations) and the expected
// addresses (page or shard id, NoC address low and high words).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "ndshard/ndshard.hpp"
#include "ndshard/oracle/oracle.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/spec_gen.hpp"
#include "ndshard/tt/host_words.hpp"
#include "tt_platform.hpp"

namespace {

using namespace ndshard;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr u64 kSmallPages = 300;  // every page and shard of a spec up to this size
constexpr u32 kSamples = 40;

u64 to64(const oracle::big& v) { return testkit::to_u64(v); }

struct writer {
    std::vector<u32> cta, crta, expect, shard_expect;
    std::string cases;
    u32 count = 0, mixes_seen = 0;

    void add_expect(std::vector<u32>& to, u64 id, u64 addr) {
        to.push_back(static_cast<u32>(id));
        to.push_back(static_cast<u32>(addr));
        to.push_back(static_cast<u32>(addr >> 32));
    }
};

// The NoC address of (bank, device offset): the bank's coordinate (L1), or its row of the
// platform's DRAM table (tt_platform.hpp) plus the bank's offset.
u64 noc_of(bool dram, core_coord c, u64 bank_index, u64 byte_address) {
    if (dram)
        return tt::noc_xy_addr(tt_device::dram_x(static_cast<u32>(bank_index)),
                               tt_device::dram_y(static_cast<u32>(bank_index)),
                               static_cast<u32>(byte_address + tt_device::dram_offset(static_cast<u32>(bank_index))));
    return tt::noc_xy_addr(c.x, c.y, static_cast<u32>(byte_address));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: gen_tt_cases OUT.hpp [CASES] [SEED]\n";
        return 2;
    }
    const u32 wanted = argc > 2 ? static_cast<u32>(std::stoul(argv[2])) : 45;
    testkit::random_entropy e(argc > 3 ? std::stoull(argv[3]) : 20261127);
    const std::vector<u32> mixes = tt::all_runtime_mixes();
    writer w;
    for (u32 attempt = 0; w.count < wanted && attempt < wanted * 200; ++attempt) {
        testkit::spec_options o;
        o.max_pages = 600;
        o.max_cores = 16;
        o.huge_percent = attempt % 9 == 0 ? 100 : 0;
        const distribution d = testkit::generate_distribution(e, o);
        if (d.num_pages() == 0 || d.layout.rank() == 0) continue;
        u32 mix = mixes[w.count % mixes.size()];
        if (d.layout.rule == deal_rule::contiguous) mix &= ~(tt::flag::runtime_num_banks);
        const bool dram = d.cores.size() <= tt_device::dram_banks && e.chance(35);
        std::vector<core_coord> banks;
        for (std::size_t b = 0; b < d.cores.size(); ++b)
            banks.push_back(dram ? core_coord{static_cast<u32>(b), 0} : d.cores[b]);
        bool on_noc = true;  // an L1 bank must fit the 6-bit NoC node ids
        for (const core_coord& c : banks) on_noc = on_noc && c.x < 64 && c.y < 64;
        const u32 config = mix | (dram ? tt::flag::is_dram : 0U);
        if (!on_noc || !tt::why_no_words(d.layout, banks, config | tt::flag::sharded).empty()) continue;
        const tt::tt_words words = tt::make_tt_words(d.layout, banks, config, static_cast<u32>(d.aligned_page_size));
        const oracle::model m = testkit::accepted_model(d.spec);

        const u32 cta_at = static_cast<u32>(w.cta.size()), crta_at = static_cast<u32>(w.crta.size());
        w.cta.insert(w.cta.end(), words.compile_time.begin(), words.compile_time.end());
        w.crta.insert(w.crta.end(), words.common_runtime.begin(), words.common_runtime.end());
        const bool small = d.num_pages() <= kSmallPages;
        std::vector<u64> pages;
        if (small) {
            for (u64 p = 0; p < d.num_pages(); ++p) pages.push_back(p);
        } else {
            pages = testkit::sample_pages(e, d, kSamples);
        }
        const u32 expect_at = static_cast<u32>(w.expect.size() / 3);
        for (u64 p : pages) {
            const oracle::location loc = oracle::locate(m, oracle::big(p));
            w.add_expect(w.expect, p,
                         noc_of(dram, testkit::to_core_coord(loc.core), to64(loc.core_index), to64(loc.byte_address)));
        }
        const u32 shard_at = static_cast<u32>(w.shard_expect.size() / 3);
        const u64 shards = d.num_shards();
        std::vector<u64> shard_ids;
        for (u64 s = 0; s < shards && s < 64; ++s) shard_ids.push_back(s);
        if (shards > 64) shard_ids.push_back(shards - 1);
        for (u64 s : shard_ids) {
            const oracle::shard_home h = oracle::shard_location(m, oracle::big(s));
            w.add_expect(w.shard_expect, s,
                         noc_of(dram, testkit::to_core_coord(h.core), to64(h.core_index), to64(h.byte_address)));
        }
        // {cta, crta, crta words, base, page size, pages, shards, small, expect at, expects, shard at, shard expects}
        w.cases += "    {" + std::to_string(cta_at) + "u, " + std::to_string(crta_at) + "u, " +
                   std::to_string(words.common_runtime.size()) + "u, " + std::to_string(d.bank_base) + "u, " +
                   std::to_string(d.aligned_page_size) + "u, " + std::to_string(d.num_pages()) + "u, " +
                   std::to_string(shards) + "u, " + (small ? "1u" : "0u") + ", " + std::to_string(expect_at) + "u, " +
                   std::to_string(pages.size()) + "u, " + std::to_string(shard_at) + "u, " +
                   std::to_string(shard_ids.size()) + "u},  // mix " + std::to_string(mix) + (dram ? " DRAM" : " L1") +
                   ", " + to_string(d.layout.tensor) + " cut " + to_string(d.layout.shard) +
                   (d.layout.rule == deal_rule::contiguous ? " contiguous" : "") + "\n";
        ++w.count;
    }
    std::ofstream out(argv[1]);
    auto list = [&](const char* type, const char* name, const std::vector<u32>& v) {
        out << "inline constexpr " << type << " " << name << "[] = {";
        for (std::size_t i = 0; i < v.size(); ++i) out << (i % 12 == 0 ? "\n    " : " ") << v[i] << "u,";
        if (v.empty()) out << "0u";
        out << "\n};\n";
    };
    out << "// Generated by tests/device/gen_tt_cases.cpp. Do not edit.\n#pragma once\n#include <stdint.h>\n";
    out << "#define KERNEL_COMPILE_TIME_ARGS ";
    for (std::size_t i = 0; i < w.cta.size(); ++i) out << (i ? "," : "") << w.cta[i] << "u";
    out << "\nnamespace tt_cases {\n";
    out << "struct tt_case {\n    uint32_t cta, crta, crta_count, base, page_size, pages, shards, small;\n"
           "    uint32_t expect_at, expects, shard_at, shard_expects;\n};\n";
    out << "inline constexpr tt_case cases[] = {\n" << w.cases << "};\n";
    out << "inline constexpr uint32_t count = " << w.count << "u;\n";
    list("uint32_t", "crta", w.crta);
    list("uint32_t", "expect", w.expect);
    list("uint32_t", "shard_expect", w.shard_expect);
    out << "}  // namespace tt_cases\n";
    std::cout << "gen_tt_cases: " << w.count << " cases, " << w.cta.size() << " compile-time words, "
              << w.expect.size() / 3 << " page and " << w.shard_expect.size() / 3 << " shard addresses\n";
    return out && w.count == wanted ? 0 : 1;
}
