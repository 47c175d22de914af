// The checks of props/tt_accessor_check.hpp: what the oracle says, and the comparison of
// every TensorAccessor entry point with it. Compiled once per executable; it includes no
// tt-metal header, so it does not depend on the executable's compile-time words.
#include "tt_accessor_check.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "ndshard/testkit/coords.hpp"
#include "ndshard/specio/text.hpp"
#include "ndshard/testkit/entropy.hpp"

namespace ndshard::props::tt {

using oracle::big;
using testkit::to_u64;

namespace {

std::string show(core_coord c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }
using specio::hex;
std::string show(const std::vector<page_seen>& w) {
    std::string out = "[";
    for (std::size_t i = 0; i < w.size() && i < 12; ++i)
        out += (i ? ", " : "") + std::to_string(w[i].id) + "@" + hex(w[i].noc);
    if (w.size() > 12) out += ", ... (" + std::to_string(w.size()) + " pages)";
    return out + "]";
}

std::vector<std::uint32_t> row_major_strides(const std::vector<big>& extents, bool zero_as_one) {
    std::vector<std::uint32_t> s(extents.size(), 1);
    std::uint64_t stride = 1;
    for (std::size_t d = extents.size(); d-- > 0;) {
        s[d] = static_cast<std::uint32_t>(stride);
        const std::uint64_t e = to_u64(extents[d]);
        stride *= (e == 0 && zero_as_one) ? 1 : e;
    }
    return s;
}

coord8 digits(std::uint64_t id, const std::vector<big>& extents) {
    const std::vector<std::uint64_t> d = testkit::row_major_coord(id, extents);
    coord8 c{};
    for (std::size_t i = 0; i < d.size(); ++i) c[i] = static_cast<std::uint32_t>(d[i]);
    return c;
}

// Sets the core the locality questions are asked on.
void be_on(core_coord me) {
    testkit::tt_host.x = static_cast<std::uint8_t>(me.x);
    testkit::tt_host.y = static_cast<std::uint8_t>(me.y);
}

class checker {
public:
    checker(const tt_probe& a, const tt_case& c) : a_(a), c_(c), m_(*c.model), banks_(c.banks) {
        n_ = to_u64(m_.num_pages);
        shards_ = to_u64(m_.num_shards);
        volume_ = to_u64(m_.shard_volume);
        page_size_ = to_u64(m_.aligned_page_size);
        if (c.exhaustive) {
            for (std::uint64_t p = 0; p < n_; ++p) pages_.push_back(oracle_place(m_, p));
            for (std::uint64_t s = 0; s < shards_; ++s) shard_ids_.push_back(s);
        } else {
            for (std::uint64_t p : c.pages) pages_.push_back(oracle_place(m_, p));
            shard_ids_ = c.shards;
        }
        // Each shard's home; of a small spec also every slot (the oracle asked once).
        for (std::uint64_t s : shard_ids_) home(s);
        if (c.exhaustive)
            for (std::uint64_t s = 0; s < shards_; ++s) {
                const shard_home_of& h = home(s);
                slots_.push_back({});
                for (std::uint64_t o = 0; o < volume_; ++o) {
                    const auto page = oracle::page_at(m_, big(h.bank), big(h.first + o));
                    slots_.back().push_back(page ? std::optional<page_seen>(slot_seen(h, o, to_u64(*page)))
                                                 : std::nullopt);
                }
            }
    }

    void run() {
        sizes();
        by_page();
        by_shard();
        locality();
        if (c_.exhaustive) {
            runs();
            whole_walks();
        } else {
            sampled_walks();
        }
    }

private:
    [[noreturn]] void fail(const std::string& what, const std::string& got, const std::string& want) const {
        throw mismatch(c_.label + ": " + what + " -> " + got + "; the oracle says " + want);
    }
    template <class T>
    void expect(const std::string& what, const T& got, const T& want) const {
        if (!(got == want)) fail(what, std::to_string(got), std::to_string(want));
    }
    void expect_walk(const std::string& what, const std::vector<page_seen>& got,
                     const std::vector<page_seen>& want) const {
        if (got != want) fail(what, show(got), show(want));
    }

