// Law 17 on fixed specs, all 15 compile-time mixes: part 2 of 4 of the cases
// (props/tt_accessor_fixed.hpp says what is checked).
#include "tt_accessor_fixed.hpp"

#include <gtest/gtest.h>

namespace {

TEST(tt_accessor_fixed, every_case_equals_the_oracle_part_2_of_4) { ndshard::props::tt_fixed::check_part<1, 4>(); }

}  // namespace
