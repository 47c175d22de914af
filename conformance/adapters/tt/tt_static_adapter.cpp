// ndsc_tt_static: tt-metal's accessor words with every part compile-time, read by the
// front end's compile-time decoding (ndshard/tt/words.hpp), behind the conformance C ABI.
//
// ndsc_create validates the spec with make_distribution, then writes tt-metal's words with
// every part in the compile-time list (ndshard::tt::make_tt_words, config Sharded and no
// Runtime bit): [config] [aligned page size] [rank] [bank count, bit 31 for contiguous_1d]
// [tensor] [shard] [bank coordinates two to a word]. It reads them back as a kernel's
// TensorAccessorArgs does, with the same constexpr functions, called here at run time:
// ndshard::tt::read_cta (where each part is, the page size word, the contiguous bit, the
// rank and bank count checks) and ndshard::tt::to_ndshard_words (the compile-time parts as
// ndshard's compile-time words, each 8-bit coordinate pair unpacked). Those decoded values -
// rank, bank count, shapes, deal, cores, page size - are encoded again as ndshard's
// all-runtime words (emit_accessor_words over make_page_layout of them), and every query is
// answered by the ndshard accessor built from those (with_runtime_accessor), as the
// reference adapter answers: get_noc_addr, get_noc_addr_at, get_shard_noc_addr,
// local_pages, contiguous_pages, pages(thread, threads).
//
// What this exercises of the compile-time path: the decoding of tt-metal's compile-time
// words, on every spec the laws generate. What it does not: TensorAccessorArgs' constants,
// the accessor instantiated on the decoded words (accessor<&words>: its compile-time
// geometry, reciprocals and coordinate table) and TensorAccessor over it - a spec known only
// at run time cannot instantiate a template; props/tt_accessor_fixed*.cpp checks those on
// fixed specs in all 15 mixes. Declared domain: every strategy (contiguous_1d travels as
// bit 31 of the compile-time bank count; grid_2d as round robin over its trimmed list),
// every page kind and rank, coordinates up to 255 (8 bits each in the words). A grid_2d spec
// with no shard has no bank, which tt-metal's words cannot say; it has no page either, and
// is answered from that.
#include <array>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <vector>

#include "adapter_support.hpp"
#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/conformance.h"
#include "ndshard/distribution.hpp"
#include "ndshard/tt/host_words.hpp"
#include "ndshard/tt/words.hpp"
#include "tt_adapter.hpp"

struct ndsc_handle {
    ndshard::distribution dist;              // the spec as validated: query arguments' ranges
    std::vector<ndshard::core_coord> banks;  // the bank coordinates decoded from the words
    ndshard::accessor_words words;           // ndshard's all-runtime words of the decoded values
    std::uint32_t page_size = 0;             // the aligned page size decoded from the words
};

namespace {

// to_ndshard_words<N> for a count known only at run time: the smallest of three capacities
// that holds it, on the heap (the largest, for 65536 banks, is 256 KiB).
template <std::size_t N>
std::vector<std::uint32_t> decode_into(const ndshard::tt::cta_layout& c, const std::vector<std::uint32_t>& w) {
    const std::unique_ptr<std::array<std::uint32_t, N>> out(
        new std::array<std::uint32_t, N>(ndshard::tt::to_ndshard_words<N>(c, w)));
    return {out->begin(), out->begin() + static_cast<std::ptrdiff_t>(ndshard::tt::ndshard_word_count(c))};
}

std::vector<std::uint32_t> decode(const ndshard::tt::cta_layout& c, const std::vector<std::uint32_t>& w) {
    constexpr std::size_t most = 3 + 2 * ndshard::max_rank + ndshard::max_cores;
    const std::size_t n = ndshard::tt::ndshard_word_count(c);
    if (n <= 64) return decode_into<64>(c, w);
    if (n <= 2048) return decode_into<2048>(c, w);
    if (n <= most) return decode_into<most>(c, w);
    throw std::length_error("more decoded words than 65536 banks take");
}

// The spec's words, every part compile-time, read back into the handle. False when the
// front end's reading refuses its own words.
bool read_back(ndsc_handle& h) {
    const ndshard::tt::tt_words w = ndshard::tt::make_tt_words(h.dist, 0);
    const ndshard::tt::cta_layout c = ndshard::tt::read_cta(w.compile_time, w.compile_time.size(), 0);
    if (c.error != ndshard::tt::cta_error::none || !w.common_runtime.empty() || c.end != w.compile_time.size())
        return false;
    const std::vector<std::uint32_t> d = decode(c, w.compile_time);
    // [config] [rank] [banks] [tensor] [shard] [coordinates (x << 16) | y], all compile-time.
    using namespace ndshard;
    if ((d[0] & arg::all_static) != arg::all_static) return false;
    const std::uint32_t rank = d[1], count = d[2];
    shape tensor, shard;
    for (std::uint32_t k = 0; k < rank; ++k) {
        tensor.push_back(d[3 + k]);
        shard.push_back(d[3 + rank + k]);
    }
    for (std::uint32_t b = 0; b < count; ++b) h.banks.push_back(unpack_core(d[3 + 2 * rank + b]));
    const deal_rule rule = (d[0] & arg::contiguous) != 0 ? deal_rule::contiguous : deal_rule::round_robin;
    emit_accessor_words(make_page_layout(tensor, shard, count, rule), h.banks, arg::all_runtime, h.words.compile_time,
                        h.words.runtime);
    h.page_size = c.aligned_page_size;
    return true;
}

template <class F>
int with_accessor(const ndsc_handle* h, F&& f) {
    try {
        return ndshard::with_runtime_accessor(h->words, static_cast<std::uint32_t>(h->dist.bank_base), h->page_size, f);
    } catch (const std::exception&) {
        return NDSC_UNSUPPORTED;  // the accessor refused the words: the laws report it
    }
}

int put(const ndshard::noc_addr& at, ndsc_location* out) {
    return ndsc_support::put_location(out, at.x, at.y, at.addr);
}

}  // namespace

