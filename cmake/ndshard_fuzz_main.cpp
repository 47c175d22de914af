// Standalone replay driver for fuzz targets built without libFuzzer (gcc, or
// NDSHARD_FUZZ_ENGINE=OFF). Usage: fuzz_<n> [file-or-directory...]
// Runs LLVMFuzzerTestOneInput once on an empty input, then on every regular file given or
// found (recursively, in sorted order) under a given directory. Arguments starting with '-'
// (libFuzzer flags) are ignored so the same command lines work in both modes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

namespace {

bool run_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    const std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : -1;
    std::vector<std::uint8_t> data(size > 0 ? static_cast<std::size_t>(size) : 0);
    if (size < 0 || !in.seekg(0) ||
        !in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size()))) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        return false;
    }
    // A fresh heap copy of exactly `size` bytes, so ASan catches reads past the end.
    LLVMFuzzerTestOneInput(data.empty() ? nullptr : data.data(), data.size());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (LLVMFuzzerInitialize != nullptr) {
        LLVMFuzzerInitialize(&argc, &argv);
    }
    LLVMFuzzerTestOneInput(nullptr, 0);

    std::size_t executed = 0;
    bool ok = true;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.empty() || arg[0] == '-') {
            continue;
        }
        const std::filesystem::path path(arg);
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) {
            // Sorted as strings (byte order): comparing paths element by element cost more
            // than some inputs of a small target.
            std::vector<std::string> files;
            for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
                if (entry.is_regular_file()) {
                    files.push_back(entry.path().string());
                }
            }
            std::sort(files.begin(), files.end());
            for (const auto& file : files) {
                ok = run_file(file) && ok;
                ++executed;
            }
        } else {
            ok = run_file(path) && ok;
            ++executed;
        }
    }
    std::fprintf(stderr, "ndshard fuzz replay: executed %zu inputs (+1 empty)\n", executed);
    return ok ? 0 : 1;
}
