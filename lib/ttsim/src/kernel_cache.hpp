// Kernels compiled for the host, once per distinct compile-time argument set and cached:
// each variant is a shared object built with the platform header forced in, loaded with
// dlopen and entered through ndshard_ttsim_entry.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "ndshard/ttsim/kernel_abi.hpp"
#include "ndshard/ttsim/program.hpp"

namespace ndshard::ttsim::detail {

using kernel_entry = void (*)(abi::services*);

struct compiled_kernel {
    kernel_entry entry = nullptr;
    std::filesystem::path object;  // the cached shared object
    bool fresh = false;            // compiled now (not taken from the cache)
    double compile_seconds = 0;
};

// Compiles `k` (its source, compile-time arguments, named ones, defines and NoC) or takes
// it from `cache`. Throws std::runtime_error with the compiler's first lines on a failure.
compiled_kernel load_kernel(const kernel_desc& k, const std::filesystem::path& cache);

// The cache folder: `preferred` when set, else $NDSHARD_KERNEL_CACHE, else one in the
// system's temporary directory.
std::filesystem::path cache_folder(const std::filesystem::path& preferred);

}  // namespace ndshard::ttsim::detail
