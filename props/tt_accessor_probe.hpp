// props/tt_accessor_probe.hpp - any TensorAccessor behind the probes of
// props/tt_accessor_check.hpp. Include it after defining KERNEL_COMPILE_TIME_ARGS: it
// includes tt-metal's accessor header, which reads them. Every source file of one
// executable must see the same KERNEL_COMPILE_TIME_ARGS (the compile-time words are one
// inline variable, and TensorAccessorArgs<offset> one type, across the program).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "api/tensor/tensor_accessor.h"
#include "tt_accessor_check.hpp"

namespace ndshard::props::tt {

// The pages a walk yields, its first `cap` at most.
template <class Range>
std::vector<page_seen> walk(const Range& r, std::size_t cap) {
    std::vector<page_seen> out;
    for (auto it = r.begin(); it != r.end() && out.size() < cap; ++it) out.push_back({it->page_id(), it->noc_addr()});
    return out;
}

template <class A>
class probe_of final : public tt_probe {
public:
    explicit probe_of(const A& a) : a_(a) {}
    std::uint32_t aligned_page_size() const override { return a_.get_aligned_page_size(); }
    std::uint32_t bank_base() const override { return a_.get_bank_base_address(); }
    dims dspec() const override {
        const auto s = a_.dspec();
        dims d{s.rank(), s.num_banks(), s.tensor_volume(), s.shard_volume(), {}, {}, {}, {}, {}, {}, {}};
        for (std::uint32_t i = 0; i < s.rank(); ++i) {
            d.tensor.push_back(s.tensor_shape()[i]);
            d.shard.push_back(s.shard_shape()[i]);
            d.grid.push_back(s.shard_grid()[i]);
            d.tensor_strides.push_back(s.tensor_strides()[i]);
            d.shard_strides.push_back(s.shard_strides()[i]);
            d.grid_strides.push_back(s.shard_grid_strides()[i]);
        }
        for (std::uint32_t b = 0; b < s.num_banks(); ++b) d.packed_xy.push_back(s.packed_xy_coords()[b]);
        return d;
    }
    std::uint64_t noc(std::uint32_t page, std::uint32_t byte) const override { return a_.get_noc_addr(page, byte); }
    std::uint64_t noc_at(const coord8& c, std::uint32_t byte) const override { return a_.get_noc_addr(c, byte); }
    std::uint64_t shard_noc(std::uint32_t shard, std::uint32_t byte) const override {
        return a_.get_shard_noc_addr(shard, byte);
    }
    std::uint64_t shard_noc_at(const coord8& c, std::uint32_t byte) const override {
        return a_.get_shard_noc_addr(c, byte);
    }
    mapping bank_and_offset(std::uint32_t page) const override {
        const auto m = a_.get_bank_and_offset(page);
        return {m.bank_id, m.bank_page_offset};
    }
    mapping bank_and_offset_at(const coord8& c) const override {
        const auto m = a_.get_bank_and_offset(c);
        return {m.bank_id, m.bank_page_offset};
    }
    std::uint32_t contiguous(std::uint32_t page) const override { return a_.num_contiguous_pages(page); }
    bool local_page(std::uint32_t page) const override { return a_.is_local_page(page); }
    bool local_shard(std::uint32_t shard) const override { return a_.is_local_shard(shard); }
    bool local_addr(std::uint64_t noc) const override { return a_.is_local_addr(noc); }
    bool local_bank(std::uint32_t x, std::uint32_t y) const override { return a_.is_local_bank(x, y); }
    std::vector<page_seen> pages(std::uint32_t start, std::uint32_t end, std::size_t cap) const override {
        return walk(a_.pages(start, end), cap);
    }
    std::vector<page_seen> all_pages(std::size_t cap) const override { return walk(a_.pages(), cap); }
    std::vector<page_seen> shard_pages(std::uint32_t shard, std::uint32_t start, std::uint32_t end,
                                       std::size_t cap) const override {
        return walk(a_.shard_pages(shard, start, end), cap);
    }
    std::vector<page_seen> strided(std::uint32_t thread, std::uint32_t threads, std::size_t cap) const override {
        return walk(a_.strided_pages(thread, threads), cap);
    }
    std::vector<page_seen> strided_here(std::size_t cap) const override { return walk(a_.strided_pages(), cap); }
    std::vector<std::vector<page_seen>> strided_shards(std::uint32_t thread, std::uint32_t threads, std::size_t shards,
                                                       std::size_t cap) const override {
        return shards_of(a_.strided_shard_pages(thread, threads), shards, cap);
    }
    std::vector<std::vector<page_seen>> strided_shards_here(std::size_t shards, std::size_t cap) const override {
        return shards_of(a_.strided_shard_pages(), shards, cap);
    }

private:
    template <class Range>
    static std::vector<std::vector<page_seen>> shards_of(const Range& r, std::size_t shards, std::size_t cap) {
        std::vector<std::vector<page_seen>> out;
        for (auto it = r.begin(); it != r.end() && out.size() < shards; ++it) out.push_back(walk(*it, cap));
        return out;
    }
    const A& a_;
};

// TensorAccessor(args, base) with the page size its compile-time words carry (layout 2),
// or TensorAccessor(args, base, page size) with the one given; then every check.
template <class Args>
void check_sharded_accessor(const Args& args, std::uint32_t base, const tt_case& c) {
    const auto accessor = TensorAccessor(args, base);
    check_sharded(probe_of<std::decay_t<decltype(accessor)>>(accessor), c);
}
template <class Args>
void check_sharded_accessor(const Args& args, std::uint32_t base, std::uint32_t page_size, const tt_case& c) {
    const auto accessor = TensorAccessor(args, base, page_size);
    check_sharded(probe_of<std::decay_t<decltype(accessor)>>(accessor), c);
}

template <class A>
class interleaved_probe_of final : public interleaved_probe {
public:
    explicit interleaved_probe_of(const A& a) : a_(a) {}
    std::uint64_t noc(std::uint32_t page, std::uint32_t byte) const override { return a_.get_noc_addr(page, byte); }
    std::uint32_t aligned_page_size() const override { return a_.get_aligned_page_size(); }
    std::uint32_t bank_base() const override { return a_.get_bank_base_address(); }
    std::vector<page_seen> pages(std::uint32_t start, std::uint32_t end, std::size_t cap) const override {
        return walk(a_.pages(start, end), cap);
    }
    std::vector<page_seen> strided_here(std::uint32_t total, std::size_t cap) const override {
        return walk(a_.strided_pages(total), cap);
    }

private:
    const A& a_;
};

}  // namespace ndshard::props::tt
