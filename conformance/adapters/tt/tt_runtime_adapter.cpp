// ndsc_tt_runtime: tt-metal's TensorAccessor (ndshard's front end, lib/ttmetal) behind the
// conformance C ABI, as a kernel with every accessor argument at run time uses it.
//
// ndsc_create validates the spec with make_distribution (the rules are the library's),
// then writes tt-metal's words for it with ndshard::tt::make_tt_words: every part runtime
// (config Sharded | RuntimeRank | RuntimeNumBanks | RuntimeTensorShape | RuntimeShardShape |
// RuntimeBankCoords), the L1 banks' coordinates two to a word. Every query installs those
// words as the common runtime arguments of the testkit's host platform and builds
// TensorAccessor(TensorAccessorArgs<0, 0>(), bank base, page size) over this file's
// compile-time words, as a kernel does, then answers from it alone:
//   ndsc_locate_page       get_bank_and_offset(p) for the bank, get_noc_addr(p) for the address
//   ndsc_locate_coord      the same by the page's coordinate (in the words' folded rank)
//   ndsc_locate_shard_page get_shard_noc_addr(s, k * page size), the bank whose core is_local_shard(s) names
//   ndsc_core_pages        strided_shard_pages(0, 1) (every shard), those is_local_shard names on that core
//   ndsc_page_run          num_contiguous_pages(p)
//   ndsc_thread_pages      strided_pages(thread, threads)
// A bank's core is its coordinate in the words (dspec().packed_xy_coords()); the address is
// the NoC address's local part. Wormhole's unicast address holds 6-bit node ids, so where
// the core fits them the NoC address must name it too (a disagreement answers
// NDSC_UNSUPPORTED, which the laws report). The words carry coordinates in 8 bits and the
// deal as round robin (contiguous_1d needs a compile-time bank count: the static adapter),
// so the declared domain is round_robin_1d and grid_2d (which travels as round robin over
// its trimmed core list), coordinates up to 255. A grid_2d spec with no shard has no bank,
// which tt-metal's words cannot say; it has no page either, and is answered from that.
#define KERNEL_COMPILE_TIME_ARGS 0x7D, 0  // Sharded, every part runtime; page size given at run time

#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <vector>

#include "adapter_support.hpp"
#include "api/tensor/tensor_accessor.h"
#include "ndshard/conformance.h"
#include "ndshard/distribution.hpp"
#include "ndshard/testkit/tt_host_platform.hpp"
#include "ndshard/tt/host_words.hpp"
#include "ndshard/tt/noc.hpp"
#include "tt_adapter.hpp"

struct ndsc_handle {
    ndshard::distribution dist;
    std::vector<std::uint32_t> runtime_words;  // the common runtime words; empty with no bank
    std::uint64_t id = 0;                      // which handle's words the platform holds
};

namespace {

std::uint64_t next_handle_id = 1;
std::uint64_t installed_id = 0;

bool has_bank(const ndsc_handle* h) { return !h->dist.cores.empty(); }

// f(accessor) over the handle's words, installed as the platform's common runtime words.
template <class F>
int with_accessor(const ndsc_handle* h, F&& f) {
    if (installed_id != h->id) {
        ndshard::testkit::tt_host.common_runtime_args = h->runtime_words;
        installed_id = h->id;
    }
    try {
        const auto accessor = TensorAccessor(TensorAccessorArgs<0, 0>(), static_cast<std::uint32_t>(h->dist.bank_base),
                                             static_cast<std::uint32_t>(h->dist.aligned_page_size));
        return f(accessor);
    } catch (const std::exception&) {
        return NDSC_UNSUPPORTED;  // the accessor refused its words: the laws report it
    }
}

// The location of bank `bank`'s byte at NoC address `noc`: the bank's coordinate in the
// words, the address's local part.
template <class A>
bool location_of(const A& a, std::size_t bank, std::uint64_t noc, std::uint32_t& x, std::uint32_t& y,
                 std::uint64_t& address) {
    const std::uint32_t xy = a.dspec().packed_xy_coords()[static_cast<std::uint32_t>(bank)];
    x = xy >> 8;
    y = xy & 0xFFU;
    address = ndshard::tt::noc_addr_local(noc);
    if (x < 64 && y < 64 && (ndshard::tt::noc_addr_x(noc) != x || ndshard::tt::noc_addr_y(noc) != y)) return false;
    return true;
}

template <class A>
int put(const A& a, std::size_t bank, std::uint64_t noc, ndsc_location* out) {
    std::uint32_t x = 0, y = 0;
    std::uint64_t address = 0;
    if (!location_of(a, bank, noc, x, y, address)) return NDSC_UNSUPPORTED;
    return ndsc_support::put_location(out, x, y, address);
}

}  // namespace

