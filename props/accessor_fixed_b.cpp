// Law 5 on fixed layouts, second half of the masks (see props/accessor_fixed.hpp).
#include <gtest/gtest.h>

#include "accessor_fixed.hpp"

namespace {

using namespace ndshard::props;

template <class Mask>
class AccessorStaticMasksB : public ::testing::Test {};
TYPED_TEST_SUITE(AccessorStaticMasksB, fixed_masks_b, ndshard::testkit::mask_name);

TYPED_TEST(AccessorStaticMasksB, EveryPageAndShardOfTheFixedLayoutsEqualsTheOracle) {
    check_fixed_layouts<TypeParam::value>();
}

}  // namespace
