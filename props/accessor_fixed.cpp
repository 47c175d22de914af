// Law 5 on fixed layouts, first half of the masks (props/accessor_fixed.hpp says what is
// checked and which layouts each mask takes; props/accessor_fixed_b.cpp is the other half).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "accessor_fixed.hpp"

namespace {

using namespace ndshard;
using namespace ndshard::props;

template <class Mask>
class AccessorStaticMasks : public ::testing::Test {};
TYPED_TEST_SUITE(AccessorStaticMasks, fixed_masks_a, testkit::mask_name);

TEST(AccessorStaticMasks, TheTwoHalvesCoverExactlyTheValidMasks) {
    std::vector<std::uint32_t> listed = mask_values(fixed_masks_a{}), b = mask_values(fixed_masks_b{}), valid;
    listed.insert(listed.end(), b.begin(), b.end());
    for (std::uint32_t m = 0; m < 64; ++m)
        if (valid_mask(m)) valid.push_back(m);
    EXPECT_EQ(listed, valid);
    EXPECT_EQ(listed, mask_values(testkit::valid_masks{}));
}

TYPED_TEST(AccessorStaticMasks, EveryPageAndShardOfTheFixedLayoutsEqualsTheOracle) {
    check_fixed_layouts<TypeParam::value>();
}

}  // namespace
