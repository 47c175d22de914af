// tt-metalium/host_api.hpp - building a Program with tt-metal's host calls: CreateProgram,
// CreateKernel (data-movement kernels), CreateCircularBuffer and its Update* calls,
// CreateSemaphore, SetRuntimeArgs, SetCommonRuntimeArgs, GetRuntimeArgs, GetCommonRuntimeArgs. Argument
// orders are tt-metal's. A bad call throws std::invalid_argument naming the call and the
// value (a kernel on no core, two kernels on one processor of a core, a core the kernel is
// not on, too many runtime arguments);
// what needs the device (a core outside it, two CBs of one index on a core) is reported
// when ndshard runs the program. A factory declines a case by throwing not_applicable.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "ndshard/ttsim/not_applicable.hpp"
#include "tt-metalium/buffer.hpp"
#include "tt-metalium/circular_buffer_config.hpp"
#include "tt-metalium/core_coord.hpp"
#include "tt-metalium/data_types.hpp"
#include "tt-metalium/kernel_types.hpp"
#include "tt-metalium/program.hpp"
#include "tt-metalium/tensor_accessor_args.hpp"
#include "tt-metalium/work_split.hpp"

namespace tt::tt_metal {

// ndshard's own: thrown by a factory that declines a case (ndshard/ttsim/not_applicable.hpp).
using not_applicable = ::ndshard::ttsim::not_applicable;

using CoreSpec = std::variant<CoreCoord, CoreRange, CoreRangeSet>;

namespace detail {
inline CoreRangeSet to_set(const CoreSpec& spec) {
    if (const auto* c = std::get_if<CoreCoord>(&spec)) return CoreRangeSet(CoreRange(*c));
    if (const auto* r = std::get_if<CoreRange>(&spec)) return CoreRangeSet(*r);
    return std::get<CoreRangeSet>(spec);
}
inline kernel_record& kernel_of(const Program& program, KernelHandle k, const char* call) {
    auto& ks = program.ndshard_state().kernels;
    if (k >= ks.size())
        throw std::invalid_argument(std::string(call) + ": no kernel " + std::to_string(k) + " in the program (" +
                                    std::to_string(ks.size()) + " kernels)");
    return ks[k];
}
inline void check_count(const kernel_record& k, std::size_t unique, std::size_t common, const char* call) {
    if (unique + common > max_runtime_args)
        throw std::invalid_argument(std::string(call) + "(" + k.path + "): " + std::to_string(unique) + " unique + " +
                                    std::to_string(common) + " common runtime args, more than " +
                                    std::to_string(max_runtime_args));
}
}  // namespace detail

inline Program CreateProgram() { return Program(); }

// A data-movement kernel from `file_name` on every core of `core_spec`.
inline KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                                 const DataMovementConfig& config) {
    CoreRangeSet cores = detail::to_set(core_spec);
    if (cores.num_cores() == 0)
        throw std::invalid_argument("CreateKernel(" + file_name + "): the kernel is on no core");
    if (file_name.empty()) throw std::invalid_argument("CreateKernel: an empty file name");
    auto& ks = program.ndshard_state().kernels;
    for (const detail::kernel_record& other : ks) {  // one kernel per processor of a core
        if (other.config.processor != config.processor) continue;
        for (const CoreCoord& c : corerange_to_cores(cores))
            if (other.cores.contains(c))
                throw std::invalid_argument("CreateKernel(" + file_name + "): core " + c.str() + " already runs " +
                                            other.path + " on RISCV_" +
                                            std::to_string(static_cast<int>(config.processor)));
    }
    ks.push_back({file_name, std::move(cores), config, {}, {}});
    return static_cast<KernelHandle>(ks.size() - 1);
}

inline CBHandle CreateCircularBuffer(Program& program, const CoreSpec& core_spec, const CircularBufferConfig& config) {
    CoreRangeSet cores = detail::to_set(core_spec);
    if (cores.num_cores() == 0) throw std::invalid_argument("CreateCircularBuffer: the CB is on no core");
    bool any = false;
    for (std::uint32_t i = 0; i < NUM_CIRCULAR_BUFFERS; ++i) {
        if (!config.data_formats()[i]) continue;
        any = true;
        if (!config.page_sizes()[i])
            throw std::invalid_argument("CreateCircularBuffer: CB index " + std::to_string(i) +
                                        " has no page size (set_page_size)");
    }
    if (!any) throw std::invalid_argument("CreateCircularBuffer: the config names no CB index");
    auto& cbs = program.ndshard_state().cbs;
    cbs.push_back({std::move(cores), config});
    return static_cast<CBHandle>(cbs.size() - 1);
}

namespace detail {
inline CircularBufferConfig& cb_of(Program& program, CBHandle cb, const char* call) {
    auto& cbs = program.ndshard_state().cbs;
    if (cb >= cbs.size())
        throw std::invalid_argument(std::string(call) + ": no circular buffer " + std::to_string(cb) +
                                    " in the program (" + std::to_string(cbs.size()) + " circular buffers)");
    return cbs[cb].config;
}
}  // namespace detail

