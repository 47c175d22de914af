// tests/device/gen_device_cases.cpp - the cases device_test checks on rv32im, with the
// answers of the oracle (lib/oracle, unbounded integers, independent of lib/include).
//
// Usage: gen_device_cases OUT.hpp [SPECS] [SEED]
//
// Specs come from the testkit generator (every strategy, ranks 1..8, folding, uneven and
// oversized shards, zero-size dims, more cores than shards, and `huge` specs with page
// counts and addresses near 2^32). For each spec the header holds:
//  - its all-runtime words, and for the first kCtSpecs specs also one compile-time mix:
//    mask = the 15 valid masks in turn (so every mix is compiled for several specs, with
//    both deal rules), as a constexpr std::array the device program instantiates
//    accessor<&words> with (code generation: one instance per distinct word list);
//  - pages to query (every page of a small spec; first, last and random ones of a big
//    one) with the oracle's bank, offset, core and byte address, and the length of the
//    contiguous run from the page (walked with the oracle);
//  - for a small spec, every shard's and every bank's pages in device order (the oracle's
//    pages_of_shard and local_pages), for the iterators;
//  - malformed runtime word lists (a flipped word, one word short, one too many, page
//    size 0, a bank base past the address limit) with the rule the host accessor refuses
//    them with, which the device must report as a status.
// The stream format is read by device_test.cpp (record layout there).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "ndshard/ndshard.hpp"
#include "ndshard/oracle/oracle.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"
#include "ndshard/testkit/spec_gen.hpp"

namespace {

using namespace ndshard;
using u32 = std::uint32_t;

constexpr u32 kSmallPages = 400;  // every page, shard and bank is checked up to this size
constexpr u32 kSamples = 48;      // pages checked of a bigger spec
constexpr u32 kCtSpecs = 45;      // specs that also get a compile-time mix (each mask 3 times)
constexpr u32 kValidMasks[] = {0, 1, 2, 3, 5, 7, 9, 11, 13, 15, 18, 19, 23, 27, 31};
const char* const kRules[] = {"args_rank",  "args_length",    "args_banks",   "args_checksum",
                              "args_shape", "args_page_size", "address_32bit"};

u32 rule_index(const std::string& rule) {
    for (u32 i = 0; i < std::size(kRules); ++i)
        if (rule == kRules[i]) return i;
    throw std::runtime_error("unexpected rule " + rule);
}

u32 to32(const oracle::big& v) { return static_cast<u32>(testkit::to_u64(v)); }

struct generator {
    std::vector<u32> data;
    std::map<std::vector<u32>, u32> ct_instances;  // compile-time words -> instance index
    std::vector<std::vector<u32>> ct_list;
    u32 cases = 0, addresses = 0, bad_lists = 0, iterator_specs = 0;

    u32 ct_index(const std::vector<u32>& ct) {
        auto [it, added] = ct_instances.emplace(ct, static_cast<u32>(ct_list.size()));
        if (added) ct_list.push_back(ct);
        return it->second;
    }

    // The host accessor's verdict on runtime words (all-runtime config `config`).
    static std::optional<std::string> host_rule(u32 config, const std::vector<u32>& rt, u32 base, u32 page) {
        try {
            if (config == runtime_contiguous[0]) (void)accessor<runtime_contiguous>(rt, base, page);
            else (void)accessor<runtime_round_robin>(rt, base, page);
        } catch (const spec_error& e) {
            return e.rule();
        }
        return std::nullopt;
    }

    void add_bad(std::vector<u32>& out, u32 config, std::vector<u32> rt, u32 base, u32 page) {
        const auto rule = host_rule(config, rt, base, page);
        if (!rule) return;  // this corruption happens to be valid: nothing to refuse
        out.push_back(static_cast<u32>(rt.size()));
        out.insert(out.end(), rt.begin(), rt.end());
        out.push_back(base);
        out.push_back(page);
        out.push_back(rule_index(*rule));
        ++bad_lists;
    }