extern "C" {

NDSC_EXPORT int ndsc_describe(ndsc_info* info) {
    return ndsc_tt::describe(info, "ndshard-tt-static",
                             (1u << NDSC_ROUND_ROBIN_1D) | (1u << NDSC_CONTIGUOUS_1D) | (1u << NDSC_GRID_2D));
}

NDSC_EXPORT int ndsc_create(const ndsc_spec* spec, ndsc_handle** out, char* reason, size_t reason_size) {
    if (out == nullptr || !ndsc_support::spec_in_abi_domain(spec)) return NDSC_UNSUPPORTED;
    return ndsc_support::create_or_reject(reason, reason_size, [&]() -> int {
        const ndshard::distribution_spec s = ndsc_support::to_spec(*spec);
        if (!ndsc_tt::coordinates_fit(s)) return NDSC_UNSUPPORTED;
        auto h = std::make_unique<ndsc_handle>();
        h->dist = ndshard::make_distribution(s);
        if (!h->dist.cores.empty() && !read_back(*h)) {
            ndsc_support::write_reason(reason, reason_size, "the front end refused its own compile-time words");
            return NDSC_UNSUPPORTED;
        }
        *out = h.release();
        return NDSC_OK;
    });
}

NDSC_EXPORT void ndsc_destroy(ndsc_handle* h) { delete h; }

NDSC_EXPORT int ndsc_locate_page(const ndsc_handle* h, uint64_t page_id, ndsc_location* out) {
    if (page_id >= h->dist.num_pages()) return NDSC_OUT_OF_RANGE;
    return with_accessor(
        h, [&](const auto& a) -> int { return put(a.get_noc_addr(static_cast<std::uint32_t>(page_id)), out); });
}

NDSC_EXPORT int ndsc_locate_coord(const ndsc_handle* h, const uint64_t* coord, uint32_t rank, ndsc_location* out) {
    std::uint32_t folded[NDSC_MAX_RANK] = {};
    if (!ndsc_tt::folded_coordinate(h->dist, coord, rank, folded) || h->dist.num_pages() == 0) return NDSC_OUT_OF_RANGE;
    return with_accessor(h, [&](const auto& a) -> int { return put(a.get_noc_addr_at(folded), out); });
}

NDSC_EXPORT int ndsc_locate_shard_page(const ndsc_handle* h, uint64_t shard_id, uint64_t page_in_shard,
                                       ndsc_location* out) {
    const ndshard::page_layout& l = h->dist.layout;
    if (shard_id >= l.num_shards || page_in_shard >= l.shard_volume) return NDSC_OUT_OF_RANGE;
    return with_accessor(h, [&](const auto& a) -> int {
        const auto byte = static_cast<std::uint32_t>(page_in_shard * h->page_size);
        return put(a.get_shard_noc_addr(static_cast<std::uint32_t>(shard_id), byte), out);
    });
}

NDSC_EXPORT int ndsc_core_pages(const ndsc_handle* h, uint32_t core_x, uint32_t core_y, uint64_t* pages,
                                uint64_t capacity, uint64_t* count) {
    std::vector<std::uint64_t> held;
    std::size_t bank = 0;
    while (bank < h->banks.size() && !(h->banks[bank].x == core_x && h->banks[bank].y == core_y)) ++bank;
    if (bank == h->banks.size()) {
        if (!ndsc_tt::trimmed_grid_core(h->dist.spec, core_x, core_y)) return NDSC_OUT_OF_RANGE;
        return ndsc_support::put_pages(held, pages, capacity, count);
    }
    const int status = with_accessor(h, [&](const auto& a) -> int {
        for (const ndshard::page_ref r : a.local_pages(static_cast<std::uint32_t>(bank))) held.push_back(r.page_id);
        return NDSC_OK;
    });
    if (status != NDSC_OK) return status;
    return ndsc_support::put_pages(held, pages, capacity, count);
}

NDSC_EXPORT int ndsc_page_run(const ndsc_handle* h, uint64_t page_id, uint64_t* length) {
    if (length == nullptr || page_id >= h->dist.num_pages()) return NDSC_OUT_OF_RANGE;
    return with_accessor(h, [&](const auto& a) -> int {
        *length = a.contiguous_pages(static_cast<std::uint32_t>(page_id));
        return NDSC_OK;
    });
}

NDSC_EXPORT int ndsc_thread_pages(const ndsc_handle* h, uint32_t thread, uint32_t threads, ndsc_page_location* pages,
                                  uint64_t capacity, uint64_t* count) {
    if (count == nullptr || threads == 0 || thread >= threads) return NDSC_OUT_OF_RANGE;
    return ndsc_support::put_page_locations(pages, capacity, count, [&](const auto& put) -> int {
        if (h->banks.empty()) return NDSC_OK;
        return with_accessor(h, [&](const auto& a) -> int {
            for (const ndshard::page_ref r : a.pages(thread, threads)) {
                const ndshard::noc_addr at = a.noc_address_of(r);
                put(ndsc_page_location{r.page_id, at.x, at.y, at.addr});
            }
            return NDSC_OK;
        });
    });
}

}  // extern "C"
