// The L1 window: every worker's L1 image in one shared memory file, viewed whole by the
// simulator and, one core at a time, at the address kernels use (ttsim::l1_window), so
// that a kernel's plain loads and stores through an L1 address reach its own core's L1.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ndshard::ttsim::detail {

class l1_window {
public:
    // cores images of `l1_size` bytes; kernels see the shown one at `window`.
    l1_window(std::uint32_t cores, std::uint64_t l1_size, std::uint64_t window);
    ~l1_window();
    l1_window(const l1_window&) = delete;
    l1_window& operator=(const l1_window&) = delete;

    // The image of core `index` (byte 0 is L1 address `window`), for the simulator.
    [[nodiscard]] std::byte* image(std::uint32_t index) const noexcept { return view_ + index * l1_size_; }
    // Maps core `index`'s image at the window (nothing when it is already there).
    void show(std::uint32_t index);

private:
    int fd_ = -1;
    std::byte* view_ = nullptr;
    std::uint64_t l1_size_ = 0, total_ = 0;
    std::uint64_t window_ = 0;
    std::int64_t shown_ = -1;
};

}  // namespace ndshard::ttsim::detail
