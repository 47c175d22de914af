// bench/alloc_counter.hpp - live and peak heap bytes of this process.
//
// alloc_counter.cpp replaces the global operator new/delete of the benchmark binary and
// counts malloc_usable_size of every block, so "peak bytes" of BM_host_mapping is what
// the heap really held, capacity slack and per-vector blocks included.
#pragma once

#include <cstddef>

namespace ndshard::bench {

std::size_t live_heap_bytes() noexcept;
std::size_t peak_heap_bytes() noexcept;
// Restarts the peak at the current live size.
void reset_peak_heap_bytes() noexcept;

}  // namespace ndshard::bench
