// tt-metalium/buffer.hpp - a device buffer as a program factory sees it: its address (the
// same in every bank), sizes, memory and distribution. On ndshard a Buffer is a view of a
// buffer of the simulated device, made by the checker (ndshard/ttmetal_host/bridge.hpp); it
// carries what a factory asks of it, so a factory compiled on its own needs nothing else.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "ndshard/distribution.hpp"
#include "ndshard/tt/host_words.hpp"
#include "tt-metalium/buffer_distribution_spec.hpp"
#include "tt-metalium/core_coord.hpp"

namespace tt::tt_metal {

enum class BufferType { DRAM, L1, SYSTEM_MEMORY, L1_SMALL, TRACE };
enum class TensorMemoryLayout { INTERLEAVED = 0, HEIGHT_SHARDED = 2, WIDTH_SHARDED = 3, BLOCK_SHARDED = 4 };

// What the device the buffers live on tells a factory.
class IDevice {
public:
    explicit IDevice(CoreCoord grid) : grid_(grid) {}
    // The worker grid the op may use: (0,0) to (x-1, y-1).
    [[nodiscard]] CoreCoord compute_with_storage_grid_size() const { return grid_; }

private:
    CoreCoord grid_;
};

namespace detail {
struct buffer_state {
    std::uint32_t address = 0;
    std::uint64_t page_size = 0, aligned_page_size = 0, num_pages = 0;
    BufferType type = BufferType::L1;
    bool sharded = false;
    ndshard::distribution dist;
    // The TensorAccessorArgs words for a Runtime* mix (ndshard::ttsim::accessor_words).
    std::function<ndshard::tt::tt_words(std::uint32_t runtime_mix)> words;
    // The mix the checker runs this case with: what TensorAccessorArgs(buffer) uses.
    std::uint32_t case_mix = 0;
    std::shared_ptr<IDevice> device;
};
}  // namespace detail

class Buffer {
public:
    explicit Buffer(std::shared_ptr<const detail::buffer_state> s) : s_(std::move(s)) {
        if (s_->sharded) spec_.emplace(s_->dist);
    }

    [[nodiscard]] IDevice* device() const { return s_->device.get(); }
    [[nodiscard]] std::uint32_t address() const { return s_->address; }
    // Bytes of the tensor's pages (num_pages * page_size).
    [[nodiscard]] std::uint64_t size() const { return s_->num_pages * s_->page_size; }
    [[nodiscard]] std::uint64_t page_size() const { return s_->page_size; }
    // A page's slot in its bank: page_size rounded up to the memory's alignment.
    [[nodiscard]] std::uint64_t aligned_page_size() const { return s_->aligned_page_size; }
    [[nodiscard]] std::uint64_t aligned_size_per_bank() const {
        return s_->dist.reserved_pages_per_core() * s_->aligned_page_size;
    }
    [[nodiscard]] std::uint32_t num_pages() const { return static_cast<std::uint32_t>(s_->num_pages); }
    [[nodiscard]] BufferType buffer_type() const { return s_->type; }
    [[nodiscard]] bool is_l1() const { return s_->type == BufferType::L1; }
    [[nodiscard]] bool is_dram() const { return s_->type == BufferType::DRAM; }
    [[nodiscard]] TensorMemoryLayout buffer_layout() const {
        return s_->sharded ? TensorMemoryLayout::BLOCK_SHARDED : TensorMemoryLayout::INTERLEAVED;
    }
    // Set for a sharded buffer, nullopt for an interleaved one.
    [[nodiscard]] const std::optional<BufferDistributionSpec>& buffer_distribution_spec() const { return spec_; }

    // ndshard's own: the tensor's page grid (pages per dim, outermost first; page ids are
    // row-major over it), sharded or interleaved - what a tt-metal factory reads off its
    // Tensor's shape, which a factory checked by ndshard has no other way to see.
    [[nodiscard]] std::vector<std::uint32_t> ndshard_tensor_shape_in_pages() const {
        std::vector<std::uint32_t> out;
        for (std::size_t i = 0; i < s_->dist.tensor_pages.rank(); ++i)
            out.push_back(static_cast<std::uint32_t>(s_->dist.tensor_pages[i]));
        return out;
    }
    // ndshard's own: the state TensorAccessorArgs reads.
    [[nodiscard]] const detail::buffer_state& ndshard_state() const { return *s_; }

private:
    std::shared_ptr<const detail::buffer_state> s_;
    std::optional<BufferDistributionSpec> spec_;
};

}  // namespace tt::tt_metal
