// tests/device/query_paths.cpp - every accessor query as a function of its own, for
// check_query_paths.py to read in the rv32im object code: no query may call a library
// routine for 64-bit (or any) division or multiplication, and the hardware divides on
// them are counted (the goal is none). Construction (ctor_*) is listed apart: it may use
// the 32-bit hardware divide to make its reciprocals, but no library call either.
// Instances: all-runtime (both deal rules) and the first 15 compile-time mixes of
// device_cases.hpp (the 15 valid masks in turn).
#include <array>
#include <cstdint>

#include "ndshard/accessor.hpp"
#include "ndshard/interleaved.hpp"
#include "device_cases.hpp"

using u32 = std::uint32_t;

#define NDSHARD_QUERY_PATHS(name, CT)                                                                                  \
    using name##_t = ndshard::accessor<CT>;                                                                            \
    extern "C" [[gnu::noinline]] ndshard::noc_addr q_noc_addr_##name(const name##_t& a, u32 id) {                      \
        return a.get_noc_addr(id, 4);                                                                                  \
    }                                                                                                                  \
    extern "C"                                                                                                         \
        [[gnu::noinline]] ndshard::bank_and_offset q_at_##name(const name##_t& a, const std::array<u32, 8>& c) {       \
        return a.get_bank_and_offset_at(c);                                                                            \
    }                                                                                                                  \
    extern "C" [[gnu::noinline]] ndshard::noc_addr q_shard_##name(const name##_t& a, u32 s) {                          \
        return a.get_shard_noc_addr(s);                                                                                \
    }                                                                                                                  \
    extern "C" [[gnu::noinline]] ndshard::noc_addr q_shard_at_##name(const name##_t& a, const std::array<u32, 8>& c) { \
        return a.get_shard_noc_addr_at(c);                                                                             \
    }                                                                                                                  \
    extern "C" [[gnu::noinline]] bool q_local_##name(const name##_t& a, u32 id, ndshard::core_coord me) {              \
        return a.is_local_page(id, me) || a.is_local_shard(id, me);                                                    \
    }                                                                                                                  \
    extern "C" [[gnu::noinline]] u32 q_run_##name(const name##_t& a, u32 id) { return a.contiguous_pages(id); }        \
    extern "C" [[gnu::noinline]] u32 q_slots_##name(const name##_t& a, u32 b) {                                        \
        return a.shards_in_bank(b) + a.shard_in_slot(b, 0);                                                            \
    }                                                                                                                  \
    template <class R>                                                                                                 \
    static u32 sum_##name(const name##_t& a, R range) {                                                                \
        u32 s = 0;                                                                                                     \
        for (auto it = range.begin(); it != ndshard::page_end; ++it) s += a.noc_address_of(*it).addr;                  \
        return s;                                                                                                      \
    }                                                                                                                  \
    extern "C" [[gnu::noinline]] u32 q_pages_##name(const name##_t& a) { return sum_##name(a, a.pages()); }            \
    extern "C" [[gnu::noinline]] u32 q_thread_pages_##name(const name##_t& a, u32 t, u32 k) {                          \
        return sum_##name(a, a.pages(t, k));                                                                           \
    }                                                                                                                  \
    extern "C" [[gnu::noinline]] u32 q_shard_pages_##name(const name##_t& a, u32 s) {                                  \
        return sum_##name(a, a.shard_pages(s));                                                                        \
    }                                                                                                                  \
    extern "C" [[gnu::noinline]] u32 q_local_pages_##name(const name##_t& a, u32 b) {                                  \
        return sum_##name(a, a.local_pages(b));                                                                        \
    }                                                                                                                  \
    extern "C" [[gnu::noinline]] u32 ctor_##name(const u32* w, u32 n, u32 base, u32 page) {                            \
        ndshard::args_status st;                                                                                       \
        const name##_t a(ndshard::word_span(w, n), base, page, st);                                                    \
        asm volatile("" : : "r"(&a) : "memory");                                                                       \
        return static_cast<u32>(st.error);                                                                             \
    }

NDSHARD_QUERY_PATHS(runtime_rr, &ndshard::runtime_round_robin)
NDSHARD_QUERY_PATHS(runtime_contiguous, &ndshard::runtime_contiguous)
NDSHARD_QUERY_PATHS(ct0, &device_cases::ct0)
NDSHARD_QUERY_PATHS(ct1, &device_cases::ct1)
NDSHARD_QUERY_PATHS(ct2, &device_cases::ct2)
NDSHARD_QUERY_PATHS(ct3, &device_cases::ct3)
NDSHARD_QUERY_PATHS(ct4, &device_cases::ct4)
NDSHARD_QUERY_PATHS(ct5, &device_cases::ct5)
NDSHARD_QUERY_PATHS(ct6, &device_cases::ct6)
NDSHARD_QUERY_PATHS(ct7, &device_cases::ct7)
NDSHARD_QUERY_PATHS(ct8, &device_cases::ct8)
NDSHARD_QUERY_PATHS(ct9, &device_cases::ct9)
NDSHARD_QUERY_PATHS(ct10, &device_cases::ct10)
NDSHARD_QUERY_PATHS(ct11, &device_cases::ct11)
NDSHARD_QUERY_PATHS(ct12, &device_cases::ct12)
NDSHARD_QUERY_PATHS(ct13, &device_cases::ct13)
NDSHARD_QUERY_PATHS(ct14, &device_cases::ct14)

extern "C" [[gnu::noinline]] ndshard::noc_addr q_noc_addr_interleaved(const ndshard::interleaved_addr_gen& g, u32 id) {
    return g.get_noc_addr(id);
}
