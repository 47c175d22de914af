// ndsc_reference: ndshard's own host library behind the conformance C ABI
// (lib/include/ndshard/conformance.h). make_distribution validates the spec (a rejection
// carries its spec_error message); page_layout answers the version-1 queries, and the
// accessor itself (an all-runtime one, made from make_accessor_words as a kernel's would
// be) answers the version-2 ones: ndsc_page_run is accessor::contiguous_pages and
// ndsc_thread_pages is accessor::pages(thread, threads), its page_iterator. This adapter is
// the dogfood of the interface: it must pass every law of `ndshard conform`.
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "adapter_support.hpp"
#include "ndshard/accessor.hpp"
#include "ndshard/args.hpp"
#include "ndshard/conformance.h"
#include "ndshard/distribution.hpp"

struct ndsc_handle {
    ndshard::distribution dist;
    ndshard::accessor_words words;  // all-runtime accessor arguments of dist
    bool has_words = false;         // false when make_accessor_words refused dist
};

namespace {

int answer(const ndsc_handle* h, const ndshard::page_place<std::uint64_t>& at, ndsc_location* out) {
    const ndshard::core_coord core = h->dist.cores[at.core];
    return ndsc_support::put_location(out, core.x, core.y, h->dist.byte_address(at.device_offset));
}

// f(accessor) for the handle's distribution, as a kernel with all-runtime arguments sees it.
template <class F>
void with_accessor(const ndsc_handle* h, F&& f) {
    ndshard::with_runtime_accessor(h->words, static_cast<std::uint32_t>(h->dist.bank_base),
                                   static_cast<std::uint32_t>(h->dist.aligned_page_size), f);
}

}  // namespace

extern "C" {

NDSC_EXPORT int ndsc_describe(ndsc_info* info) {
    const int status = ndsc_support::describe_full_domain(info, "ndshard-reference", "0.2.0");
    info->queries |= NDSC_Q_PAGE_RUN | NDSC_Q_THREAD_PAGES;
    return status;
}

NDSC_EXPORT int ndsc_create(const ndsc_spec* spec, ndsc_handle** out, char* reason, size_t reason_size) {
    if (out == nullptr || !ndsc_support::spec_in_abi_domain(spec)) return NDSC_UNSUPPORTED;
    return ndsc_support::create_or_reject(reason, reason_size, [&]() -> int {
        auto h = std::make_unique<ndsc_handle>(
            ndsc_handle{ndshard::make_distribution(ndsc_support::to_spec(*spec)), {}, false});
        try {
            h->words = ndshard::make_accessor_words(h->dist, ndshard::arg::all_runtime);
            h->has_words = true;
        } catch (const std::exception&) {
            // An accepted spec the accessor cannot take: its queries answer NDSC_UNSUPPORTED,
            // which the laws report as a failure.
        }
        *out = h.release();
        return NDSC_OK;
    });
}

NDSC_EXPORT void ndsc_destroy(ndsc_handle* h) { delete h; }

NDSC_EXPORT int ndsc_locate_page(const ndsc_handle* h, uint64_t page_id, ndsc_location* out) {
    if (page_id >= h->dist.num_pages()) return NDSC_OUT_OF_RANGE;
    return answer(h, h->dist.layout.locate(page_id), out);
}

NDSC_EXPORT int ndsc_locate_coord(const ndsc_handle* h, const uint64_t* coord, uint32_t rank, ndsc_location* out) {
    const ndshard::shape& tp = h->dist.tensor_pages;
    if (coord == nullptr || rank != tp.rank()) return NDSC_OUT_OF_RANGE;
    for (std::uint32_t d = 0; d < rank; ++d)
        if (coord[d] >= tp[d]) return NDSC_OUT_OF_RANGE;
    return answer(h, h->dist.layout.locate(h->dist.page_id_of(coord)), out);
}

NDSC_EXPORT int ndsc_locate_shard_page(const ndsc_handle* h, uint64_t shard_id, uint64_t page_in_shard,
                                       ndsc_location* out) {
    const ndshard::page_layout& l = h->dist.layout;
    if (shard_id >= l.num_shards || page_in_shard >= l.shard_volume) return NDSC_OUT_OF_RANGE;
    const auto home = l.shard_home(shard_id);
    const ndshard::core_coord core = h->dist.cores[home.core];
    return ndsc_support::put_location(out, core.x, core.y,
                                      h->dist.byte_address(home.slot * l.shard_volume + page_in_shard));
}

NDSC_EXPORT int ndsc_core_pages(const ndsc_handle* h, uint32_t core_x, uint32_t core_y, uint64_t* pages,
                                uint64_t capacity, uint64_t* count) {
    const ndshard::distribution& d = h->dist;
    std::uint64_t index = 0;
    while (index < d.cores.size() && !(d.cores[index].x == core_x && d.cores[index].y == core_y)) ++index;
    std::vector<std::uint64_t> held;
    if (index == d.cores.size()) {
        // grid_2d trims its range: a listed core outside the trimmed list holds nothing.
        const ndsc_core_range& r = d.spec.cores.empty()
                                       ? ndsc_core_range{}
                                       : ndsc_core_range{d.spec.cores.front().start.x, d.spec.cores.front().start.y,
                                                         d.spec.cores.front().end.x, d.spec.cores.front().end.y};
        const bool listed = d.spec.strat == ndshard::strategy::grid_2d && core_x >= r.x0 && core_x <= r.x1 &&
                            core_y >= r.y0 && core_y <= r.y1;
        if (!listed) return NDSC_OUT_OF_RANGE;
        return ndsc_support::put_pages(held, pages, capacity, count);
    }
    try {
        held.reserve(d.layout.pages_on_core(index));
        for (std::uint64_t offset = 0; offset < d.reserved_pages_per_core(); ++offset)
            if (auto p = d.layout.page_at(index, offset)) held.push_back(*p);
    } catch (const std::bad_alloc&) {
        return NDSC_UNSUPPORTED;
    }
    return ndsc_support::put_pages(held, pages, capacity, count);
}

NDSC_EXPORT int ndsc_page_run(const ndsc_handle* h, uint64_t page_id, uint64_t* length) {
    if (length == nullptr || page_id >= h->dist.num_pages()) return NDSC_OUT_OF_RANGE;
    if (!h->has_words) return NDSC_UNSUPPORTED;
    try {
        with_accessor(h, [&](const auto& a) { *length = a.contiguous_pages(static_cast<std::uint32_t>(page_id)); });
    } catch (const std::exception&) {
        return NDSC_UNSUPPORTED;
    }
    return NDSC_OK;
}

NDSC_EXPORT int ndsc_thread_pages(const ndsc_handle* h, uint32_t thread, uint32_t threads, ndsc_page_location* pages,
                                  uint64_t capacity, uint64_t* count) {
    if (count == nullptr || threads == 0 || thread >= threads) return NDSC_OUT_OF_RANGE;
    if (!h->has_words) return NDSC_UNSUPPORTED;
    return ndsc_support::put_page_locations(pages, capacity, count, [&](const auto& put) {
        try {
            with_accessor(h, [&](const auto& a) {
                for (const ndshard::page_ref r : a.pages(thread, threads)) {
                    const ndshard::noc_addr at = a.noc_address_of(r);
                    put(ndsc_page_location{r.page_id, at.x, at.y, at.addr});
                }
            });
        } catch (const std::exception&) {
            return NDSC_UNSUPPORTED;
        }
        return NDSC_OK;
    });
}

}  // extern "C"
