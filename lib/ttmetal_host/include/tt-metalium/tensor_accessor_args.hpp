// tt-metalium/tensor_accessor_args.hpp - a buffer's TensorAccessorArgs words for a kernel:
// compile-time words (appended to the kernel's compile_args) and common runtime words
// (SetCommonRuntimeArgs), split by an ArgsConfig's Runtime* flags. The words are
// ndshard::ttsim::accessor_words', the ones ttsim's own programs use.
//
// TensorAccessorArgs(buffer) without a config takes the mix the checker runs the case with
// (all compile-time outside kcheck), so one factory is checked over every mix; a config
// given is used as it is.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hostdevcommon/tensor_accessor/arg_config.hpp"
#include "tt-metalium/buffer.hpp"

namespace tt::tt_metal {

class TensorAccessorArgs {
public:
    TensorAccessorArgs() = default;
    explicit TensorAccessorArgs(const Buffer& buffer) : TensorAccessorArgs(buffer, buffer.ndshard_state().case_mix) {}
    TensorAccessorArgs(const Buffer& buffer, tensor_accessor::ArgsConfig config)
        : TensorAccessorArgs(buffer, static_cast<std::uint32_t>(config.raw())) {}

    [[nodiscard]] std::vector<std::uint32_t> get_compile_time_args() const { return words_.compile_time; }
    [[nodiscard]] std::vector<std::uint32_t> get_common_runtime_args() const { return words_.common_runtime; }
    // Appends the compile-time words; std::logic_error when some words are runtime ones
    // (they need the two-list form).
    void append_to(std::vector<std::uint32_t>& compile_time_args) const {
        if (!words_.common_runtime.empty())
            throw std::logic_error(
                "TensorAccessorArgs::append_to(cta): " + std::to_string(words_.common_runtime.size()) +
                " runtime words need append_to(cta, common_runtime_args)");
        compile_time_args.insert(compile_time_args.end(), words_.compile_time.begin(), words_.compile_time.end());
    }
    void append_to(std::vector<std::uint32_t>& compile_time_args,
                   std::vector<std::uint32_t>& common_runtime_args) const {
        compile_time_args.insert(compile_time_args.end(), words_.compile_time.begin(), words_.compile_time.end());
        common_runtime_args.insert(common_runtime_args.end(), words_.common_runtime.begin(),
                                   words_.common_runtime.end());
    }

private:
    TensorAccessorArgs(const Buffer& buffer, std::uint32_t runtime_mix)
        : words_(buffer.ndshard_state().words(runtime_mix & ::ndshard::tt::flag::runtime_all)) {}

    ::ndshard::tt::tt_words words_;
};

}  // namespace tt::tt_metal