    struct shard_home_of {
        std::uint64_t bank, first;  // the shard's bank and the device offset of its first slot
    };
    // The oracle's home of shard s (asked once).
    const shard_home_of& home(std::uint64_t s) const {
        auto it = homes_.find(s);
        if (it == homes_.end()) {
            const oracle::shard_home h = oracle::shard_location(m_, big(s));
            it = homes_.emplace(s, shard_home_of{to_u64(h.core_index), to_u64(h.device_offset)}).first;
        }
        return it->second;
    }
    page_seen slot_seen(const shard_home_of& h, std::uint64_t o, std::uint64_t page) const {
        const std::uint64_t address = to_u64(m_.bank_base + big(h.first + o) * m_.aligned_page_size);
        return {static_cast<std::uint32_t>(page), banks_.noc(h.bank, address)};
    }
    // The real pages of shard s whose slot is in [from, to), in slot order; at most `most`
    // of them, and at most `scan` slots looked at (the oracle's page_at for each).
    std::vector<page_seen> shard_walk(std::uint64_t s, std::uint64_t from, std::uint64_t to,
                                      std::size_t most = ~std::size_t{0},
                                      std::uint64_t scan = ~std::uint64_t{0}) const {
        std::vector<page_seen> out;
        to = std::min(to, volume_);
        if (c_.exhaustive) {
            for (std::uint64_t o = from; o < to && out.size() < most; ++o)
                if (slots_[s][o]) out.push_back(*slots_[s][o]);
            return out;
        }
        const shard_home_of& h = home(s);
        for (std::uint64_t o = from; o < to && out.size() < most && o - from < scan; ++o)
            if (const auto page = oracle::page_at(m_, big(h.bank), big(h.first + o)))
                out.push_back(slot_seen(h, o, to_u64(*page)));
        return out;
    }

    std::uint64_t noc_of(const oracle_page& p, std::uint64_t byte) const {
        return banks_.noc(p.bank, p.address + byte);
    }
    page_seen seen(const oracle_page& p) const { return {static_cast<std::uint32_t>(p.id), noc_of(p, 0)}; }
    // A byte inside the page: its first, its last, or one between.
    std::uint32_t byte_in_page(std::uint64_t id) const {
        switch (id % 3) {
            case 0:
                return 0;
            case 1:
                return static_cast<std::uint32_t>(page_size_ - 1);
            default:
                return static_cast<std::uint32_t>((id * 7919) % page_size_);
        }
    }

    void sizes() const {
        expect("get_aligned_page_size()", a_.aligned_page_size(), static_cast<std::uint32_t>(page_size_));
        expect("get_bank_base_address()", a_.bank_base(), c_.bank_base);
        const tt_probe::dims d = a_.dspec();
        expect("dspec().rank()", d.rank, static_cast<std::uint32_t>(m_.folded_tensor.size()));
        expect("dspec().num_banks()", d.num_banks, static_cast<std::uint32_t>(banks_.word_coords.size()));
        expect("dspec().tensor_volume()", d.tensor_volume, static_cast<std::uint32_t>(n_));
        expect("dspec().shard_volume()", d.shard_volume, static_cast<std::uint32_t>(volume_));
        auto as_u32 = [](const std::vector<big>& v) {
            std::vector<std::uint32_t> out;
            for (const big& x : v) out.push_back(static_cast<std::uint32_t>(to_u64(x)));
            return out;
        };
        auto expect_list = [&](const std::string& what, const std::vector<std::uint32_t>& got,
                               const std::vector<std::uint32_t>& want) {
            if (got != want) {
                std::string g, w;
                for (auto x : got) g += std::to_string(x) + " ";
                for (auto x : want) w += std::to_string(x) + " ";
                fail(what, g, w);
            }
        };
        expect_list("dspec().tensor_shape()", d.tensor, as_u32(m_.folded_tensor));
        expect_list("dspec().shard_shape()", d.shard, as_u32(m_.shard_pages));
        expect_list("dspec().shard_grid()", d.grid, as_u32(m_.grid));
        // Empty dims count as 1 in strides (docs/semantics.md, 32-bit limits); an empty
        // tensor dim empties the grid's, which then places no shard either way.
        expect_list("dspec().tensor_strides()", d.tensor_strides, row_major_strides(m_.folded_tensor, true));
        expect_list("dspec().shard_strides()", d.shard_strides, row_major_strides(m_.shard_pages, false));
        expect_list("dspec().shard_grid_strides()", d.grid_strides, row_major_strides(m_.grid, true));
        std::vector<std::uint32_t> packed;
        for (core_coord c : banks_.word_coords) packed.push_back((c.x << 8) | c.y);
        expect_list("dspec().packed_xy_coords()", d.packed_xy, packed);
    }

