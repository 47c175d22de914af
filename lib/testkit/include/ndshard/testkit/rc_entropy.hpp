// ndshard/testkit/rc_entropy.hpp - RapidCheck as an entropy source (use inside properties).
//
// Every choice is a `*gen` pick, so RapidCheck records it and shrinks it towards lo.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <limits>

#include "ndshard/testkit/entropy.hpp"

namespace ndshard::testkit {

class rc_entropy final : public entropy {
public:
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) override {
        if (lo == hi) return lo;
        const std::uint64_t span = hi - lo;
        if (span == std::numeric_limits<std::uint64_t>::max()) return *rc::gen::arbitrary<std::uint64_t>();
        // inRange scales with RapidCheck's size; mix in full-range picks so that large
        // ranges are reached at every size.
        if (span > 64 && *rc::gen::inRange(0, 4) == 0)
            return lo + *rc::gen::arbitrary<std::uint64_t>() % (span + 1);
        return lo + *rc::gen::inRange<std::uint64_t>(0, span + 1);
    }
};

}  // namespace ndshard::testkit
