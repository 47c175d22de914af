// ndshard/testkit/static_masks.hpp - the 15 valid compile-time masks as a GoogleTest type
// list, for typed tests that instantiate an accessor per mask (props/accessor.cpp,
// props/args.cpp). Each such suite also checks that the list is exactly the valid masks.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "ndshard/args.hpp"

namespace ndshard::testkit {

template <std::uint32_t Mask>
struct mask_t : std::integral_constant<std::uint32_t, Mask> {};

using valid_masks =
    ::testing::Types<mask_t<0>, mask_t<1>, mask_t<2>, mask_t<3>, mask_t<5>, mask_t<7>, mask_t<9>, mask_t<11>,
                     mask_t<13>, mask_t<15>, mask_t<18>, mask_t<19>, mask_t<23>, mask_t<27>, mask_t<31>>;

// Test names: the static parts as letters (R rank, B banks, T tensor, S shard, C coords).
struct mask_name {
    template <class M>
    static std::string GetName(int) {
        std::string n;
        for (auto [bit, part] :
             {std::pair{arg::rank, "R"}, std::pair{arg::num_banks, "B"}, std::pair{arg::tensor_shape, "T"},
              std::pair{arg::shard_shape, "S"}, std::pair{arg::bank_coords, "C"}})
            if (M::value & bit) n += part;
        return n.empty() ? "runtime" : n;
    }
};

}  // namespace ndshard::testkit
