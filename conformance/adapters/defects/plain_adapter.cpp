// ndsc_plain and the ndsc_defect_<name> modules: ONE small, plain, 64-bit implementation
// of docs/semantics.md / docs/rules.md behind the conformance C ABI, written on purpose
// WITHOUT the library (lib/include) and WITHOUT the oracle (lib/oracle): straight
// formulas, as a third party would write them. This is the one place outside the oracle
// where the placement formulas are written again, and it has to be: a defect can only be
// injected into an implementation of its own.
//
// Built with no NDSC_DEFECT_* definition it is the control `ndsc_plain`, which must pass
// every law. Each ndsc_defect_<name> module is the same file with exactly one of the
// definitions below, each a classic mistake a real implementation could make.
// conformance/expectations.txt names the law that must catch each one.
//
//   NDSC_DEFECT_SHARD_COUNT_BY_VOLUME   shards counted as ceil(vol(T)/vol(S)) (tt-metal's known
//                                       defect): the last uneven shard is not given its own slot
//   NDSC_DEFECT_COL_MAJOR_IGNORED       core ranges always expanded x-fastest
//   NDSC_DEFECT_CONTIGUOUS_AS_ROUND_ROBIN contiguous_1d dealt like round_robin_1d
//   NDSC_DEFECT_CLIPPED_SHARD_STRIDES   in-shard offset from the edge shard's real extent,
//                                       not the full shard shape
//   NDSC_DEFECT_ADDRESS_WRAPS           addresses in uint32 arithmetic, the 32-bit rule never checked
//   NDSC_DEFECT_SQUEEZE_NONCONTIGUOUS   merges the last two dims whenever S[-1] divides T[-1]
//   NDSC_DEFECT_ITER_SKIPS_LAST_PARTIAL core_pages leaves out the last shard when it is partial
//   NDSC_DEFECT_ITER_REVISITS           core_pages lists an edge shard's last real page twice
//   NDSC_DEFECT_DEDUP_CORES             a repeated core is dropped instead of rejected
//   NDSC_DEFECT_ALIGN_PAGE_COUNT        alignment rounds the page count, pages advance unaligned
//   NDSC_DEFECT_FOLD_ON_SHARD           a lower-rank shard is padded with leading 1s instead of
//                                       folding the leading tensor dims
//   NDSC_DEFECT_GRID2D_FIT_OFF_BY_ONE   grid_2d accepts a shard grid one column/row too large
//   NDSC_DEFECT_ACCEPTS_BAD_ALIGNMENT   an alignment that is not a power of two is accepted
//   NDSC_DEFECT_USE_AFTER_FREE          multi-range core lists: the handle keeps a pointer into
//                                       a vector freed inside ndsc_create
//   NDSC_DEFECT_HANG                    core_pages loops until shard == num_shards (`!=` for `<`)
//   NDSC_DEFECT_SEGV                    locate_coord reads a fold-stride table that exists only
//                                       when the shard rank is lower than the tensor rank
//   NDSC_DEFECT_SHARD_PAGE_IGNORED      locate_shard_page ignores page_in_shard (tt-metal's
//                                       shard-coordinate lookup that ignores the coordinate)
//   NDSC_DEFECT_MISSING_BANK_BASE       addresses without the bank base (tt-metal's DRAM defect)
//
// Defect classes found by the mutation study (conformance/mutants/README.md), each one a
// class the laws missed until they were strengthened:
//   NDSC_DEFECT_COORD_RANK_UNCHECKED    locate_coord takes a coordinate of any rank (one entry
//                                       short reads as a shorter, wrong page)
//   NDSC_DEFECT_PAGE_ID_32BIT           locate_page narrows the page id to 32 bits before its
//                                       range check (page 2^32 answers as page 0)
//   NDSC_DEFECT_CAPACITY_IGNORED        core_pages writes every id whatever the capacity, NDSC_OK
//   NDSC_DEFECT_TRIMMED_CORE_REFUSED    a grid_2d core trimmed off the shard grid is
//                                       NDSC_OUT_OF_RANGE instead of a core with no page
//   NDSC_DEFECT_CORE_COORD_8BIT         core coordinates kept in 8 bits (a NoC coordinate byte)
//   NDSC_DEFECT_ELEMENTS_32BIT          element dims narrowed to 32 bits before the page
//                                       conversion (only page dims must fit 32 bits)
//   NDSC_DEFECT_RECIPROCAL_DIVISION     locate_coord divides by a shard dim with a 32-bit
//                                       reciprocal rounded up and no correction step: exact for
//                                       small numerators, off by one near 2^32
//   NDSC_DEFECT_CORE_COUNT_OFF_BY_ONE   a list of exactly 65536 cores is rejected (>= for >)
//   NDSC_DEFECT_CORE_COORD_LIMIT        a core coordinate of 65535 is rejected (>= for >)
//   NDSC_DEFECT_ZERO_DIM_VOLUME         the 32-bit tensor rule multiplies a zero dim as 0, so a
//                                       zero-size tensor is never too large
//   NDSC_DEFECT_SHARD_RANK_ZERO         a shard of rank 0 is accepted (the rule's lower bound)
//   NDSC_DEFECT_CORE_IN_BOUNDING_BOX    core_pages takes a core inside the list's bounding box
//                                       for a listed core with no page (holes of a multi-range
//                                       list answer NDSC_OK instead of NDSC_OUT_OF_RANGE)
//   NDSC_DEFECT_EMPTY_RESERVES_A_SLOT   the 32-bit address rule sizes every core's buffer for at
//                                       least one shard, so a tensor with no page is refused a
//                                       bank base near 2^32
//   NDSC_DEFECT_LARGE_PATH_ORDER        above 65,536 slots (ndsc_table's limit for its tables),
//                                       core_pages lists a core's pages in page-id order, not
//                                       in device order
//   NDSC_DEFECT_VOLUME_WRAPS            the shard volume multiplied without saturation: a shard
//                                       [2, 2^63] has volume 0 and is accepted
//
// Defects of the version-2 queries (ndsc_page_run, ndsc_thread_pages), one class each:
//   NDSC_DEFECT_RUN_CROSSES_SHARD       a run goes on to the end of the tensor's row, over the
//                                       boundary of shards that split it
//   NDSC_DEFECT_RUN_OVER_PADDING        an edge shard's run is measured with the full shard
//                                       extent, as if its padding slots were pages
//   NDSC_DEFECT_RUN_IGNORES_CORE        a run goes on into the next shard whenever its first
//                                       offset follows, without asking whether it is on the
//                                       same core (round-robin: shard P-1 ends at offset V,
//                                       shard P begins at offset V of core 0)
//   NDSC_DEFECT_THREAD_SKIPS_LAST       a thread's share stops one page early (`p + 1 < n`),
//                                       leaving out the last page when it is that thread's
//   NDSC_DEFECT_THREAD_STARTS_BLOCK     thread i starts at page i * ceil(n / k), as in a split
//                                       into blocks, then steps by k
//   NDSC_DEFECT_THREAD_STEP_RESETS_AT_RUN a step of k pages that passes a run's end lands on the
//                                       next run's first page (the rest of the step dropped),
//                                       as a run-walking iterator that does not carry
//   NDSC_DEFECT_THREADS_ABOVE_PAGES     more threads than pages is refused (NDSC_OUT_OF_RANGE)
//                                       instead of leaving the threads past the last page none
//   NDSC_DEFECT_THREAD_COUNT_CAPACITY   a share larger than the buffer reports the number of
//                                       elements written, not the number needed
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "adapter_support.hpp"
#include "ndshard/conformance.h"

