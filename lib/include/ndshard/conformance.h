/* ndshard/conformance.h - the plug-in ABI of `ndshard conform`: how an implementation
 * under test (a shared library) exposes its ND-sharding address map to ndshard's laws.
 *
 * C99, no C++ types, no ndshard headers: an adapter includes this file and nothing else
 * of ndshard. It exports the functions declared at the bottom with C linkage (three
 * required, the queries it declares in ndsc_info); the runner finds them with dlsym.
 * Everything is plain data passed by pointer. Version 2 adds two optional queries,
 * ndsc_page_run and ndsc_thread_pages (see "Version 2" below).
 *
 * Stability. NDSC_ABI_VERSION is the version this header describes. Every struct the
 * runner passes IN starts with `struct_size`: later versions only append fields, and an
 * adapter reads the fields its own version knows. Every struct the adapter fills OUT is
 * zeroed by the runner and also starts with `struct_size`, which the adapter leaves as
 * it found it. A runner of version N loads adapters of every version 1..N. Enumerators
 * and bit values are never renumbered. A query bit may only be declared by an adapter whose
 * abi_version is at least the version that defined it (the runner refuses to load an
 * adapter of abi_version 1 that declares NDSC_Q_PAGE_RUN or NDSC_Q_THREAD_PAGES).
 *
 * Lifetimes. The ndsc_spec and its ranges are valid only during ndsc_create: an adapter
 * copies what it keeps (the runner overwrites them afterwards and checks the answers do
 * not change). Pointers passed to a query are valid only during that call.
 *
 * Semantics (the runner's oracle implements exactly these; see docs/rules.md):
 *  - Shapes are in pages when page_kind == NDSC_PAGES; otherwise in elements, converted
 *    to pages as TILE (tile_h x tile_w on the last two dims) or ROW_MAJOR (a page is one
 *    row of shard[-1] elements) layout.
 *  - Page ids are row-major over the tensor's page grid (last dim fastest).
 *  - The core list is the ranges expanded in the order given; inside a range ROW_MAJOR
 *    makes x vary fastest, COL_MAJOR y. GRID_2D uses exactly one range.
 *  - A location is the core that holds a page and the byte address of the page:
 *    bank_base + (slot * shard_volume + in_shard_offset) * aligned_page_size.
 *  - A spec whose largest byte address does not fit in 32 bits must be rejected.
 */
#ifndef NDSHARD_CONFORMANCE_H
#define NDSHARD_CONFORMANCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NDSC_ABI_VERSION 2u
#define NDSC_MAX_RANK 8u

/* Return codes of every query. */
enum ndsc_status {
    NDSC_OK = 0,
    NDSC_REJECTED = 1,        /* ndsc_create: the spec is invalid (reason filled) */
    NDSC_UNSUPPORTED = 2,     /* outside the domain the adapter declared */
    NDSC_OUT_OF_RANGE = 3,    /* a query argument outside its range (page id >= pages, ...) */
    NDSC_BUFFER_TOO_SMALL = 4 /* ndsc_core_pages, ndsc_thread_pages: *count set to the size needed */
};

enum ndsc_page_kind { NDSC_PAGES = 0, NDSC_TILE = 1, NDSC_ROW_MAJOR_PAGES = 2 };
enum ndsc_orientation { NDSC_ROW_MAJOR = 0, NDSC_COL_MAJOR = 1 };
enum ndsc_strategy { NDSC_ROUND_ROBIN_1D = 0, NDSC_CONTIGUOUS_1D = 1, NDSC_GRID_2D = 2 };

/* Query bits for ndsc_info.queries: which of the query functions answer. */
#define NDSC_Q_PAGE_ID 0x1u    /* ndsc_locate_page */
#define NDSC_Q_PAGE_COORD 0x2u /* ndsc_locate_coord */
#define NDSC_Q_SHARD_PAGE 0x4u /* ndsc_locate_shard_page */
#define NDSC_Q_CORE_PAGES 0x8u /* ndsc_core_pages */
/* Since ABI version 2. */
#define NDSC_Q_PAGE_RUN 0x10u     /* ndsc_page_run */
#define NDSC_Q_THREAD_PAGES 0x20u /* ndsc_thread_pages */

typedef struct ndsc_core_range {
    uint32_t x0, y0, x1, y1; /* inclusive corners */
} ndsc_core_range;

