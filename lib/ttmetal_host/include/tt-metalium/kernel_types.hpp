// tt-metalium/kernel_types.hpp - a data-movement kernel's configuration (CreateKernel's last
// argument), its reader and writer shorthands, and the runtime argument limit.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tt-metalium/data_types.hpp"

namespace tt::tt_metal {

// Unique plus common runtime arguments a kernel may have on one core.
inline constexpr std::uint32_t max_runtime_args = 341;

using KernelHandle = std::uint32_t;

// Accepted and ignored: kernels are compiled at ttsim's one level.
enum class KernelBuildOptLevel : std::uint8_t { O1, O2, O3, O0, Os, Ofast, Oz };

struct DataMovementConfig {
    DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
    NOC noc = NOC::RISCV_0_default;
    NOC_MODE noc_mode = NOC_MODE::DM_DEDICATED_NOC;
    std::vector<std::uint32_t> compile_args{};
    std::map<std::string, std::string> defines{};  // -D name=value for the kernel's compile
    std::unordered_map<std::string, std::uint32_t> named_compile_args{};
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2;
};

// tt-metal's shorthands, with its defaults on a Wormhole or Blackhole device: a reader on
// RISCV_1 with NoC 0 (the NoC tt-metal prefers for DRAM reads), a writer on RISCV_0 with
// NoC 1 (for DRAM writes); the arguments in tt-metal's order.
struct ReaderDataMovementConfig : DataMovementConfig {
    ReaderDataMovementConfig(  // NOLINT: implicit, as tt-metal's
        std::vector<std::uint32_t> compile_args = {}, std::map<std::string, std::string> defines = {},
        std::unordered_map<std::string, std::uint32_t> named_compile_args = {},
        KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2)
        : DataMovementConfig{DataMovementProcessor::RISCV_1,
                             NOC::NOC_0,
                             NOC_MODE::DM_DEDICATED_NOC,
                             std::move(compile_args),
                             std::move(defines),
                             std::move(named_compile_args),
                             opt_level} {}
};
struct WriterDataMovementConfig : DataMovementConfig {
    WriterDataMovementConfig(  // NOLINT: implicit, as tt-metal's
        std::vector<std::uint32_t> compile_args = {}, std::map<std::string, std::string> defines = {},
        std::unordered_map<std::string, std::uint32_t> named_compile_args = {},
        KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2)
        : DataMovementConfig{DataMovementProcessor::RISCV_0,
                             NOC::NOC_1,
                             NOC_MODE::DM_DEDICATED_NOC,
                             std::move(compile_args),
                             std::move(defines),
                             std::move(named_compile_args),
                             opt_level} {}
};

}  // namespace tt::tt_metal