    void by_page() const {
        for (const oracle_page& p : pages_) {
            const auto id = static_cast<std::uint32_t>(p.id);
            const std::string at = "page " + std::to_string(p.id);
            const tt_probe::mapping m = a_.bank_and_offset(id);
            if (m.bank != p.bank || m.offset != p.offset)
                fail("get_bank_and_offset(" + at + ")",
                     "{" + std::to_string(m.bank) + ", " + std::to_string(m.offset) + "}",
                     "{" + std::to_string(p.bank) + ", " + std::to_string(p.offset) + "}");
            const tt_probe::mapping mc = a_.bank_and_offset_at(p.coord);
            if (mc.bank != p.bank || mc.offset != p.offset)
                fail("get_bank_and_offset(coordinate of " + at + ")",
                     "{" + std::to_string(mc.bank) + ", " + std::to_string(mc.offset) + "}",
                     "{" + std::to_string(p.bank) + ", " + std::to_string(p.offset) + "}");
            const std::uint32_t byte = byte_in_page(p.id);
            const std::uint64_t want = noc_of(p, byte);
            if (const std::uint64_t got = a_.noc(id, byte); got != want)
                fail("get_noc_addr(" + at + ", " + std::to_string(byte) + ")", hex(got), hex(want));
            if (const std::uint64_t got = a_.noc_at(p.coord, byte); got != want)
                fail("get_noc_addr(coordinate of " + at + ", " + std::to_string(byte) + ")", hex(got), hex(want));
        }
    }

    void by_shard() const {
        for (std::uint64_t s : shard_ids_) {
            const coord8 coord = digits(s, m_.grid);
            const std::vector<big> grid_coord(coord.begin(), coord.begin() + static_cast<long>(m_.grid.size()));
            const oracle::shard_home h = oracle::shard_location(m_, grid_coord);
            // A byte some pages into the slot: the shard's own address plus an offset.
            const std::uint64_t k = volume_ == 0 ? 0 : s % volume_;
            const auto byte = static_cast<std::uint32_t>(k * page_size_ + s % page_size_);
            const std::uint64_t want = banks_.noc(to_u64(h.core_index), to_u64(h.byte_address) + byte);
            const std::string at = "shard " + std::to_string(s) + ", " + std::to_string(byte);
            if (const std::uint64_t got = a_.shard_noc(static_cast<std::uint32_t>(s), byte); got != want)
                fail("get_shard_noc_addr(" + at + ")", hex(got), hex(want));
            if (const std::uint64_t got = a_.shard_noc_at(coord, byte); got != want)
                fail("get_shard_noc_addr(coordinate of " + at + ")", hex(got), hex(want));
        }
    }