typedef struct ndsc_spec {
    uint32_t struct_size; /* sizeof(ndsc_spec) of the runner */
    uint32_t rank;        /* tensor rank, 1..NDSC_MAX_RANK */
    uint64_t tensor[NDSC_MAX_RANK];
    uint32_t shard_rank; /* 1..rank; leading tensor dims fold into the outermost */
    uint64_t shard[NDSC_MAX_RANK];
    uint32_t page_kind;      /* enum ndsc_page_kind */
    uint64_t tile_h, tile_w; /* NDSC_TILE only */
    uint64_t element_size;   /* bytes per element; the page size when NDSC_PAGES */
    uint64_t alignment;      /* a power of two; pages are padded to it */
    uint32_t orientation;    /* enum ndsc_orientation */
    uint32_t strategy;       /* enum ndsc_strategy */
    uint64_t bank_base;      /* the buffer's byte address in every core */
    uint32_t num_ranges;
    const ndsc_core_range* ranges;
} ndsc_spec;

typedef struct ndsc_info {
    uint32_t struct_size; /* left as the runner set it */
    uint32_t abi_version; /* NDSC_ABI_VERSION the adapter was built against */
    const char* name;     /* static strings */
    const char* version;
    uint32_t queries;            /* NDSC_Q_* bits */
    uint32_t strategies;         /* bit (1u << enum ndsc_strategy) per strategy supported */
    uint32_t page_kinds;         /* bit (1u << enum ndsc_page_kind) per page kind supported */
    uint32_t min_rank, max_rank; /* tensor ranks supported, within 1..NDSC_MAX_RANK */
    /* Appended to version 2; write it only when NDSC_INFO_HAS(info, max_core_coord) (a
     * runner from before it passes a shorter struct and knows no such limit). The largest
     * core coordinate, x and y, the implementation supports; 0 (as the runner leaves it):
     * every coordinate the rules allow. An implementation that keeps a coordinate in 8 bits,
     * as tt-metal's accessor words do, declares 255, and the runner then hands it only specs
     * whose core ranges lie within 0..255 (also the invalid ones of the acceptance law). */
    uint32_t max_core_coord;
} ndsc_info;

/* Whether an out struct the runner passed is long enough to hold `field` (one appended
 * after the struct's first version): NDSC_INFO_HAS(info, max_core_coord). */
#define NDSC_INFO_HAS(info, field) ((info)->struct_size >= offsetof(ndsc_info, field) + sizeof((info)->field))

typedef struct ndsc_location {
    uint32_t struct_size; /* left as the runner set it */
    uint32_t core_x, core_y;
    uint64_t address; /* byte address in that core */
} ndsc_location;

/* Version 2: one element of the array ndsc_thread_pages fills. It is an ARRAY ELEMENT, so
 * it has no struct_size and is never extended: a later version that needs more per page
 * defines a new element type and a new query. */
typedef struct ndsc_page_location {
    uint64_t page_id;
    uint32_t core_x, core_y;
    uint64_t address; /* byte address in that core, as ndsc_location.address */
} ndsc_page_location;

/* Opaque handle of an accepted spec. */
typedef struct ndsc_handle ndsc_handle;

/* Fills *info. Returns NDSC_OK. */
typedef int (*ndsc_describe_fn)(ndsc_info* info);
/* Accepts the spec (NDSC_OK, *out set) or rejects it (NDSC_REJECTED, a NUL-terminated
 * reason of at most reason_size bytes in `reason`). NDSC_UNSUPPORTED only outside the domain
 * declared in ndsc_info: inside it every spec must be accepted or rejected (the runner fails
 * the law that met an NDSC_UNSUPPORTED there, since v1 has no other way to declare a limit). */
typedef int (*ndsc_create_fn)(const ndsc_spec* spec, ndsc_handle** out, char* reason, size_t reason_size);
typedef void (*ndsc_destroy_fn)(ndsc_handle* h);
/* Page id in [0, number of pages) -> where it lives. */
typedef int (*ndsc_locate_page_fn)(const ndsc_handle* h, uint64_t page_id, ndsc_location* out);
/* Page coordinate (tensor rank entries, in pages) -> where it lives. */
typedef int (*ndsc_locate_coord_fn)(const ndsc_handle* h, const uint64_t* coord, uint32_t rank, ndsc_location* out);
/* Shard id in [0, number of shards) and a position in [0, shard volume) of the full shard
 * (row-major over the shard shape, padding positions included) -> that slot's location. */
typedef int (*ndsc_locate_shard_page_fn)(const ndsc_handle* h, uint64_t shard_id, uint64_t page_in_shard,
                                         ndsc_location* out);
/* The real (non-padding) page ids held by core (x, y), in device address order. Writes at
 * most `capacity` ids to `pages` and the number held to *count; NDSC_BUFFER_TOO_SMALL when
 * *count > capacity. A core not in the given ranges is NDSC_OUT_OF_RANGE; a GRID_2D core
 * that is in the range but trimmed off the shard grid holds no page (NDSC_OK, *count 0). */