namespace {

using u64 = std::uint64_t;
constexpr u64 k2to32 = u64{1} << 32;

struct xy {
    std::uint32_t x, y;
};

u64 ceil_div(u64 a, u64 b) { return a / b + (a % b != 0 ? 1 : 0); }
// a * b, or UINT64_MAX when it does not fit.
u64 sat_mul(u64 a, u64 b) {
    u64 r = 0;
    return __builtin_mul_overflow(a, b, &r) ? ~u64{0} : r;
}

}  // namespace

struct ndsc_handle {
    std::uint32_t tensor_rank = 0;
    u64 tensor_pages[NDSC_MAX_RANK] = {};  // page grid in the tensor's rank (page ids are row-major over it)
    std::uint32_t rank = 0;                // folded rank (== shard rank)
    u64 T[NDSC_MAX_RANK] = {}, S[NDSC_MAX_RANK] = {}, G[NDSC_MAX_RANK] = {};
    u64 num_pages = 0, num_shards = 0, shard_volume = 0;
    u64 per_block = 0;            // contiguous_1d: shards per core
    u64 max_shards_per_core = 0;  // slots every core reserves
    u64 aligned_page_size = 0, bank_base = 0;
    std::uint32_t strategy = NDSC_ROUND_ROBIN_1D;
    std::vector<xy> cores;          // effective core list
    const xy* core_view = nullptr;  // what queries read (== cores.data())
    std::vector<xy> listed;         // the whole expanded list (grid_2d: the untrimmed range)
#if defined(NDSC_DEFECT_SEGV)
    const u64* fold_strides = nullptr;  // only when the shard rank is lower than the tensor rank
    std::vector<u64> fold_stride_storage;
#endif
};