    void locality() const {
        // Each bank's own coordinate (a few), the cores the test names, and one no bank has.
        std::vector<core_coord> cores = c_.cores_asked;
        const std::size_t banks = banks_.word_coords.size();
        for (std::size_t b = 0; b < banks; b += std::max<std::size_t>(1, banks / 4))
            cores.push_back(banks_.word_coords[b]);
        if (banks > 0) cores.push_back(banks_.word_coords[banks - 1]);
        for (std::size_t b = 0; b < banks_.dram_endpoints.size() && b < 3; ++b)
            cores.push_back(banks_.dram_endpoints[b]);
        cores.push_back({255, 255});
        const std::size_t most = c_.exhaustive ? 1024 : pages_.size();
        for (core_coord me : cores) {
            if (me.x > 255 || me.y > 255) continue;  // my_x / my_y are 8 bits
            be_on(me);
            const std::string on = " on core " + show(me);
            if (!a_.local_bank(me.x, me.y)) fail("is_local_bank" + show(me) + on, "false", "true");
            if (a_.local_bank(me.x ^ 1U, me.y)) fail("is_local_bank(another x)" + on, "true", "false");
            for (std::size_t i = 0; i < pages_.size() && i < most; ++i) {
                const oracle_page& p = pages_[i];
                const auto id = static_cast<std::uint32_t>(p.id);
                const bool own = banks_.word_coords[p.bank] == me;
                if (a_.local_page(id) != own)
                    fail("is_local_page(" + std::to_string(p.id) + ")" + on, own ? "false" : "true",
                         own ? "true" : "false");
                // is_local_addr reads the unicast address's 6-bit node id: only such nodes.
                const core_coord node = banks_.noc_node(p.bank);
                if (fits_noc_node_id(node) && fits_noc_node_id(me)) {
                    const bool there = node == me;
                    if (a_.local_addr(a_.noc(id, 0)) != there)
                        fail("is_local_addr(get_noc_addr(" + std::to_string(p.id) + "))" + on, there ? "false" : "true",
                             there ? "true" : "false");
                }
            }
            std::size_t asked = 0;
            for (std::uint64_t s : shard_ids_) {
                if (++asked > most) break;
                const std::uint64_t bank = home(s).bank;
                const bool own = banks_.word_coords[bank] == me;
                if (a_.local_shard(static_cast<std::uint32_t>(s)) != own)
                    fail("is_local_shard(" + std::to_string(s) + ")" + on, own ? "false" : "true",
                         own ? "true" : "false");
            }
        }
    }

    // num_contiguous_pages(p): the longest run of pages p, p+1, ... at consecutive offsets of p's bank.
    void runs() const {
        for (std::size_t p = 0; p < pages_.size(); ++p) {
            std::uint64_t run = 1;
            while (p + run < pages_.size() && pages_[p + run].bank == pages_[p].bank &&
                   pages_[p + run].offset == pages_[p].offset + run)
                ++run;
            expect("num_contiguous_pages(" + std::to_string(p) + ")",
                   std::uint64_t{a_.contiguous(static_cast<std::uint32_t>(p))}, run);
        }
    }

