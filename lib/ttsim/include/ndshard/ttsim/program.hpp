// ndshard/ttsim/program.hpp - an op described the way a tt-metal program factory describes
// it, in ndshard's names: the device's buffers (placed by distributions), circular buffers
// and semaphores per core, data-movement kernels (a source file as it is, its processor,
// compile-time arguments, defines, cores) and their runtime arguments. launch.hpp runs it.
//
//   ttsim::program p;
//   const auto cb = p.add_circular_buffer({.id = 0, .page_size = 2048, .num_pages = 2, .cores = cores});
//   std::vector<std::uint32_t> cta{0};                    // the CB id, then the accessor's words
//   ttsim::append_accessor_args(dev, src, ttsim::all_compile_time, cta, crta);
//   const auto reader = p.add_kernel({.source = "reader.cpp", .processor = ttsim::riscv_0,
//                                     .compile_time_args = cta, .cores = cores});
//   p.set_common_runtime_args(reader, crta);
//   for (core : cores) p.set_runtime_args(reader, core, {src_base, first_page, num_pages});
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/limits.hpp"
#include "ndshard/sim/device.hpp"
#include "ndshard/tt/data_format.hpp"
#include "ndshard/tt/host_words.hpp"

namespace ndshard::ttsim {

// The data-movement processors of a Tensix core and the NoC each uses by default
// (tt-metal's DataMovementProcessor::RISCV_0 / RISCV_1, NOC::RISCV_0_default / RISCV_1_default).
enum class processor : std::uint8_t { riscv_0, riscv_1 };
inline constexpr processor riscv_0 = processor::riscv_0;
inline constexpr processor riscv_1 = processor::riscv_1;

// tt-metal's DataFormat values (ndshard/tt/data_format.hpp), for a circular buffer's get_dataformat.
using data_format = ::ndshard::tt::DataFormat;

struct circular_buffer_desc {
    std::uint32_t id = 0;         // tt::CBIndex, 0..63
    std::uint32_t page_size = 0;  // bytes
    std::uint32_t num_pages = 0;
    // The CB's data format and tile shape (get_dataformat, get_tile_hw): get_tile_size is
    // the bytes of one such tile (ndshard/tt/tile.hpp), 2048 for the default Float16_b 32 x 32,
    // whatever page_size is. A CB of plain pages says so with a format and a tile_hw whose
    // tile is its page (Int32 and page bytes / 4, as kernels/ops does).
    data_format format = data_format::Float16_b;
    std::uint32_t tile_hw = 1024;  // elements of one tile (32 x 32)
    // Set: the CB's memory on each core is at this L1 address, inside a live buffer there
    // (tt-metal's set_globally_allocated_address: a sharded buffer's shard), its bytes the
    // buffer's; unset: a fresh region of the program.
    std::optional<std::uint32_t> address{};
    std::vector<core_coord> cores;
};

struct kernel_desc {
    std::string source;  // path of the kernel's source file, compiled as it is
    processor proc = processor::riscv_0;
    int noc = -1;  // -1: the processor's default (riscv_0 -> 0, riscv_1 -> 1)
    std::vector<std::uint32_t> compile_time_args;
    std::vector<std::pair<std::string, std::uint32_t>> named_compile_time_args;
    std::map<std::string, std::string> defines;  // -D name=value ("" for a bare name)
    // Extra include directories (-I, after the API's and the source's own folder), as a
    // tt-metal kernel's build adds its op's folders. Every header a kernel includes from
    // outside the API is part of its cache key (kernel_cache.cpp): a changed header recompiles.
    std::vector<std::string> include_dirs;
    std::vector<core_coord> cores;
    std::uint32_t threads = 1;  // data-movement threads running it per core (get_num_threads)
    std::string name;           // for reports; the source's file name by default
    // tt-metal's Metal 2.0 bindings (docs/kernels.md): when any of these is set, or
    // `bindings` is, the kernel sees args::name for each named runtime argument (the first
    // words of each core's runtime arguments, in this order), named common runtime argument
    // (the first common words) and named compile-time argument (above); ta::name for each
    // tensor, whose accessor words are compile-time arguments from cta_offset and whose bank
    // base address is the common word after the named ones (the first tensor's first);
    // sem::name for each semaphore id; dfb::name for each circular buffer id a DataflowBuffer
    // names; and get_vararg / get_common_vararg, the words after the named ones.
    struct tensor_binding {
        std::string name;
        std::uint32_t cta_offset = 0;
    };
    std::vector<std::string> named_runtime_args = {};
    std::vector<std::string> named_common_runtime_args = {};
    std::vector<tensor_binding> tensor_bindings = {};
    std::vector<std::pair<std::string, std::uint32_t>> semaphore_bindings = {};
    std::vector<std::pair<std::string, std::uint32_t>> dataflow_buffer_bindings = {};
    bool bindings = false;
};

struct semaphore_desc {
    std::vector<core_coord> cores;
    std::uint32_t initial = 0;
};

using kernel_handle = std::uint32_t;

class program {
public:
    // Returns the CB id.
    std::uint32_t add_circular_buffer(circular_buffer_desc cb);
    // Returns the semaphore id (get_semaphore's argument), the same on every core listed.
    std::uint32_t add_semaphore(semaphore_desc s);
    kernel_handle add_kernel(kernel_desc k);
    // A kernel's unique runtime arguments on one of its cores (get_arg_val).
    void set_runtime_args(kernel_handle k, core_coord core, std::vector<std::uint32_t> args);
    // Its common runtime arguments (get_common_arg_val), the same on all its cores.
    void set_common_runtime_args(kernel_handle k, std::vector<std::uint32_t> args);

