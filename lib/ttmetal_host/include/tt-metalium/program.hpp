// tt-metalium/program.hpp - a Program: its data-movement kernels (source, cores, config,
// runtime arguments), circular buffers and semaphores, as host_api.hpp's calls add them.
// ndshard turns it into a ttsim::program to run (ndshard/ttmetal_host/bridge.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tt-metalium/circular_buffer_config.hpp"
#include "tt-metalium/core_coord.hpp"
#include "tt-metalium/kernel_types.hpp"

namespace tt::tt_metal {

using CBHandle = std::uintptr_t;

namespace detail {
struct kernel_record {
    std::string path;
    CoreRangeSet cores;
    DataMovementConfig config;
    std::map<CoreCoord, std::vector<std::uint32_t>> runtime_args;
    std::vector<std::uint32_t> common_runtime_args;
};
struct cb_record {
    CoreRangeSet cores;
    CircularBufferConfig config;
};
struct semaphore_record {
    CoreRangeSet cores;
    std::uint32_t initial = 0;
};
struct program_state {
    std::vector<kernel_record> kernels;
    std::vector<cb_record> cbs;
    std::vector<semaphore_record> semaphores;
};
}  // namespace detail

// Move-only, as tt-metal's; the calls that take a const Program& still change its arguments.
class Program {
public:
    Program() : s_(std::make_unique<detail::program_state>()) {}
    Program(Program&&) noexcept = default;
    Program& operator=(Program&&) noexcept = default;
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;
    ~Program() = default;

    // ndshard's own: what the calls recorded.
    [[nodiscard]] detail::program_state& ndshard_state() const { return *s_; }

private:
    std::unique_ptr<detail::program_state> s_;
};

}  // namespace tt::tt_metal