    void whole_walks() const {
        std::vector<page_seen> every;
        for (const oracle_page& p : pages_) every.push_back(seen(p));
        const std::size_t cap = every.size() + 8;
        expect_walk("pages()", a_.all_pages(cap), every);
        expect_walk("pages(0, 0)", a_.pages(0, 0, cap), every);
        const auto n = static_cast<std::uint32_t>(n_);
        const std::pair<std::uint32_t, std::uint32_t> windows[] = {
            {0, n}, {1, n}, {n / 2, std::min(n, n / 2 + 3)}, {n > 0 ? n - 1 : 0, n}, {n, n}, {3, 2}, {n / 3, n / 2}};
        for (auto [start, end] : windows) {
            if (end == 0) continue;  // end 0 means every page, asked above
            std::vector<page_seen> want;
            for (std::uint32_t p = start; p < end; ++p) want.push_back(every[p]);
            expect_walk("pages(" + std::to_string(start) + ", " + std::to_string(end) + ")", a_.pages(start, end, cap),
                        want);
        }
        // A small tensor from every start, four pages on: the iterator is placed by the
        // start's digits, mid-run and at every carry.
        for (std::uint32_t start = 2; n <= 64 && start < n; ++start) {
            const std::uint32_t end = std::min(n, start + 4);
            const std::vector<page_seen> want(every.begin() + start, every.begin() + end);
            expect_walk("pages(" + std::to_string(start) + ", " + std::to_string(end) + ")", a_.pages(start, end, cap),
                        want);
        }

        std::vector<std::vector<page_seen>> by_shard;
        for (std::uint64_t s = 0; s < shards_; ++s) {
            by_shard.push_back(shard_walk(s, 0, volume_));
            const std::string name = "shard_pages(" + std::to_string(s);
            expect_walk(name + ")", a_.shard_pages(static_cast<std::uint32_t>(s), 0, 0, volume_ + 8), by_shard.back());
            const auto v = static_cast<std::uint32_t>(volume_);
            const std::pair<std::uint32_t, std::uint32_t> ranges[] = {
                {0, v}, {1, v}, {v / 2, std::min(v, v / 2 + 2)}, {v - 1, v}, {0, 1}, {2, 1}, {v / 3, (2 * v) / 3}};
            for (auto [start, end] : ranges) {
                if (end == 0) continue;
                expect_walk(name + ", " + std::to_string(start) + ", " + std::to_string(end) + ")",
                            a_.shard_pages(static_cast<std::uint32_t>(s), start, end, volume_ + 8),
                            shard_walk(s, start, std::max(start, end)));
            }
            // A small shard from every start: the iterator is placed by the start's digits,
            // so each start in an edge shard's padding must carry to the next real page.
            for (std::uint32_t start = 2; volume_ <= 64 && start < v; ++start)
                expect_walk(name + ", " + std::to_string(start) + ", " + std::to_string(v) + ")",
                            a_.shard_pages(static_cast<std::uint32_t>(s), start, v, volume_ + 8),
                            shard_walk(s, start, v));
        }

        for (std::uint32_t k : c_.thread_counts) {
            std::vector<int> visited(every.size(), 0);
            for (std::uint32_t t = 0; t < k; ++t) {
                std::vector<page_seen> want;
                for (std::uint64_t p = t; p < n_; p += k) want.push_back(every[p]);
                const std::vector<page_seen> got = a_.strided(t, k, cap);
                expect_walk("strided_pages(" + std::to_string(t) + ", " + std::to_string(k) + ")", got, want);
                for (const page_seen& g : got) ++visited[g.id];
                // The shards of thread t: t, t + k, ... below vol(G), every one of the grid.
                std::vector<std::vector<page_seen>> shards_want;
                for (std::uint64_t s = t; s < shards_; s += k) shards_want.push_back(by_shard[s]);
                const auto shards_got = a_.strided_shards(t, k, shards_ + 2, volume_ + 8);
                const std::string name = "strided_shard_pages(" + std::to_string(t) + ", " + std::to_string(k) + ")";
                expect(name + ": shards yielded", shards_got.size(), shards_want.size());
                for (std::size_t j = 0; j < shards_want.size(); ++j)
                    expect_walk(name + ", shard " + std::to_string(t + j * k), shards_got[j], shards_want[j]);
            }
            if (!std::all_of(visited.begin(), visited.end(), [](int v) { return v == 1; }))
                fail("strided_pages(t, " + std::to_string(k) + ") for every t", "not every page once",
                     "every page exactly once");
        }
        // The platform's data-movement thread: strided_pages() and strided_shard_pages().
        for (auto [t, k] : {std::pair<std::uint32_t, std::uint32_t>{0, 1}, {1, 2}, {2, 3}}) {
            testkit::tt_host.thread = t;
            testkit::tt_host.threads = k;
            const std::string on = " on thread " + std::to_string(t) + " of " + std::to_string(k);
            expect_walk("strided_pages()" + on, a_.strided_here(cap), a_.strided(t, k, cap));
            const auto here = a_.strided_shards_here(shards_ + 2, volume_ + 8);
            const auto there = a_.strided_shards(t, k, shards_ + 2, volume_ + 8);
            expect("strided_shard_pages()" + on + ": shards yielded", here.size(), there.size());
            for (std::size_t j = 0; j < here.size(); ++j)
                expect_walk("strided_shard_pages()" + on + ", shard " + std::to_string(j), here[j], there[j]);
        }
        testkit::tt_host.thread = 0;
        testkit::tt_host.threads = 1;
    }