namespace {

struct place {
    u64 core, offset;  // index into the effective core list, device page offset
};

u64 address_of(const ndsc_handle& h, u64 offset) {
#if defined(NDSC_DEFECT_ADDRESS_WRAPS)
    return static_cast<std::uint32_t>(h.bank_base + static_cast<std::uint32_t>(offset * h.aligned_page_size));
#elif defined(NDSC_DEFECT_MISSING_BANK_BASE)
    return offset * h.aligned_page_size;
#else
    return h.bank_base + offset * h.aligned_page_size;
#endif
}

// Whether shards are dealt in blocks (contiguous_1d) rather than round-robin; deal and
// its inverse both ask this, so the defect that forgets contiguous_1d breaks them alike.
bool deals_in_blocks(const ndsc_handle& h) {
#if defined(NDSC_DEFECT_CONTIGUOUS_AS_ROUND_ROBIN)
    (void)h;
    return false;
#else
    return h.strategy == NDSC_CONTIGUOUS_1D;
#endif
}

// Shard s -> (core, slot).
void deal(const ndsc_handle& h, u64 s, u64& core, u64& slot) {
    const u64 P = h.cores.size();
    if (deals_in_blocks(h)) {
        core = s / h.per_block;
        slot = s % h.per_block;
    } else {
        core = s % P;
        slot = s / P;
    }
}

// Inverse of deal, unclamped: the shard number a core's slot stands for, which is
// num_shards or more past the last shard (round-robin on 4 cores: core 1, slot 2 -> 9).
u64 shard_number_of_slot(const ndsc_handle& h, u64 core, u64 slot) {
    return deals_in_blocks(h) ? core * h.per_block + slot : slot * h.cores.size() + core;
}

// Inverse of deal: the shard in a core's slot, or num_shards when there is none.
[[maybe_unused]] u64 shard_in_slot(const ndsc_handle& h, u64 core, u64 slot) {
    const u64 s = shard_number_of_slot(h, core, slot);
    return s < h.num_shards ? s : h.num_shards;
}

// Page coordinate in the folded rank -> (core, device offset).
place locate_folded(const ndsc_handle& h, const u64* c) {
    u64 shard = 0, in_shard = 0;
    for (std::uint32_t d = 0; d < h.rank; ++d) {
        u64 extent = h.S[d];
#if defined(NDSC_DEFECT_CLIPPED_SHARD_STRIDES)
        const u64 first = (c[d] / h.S[d]) * h.S[d];
        if (h.T[d] - first < extent) extent = h.T[d] - first;
#endif
        shard = shard * h.G[d] + c[d] / h.S[d];
        in_shard = in_shard * extent + c[d] % h.S[d];
    }
    u64 core = 0, slot = 0;
    deal(h, shard, core, slot);
    return {core, slot * h.shard_volume + in_shard};
}

place locate_id(const ndsc_handle& h, u64 page) {
    u64 c[NDSC_MAX_RANK] = {};
    for (std::uint32_t d = h.rank; d-- > 0;) {
        c[d] = page % h.T[d];
        page /= h.T[d];
    }
    return locate_folded(h, c);
}

#if defined(NDSC_DEFECT_RECIPROCAL_DIVISION)
// n / d as a device divides by a runtime value: a power of two by a shift, any other d by
// multiplying with m = floor(2^32 / d) + 1 and keeping the high 32 bits, without the
// correction step (n < 2^32): exact while n * (m * d - 2^32) < 2^32 * (d - n % d) / d, so
// only large numerators (about 2^32 / d and up) come out one too high.
u64 reciprocal_quotient(u64 n, u64 d) {
    if ((d & (d - 1)) == 0) return n >> __builtin_ctzll(d);
    const u64 m = (u64{1} << 32) / d + 1;  // d >= 3 here: n * m < 2^32 * 2^31 fits
    return (n * m) >> 32;
}

// locate_id as the coordinate entry point computes it: the same, with the shard position
// along each dim from reciprocal_quotient.
place locate_id_by_reciprocal(const ndsc_handle& h, u64 page) {
    u64 c[NDSC_MAX_RANK] = {};
    for (std::uint32_t d = h.rank; d-- > 0;) {
        c[d] = page % h.T[d];
        page /= h.T[d];
    }
    u64 shard = 0, in_shard = 0;
    for (std::uint32_t d = 0; d < h.rank; ++d) {
        const u64 q = reciprocal_quotient(c[d], h.S[d]);
        shard = shard * h.G[d] + q;
        in_shard = in_shard * h.S[d] + (c[d] - q * h.S[d]);
    }
    u64 core = 0, slot = 0;
    deal(h, shard, core, slot);
    return {core, slot * h.shard_volume + in_shard};
}
#endif

// The real pages of one shard, in slot order (padding positions skipped).
void pages_of_shard(const ndsc_handle& h, u64 s, std::vector<u64>& out) {
    u64 q[NDSC_MAX_RANK] = {};
    for (std::uint32_t d = h.rank; d-- > 0;) {
        q[d] = s % h.G[d];
        s /= h.G[d];
    }
    const std::size_t before = out.size();
    for (u64 pos = 0; pos < h.shard_volume; ++pos) {
        u64 rest = pos, page = 0, stride = 1;
        bool real = true;
        for (std::uint32_t d = h.rank; d-- > 0;) {
            const u64 p = q[d] * h.S[d] + rest % h.S[d];
            rest /= h.S[d];
            if (p >= h.T[d]) real = false;
            page += p * stride;
            stride *= h.T[d];
        }
        if (real) out.push_back(page);
    }
#if defined(NDSC_DEFECT_ITER_REVISITS)
    if (out.size() - before < h.shard_volume && out.size() > before) out.push_back(out.back());
#else
    (void)before;
#endif
}

[[maybe_unused]] bool has_padding(const ndsc_handle& h, u64 s) {
    for (std::uint32_t d = h.rank; d-- > 0;) {
        if ((s % h.G[d] + 1) * h.S[d] > h.T[d]) return true;
        s /= h.G[d];
    }
    return false;
}

void expand(const ndsc_core_range& r, std::uint32_t orientation, std::vector<xy>& out) {
#if defined(NDSC_DEFECT_COL_MAJOR_IGNORED)
    orientation = NDSC_ROW_MAJOR;
#endif
    if (orientation == NDSC_COL_MAJOR) {
        for (u64 x = r.x0; x <= r.x1; ++x)
            for (u64 y = r.y0; y <= r.y1; ++y)
                out.push_back({static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)});
    } else {
        for (u64 y = r.y0; y <= r.y1; ++y)
            for (u64 x = r.x0; x <= r.x1; ++x)
                out.push_back({static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y)});
    }
}

