// kcheck's parts shared by kcheck.cpp and kcheck_draw.cpp (not installed).
#pragma once

#include <cstdint>

#include "ndshard/sim/device.hpp"
#include "ndshard/ttsim/kcheck.hpp"

namespace ndshard::ttsim::detail {

// The device a case runs on (case_grid: 4 x 2 workers and 4 DRAM banks by default).
sim::device_config case_device(const case_grid& g);

// An interleaved buffer over every bank of the platform's table (what tt-metal calls
// interleaved, and what InterleavedAddrGen addresses).
distribution_spec whole_table_interleaved(const sim::device_config& cfg, const shape& pages, std::uint64_t bytes,
                                          sim::memory_kind memory);

}  // namespace ndshard::ttsim::detail