extern "C" {

NDSC_EXPORT int ndsc_describe(ndsc_info* info) {
    return ndsc_tt::describe(info, "ndshard-tt-runtime", (1u << NDSC_ROUND_ROBIN_1D) | (1u << NDSC_GRID_2D));
}

NDSC_EXPORT int ndsc_create(const ndsc_spec* spec, ndsc_handle** out, char* reason, size_t reason_size) {
    if (out == nullptr || !ndsc_support::spec_in_abi_domain(spec)) return NDSC_UNSUPPORTED;
    return ndsc_support::create_or_reject(reason, reason_size, [&]() -> int {
        const ndshard::distribution_spec s = ndsc_support::to_spec(*spec);
        if (s.strat == ndshard::strategy::contiguous_1d || !ndsc_tt::coordinates_fit(s)) return NDSC_UNSUPPORTED;
        auto h = std::make_unique<ndsc_handle>(ndsc_handle{ndshard::make_distribution(s), {}, next_handle_id++});
        if (has_bank(h.get()))
            h->runtime_words = ndshard::tt::make_tt_words(h->dist, ndshard::tt::flag::runtime_all).common_runtime;
        *out = h.release();
        return NDSC_OK;
    });
}

NDSC_EXPORT void ndsc_destroy(ndsc_handle* h) {
    if (h != nullptr && installed_id == h->id) installed_id = 0;
    delete h;
}

NDSC_EXPORT int ndsc_locate_page(const ndsc_handle* h, uint64_t page_id, ndsc_location* out) {
    if (page_id >= h->dist.num_pages()) return NDSC_OUT_OF_RANGE;
    return with_accessor(h, [&](const auto& a) -> int {
        const auto page = static_cast<std::uint32_t>(page_id);
        return put(a, a.get_bank_and_offset(page).bank_id, a.get_noc_addr(page), out);
    });
}

NDSC_EXPORT int ndsc_locate_coord(const ndsc_handle* h, const uint64_t* coord, uint32_t rank, ndsc_location* out) {
    std::uint32_t folded[NDSC_MAX_RANK] = {};
    if (!ndsc_tt::folded_coordinate(h->dist, coord, rank, folded) || h->dist.num_pages() == 0) return NDSC_OUT_OF_RANGE;
    return with_accessor(h, [&](const auto& a) -> int {
        return put(a, a.get_bank_and_offset(folded).bank_id, a.get_noc_addr(folded), out);
    });
}

NDSC_EXPORT int ndsc_locate_shard_page(const ndsc_handle* h, uint64_t shard_id, uint64_t page_in_shard,
                                       ndsc_location* out) {
    const ndshard::page_layout& l = h->dist.layout;
    if (shard_id >= l.num_shards || page_in_shard >= l.shard_volume) return NDSC_OUT_OF_RANGE;
    return with_accessor(h, [&](const auto& a) -> int {
        const auto shard = static_cast<std::uint32_t>(shard_id);
        const auto byte = static_cast<std::uint32_t>(page_in_shard * a.get_aligned_page_size());
        const std::uint64_t noc = a.get_shard_noc_addr(shard, byte);
        // The shard's bank: the one whose core is_local_shard names, asked on each bank's core.
        const auto packed = a.dspec().packed_xy_coords();
        for (std::uint32_t b = 0; b < packed.size(); ++b) {
            ndshard::testkit::tt_host.x = static_cast<std::uint8_t>(packed[b] >> 8);
            ndshard::testkit::tt_host.y = static_cast<std::uint8_t>(packed[b] & 0xFFU);
            if (a.is_local_shard(shard)) return put(a, b, noc, out);
        }
        return NDSC_UNSUPPORTED;
    });
}

NDSC_EXPORT int ndsc_core_pages(const ndsc_handle* h, uint32_t core_x, uint32_t core_y, uint64_t* pages,
                                uint64_t capacity, uint64_t* count) {
    std::vector<std::uint64_t> held;
    if (!has_bank(h)) {
        if (!ndsc_tt::trimmed_grid_core(h->dist.spec, core_x, core_y)) return NDSC_OUT_OF_RANGE;
        return ndsc_support::put_pages(held, pages, capacity, count);
    }
    const int status = with_accessor(h, [&](const auto& a) -> int {
        const auto packed = a.dspec().packed_xy_coords();
        bool bank = false;
        for (std::uint32_t b = 0; b < packed.size() && !bank; ++b) bank = packed[b] == ((core_x << 8) | core_y);
        if (!bank || core_x > 255 || core_y > 255)
            return ndsc_tt::trimmed_grid_core(h->dist.spec, core_x, core_y) ? NDSC_OK : NDSC_OUT_OF_RANGE;
        // Every shard of the grid, in id order (strided_shard_pages with one thread), which
        // on one core is its slots' order for both deals; the core's own by is_local_shard.
        ndshard::testkit::tt_host.x = static_cast<std::uint8_t>(core_x);
        ndshard::testkit::tt_host.y = static_cast<std::uint8_t>(core_y);
        std::uint32_t shard = 0;
        for (const auto& shard_pages : a.strided_shard_pages(0, 1)) {
            if (a.is_local_shard(shard++))
                for (const auto& page : shard_pages) held.push_back(page.page_id());
        }
        return NDSC_OK;
    });
    if (status != NDSC_OK) return status;
    return ndsc_support::put_pages(held, pages, capacity, count);
}

NDSC_EXPORT int ndsc_page_run(const ndsc_handle* h, uint64_t page_id, uint64_t* length) {
    if (length == nullptr || page_id >= h->dist.num_pages()) return NDSC_OUT_OF_RANGE;
    return with_accessor(h, [&](const auto& a) -> int {
        *length = a.num_contiguous_pages(static_cast<std::uint32_t>(page_id));
        return NDSC_OK;
    });
}

NDSC_EXPORT int ndsc_thread_pages(const ndsc_handle* h, uint32_t thread, uint32_t threads, ndsc_page_location* pages,
                                  uint64_t capacity, uint64_t* count) {
    if (count == nullptr || threads == 0 || thread >= threads) return NDSC_OUT_OF_RANGE;
    return ndsc_support::put_page_locations(pages, capacity, count, [&](const auto& put) -> int {
        if (!has_bank(h)) return NDSC_OK;
        return with_accessor(h, [&](const auto& a) -> int {
            for (const auto& page : a.strided_pages(thread, threads)) {
                std::uint32_t x = 0, y = 0;
                std::uint64_t address = 0;
                if (!location_of(a, a.get_bank_and_offset(page.page_id()).bank_id, page.noc_addr(), x, y, address))
                    return NDSC_UNSUPPORTED;
                put(ndsc_page_location{page.page_id(), x, y, address});
            }
            return NDSC_OK;
        });
    });
}

}  // extern "C"
