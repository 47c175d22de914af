#include "l1_window.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ndshard::ttsim::detail {

namespace {
[[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("ttsim: " + what + ": " + std::strerror(errno));
}
}  // namespace

l1_window::l1_window(std::uint32_t cores, std::uint64_t l1_size, std::uint64_t window)
    : l1_size_(l1_size), total_(cores * l1_size), window_(window) {
    fd_ = memfd_create("ndshard-ttsim-l1", MFD_CLOEXEC);
    if (fd_ < 0) fail("memfd_create");
    if (ftruncate(fd_, static_cast<off_t>(total_)) != 0) fail("ftruncate of the L1 images");
    void* v = mmap(nullptr, total_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (v == MAP_FAILED) fail("mmap of the L1 images");
    view_ = static_cast<std::byte*>(v);
    // Claim the window's addresses now, so that a clash is an error here, not a corruption later.
    void* w = mmap(reinterpret_cast<void*>(window_), l1_size_, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (w == MAP_FAILED || w != reinterpret_cast<void*>(window_))
        fail("the L1 window at 0x" + [&] {
            char buf[24];
            std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(window_));
            return std::string(buf);
        }() + " is not free in this process");
}

l1_window::~l1_window() {
    munmap(reinterpret_cast<void*>(window_), l1_size_);
    if (view_ != nullptr) munmap(view_, total_);
    if (fd_ >= 0) close(fd_);
}

void l1_window::show(std::uint32_t index) {
    if (shown_ == index) return;
    void* w = mmap(reinterpret_cast<void*>(window_), l1_size_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_,
                   static_cast<off_t>(index * l1_size_));
    if (w == MAP_FAILED) fail("mapping core " + std::to_string(index) + "'s L1 at the window");
    shown_ = index;
}

}  // namespace ndshard::ttsim::detail