    void add(const distribution& d, const oracle::model& m, testkit::entropy& e, bool with_ct) {
        const u32 n = static_cast<u32>(d.num_pages());
        const bool small = n <= kSmallPages && d.num_shards() <= kSmallPages;
        const accessor_words rt = make_accessor_words(d, arg::all_runtime);
        std::vector<u32> rec;
        rec.push_back(0xCA5E0000U | (small ? 1U : 0U));
        rec.push_back(cases);
        // all-runtime instance: 0xFFFFFFFF round robin, 0xFFFFFFFE contiguous
        rec.push_back(rt.compile_time[0] == runtime_contiguous[0] ? 0xFFFFFFFEU : 0xFFFFFFFFU);
        auto words = [&](const std::vector<u32>& w) {
            rec.push_back(static_cast<u32>(w.size()));
            rec.insert(rec.end(), w.begin(), w.end());
        };
        words(rt.runtime);
        if (with_ct) {
            const u32 mask = kValidMasks[cases % std::size(kValidMasks)];
            const accessor_words ct = make_accessor_words(d, mask);
            rec.push_back(ct_index(ct.compile_time));
            words(ct.runtime);
        } else {
            rec.push_back(0xFFFFFFFFU);
            words({});
        }
        const u32 base = static_cast<u32>(d.bank_base), page = static_cast<u32>(d.aligned_page_size);
        rec.push_back(base);
        rec.push_back(page);
        rec.push_back(n);
        rec.push_back(static_cast<u32>(d.num_shards()));
        rec.push_back(static_cast<u32>(d.cores.size()));
        rec.push_back(static_cast<u32>(d.layout.max_shards_per_core));

        // Pages to query, with the oracle's answers and the run from each.
        std::vector<u32> pages;
        if (small) {
            for (u32 p = 0; p < n; ++p) pages.push_back(p);
        } else if (n != 0) {
            for (std::uint64_t p : testkit::sample_pages(e, d, kSamples)) pages.push_back(static_cast<u32>(p));
            std::sort(pages.begin(), pages.end());
            pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
        }
        rec.push_back(static_cast<u32>(pages.size()));
        for (u32 p : pages) {
            const oracle::location l = oracle::locate(m, oracle::big(p));
            u32 run = 1;
            for (u32 q = p + 1; q < n && run < 4096; ++q, ++run) {  // the oracle walk, capped for big specs
                const oracle::location k = oracle::locate(m, oracle::big(q));
                if (k.core_index != l.core_index || k.device_offset != l.device_offset + run) break;
            }
            rec.push_back(p);
            rec.push_back(to32(l.core_index));
            rec.push_back(to32(l.device_offset));
            rec.push_back(to32(l.byte_address));
            rec.push_back(to32(l.core.x));
            rec.push_back(to32(l.core.y));
            rec.push_back(run);
            ++addresses;
        }
        if (small) {
            ++iterator_specs;
            for (u32 s = 0; s < d.num_shards(); ++s) {
                const auto list = oracle::pages_of_shard(m, oracle::big(s));
                rec.push_back(static_cast<u32>(list.size()));
                for (const auto& p : list) rec.push_back(to32(p));
            }
            for (u32 b = 0; b < d.cores.size(); ++b) {
                const auto list = oracle::local_pages(m, oracle::big(b));
                rec.push_back(static_cast<u32>(list.size()));
                for (const auto& p : list) rec.push_back(to32(p));
            }
        }
        // Malformed lists for the all-runtime accessor.
        std::vector<u32> bad;
        const u32 config = rt.compile_time[0];
        {
            std::vector<u32> w = rt.runtime;
            w[static_cast<std::size_t>(e.between(0, w.size() - 1))] ^= 1U << e.between(0, 31);
            add_bad(bad, config, w, base, page);
        }
        {
            std::vector<u32> w = rt.runtime;
            w.pop_back();
            add_bad(bad, config, w, base, page);
        }
        {
            std::vector<u32> w = rt.runtime;
            w.push_back(static_cast<u32>(e.between(0, 0xFFFFFFFFU)));
            add_bad(bad, config, w, base, page);
        }
        add_bad(bad, config, rt.runtime, base, 0);
        if (d.reserved_pages_per_core() != 0) add_bad(bad, config, rt.runtime, 0xFFFFFFFFU, page);
        {
            std::vector<u32> w = rt.runtime;
            w[0] = 9;  // rank 9
            add_bad(bad, config, w, base, page);
        }
        u32 count = 0;
        for (std::size_t i = 0; i < bad.size(); i += bad[i] + 4) ++count;
        rec.push_back(count);
        rec.insert(rec.end(), bad.begin(), bad.end());
        rec.push_back(0xE17DU);  // end of record
        data.insert(data.end(), rec.begin(), rec.end());
        ++cases;
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: gen_device_cases OUT.hpp [SPECS] [SEED]\n";
        return 2;
    }
    const u32 specs = argc > 2 ? static_cast<u32>(std::stoul(argv[2])) : 300;
    const std::uint64_t seed = argc > 3 ? std::stoull(argv[3]) : 16;
    testkit::random_entropy e(seed);
    generator g;
    u32 attempts = 0;
    while (g.cases < specs && attempts++ < specs * 20) {
        testkit::spec_options o;
        o.max_pages = 256;
        o.max_cores = 24;
        o.huge_percent = g.cases % 5 == 4 ? 60 : 0;  // addresses and page counts near 2^32
        const distribution d = testkit::generate_distribution(e, o);
        const oracle::verdict v = oracle::evaluate(testkit::to_oracle(d.spec));
        if (!v.accepted) {
            std::cerr << "gen_device_cases: the oracle refuses a spec make_distribution accepted (" << v.rule << ")\n";
            return 1;
        }
        g.add(d, *v.accepted, e, g.cases < kCtSpecs);
    }
    std::ofstream out(argv[1]);
    out << "// Generated by tests/device/gen_device_cases.cpp (seed " << seed << "). Do not edit.\n#pragma once\n"
        << "#include <array>\n#include <stdint.h>\nnamespace device_cases {\n";
    out << "inline constexpr uint32_t num_cases = " << g.cases << "U;\n";
    out << "inline constexpr uint32_t num_addresses = " << g.addresses << "U;\n";
    out << "inline constexpr uint32_t num_bad_lists = " << g.bad_lists << "U;\n";
    out << "inline constexpr uint32_t num_iterator_specs = " << g.iterator_specs << "U;\n";
    out << "inline constexpr const char* rules[] = {";
    for (const char* r : kRules) out << '"' << r << "\", ";
    out << "};\n";
    for (std::size_t i = 0; i < g.ct_list.size(); ++i) {
        out << "inline constexpr std::array<uint32_t, " << g.ct_list[i].size() << "> ct" << i << "{{";
        for (u32 w : g.ct_list[i]) out << w << "U,";
        out << "}};\n";
    }
    out << "#define DEVICE_CASES_CT_INSTANCES(X)";
    for (std::size_t i = 0; i < g.ct_list.size(); ++i) out << " X(" << i << ")";
    out << "\ninline constexpr uint32_t num_ct_instances = " << g.ct_list.size() << "U;\n";
    out << "inline constexpr uint32_t data[] = {\n";
    for (std::size_t i = 0; i < g.data.size(); ++i) out << g.data[i] << (i % 16 == 15 ? "U,\n" : "U,");
    out << "};\n}  // namespace device_cases\n";
    std::cerr << "gen_device_cases: " << g.cases << " specs, " << g.ct_list.size() << " compile-time instances, "
              << g.addresses << " addresses, " << g.iterator_specs << " specs with iterator tables, " << g.bad_lists
              << " malformed lists\n";
    return out ? 0 : 1;
}
