// ndshard/ttsim/not_applicable.hpp - what a program factory throws to decline a case it was
// not written for (an interleaved-only op given a sharded buffer, a page size it cannot
// take): kcheck counts the case as not applicable, never as a failure. Header-only, so a
// factory compiled on its own can throw it (tt-metalium/host_api.hpp names it
// tt::tt_metal::not_applicable).
#pragma once

#include <stdexcept>

namespace ndshard::ttsim {

class not_applicable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace ndshard::ttsim
