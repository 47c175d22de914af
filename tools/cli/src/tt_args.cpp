// tt-metal's accessor argument words (see tt_args.hpp and docs/tt-args.md).
#include "ndshard/cli/tt_args.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <utility>

#include "ndshard/accessor.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/specio/text.hpp"

#include <nlohmann/json.hpp>

namespace ndshard::cli {

namespace flag = tt::flag;

namespace {

using specio::hex;

// A bank coordinate travels as 8 bits of x and 8 of y, but every architecture tt-metal
// documents routes on a 6-bit NoC node id (NOC_ADDR_NODE_ID_BITS = 6, the library's
// noc_encoding), so 63 is the largest coordinate a bank can have.
constexpr std::uint32_t tt_coord_limit = 1U << noc_wormhole_b0.id_bits;
static_assert(noc_blackhole.id_bits == noc_wormhole_b0.id_bits);

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// The words of one layout, as a message says it.
const char* layout_name(unsigned layout) {
    return layout == tt::layout_with_page_size ? "layout 2 (tt-metal today: the aligned page size is word 1)"
                                               : "layout 1 (tt-metal's older words: no page size word)";
}

// For a list that ends early or runs long: when the compile-time words are a whole, valid
// list in the other layout, the reader most likely has the wrong --tt-layout.
std::string other_layout_hint(const std::vector<std::uint32_t>& ct, unsigned layout) {
    const unsigned other =
        layout == tt::layout_with_page_size ? tt::layout_without_page_size : tt::layout_with_page_size;
    const tt::cta_layout c = tt::read_cta(ct, ct.size(), 0, other);
    if (c.error != tt::cta_error::none || c.end != ct.size() || !c.sharded) return "";
    return "; these compile-time words are a whole list in " + std::string(layout_name(other)) + ": give --tt-layout " +
           std::to_string(other);
}

// One of the two word lists being read, for messages that name the list, the index and
// the value of the word that is wrong.
struct word_reader {
    const char* list;  // "--ct" or "--crta"
    const std::vector<std::uint32_t>& words;
    std::uint32_t config;
    const std::string& hint;  // other_layout_hint, added to "too few" and "trailing" messages
    std::size_t next = 0;