    [[nodiscard]] const std::vector<circular_buffer_desc>& circular_buffers() const noexcept { return cbs_; }
    [[nodiscard]] const std::vector<semaphore_desc>& semaphores() const noexcept { return sems_; }
    [[nodiscard]] const std::vector<kernel_desc>& kernels() const noexcept { return kernels_; }
    [[nodiscard]] const std::vector<std::uint32_t>& runtime_args(kernel_handle k, core_coord core) const;
    [[nodiscard]] const std::vector<std::uint32_t>& common_runtime_args(kernel_handle k) const;

private:
    std::vector<circular_buffer_desc> cbs_;
    std::vector<semaphore_desc> sems_;
    std::vector<kernel_desc> kernels_;
    std::vector<std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>>> rt_;
    std::vector<std::vector<std::uint32_t>> crt_;
};

// The compile-time/runtime mix of a buffer's accessor words, as tt-metal's Runtime* bits
// (tt::flag): all_compile_time, all_runtime, or any of the 15 (tt::all_runtime_mixes()).
inline constexpr std::uint32_t all_compile_time = 0;
inline constexpr std::uint32_t all_runtime = tt::flag::runtime_all;

// tt-metal's TensorAccessorArgs words for a device buffer: Sharded (unless interleaved),
// IsDram for a DRAM buffer, the mix's Runtime bits (but a contiguous deal's bank count is
// compile-time always: bit 31 of it says the deal); bank coordinates are the buffer's
// cores (L1) or DRAM bank ids. An interleaved buffer (every shard dim 1 over the device's
// whole bank table) gets the interleaved words. Throws spec_error when the words cannot
// say this distribution (tt::why_no_words).
tt::tt_words accessor_words(const sim::device& dev, sim::buffer_id buffer, std::uint32_t runtime_mix,
                            unsigned layout = tt::default_layout);
// The same, appended to a kernel's compile-time and common runtime argument lists (what
// tt-metal's TensorAccessorArgs(buffer).append_to(cta, crta) does).
void append_accessor_args(const sim::device& dev, sim::buffer_id buffer, std::uint32_t runtime_mix,
                          std::vector<std::uint32_t>& compile_time, std::vector<std::uint32_t>& common_runtime,
                          unsigned layout = tt::default_layout);

}  // namespace ndshard::ttsim