// Validates (docs/rules.md) and derives the plan. Returns "" when accepted. Only the
// accept/reject decision has to agree with the oracle; the first rule reported may differ.
std::string build(const ndsc_spec& c, ndsc_handle& h) {
    if (c.rank < 1 || c.rank > NDSC_MAX_RANK) return "tensor rank not in 1..8";
    if (c.shard_rank < 1 || c.shard_rank > c.rank) return "shard rank not in 1..tensor rank";
    for (std::uint32_t d = 0; d < c.shard_rank; ++d)
        if (c.shard[d] == 0) return "a shard dim is 0";
    if (c.page_kind == NDSC_TILE && (c.shard_rank < 2 || c.tile_h == 0 || c.tile_w == 0))
        return "tile layout needs shard rank >= 2 and nonzero tile sides";
    if (c.element_size == 0) return "element size 0";
#if defined(NDSC_DEFECT_ACCEPTS_BAD_ALIGNMENT)
    if (c.alignment == 0) return "alignment 0";
#else
    if (c.alignment == 0 || (c.alignment & (c.alignment - 1)) != 0) return "alignment is not a power of two";
#endif
    if (c.num_ranges == 0) return "the core list is empty";
    u64 listed_count = 0;
    for (std::uint32_t i = 0; i < c.num_ranges; ++i) {
        const ndsc_core_range& r = c.ranges[i];
        if (r.x0 > r.x1 || r.y0 > r.y1) return "a core range has x0 > x1 or y0 > y1";
#if defined(NDSC_DEFECT_CORE_COORD_LIMIT)
        if (r.x1 >= 0xFFFF || r.y1 >= 0xFFFF) return "a core coordinate does not fit 16 bits";
#else
        if (r.x1 > 0xFFFF || r.y1 > 0xFFFF) return "a core coordinate is above 65535";
#endif
        listed_count += (u64{r.x1} - r.x0 + 1) * (u64{r.y1} - r.y0 + 1);
    }
#if defined(NDSC_DEFECT_CORE_COUNT_OFF_BY_ONE)
    if (listed_count >= 65536) return "more than 65536 cores";
#else
    if (listed_count > 65536) return "more than 65536 cores";
#endif
    if (c.strategy == NDSC_GRID_2D && c.num_ranges != 1) return "grid_2d takes exactly one core range";

#if defined(NDSC_DEFECT_USE_AFTER_FREE)
    std::vector<xy> joined_storage;
    if (c.num_ranges == 1) {
        expand(c.ranges[0], c.orientation, h.listed);
    } else {
        // The list is joined in a temporary, and only its address is kept.
        std::vector<xy> joined;
        for (std::uint32_t i = 0; i < c.num_ranges; ++i) expand(c.ranges[i], c.orientation, joined);
        h.listed.resize(joined.size());
        h.core_view = joined.data();
    }
#else
    for (std::uint32_t i = 0; i < c.num_ranges; ++i) expand(c.ranges[i], c.orientation, h.listed);
#endif
    {
        std::vector<xy> sorted(h.core_view != nullptr ? h.core_view : h.listed.data(),
                               (h.core_view != nullptr ? h.core_view : h.listed.data()) + h.listed.size());
        std::sort(sorted.begin(), sorted.end(), [](xy a, xy b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
        const auto same = [](xy a, xy b) { return a.x == b.x && a.y == b.y; };
#if defined(NDSC_DEFECT_DEDUP_CORES)
        std::vector<xy> kept;
        for (const xy& k : h.listed)
            if (std::none_of(kept.begin(), kept.end(), [&](xy o) { return same(o, k); })) kept.push_back(k);
        h.listed = kept;
#else
        if (std::adjacent_find(sorted.begin(), sorted.end(), same) != sorted.end()) return "a core is listed twice";
#endif
    }

    // Shapes in pages.
    u64 t[NDSC_MAX_RANK] = {}, s[NDSC_MAX_RANK] = {};
    const std::uint32_t rt = c.rank, rs = c.shard_rank;
    for (std::uint32_t d = 0; d < rt; ++d) t[d] = c.tensor[d];
    for (std::uint32_t d = 0; d < rs; ++d) s[d] = c.shard[d];
    u64 page_size = c.element_size;
#if defined(NDSC_DEFECT_ELEMENTS_32BIT)
    // Element counts in the 32-bit type of a device tensor shape.
    if (c.page_kind != NDSC_PAGES) {
        for (std::uint32_t d = 0; d < rt; ++d) t[d] = static_cast<std::uint32_t>(t[d]);
        for (std::uint32_t d = 0; d < rs; ++d) s[d] = static_cast<std::uint32_t>(s[d]);
    }
#endif
    if (c.page_kind == NDSC_TILE) {
        page_size = sat_mul(sat_mul(c.tile_h, c.tile_w), c.element_size);
        t[rt - 1] = ceil_div(t[rt - 1], c.tile_w);
        t[rt - 2] = ceil_div(t[rt - 2], c.tile_h);
        s[rs - 1] = ceil_div(s[rs - 1], c.tile_w);
        s[rs - 2] = ceil_div(s[rs - 2], c.tile_h);
    } else if (c.page_kind == NDSC_ROW_MAJOR_PAGES) {
        page_size = sat_mul(s[rs - 1], c.element_size);
        t[rt - 1] = ceil_div(t[rt - 1], s[rs - 1]);
        s[rs - 1] = 1;
    }
    // The 32-bit page rules first: past them every product below fits in 64 bits.
    u64 ids = 1;
    for (std::uint32_t d = 0; d < rt; ++d) {
        if (t[d] >= k2to32) return "a tensor page dim does not fit 32 bits";
#if defined(NDSC_DEFECT_ZERO_DIM_VOLUME)
        ids = sat_mul(ids, t[d]);
#else
        ids = sat_mul(ids, t[d] == 0 ? 1 : t[d]);
#endif
    }
    if (ids >= k2to32) return "the tensor's page ids do not fit 32 bits";
    u64 shard_pages = 1;
#if defined(NDSC_DEFECT_VOLUME_WRAPS)
    for (std::uint32_t d = 0; d < rs; ++d) shard_pages *= s[d];  // [2, 2^63] wraps to 0
#else
    for (std::uint32_t d = 0; d < rs; ++d) shard_pages = sat_mul(shard_pages, s[d]);
#endif
    if (shard_pages >= k2to32) return "the shard's pages do not fit 32 bits";

    h.tensor_rank = rt;
    for (std::uint32_t d = 0; d < rt; ++d) h.tensor_pages[d] = t[d];
#if defined(NDSC_DEFECT_FOLD_ON_SHARD)
    // The shard is widened to the tensor's rank with leading 1s instead.
    h.rank = rt;
    for (std::uint32_t d = 0; d < rt; ++d) {
        h.T[d] = t[d];
        h.S[d] = d < rt - rs ? 1 : s[d - (rt - rs)];
    }
#else
    h.rank = rs;
    h.T[0] = 1;
    for (std::uint32_t d = 0; d <= rt - rs; ++d) h.T[0] *= t[d];
    for (std::uint32_t d = 1; d < rs; ++d) h.T[d] = t[rt - rs + d];
    for (std::uint32_t d = 0; d < rs; ++d) h.S[d] = s[d];
#endif
#if defined(NDSC_DEFECT_SQUEEZE_NONCONTIGUOUS)
    if (h.rank >= 2 && h.T[h.rank - 1] % h.S[h.rank - 1] == 0) {
        h.T[h.rank - 2] *= h.T[h.rank - 1];
        h.S[h.rank - 2] *= h.S[h.rank - 1];
        --h.rank;
    }
#endif
#if defined(NDSC_DEFECT_SEGV)
    if (rs < rt) {
        h.fold_stride_storage.assign(rt, 1);
        for (std::uint32_t d = rt - 1; d-- > 0;) h.fold_stride_storage[d] = h.fold_stride_storage[d + 1] * t[d + 1];
        h.fold_strides = h.fold_stride_storage.data();
    }
#endif
    h.num_pages = 1;
    h.num_shards = 1;
    h.shard_volume = 1;
    for (std::uint32_t d = 0; d < h.rank; ++d) {
        h.G[d] = ceil_div(h.T[d], h.S[d]);
        h.num_pages *= h.T[d];
        h.num_shards *= h.G[d];
        h.shard_volume *= h.S[d];
    }
    u64 shards_for_slots = h.num_shards;
#if defined(NDSC_DEFECT_SHARD_COUNT_BY_VOLUME)
    shards_for_slots = ceil_div(h.num_pages, h.shard_volume);
#endif

    h.strategy = c.strategy;
    if (c.strategy == NDSC_GRID_2D) {
        const u64 gw = h.G[h.rank - 1];
        u64 gh = 1;
        for (std::uint32_t d = 0; d + 1 < h.rank; ++d) gh *= h.G[d];
        const ndsc_core_range& r = c.ranges[0];
        const u64 width = u64{r.x1} - r.x0 + 1, height = u64{r.y1} - r.y0 + 1;
        const bool row = c.orientation != NDSC_COL_MAJOR;
#if defined(NDSC_DEFECT_GRID2D_FIT_OFF_BY_ONE)
        if ((row ? gw : gh) > width + 1 || (row ? gh : gw) > height + 1) return "the shard grid does not fit the range";
#else
        if ((row ? gw : gh) > width || (row ? gh : gw) > height) return "the shard grid does not fit the range";
#endif
        for (u64 i = 0; i < gh; ++i)
            for (u64 j = 0; j < gw; ++j)
                h.cores.push_back(row ? xy{static_cast<std::uint32_t>(r.x0 + j), static_cast<std::uint32_t>(r.y0 + i)}
                                      : xy{static_cast<std::uint32_t>(r.x0 + i), static_cast<std::uint32_t>(r.y0 + j)});
        h.max_shards_per_core = h.num_shards == 0 ? 0 : 1;
        h.core_view = h.cores.data();
    } else {
        h.cores = h.listed;
        if (h.core_view == nullptr) h.core_view = h.cores.data();
        h.per_block = ceil_div(shards_for_slots, h.cores.size());
        h.max_shards_per_core = h.per_block;
    }

    // Bytes, and the 32-bit address rules.
    const u64 align = c.alignment;
#if defined(NDSC_DEFECT_EMPTY_RESERVES_A_SLOT)
    // Every core's buffer is sized for at least one shard, also when there is none.
    u64 reserved = std::max<u64>(h.max_shards_per_core, 1) * h.shard_volume;
#else
    u64 reserved = h.max_shards_per_core * h.shard_volume;
#endif
#if defined(NDSC_DEFECT_ALIGN_PAGE_COUNT)
    h.aligned_page_size = page_size;
    if (align != 0) reserved = ceil_div(reserved, align) * align;
#else
    h.aligned_page_size = page_size > ~u64{0} - align ? ~u64{0} : ceil_div(page_size, align) * align;
#endif
    if (h.aligned_page_size >= k2to32) return "the aligned page size does not fit 32 bits";
    h.bank_base = c.bank_base;
#if !defined(NDSC_DEFECT_ADDRESS_WRAPS)
    if (c.bank_base >= k2to32) return "the bank base does not fit 32 bits";
    if (sat_mul(reserved, h.aligned_page_size) > k2to32 - c.bank_base) return "the last reserved byte is past 2^32";
#else
    (void)reserved;
#endif
    return {};
}

// The run from page p: the pages that follow q = p in both page-id order and device order
// inside q's shard, then on through the next shard while its first page is on p's core at
// the offset that follows. Inside a shard: with j the outermost dim whose inner dims all
// span the tensor whole (S == T), the pages from q to the end of the shard's real extent
// along j are consecutive page ids at consecutive offsets; past that block the next page
// id leaves the shard (or the tensor).
u64 run_from(const ndsc_handle& h, u64 p) {
    const place start = locate_id(h, p);
    u64 run = 0, q = p;
    for (;;) {
        u64 c[NDSC_MAX_RANK] = {};
        u64 rest = q;
        for (std::uint32_t d = h.rank; d-- > 0;) {
            c[d] = rest % h.T[d];
            rest /= h.T[d];
        }
        std::uint32_t j = h.rank - 1;
        while (j > 0 && h.S[j] == h.T[j]) --j;
        u64 inner = 1, below = 0;  // pages of one step along j, and q's position among them
        for (std::uint32_t d = j + 1; d < h.rank; ++d) {
            inner *= h.T[d];
            below = below * h.T[d] + c[d];
        }
#if defined(NDSC_DEFECT_RUN_CROSSES_SHARD)
        const u64 end = h.T[j];  // the tensor's edge, whatever shard boundary lies before it
#else
        const u64 first = c[j] / h.S[j] * h.S[j];  // where q's shard begins along j
#endif
#if defined(NDSC_DEFECT_RUN_CROSSES_SHARD)
#elif defined(NDSC_DEFECT_RUN_OVER_PADDING)
        const u64 end = first + h.S[j];            // the full shard, padding included
#else
        const u64 end = first + std::min(h.S[j], h.T[j] - first);
#endif
        const u64 seg = (end - c[j]) * inner - below;
        run += seg;
        q += seg;
        if (q >= h.num_pages) return run;
        const place next = locate_id(h, q);
#if defined(NDSC_DEFECT_RUN_IGNORES_CORE)
        if (next.offset != start.offset + run) return run;
#else
        if (next.core != start.core || next.offset != start.offset + run) return run;
#endif
    }
}

int answer(const ndsc_handle* h, place at, ndsc_location* out) {
    const xy core = h->core_view[at.core];
#if defined(NDSC_DEFECT_CORE_COORD_8BIT)
    // The core as the byte pair of a NoC header.
    return ndsc_support::put_location(out, core.x & 0xFFU, core.y & 0xFFU, address_of(*h, at.offset));
#else
    return ndsc_support::put_location(out, core.x, core.y, address_of(*h, at.offset));
#endif
}

}  // namespace

extern "C" {

NDSC_EXPORT int ndsc_describe(ndsc_info* info) {
#if defined(NDSC_DEFECT_NAME)
    const int status = ndsc_support::describe_full_domain(info, "plain-defect-" NDSC_DEFECT_NAME, "2.0");
#else
    const int status = ndsc_support::describe_full_domain(info, "plain", "2.0");
#endif
    info->queries |= NDSC_Q_PAGE_RUN | NDSC_Q_THREAD_PAGES;
    return status;
}

NDSC_EXPORT int ndsc_create(const ndsc_spec* spec, ndsc_handle** out, char* reason, size_t reason_size) {
    if (out == nullptr || !ndsc_support::spec_in_abi_domain(spec)) return NDSC_UNSUPPORTED;
    try {
        auto h = std::make_unique<ndsc_handle>();
#if defined(NDSC_DEFECT_SHARD_RANK_ZERO)
        // No shard dims read as a shard of ones (interleaved), instead of a rejection.
        ndsc_spec lax = *spec;
        if (lax.shard_rank == 0 && lax.rank >= 1 && lax.rank <= NDSC_MAX_RANK) {
            lax.shard_rank = lax.rank;
            for (std::uint32_t d = 0; d < lax.rank; ++d) lax.shard[d] = 1;
        }
        const std::string why = build(lax, *h);
#else
        const std::string why = build(*spec, *h);
#endif
        if (!why.empty()) {
            ndsc_support::write_reason(reason, reason_size, why);
            return NDSC_REJECTED;
        }
        *out = h.release();
        return NDSC_OK;
    } catch (const std::bad_alloc&) {
        ndsc_support::write_reason(reason, reason_size, "out of memory");
        return NDSC_UNSUPPORTED;
    }
}

NDSC_EXPORT void ndsc_destroy(ndsc_handle* h) { delete h; }

NDSC_EXPORT int ndsc_locate_page(const ndsc_handle* h, uint64_t page_id, ndsc_location* out) {
#if defined(NDSC_DEFECT_PAGE_ID_32BIT)
    page_id = static_cast<std::uint32_t>(page_id);  // the device's page id type
#endif
    if (page_id >= h->num_pages) return NDSC_OUT_OF_RANGE;
    return answer(h, locate_id(*h, page_id), out);
}

NDSC_EXPORT int ndsc_locate_coord(const ndsc_handle* h, const uint64_t* coord, uint32_t rank, ndsc_location* out) {
#if defined(NDSC_DEFECT_COORD_RANK_UNCHECKED)
    if (coord == nullptr || rank > h->tensor_rank) return NDSC_OUT_OF_RANGE;
#else
    if (coord == nullptr || rank != h->tensor_rank) return NDSC_OUT_OF_RANGE;
#endif
    for (std::uint32_t d = 0; d < rank; ++d)
        if (coord[d] >= h->tensor_pages[d]) return NDSC_OUT_OF_RANGE;
#if defined(NDSC_DEFECT_SEGV)
    // Folds the leading coordinates with a table that only exists for folded specs.
    if (rank > 1) {
        u64 page = 0;
        for (std::uint32_t d = 0; d < rank; ++d) page += coord[d] * h->fold_strides[d];
        return answer(h, locate_id(*h, page), out);
    }
#endif
    u64 page = 0;  // row-major over the page grid
    for (std::uint32_t d = 0; d < rank; ++d) page = page * h->tensor_pages[d] + coord[d];
#if defined(NDSC_DEFECT_RECIPROCAL_DIVISION)
    return answer(h, locate_id_by_reciprocal(*h, page), out);
#else
    return answer(h, locate_id(*h, page), out);
#endif
}

NDSC_EXPORT int ndsc_locate_shard_page(const ndsc_handle* h, uint64_t shard_id, uint64_t page_in_shard,
                                       ndsc_location* out) {
    if (shard_id >= h->num_shards || page_in_shard >= h->shard_volume) return NDSC_OUT_OF_RANGE;
    u64 core = 0, slot = 0;
    deal(*h, shard_id, core, slot);
#if defined(NDSC_DEFECT_SHARD_PAGE_IGNORED)
    page_in_shard = 0;
#endif
    return answer(h, {core, slot * h->shard_volume + page_in_shard}, out);
}

NDSC_EXPORT int ndsc_core_pages(const ndsc_handle* h, uint32_t core_x, uint32_t core_y, uint64_t* pages,
                                uint64_t capacity, uint64_t* count) {
    u64 core = 0;
    while (core < h->cores.size() && !(h->core_view[core].x == core_x && h->core_view[core].y == core_y)) ++core;
    std::vector<u64> held;
    if (core == h->cores.size()) {
        // grid_2d trims its range: a listed core outside the trimmed list holds nothing.
#if defined(NDSC_DEFECT_CORE_IN_BOUNDING_BOX)
        bool listed = false;
        {
            std::uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;
            for (const xy& k : h->listed) {
                x0 = std::min(x0, k.x);
                y0 = std::min(y0, k.y);
                x1 = std::max(x1, k.x);
                y1 = std::max(y1, k.y);
            }
            listed = core_x >= x0 && core_x <= x1 && core_y >= y0 && core_y <= y1;
        }
#else
        const bool listed =
            std::any_of(h->listed.begin(), h->listed.end(), [&](xy k) { return k.x == core_x && k.y == core_y; });
#endif
        if (!listed) return NDSC_OUT_OF_RANGE;
#if defined(NDSC_DEFECT_TRIMMED_CORE_REFUSED)
        return NDSC_OUT_OF_RANGE;
#else
        return ndsc_support::put_pages(held, pages, capacity, count);
#endif
    }
    try {
#if defined(NDSC_DEFECT_HANG)
        // Walks the core's slots until it meets the shard count exactly.
        for (u64 slot = 0;; ++slot) {
            const u64 s = shard_number_of_slot(*h, core, slot);
            if (s == h->num_shards) break;
            if (s < h->num_shards) pages_of_shard(*h, s, held);
        }
#else
        for (u64 slot = 0; slot < h->max_shards_per_core; ++slot) {
            const u64 s = shard_in_slot(*h, core, slot);
            if (s == h->num_shards) break;
#if defined(NDSC_DEFECT_ITER_SKIPS_LAST_PARTIAL)
            if (s + 1 == h->num_shards && has_padding(*h, s)) break;
#endif
            pages_of_shard(*h, s, held);
        }
#endif
    } catch (const std::bad_alloc&) {
        return NDSC_UNSUPPORTED;
    }
#if defined(NDSC_DEFECT_LARGE_PATH_ORDER)
    // A second path for big specs: the core's pages collected by page id.
    if (h->cores.size() * h->max_shards_per_core * h->shard_volume > 65536) std::sort(held.begin(), held.end());
#endif
#if defined(NDSC_DEFECT_CAPACITY_IGNORED)
    // Every id written, as if the buffer were always large enough.
    (void)capacity;
    if (count == nullptr || (pages == nullptr && !held.empty())) return NDSC_OUT_OF_RANGE;
    std::copy(held.begin(), held.end(), pages);
    *count = held.size();
    return NDSC_OK;
#else
    return ndsc_support::put_pages(held, pages, capacity, count);
#endif
}

NDSC_EXPORT int ndsc_page_run(const ndsc_handle* h, uint64_t page_id, uint64_t* length) {
    if (length == nullptr || page_id >= h->num_pages) return NDSC_OUT_OF_RANGE;
    *length = run_from(*h, page_id);
    return NDSC_OK;
}

NDSC_EXPORT int ndsc_thread_pages(const ndsc_handle* h, uint32_t thread, uint32_t threads, ndsc_page_location* pages,
                                  uint64_t capacity, uint64_t* count) {
    if (count == nullptr || threads == 0 || thread >= threads) return NDSC_OUT_OF_RANGE;
#if defined(NDSC_DEFECT_THREADS_ABOVE_PAGES)
    if (threads > h->num_pages) return NDSC_OUT_OF_RANGE;
#endif
    const u64 n = h->num_pages, k = threads;
    u64 held = 0;
    auto visit = [&](u64 p) {
        if (held < capacity && pages != nullptr) {
            const place at = locate_id(*h, p);
            const xy core = h->core_view[at.core];
            pages[held] = ndsc_page_location{p, core.x, core.y, address_of(*h, at.offset)};
        }
        ++held;
    };
#if defined(NDSC_DEFECT_THREAD_SKIPS_LAST)
    for (u64 p = thread; p + 1 < n; p += k) visit(p);
#elif defined(NDSC_DEFECT_THREAD_STARTS_BLOCK)
    for (u64 p = thread * ceil_div(n, k); p < n; p += k) visit(p);
#elif defined(NDSC_DEFECT_THREAD_STEP_RESETS_AT_RUN)
    for (u64 p = thread; p < n;) {
        visit(p);
        const u64 run_end = p + run_from(*h, p);
        p = p + k < run_end ? p + k : run_end;
    }
#else
    for (u64 p = thread; p < n; p += k) visit(p);
#endif
#if defined(NDSC_DEFECT_THREAD_COUNT_CAPACITY)
    *count = std::min(held, capacity);
#else
    *count = held;
#endif
    if (held > capacity) return NDSC_BUFFER_TOO_SMALL;
    return held > 0 && pages == nullptr ? NDSC_OUT_OF_RANGE : NDSC_OK;
}

}  // extern "C"