    // Large buffers: windows of the walks and their first pages.
    void sampled_walks() const {
        constexpr std::size_t window = 8;
        // pages(start, end) places ndshard's page iterator at `start` by its digits, so a
        // window anywhere in the tensor costs the same.
        for (const oracle_page& p : pages_) {
            const auto start = static_cast<std::uint32_t>(p.id);
            const auto end = static_cast<std::uint32_t>(std::min<std::uint64_t>(n_, p.id + window));
            std::vector<page_seen> want;
            for (std::uint64_t q = start; q < end; ++q) want.push_back(seen(oracle_place(m_, q)));
            expect_walk("pages(" + std::to_string(start) + ", " + std::to_string(end) + ")",
                        a_.pages(start, end, window + 2), want);
        }
        if (n_ > 0) {
            std::vector<page_seen> first;
            for (std::uint64_t q = 0; q < std::min<std::uint64_t>(n_, window); ++q)
                first.push_back(seen(oracle_place(m_, q)));
            expect_walk("pages() (first pages)", a_.all_pages(first.size()), first);
        }
        for (std::uint64_t s : shard_ids_) {
            const auto v = static_cast<std::uint32_t>(volume_);
            for (std::uint32_t start : {0U, v / 2, v > window ? v - static_cast<std::uint32_t>(window) : 0U}) {
                const std::uint32_t end = std::min<std::uint32_t>(v, start + window);
                expect_walk("shard_pages(" + std::to_string(s) + ", " + std::to_string(start) + ", " +
                                std::to_string(end) + ")",
                            a_.shard_pages(static_cast<std::uint32_t>(s), start, end, window + 2),
                            shard_walk(s, start, end));
            }
        }
        for (std::uint32_t k : c_.thread_counts)
            for (std::uint32_t t = 0; t < k; ++t) {
                std::vector<page_seen> want;
                for (std::uint64_t q = t; q < n_ && want.size() < window; q += k)
                    want.push_back(seen(oracle_place(m_, q)));
                expect_walk("strided_pages(" + std::to_string(t) + ", " + std::to_string(k) + ") (first pages)",
                            a_.strided(t, k, want.size()), want);
                // The first two shards of thread t, each by its first slots (a shard of
                // 2^20 slots is not walked whole).
                const auto got = a_.strided_shards(t, k, 2, window);
                const std::size_t expected_count =
                    std::min<std::uint64_t>(2, t < shards_ ? (shards_ - t + k - 1) / k : 0);
                expect("strided_shard_pages(" + std::to_string(t) + ", " + std::to_string(k) + "): shards yielded",
                       got.size(), expected_count);
                for (std::size_t j = 0; j < got.size(); ++j) {
                    // The first pages among the shard's first 256 slots (its only ones when the
                    // shard is smaller): the walk must begin with them.
                    constexpr std::uint64_t scan = 256;
                    const std::vector<page_seen> want_shard = shard_walk(t + j * k, 0, volume_, window, scan);
                    const bool complete = want_shard.size() == window || volume_ <= scan;
                    std::vector<page_seen> prefix = got[j];
                    if (!complete && prefix.size() > want_shard.size()) prefix.resize(want_shard.size());
                    expect_walk("strided_shard_pages(" + std::to_string(t) + ", " + std::to_string(k) + "), shard " +
                                    std::to_string(t + j * k) + " (first pages)",
                                prefix, want_shard);
                }
            }
    }

