// ndshard/shape.hpp - extents of rank 0..8 as a constexpr value.
//
// Row-major everywhere: the LAST dim varies fastest. Dims are 64-bit on the host;
// validation guarantees that whatever reaches a device fits in 32 bits.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "ndshard/error.hpp"
#include "ndshard/limits.hpp"

namespace ndshard {

class shape {
public:
    using value_type = std::uint64_t;

    constexpr shape() = default;
    // shape{3, 7, 5}; more than 8 dims throws spec_error("rank").
    constexpr shape(std::initializer_list<value_type> dims) {
        for (auto d : dims) push_back(d);
    }

    [[nodiscard]] constexpr std::size_t rank() const noexcept { return rank_; }
    [[nodiscard]] constexpr bool empty() const noexcept { return rank_ == 0; }
    constexpr value_type& operator[](std::size_t i) noexcept { return dims_[i]; }
    constexpr value_type operator[](std::size_t i) const noexcept { return dims_[i]; }
    [[nodiscard]] constexpr value_type back() const noexcept { return dims_[rank_ - 1]; }
    constexpr value_type& back() noexcept { return dims_[rank_ - 1]; }
    constexpr const value_type* begin() const noexcept { return dims_.data(); }
    constexpr const value_type* end() const noexcept { return dims_.data() + rank_; }
    constexpr value_type* begin() noexcept { return dims_.data(); }
    constexpr value_type* end() noexcept { return dims_.data() + rank_; }

    constexpr void push_back(value_type d) {
        if (rank_ == max_rank) throw spec_error("rank", "a shape has at most 8 dims");
        dims_[rank_++] = d;
    }

    friend constexpr bool operator==(const shape& a, const shape& b) noexcept {
        if (a.rank_ != b.rank_) return false;
        for (std::size_t i = 0; i < a.rank_; ++i)
            if (a.dims_[i] != b.dims_[i]) return false;
        return true;
    }

private:
    std::array<value_type, max_rank> dims_{};
    std::size_t rank_ = 0;
};

// "[3,7,5]"
inline std::string to_string(const shape& s) {
    std::string out = "[";
    for (std::size_t i = 0; i < s.rank(); ++i) {
        if (i) out += ',';
        out += std::to_string(s[i]);
    }
    return out + "]";
}

}  // namespace ndshard
