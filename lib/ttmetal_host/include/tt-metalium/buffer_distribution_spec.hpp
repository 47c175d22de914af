// tt-metalium/buffer_distribution_spec.hpp - how a sharded buffer's shards lie on its cores:
// the page grids, the cores in shard order, and core_groups() (cores with data split by
// how many shards they hold, as split_work_to_cores splits work). Made by ndshard from the
// buffer's distribution (ndshard/distribution.hpp); shapes are in pages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

#include "ndshard/distribution.hpp"
#include "tt-metalium/core_coord.hpp"

namespace tt::tt_metal {

class BufferDistributionSpec {
public:
    struct CoreGroups {
        CoreRangeSet cores_with_data;
        CoreRangeSet cores_in_group_1;  // the cores holding the most shards
        CoreRangeSet cores_in_group_2;  // the other cores with data (one shard fewer for a round robin deal)
        std::size_t num_shards_per_core_in_group_1 = 0;
        std::size_t num_shards_per_core_in_group_2 = 0;
    };

    explicit BufferDistributionSpec(const ndshard::distribution& d) {
        for (std::size_t i = 0; i < d.tensor_pages.rank(); ++i)
            tensor_.push_back(static_cast<std::uint32_t>(d.tensor_pages[i]));
        for (std::size_t i = 0; i < d.shard_pages.rank(); ++i)
            shard_.push_back(static_cast<std::uint32_t>(d.shard_pages[i]));
        num_shards_ = d.num_shards();
        std::vector<CoreRange> with_data, g1, g2;
        for (std::size_t i = 0; i < d.cores.size(); ++i) {
            cores_.emplace_back(d.cores[i].x, d.cores[i].y);
            shards_.push_back(d.layout.shards_on_core(i));
            if (shards_.back() > groups_.num_shards_per_core_in_group_1)
                groups_.num_shards_per_core_in_group_1 = shards_.back();
        }
        for (std::size_t i = 0; i < cores_.size(); ++i) {
            if (shards_[i] == 0) continue;
            with_data.emplace_back(cores_[i]);
            cores_with_data_.push_back(cores_[i]);
            if (shards_[i] == groups_.num_shards_per_core_in_group_1) {
                g1.emplace_back(cores_[i]);
            } else {
                g2.emplace_back(cores_[i]);
                groups_.num_shards_per_core_in_group_2 = shards_[i];
            }
        }
        groups_.cores_with_data = CoreRangeSet(std::move(with_data));
        groups_.cores_in_group_1 = CoreRangeSet(std::move(g1));
        groups_.cores_in_group_2 = CoreRangeSet(std::move(g2));
    }

    [[nodiscard]] const std::vector<std::uint32_t>& tensor_shape_in_pages() const { return tensor_; }
    [[nodiscard]] const std::vector<std::uint32_t>& shard_shape_in_pages() const { return shard_; }
    [[nodiscard]] std::size_t num_shards() const { return num_shards_; }
    [[nodiscard]] std::size_t num_cores() const { return cores_.size(); }
    [[nodiscard]] const std::vector<CoreCoord>& cores() const { return cores_; }
    [[nodiscard]] std::size_t num_cores_with_data() const { return cores_with_data_.size(); }
    [[nodiscard]] const std::vector<CoreCoord>& cores_with_data() const { return cores_with_data_; }
    [[nodiscard]] std::size_t num_shards_per_core(std::size_t core_idx) const { return shards_.at(core_idx); }
    [[nodiscard]] std::size_t max_num_shards_per_core() const { return groups_.num_shards_per_core_in_group_1; }
    [[nodiscard]] const CoreGroups& core_groups() const { return groups_; }
    // core_groups() in split_work_to_cores' order.
    [[nodiscard]] std::tuple<std::uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, std::uint32_t, std::uint32_t>
    core_groups_tuple() const {
        return {static_cast<std::uint32_t>(cores_with_data_.size()),
                groups_.cores_with_data,
                groups_.cores_in_group_1,
                groups_.cores_in_group_2,
                static_cast<std::uint32_t>(groups_.num_shards_per_core_in_group_1),
                static_cast<std::uint32_t>(groups_.num_shards_per_core_in_group_2)};
    }

private:
    std::vector<std::uint32_t> tensor_, shard_;
    std::size_t num_shards_ = 0;
    std::vector<CoreCoord> cores_, cores_with_data_;
    std::vector<std::size_t> shards_;
    CoreGroups groups_;
};

}  // namespace tt::tt_metal