    std::string where(std::size_t i) const {
        return std::string(list) + " word " + std::to_string(i) + " = " + std::to_string(words[i]);
    }
    // The word at `next`, which holds `what`; too few words is an error naming what is missing.
    std::pair<std::size_t, std::uint32_t> take(const std::string& what) {
        if (next >= words.size())
            throw usage_error(std::string(list) + ": " + std::to_string(words.size()) + " word" +
                              (words.size() == 1 ? "" : "s") + ", but config " + hex(config) + " (" +
                              describe_tt_config(config) + ") puts " + what + " at word " + std::to_string(next) +
                              " of this list" + hint);
        const std::size_t i = next++;
        return {i, words[i]};
    }
    // A list longer than its parts: `end` words are the buffer's.
    void expect_end(std::size_t end, std::uint32_t rank, std::uint32_t banks) const {
        if (end < words.size())
            throw usage_error(where(end) + ": trailing word; config " + hex(config) + " with rank " +
                              std::to_string(rank) + " and " + std::to_string(banks) + " banks takes " +
                              std::to_string(end) + " words here" + hint);
    }
};

}  // namespace

std::string hex64(std::uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string describe_tt_config(std::uint32_t config) {
    static constexpr std::pair<std::uint32_t, const char*> names[] = {
        {flag::sharded, "Sharded"},
        {flag::is_dram, "IsDram"},
        {flag::runtime_rank, "RuntimeRank"},
        {flag::runtime_num_banks, "RuntimeNumBanks"},
        {flag::runtime_tensor_shape, "RuntimeTensorShape"},
        {flag::runtime_shard_shape, "RuntimeShardShape"},
        {flag::runtime_bank_coords, "RuntimeBankCoords"},
        {flag::bound, "Bound"},
    };
    std::string out;
    for (const auto& [bit, name] : names)
        if (config & bit) out += (out.empty() ? "" : "|") + std::string(name);
    if (config & ~flag::known) out += (out.empty() ? "" : "|") + hex(config & ~flag::known);
    return out.empty() ? "None" : out;
}

// The --runtime parts in word order, each with its flag.
static constexpr std::pair<std::uint32_t, const char*> runtime_parts[] = {
    {flag::runtime_rank, "rank"},
    {flag::runtime_num_banks, "num_banks"},
    {flag::runtime_tensor_shape, "tensor_shape"},
    {flag::runtime_shard_shape, "shard_shape"},
    {flag::runtime_bank_coords, "bank_coords"},
};

std::string describe_tt_runtime(std::uint32_t runtime_flags) {
    std::string out;
    for (const auto& [bit, name] : runtime_parts)
        if (runtime_flags & bit) out += (out.empty() ? "" : ",") + std::string(name);
    return out.empty() ? "none" : out;
}

std::uint32_t parse_tt_runtime(std::string_view text, std::string_view what) {
    static const std::map<std::string, std::uint32_t> names = {
        {"none", 0},
        {"all", flag::runtime_all},
        {"runtime", flag::runtime_all},
        {"rank", flag::runtime_rank},
        {"runtimerank", flag::runtime_rank},
        {"num_banks", flag::runtime_num_banks},
        {"banks", flag::runtime_num_banks},
        {"runtimenumbanks", flag::runtime_num_banks},
        {"tensor_shape", flag::runtime_tensor_shape},
        {"tensor", flag::runtime_tensor_shape},
        {"runtimetensorshape", flag::runtime_tensor_shape},
        {"shard_shape", flag::runtime_shard_shape},
        {"shard", flag::runtime_shard_shape},
        {"runtimeshardshape", flag::runtime_shard_shape},
        {"bank_coords", flag::runtime_bank_coords},
        {"coords", flag::runtime_bank_coords},
        {"runtimebankcoords", flag::runtime_bank_coords},
    };
    std::uint32_t flags = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find_first_of(",|", start), text.size());
        std::string_view item = text.substr(start, end - start);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        const auto it = names.find(lower(item));
        if (it == names.end())
            throw usage_error(std::string(what) + " " + quote_value(text) + ": unknown part " + quote_value(item) +
                              " (parts: rank, num_banks, tensor_shape, shard_shape, bank_coords, all, none)");
        flags |= it->second;
        start = end + 1;
    }
    if (!tt::is_valid_runtime_mix(flags))
        throw usage_error(std::string(what) + " " + quote_value(text) +
                          ": tt-metal needs runtime tensor_shape and shard_shape with a runtime rank, and runtime "
                          "bank_coords with runtime num_banks");
    return flags;
}

unsigned parse_tt_layout(std::string_view text, std::string_view what) {
    if (text == "1") return tt::layout_without_page_size;
    if (text == "2") return tt::layout_with_page_size;
    throw usage_error(std::string(what) + " " + quote_value(text) +
                      ": expected 2 (tt-metal today: the aligned page size is compile-time word 1, the default) or "
                      "1 (tt-metal's older words, without it)");
}