typedef int (*ndsc_core_pages_fn)(const ndsc_handle* h, uint32_t core_x, uint32_t core_y, uint64_t* pages,
                                  uint64_t capacity, uint64_t* count);

/* Version 2: the two iteration features of a device accessor (tt-metal's and ndshard's).
 *
 * A RUN from page p is pages p, p+1, ..., p+L-1 (consecutive page ids) that all lie on p's
 * core at consecutive aligned pages: page p+j at address(p) + j * aligned_page_size. Such
 * pages can be moved in one transfer of L pages. ndsc_page_run sets *length to the MAXIMAL
 * such L (p included, so L >= 1): page p+L is past the last page, on another core, or not
 * at address(p) + L * aligned_page_size. A run continues over shard boundaries whenever the
 * next page id does sit in the next slot (a full shard whose successor shard is the core's
 * next slot), and stops at padding, at an edge shard and at a change of core.
 * NDSC_OUT_OF_RANGE for page_id >= the number of pages (no page has a run: *length is then
 * left alone). */
typedef int (*ndsc_page_run_fn)(const ndsc_handle* h, uint64_t page_id, uint64_t* length);
/* The share of thread `thread` of `threads` threads that split the tensor's pages between
 * them: page ids thread, thread + threads, thread + 2 * threads, ... below the number of
 * pages, in increasing order, each with its location (the threads together visit every
 * page exactly once). A thread whose first page is past the last has none (NDSC_OK,
 * *count 0): threads may exceed the number of pages. Writes at most `capacity` elements
 * to `pages` and their number to *count; NDSC_BUFFER_TOO_SMALL when the share holds more
 * than `capacity` pages, with *count set to the number it holds and nothing written at or
 * past pages[capacity]. threads == 0 or thread >= threads is NDSC_OUT_OF_RANGE. */
typedef int (*ndsc_thread_pages_fn)(const ndsc_handle* h, uint32_t thread, uint32_t threads, ndsc_page_location* pages,
                                    uint64_t capacity, uint64_t* count);

/* The symbols an adapter exports. ndsc_describe, ndsc_create and ndsc_destroy are required;
 * a query the adapter does not declare in ndsc_info.queries may be left out. */
#define NDSC_SYMBOL_DESCRIBE "ndsc_describe"
#define NDSC_SYMBOL_CREATE "ndsc_create"
#define NDSC_SYMBOL_DESTROY "ndsc_destroy"
#define NDSC_SYMBOL_LOCATE_PAGE "ndsc_locate_page"
#define NDSC_SYMBOL_LOCATE_COORD "ndsc_locate_coord"
#define NDSC_SYMBOL_LOCATE_SHARD_PAGE "ndsc_locate_shard_page"
#define NDSC_SYMBOL_CORE_PAGES "ndsc_core_pages"
#define NDSC_SYMBOL_PAGE_RUN "ndsc_page_run"         /* version 2 */
#define NDSC_SYMBOL_THREAD_PAGES "ndsc_thread_pages" /* version 2 */

#if defined(_WIN32)
#define NDSC_EXPORT __declspec(dllexport)
#else
#define NDSC_EXPORT __attribute__((visibility("default")))
#endif

NDSC_EXPORT int ndsc_describe(ndsc_info* info);
NDSC_EXPORT int ndsc_create(const ndsc_spec* spec, ndsc_handle** out, char* reason, size_t reason_size);
NDSC_EXPORT void ndsc_destroy(ndsc_handle* h);
NDSC_EXPORT int ndsc_locate_page(const ndsc_handle* h, uint64_t page_id, ndsc_location* out);
NDSC_EXPORT int ndsc_locate_coord(const ndsc_handle* h, const uint64_t* coord, uint32_t rank, ndsc_location* out);
NDSC_EXPORT int ndsc_locate_shard_page(const ndsc_handle* h, uint64_t shard_id, uint64_t page_in_shard,
                                       ndsc_location* out);
NDSC_EXPORT int ndsc_core_pages(const ndsc_handle* h, uint32_t core_x, uint32_t core_y, uint64_t* pages,
                                uint64_t capacity, uint64_t* count);
NDSC_EXPORT int ndsc_page_run(const ndsc_handle* h, uint64_t page_id, uint64_t* length);
NDSC_EXPORT int ndsc_thread_pages(const ndsc_handle* h, uint32_t thread, uint32_t threads, ndsc_page_location* pages,
                                  uint64_t capacity, uint64_t* count);

#ifdef __cplusplus
}
#endif

#endif /* NDSHARD_CONFORMANCE_H */
