// tt-metalium/circular_buffer_config.hpp - a circular buffer's configuration: its total
// bytes, the data format of each CB index it serves, each index's page size, and optionally
// the buffer whose memory it uses (set_globally_allocated_address).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "hostdevcommon/kernel_structs.h"
#include "tt-metalium/buffer.hpp"
#include "tt-metalium/data_types.hpp"

namespace tt::tt_metal {

inline constexpr std::uint32_t NUM_CIRCULAR_BUFFERS = 64;

class CircularBufferConfig {
public:
    // `total_size` bytes for every index in `data_format_spec`; each index then needs a page size.
    CircularBufferConfig(std::uint32_t total_size, const std::map<std::uint8_t, tt::DataFormat>& data_format_spec)
        : total_size_(total_size) {
        for (const auto& [index, format] : data_format_spec) {
            check_index(index, "CircularBufferConfig");
            formats_[index] = format;
        }
    }
    // A config for a buffer's memory: its total size, formats and the buffer's address.
    CircularBufferConfig(std::uint32_t total_size, const std::map<std::uint8_t, tt::DataFormat>& data_format_spec,
                         const Buffer& buffer)
        : CircularBufferConfig(total_size, data_format_spec) {
        set_globally_allocated_address(buffer);
    }

    // The page size of one index; std::invalid_argument for an index without a format, or
    // a page size that does not divide the total size.
    CircularBufferConfig& set_page_size(std::uint8_t buffer_index, std::uint32_t page_size) {
        check_index(buffer_index, "set_page_size");
        if (!formats_[buffer_index])
            throw std::invalid_argument("set_page_size(" + std::to_string(buffer_index) + ", " +
                                        std::to_string(page_size) + "): the index has no data format");
        if (page_size == 0 || total_size_ % page_size != 0)
            throw std::invalid_argument("set_page_size(" + std::to_string(buffer_index) + ", " +
                                        std::to_string(page_size) + "): the total size " + std::to_string(total_size_) +
                                        " is not a multiple of the page size");
        page_sizes_[buffer_index] = page_size;
        return *this;
    }
    CircularBufferConfig& set_total_size(std::uint32_t total_size) {
        total_size_ = total_size;
        return *this;
    }
    CircularBufferConfig& set_globally_allocated_address(const Buffer& buffer) {
        if (!buffer.is_l1())
            throw std::invalid_argument("set_globally_allocated_address: buffer at " +
                                        std::to_string(buffer.address()) + " is not in L1");
        globally_allocated_address_ = buffer.address();
        return *this;
    }

    [[nodiscard]] std::uint32_t total_size() const { return total_size_; }
    [[nodiscard]] const std::array<std::optional<tt::DataFormat>, NUM_CIRCULAR_BUFFERS>& data_formats() const {
        return formats_;
    }
    [[nodiscard]] const std::array<std::optional<std::uint32_t>, NUM_CIRCULAR_BUFFERS>& page_sizes() const {
        return page_sizes_;
    }
    [[nodiscard]] std::optional<std::uint32_t> globally_allocated_address() const {
        return globally_allocated_address_;
    }

private:
    static void check_index(std::uint32_t index, const char* call) {
        if (index >= NUM_CIRCULAR_BUFFERS)
            throw std::invalid_argument(std::string(call) + ": CB index " + std::to_string(index) + " is not in 0..63");
    }

    std::uint32_t total_size_ = 0;
    std::array<std::optional<tt::DataFormat>, NUM_CIRCULAR_BUFFERS> formats_{};
    std::array<std::optional<std::uint32_t>, NUM_CIRCULAR_BUFFERS> page_sizes_{};
    std::optional<std::uint32_t> globally_allocated_address_;
};

}  // namespace tt::tt_metal