std::vector<std::uint32_t> parse_tt_words(std::string_view text, std::string_view what) {
    std::vector<std::uint32_t> words;
    std::string_view body = text;
    while (!body.empty() && body.front() == ' ') body.remove_prefix(1);
    while (!body.empty() && body.back() == ' ') body.remove_suffix(1);
    if (!body.empty() && body.front() == '[') {
        if (body.back() != ']') throw usage_error(std::string(what) + " " + quote_value(text) + ": '[' without ']'");
        body = body.substr(1, body.size() - 2);
    }
    std::size_t i = 0;
    while (i < body.size()) {
        if (body[i] == ',' || body[i] == ' ') {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < body.size() && body[end] != ',' && body[end] != ' ') ++end;
        const std::string_view token = body.substr(i, end - i);
        const bool hex = token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X');
        std::uint64_t v = 0;
        bool ok = !token.empty() && token.size() <= 10;  // 4294967295 and 0xffffffff are 10 characters
        for (std::size_t k = hex ? 2 : 0; ok && k < token.size(); ++k) {
            const char c = token[k];
            const int digit = c >= '0' && c <= '9'          ? c - '0'
                              : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
                              : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                            : -1;
            ok = digit >= 0;
            v = v * (hex ? 16 : 10) + static_cast<std::uint64_t>(digit < 0 ? 0 : digit);
        }
        if (!ok || v > 0xFFFF'FFFFULL)
            throw usage_error(std::string(what) + " word " + std::to_string(words.size()) + " " + quote_value(token) +
                              ": not a 32-bit word (decimal, or hex with 0x)");
        words.push_back(static_cast<std::uint32_t>(v));
        i = end;
    }
    return words;
}

std::string why_no_tt_words(const distribution& d, std::uint32_t config) {
    // tt-metal asserts that every dim is at least 1; ndshard allows an empty tensor.
    const page_layout& l = d.layout;
    for (std::size_t i = 0; i < l.tensor.rank(); ++i)
        if (l.tensor[i] == 0)
            return "tensor dim " + std::to_string(i) + " is 0 pages; tt-metal's accessor needs every dim >= 1";
    return tt::why_no_words(l, d.cores, config | flag::sharded);
}

tt_decoded decode_tt_words(const std::vector<std::uint32_t>& ct, const std::vector<std::uint32_t>& crta,
                           unsigned layout) {
    if (ct.empty()) throw usage_error("--ct: no words; word 0 must be the config word (ArgConfig flags)");
    // Where each compile-time part is: the library's reading of the list. The checks below
    // come in word order, so that a message names the first wrong word.
    const tt::cta_layout c = tt::read_cta(ct, ct.size(), 0, layout);
    const std::uint32_t config = c.config;
    const std::string hint = other_layout_hint(ct, layout);
    word_reader cw{"--ct", ct, config, hint}, rw{"--crta", crta, config, hint};
    tt_decoded t;
    t.config = config;
    t.layout = layout;
    if (c.error == tt::cta_error::config_bits)
        throw usage_error(cw.where(0) + " (config): bits " + hex(config & ~flag::known) +
                          " are not ArgConfig flags (bits 0..7)");
    if (!c.sharded)
        throw usage_error(cw.where(0) + " (config " + describe_tt_config(config) + "): not Sharded; an interleaved " +
                          "accessor's words are " +
                          (layout == tt::layout_with_page_size ? "[config] [aligned page size]" : "[config]") +
                          " in layout " + std::to_string(layout) +
                          ", with no shapes or banks to decode (its banks are the device's bank table)");
    if (c.error == tt::cta_error::mix)
        throw usage_error(cw.where(0) + " (config " + describe_tt_config(config) +
                          "): a runtime rank needs runtime tensor and shard shapes, runtime num_banks needs runtime "
                          "bank coords");
    if (layout == tt::layout_with_page_size) {
        cw.next = 1;
        const auto [i, size] = cw.take("the aligned page size");
        if (size == 0) throw usage_error(cw.where(i) + " (aligned page size): a page is at least 1 byte");
        t.aligned_page_size = size;
    }
    // A part's reader: the common runtime list, read in order, or the compile-time list at
    // the position read_cta gives.
    auto reader = [&](std::uint32_t runtime_flag, std::size_t cta_at) -> word_reader& {
        if (config & runtime_flag) return rw;
        cw.next = cta_at;
        return cw;
    };

    word_reader& rr = reader(flag::runtime_rank, c.rank_at);
    const auto rank_word = rr.take("the rank");
    const std::size_t ri = rank_word.first;
    const std::uint32_t rank = rank_word.second;
    if (rank < 1 || rank > max_rank)
        throw usage_error(rr.where(ri) + " (rank): must be 1.." + std::to_string(max_rank));
    word_reader& nr = reader(flag::runtime_num_banks, c.banks_at);
    const auto banks_taken = nr.take("the number of banks");
    const std::size_t ni = banks_taken.first;
    const std::uint32_t banks_word = banks_taken.second;
    t.contiguous = (banks_word & tt::contiguous_banks_bit) != 0;
    if (t.contiguous && (config & flag::runtime_num_banks))
        throw usage_error(nr.where(ni) +
                          " (num_banks): bit 31 (the contiguous_1d deal) in a runtime bank count; ndshard reads the "
                          "deal from a compile-time bank count only");
    const std::uint32_t banks = banks_word & ~tt::contiguous_banks_bit;
    if (banks < 1) throw usage_error(nr.where(ni) + " (num_banks): must be at least 1");
    if (banks > max_cores)
        throw usage_error(nr.where(ni) + " (num_banks): more than " + std::to_string(max_cores) + " banks");
    auto read_shape = [&](std::uint32_t runtime_flag, std::size_t cta_at, const char* name, shape& into) {
        word_reader& r = reader(runtime_flag, cta_at);
        for (std::uint32_t d = 0; d < rank; ++d) {
            auto [i, v] = r.take(std::string(name) + " dim " + std::to_string(d));
            if (v == 0)
                throw usage_error(r.where(i) + " (" + name + " dim " + std::to_string(d) +
                                  "): a dim must be at least 1 page");
            into.push_back(v);
        }
    };
    read_shape(flag::runtime_tensor_shape, c.tensor_at, "tensor shape", t.tensor);
    read_shape(flag::runtime_shard_shape, c.shard_at, "shard shape", t.shard);
    word_reader& br = reader(flag::runtime_bank_coords, c.coords_at);
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> seen;
    for (std::uint32_t b = 0; b < banks; b += 2) {
        const auto [i, w] =
            br.take("the coords of banks " + std::to_string(b) + ".." + std::to_string(std::min(b + 1, banks - 1)));
        for (std::uint32_t k = 0; k < 2; ++k) {
            const core_coord bank = tt::unpack_bank(br.words, i, k);
            if (b + k >= banks) {
                if (tt::pack_bank(bank) != 0)
                    throw usage_error(br.where(i) + " (coords): the high half " + hex(tt::pack_bank(bank)) +
                                      " names bank " + std::to_string(b + k) + ", but there are " +
                                      std::to_string(banks) + "; it must be 0");
                continue;
            }
            if (bank.x >= tt_coord_limit || bank.y >= tt_coord_limit)
                throw usage_error(br.where(i) + " (coords): bank " + std::to_string(b + k) + " at " + to_string(bank) +
                                  " is off the NoC: a coordinate is a 6-bit node id, at most 63");
            const auto [it, fresh] = seen.emplace(std::make_pair(bank.x, bank.y), b + k);
            if (!fresh)
                throw usage_error(br.where(i) + " (coords): bank " + std::to_string(b + k) + " at " + to_string(bank) +
                                  " is also bank " + std::to_string(it->second));
            t.banks.push_back(bank);
        }
    }
    // read_cta's end of the compile-time list; the runtime list ends where its reader stopped.
    cw.expect_end(c.end, rank, banks);
    rw.expect_end(rw.next, rank, banks);
    return t;
}

distribution_spec spec_of_tt(const tt_decoded& t, std::uint64_t page_size, std::uint64_t bank_base) {
    distribution_spec s;
    s.tensor = t.tensor;
    s.shard = t.shard;
    s.page.kind = page_kind::pages;
    s.element_size = page_size;
    s.bank_base = bank_base;
    s.strat = t.contiguous ? strategy::contiguous_1d : strategy::round_robin_1d;
    s.orient = orientation::row_major;
    // A run of banks stepping along x in one row is one range: row-major walks it in the
    // same order, and the spec stays short.
    for (const core_coord& c : t.banks) {
        if (!s.cores.empty()) {
            core_range& last = s.cores.back();
            if (last.start.y == c.y && last.end.y == c.y && last.end.x + 1 == c.x) {
                last.end.x = c.x;
                continue;
            }
        }
        s.cores.push_back({c, c});
    }
    return s;
}

const tt_arch_info& arch_info(tt_arch a) {
    // NOC_ADDR_LOCAL_BITS / NOC_ADDR_NODE_ID_BITS from tt-metal's noc_parameters.h of each
    // arch (tt_metal/hw/inc/internal/tt-1xx/{wormhole,blackhole}/noc/noc_parameters.h:
    // 36 and 6; Grayskull's was 32 and 6), and MEM_L1_SIZE from its dev_mem_map.h:
    // Grayskull 1024 KiB, Wormhole (1464 * 1024) = 1,499,136 bytes, Blackhole
    // (1536 * 1024) = 1,572,864 bytes.
    static constexpr tt_arch_info infos[] = {
        {"grayskull", 32, 6, 1024ULL * 1024},
        {"wormhole_b0", 36, 6, 1464ULL * 1024},
        {"blackhole", 36, 6, 1536ULL * 1024},
    };
    return infos[static_cast<std::size_t>(a)];
}

tt_arch parse_tt_arch(std::string_view text, std::string_view what) {
    const std::string t = lower(text);
    if (t == "grayskull") return tt_arch::grayskull;
    if (t == "wormhole_b0" || t == "wormhole") return tt_arch::wormhole_b0;
    if (t == "blackhole") return tt_arch::blackhole;
    throw usage_error(std::string(what) + " " + quote_value(text) + ": expected wormhole_b0, blackhole or grayskull");
}

std::uint64_t tt_noc_xy_addr(tt_arch a, std::uint32_t x, std::uint32_t y, std::uint32_t address) {
    const tt_arch_info& info = arch_info(a);
    const std::uint64_t id_limit = 1ULL << info.id_bits;
    if (x >= id_limit || y >= id_limit)
        throw usage_error(std::string(info.name) + ": core (" + std::to_string(x) + "," + std::to_string(y) +
                          ") does not fit the " + std::to_string(info.id_bits) + "-bit NoC node id");
    if (std::uint64_t{address} >> info.local_bits)
        throw usage_error(std::string(info.name) + ": address " + hex64(address) + " does not fit the " +
                          std::to_string(info.local_bits) + " local address bits");
    // The formula is the library's (noc_addr::encoded); only the range checks are the CLI's.
    return noc_addr{x, y, address}.encoded({info.local_bits, info.id_bits});
}

int run_tt_convert(const tt_convert& c, const distribution_spec& spec, std::ostream& out, std::ostream& err) {
    if (c.from_words) {
        const tt_decoded t = decode_tt_words(c.ct, c.crta, c.layout);
        std::uint64_t page_size = c.page_size.value_or(1);
        if (c.layout == tt::layout_with_page_size) {
            if (c.page_size && *c.page_size != t.aligned_page_size)
                throw usage_error("--page-size " + std::to_string(*c.page_size) +
                                  " disagrees with --ct word 1 = " + std::to_string(t.aligned_page_size) +
                                  " (aligned page size): in layout 2 the words carry the page size, so --page-size "
                                  "must equal it or be left out");
            page_size = t.aligned_page_size;
        }
        const distribution_spec s = spec_of_tt(t, page_size, c.bank_base);
        (void)make_distribution(s);  // e.g. a tensor past 2^32 pages: refused with the rule
        out << spec_to_json(s) << "\n";
        return 0;
    }
    const distribution d = make_distribution(spec);
    const std::uint32_t config = flag::sharded | (c.flags & (flag::is_dram | flag::runtime_all));
    if (const std::string why = why_no_tt_words(d, config); !why.empty()) {
        err << "ndshard convert: no tt-metal accessor words for this spec: " << why << "\n";
        return 1;
    }
    const tt::tt_words w = tt::make_tt_words(d, config, c.layout);
    nlohmann::ordered_json j;
    j["config"] = w.compile_time[0];
    j["flags"] = describe_tt_config(w.compile_time[0]);
    j["layout"] = c.layout;
    j["compile_time"] = w.compile_time;
    j["common_runtime"] = w.common_runtime;
    if (c.arch) {
        j["arch"] = arch_info(*c.arch).name;
        // A DRAM bank's NoC address comes from the device's bank table, not from its
        // coordinate word, so only L1 banks get one here.
        if (!(config & flag::is_dram)) {
            nlohmann::ordered_json banks = nlohmann::ordered_json::array();
            for (std::size_t b = 0; b < d.cores.size(); ++b)
                banks.push_back(
                    {{"bank", b},
                     {"x", d.cores[b].x},
                     {"y", d.cores[b].y},
                     {"noc_addr", hex64(tt_noc_xy_addr(*c.arch, d.cores[b].x, d.cores[b].y, d.bank_base))}});
            j["banks"] = banks;
        }
    }
    out << j.dump() << "\n";
    return 0;
}

}  // namespace ndshard::cli