// A CB's memory moved to `buffer`'s (an L1 buffer: the CB is its shard on each core).
inline void UpdateDynamicCircularBufferAddress(Program& program, CBHandle cb_handle, const Buffer& buffer) {
    detail::cb_of(program, cb_handle, "UpdateDynamicCircularBufferAddress").set_globally_allocated_address(buffer);
}
inline void UpdateCircularBufferTotalSize(Program& program, CBHandle cb_handle, std::uint32_t total_size) {
    detail::cb_of(program, cb_handle, "UpdateCircularBufferTotalSize").set_total_size(total_size);
}
inline void UpdateCircularBufferPageSize(Program& program, CBHandle cb_handle, std::uint8_t buffer_index,
                                         std::uint32_t page_size) {
    detail::cb_of(program, cb_handle, "UpdateCircularBufferPageSize").set_page_size(buffer_index, page_size);
}

// A semaphore on every core of `core_spec`, `initial_value` at launch; returns its id (get_semaphore's argument).
inline std::uint32_t CreateSemaphore(Program& program, const CoreSpec& core_spec, std::uint32_t initial_value) {
    CoreRangeSet cores = detail::to_set(core_spec);
    if (cores.num_cores() == 0) throw std::invalid_argument("CreateSemaphore: the semaphore is on no core");
    auto& sems = program.ndshard_state().semaphores;
    sems.push_back({std::move(cores), initial_value});
    return static_cast<std::uint32_t>(sems.size() - 1);
}

// The same unique runtime arguments on every core of `core_spec`.
inline void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                           std::span<const std::uint32_t> runtime_args) {
    detail::kernel_record& k = detail::kernel_of(program, kernel, "SetRuntimeArgs");
    detail::check_count(k, runtime_args.size(), k.common_runtime_args.size(), "SetRuntimeArgs");
    for (const CoreCoord& c : corerange_to_cores(detail::to_set(core_spec))) {
        if (!k.cores.contains(c))
            throw std::invalid_argument("SetRuntimeArgs(" + k.path + "): core " + c.str() +
                                        " is not one of the kernel's cores " + k.cores.str());
        k.runtime_args[c].assign(runtime_args.begin(), runtime_args.end());
    }
}
inline void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                           std::initializer_list<std::uint32_t> runtime_args) {
    SetRuntimeArgs(program, kernel, core_spec,
                   std::span<const std::uint32_t>(runtime_args.begin(), runtime_args.size()));
}
inline void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                           const std::vector<std::uint32_t>& runtime_args) {
    SetRuntimeArgs(program, kernel, core_spec, std::span<const std::uint32_t>(runtime_args));
}
// Core i gets runtime_args[i].
inline void SetRuntimeArgs(const Program& program, KernelHandle kernel, const std::vector<CoreCoord>& cores,
                           const std::vector<std::vector<std::uint32_t>>& runtime_args) {
    if (cores.size() != runtime_args.size())
        throw std::invalid_argument("SetRuntimeArgs: " + std::to_string(cores.size()) + " cores but " +
                                    std::to_string(runtime_args.size()) + " argument lists");
    for (std::size_t i = 0; i < cores.size(); ++i)
        SetRuntimeArgs(program, kernel, cores[i], std::span<const std::uint32_t>(runtime_args[i]));
}

// The arguments every core of the kernel reads with get_common_arg_val.
inline void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel,
                                 std::span<const std::uint32_t> runtime_args) {
    detail::kernel_record& k = detail::kernel_of(program, kernel, "SetCommonRuntimeArgs");
    std::size_t unique = 0;
    for (const auto& [core, args] : k.runtime_args) unique = std::max(unique, args.size());
    detail::check_count(k, unique, runtime_args.size(), "SetCommonRuntimeArgs");
    k.common_runtime_args.assign(runtime_args.begin(), runtime_args.end());
}
inline void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel,
                                 const std::vector<std::uint32_t>& runtime_args) {
    SetCommonRuntimeArgs(program, kernel, std::span<const std::uint32_t>(runtime_args));
}

// The unique runtime arguments of a core, to read or change in place.
inline std::vector<std::uint32_t>& GetRuntimeArgs(const Program& program, KernelHandle kernel,
                                                  const CoreCoord& logical_core) {
    detail::kernel_record& k = detail::kernel_of(program, kernel, "GetRuntimeArgs");
    if (!k.cores.contains(logical_core))
        throw std::invalid_argument("GetRuntimeArgs(" + k.path + "): core " + logical_core.str() +
                                    " is not one of the kernel's cores");
    return k.runtime_args[logical_core];
}
inline std::vector<std::uint32_t>& GetCommonRuntimeArgs(const Program& program, KernelHandle kernel) {
    return detail::kernel_of(program, kernel, "GetCommonRuntimeArgs").common_runtime_args;
}

}  // namespace tt::tt_metal