    const tt_probe& a_;
    const tt_case& c_;
    const oracle::model& m_;
    const bank_setup& banks_;
    std::uint64_t n_ = 0, shards_ = 0, volume_ = 0, page_size_ = 1;
    std::vector<oracle_page> pages_;
    std::vector<std::uint64_t> shard_ids_;
    mutable std::map<std::uint64_t, shard_home_of> homes_;
    std::vector<std::vector<std::optional<page_seen>>> slots_;  // small specs: every shard's slots
};

}  // namespace

bank_setup l1_banks(const oracle::model& m) {
    bank_setup b;
    b.word_coords = testkit::core_coords(m);
    return b;
}

bank_setup dram_banks(std::size_t count, std::vector<core_coord> endpoints, std::vector<std::uint32_t> offsets) {
    bank_setup b;
    b.dram = true;
    for (std::size_t i = 0; i < count; ++i) b.word_coords.push_back({static_cast<std::uint32_t>(i), 0});
    b.dram_endpoints = std::move(endpoints);
    b.dram_offsets = std::move(offsets);
    return b;
}

oracle_page oracle_place(const oracle::model& m, std::uint64_t page) {
    const oracle::location l = oracle::locate(m, big(page));
    return {page, to_u64(l.core_index), to_u64(l.device_offset), to_u64(l.byte_address), digits(page, m.folded_tensor)};
}

bool can_check_exhaustively(const oracle::model& m) {
    return m.num_pages <= exhaustive_limit && m.num_shards <= exhaustive_limit &&
           m.num_shards * m.shard_volume <= 4 * exhaustive_limit;
}

void sample(tt_case& c, std::uint64_t seed) {
    const oracle::model& m = *c.model;
    testkit::random_entropy e(seed);
    const std::uint64_t n = to_u64(m.num_pages), shards = to_u64(m.num_shards);
    c.exhaustive = false;
    c.pages.clear();
    c.shards.clear();
    if (n > 0) {
        c.pages = {0, n - 1, n / 2};
        // The first page of the last shard along each dim (uneven edges).
        std::uint64_t stride = 1;
        for (std::size_t d = m.folded_tensor.size(); d-- > 0;) {
            const std::uint64_t t = to_u64(m.folded_tensor[d]), s = to_u64(m.shard_pages[d]);
            if (t > s) c.pages.push_back((t - 1) / s * s * stride);
            stride *= std::max<std::uint64_t>(t, 1);
        }
        for (int i = 0; i < 24; ++i) c.pages.push_back(e.between(0, n - 1));
    }
    if (shards > 0) {
        c.shards = {0, shards - 1, shards / 2};
        for (int i = 0; i < 12; ++i) c.shards.push_back(e.between(0, shards - 1));
    }
}

checked_counts& checked() {
    static checked_counts counts;
    return counts;
}

void check_sharded(const tt_probe& a, const tt_case& c) {
    checker(a, c).run();
    checked_counts& n = checked();
    ++n.accessors;
    n.pages += c.exhaustive ? to_u64(c.model->num_pages) : c.pages.size();
    n.shards += c.exhaustive ? to_u64(c.model->num_shards) : c.shards.size();
}

void check_interleaved(const interleaved_probe& a, const interleaved_case& c) {
    auto fail = [&](const std::string& what, std::uint64_t got, std::uint64_t want) {
        throw mismatch(c.label + ": " + what + " -> " + hex(got) + "; the oracle says " + hex(want));
    };
    if (a.aligned_page_size() != c.page_size) fail("get_aligned_page_size()", a.aligned_page_size(), c.page_size);
    if (a.bank_base() != c.bank_base) fail("get_bank_base_address()", a.bank_base(), c.bank_base);
    std::vector<page_seen> every;
    for (std::uint32_t p = 0; p < c.num_pages; ++p) {
        const oracle::bank_offset bo = oracle::interleaved(big(p), big(c.banks));
        const std::uint64_t bank = to_u64(bo.bank), row = to_u64(bo.offset);
        const core_coord node = c.nodes.at(bank);
        const std::uint64_t address = c.bank_base + row * c.row_bytes + c.bank_offsets.at(bank);
        const auto byte = static_cast<std::uint32_t>(c.page_size == 0 ? 0 : (p * 7919U) % c.page_size);
        const std::uint64_t want = wormhole_noc(node.x, node.y, address + byte);
        if (const std::uint64_t got = a.noc(p, byte); got != want)
            fail("get_noc_addr(" + std::to_string(p) + ", " + std::to_string(byte) + ")", got, want);
        every.push_back({p, wormhole_noc(node.x, node.y, address)});
    }
    auto expect_walk = [&](const std::string& what, const std::vector<page_seen>& got,
                           const std::vector<page_seen>& want) {
        if (got != want) throw mismatch(c.label + ": " + what + " -> " + show(got) + "; the oracle says " + show(want));
    };
    const std::uint32_t n = c.num_pages;
    for (auto [start, end] : {std::pair<std::uint32_t, std::uint32_t>{0, n}, {1, n}, {n / 2, n}, {n, n}, {2, 1}}) {
        std::vector<page_seen> want;
        for (std::uint32_t p = start; p < end; ++p) want.push_back(every[p]);
        expect_walk("pages(" + std::to_string(start) + ", " + std::to_string(end) + ")", a.pages(start, end, n + 8),
                    want);
    }
    for (auto [t, k] : {std::pair<std::uint32_t, std::uint32_t>{0, 1}, {1, 2}, {2, 3}, {4, 5}}) {
        testkit::tt_host.thread = t;
        testkit::tt_host.threads = k;
        std::vector<page_seen> want;
        for (std::uint32_t p = t; p < n; p += k) want.push_back(every[p]);
        expect_walk(
            "strided_pages(" + std::to_string(n) + ") on thread " + std::to_string(t) + " of " + std::to_string(k),
            a.strided_here(n, n + 8), want);
    }
    testkit::tt_host.thread = 0;
    testkit::tt_host.threads = 1;
}

}  // namespace ndshard::props::tt
