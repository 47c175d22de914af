// ndshard/conform/specs.hpp - specs as the C ABI sees them, as command-line flags, and
// restricted to the domain an implementation declares.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ndshard/conform/impl.hpp"
#include "ndshard/conformance.h"
#include "ndshard/spec.hpp"

namespace ndshard::conform {

// A distribution_spec as ndsc_spec, owning its range array (so not copyable).
class abi_spec {
public:
    explicit abi_spec(const distribution_spec& s);
    abi_spec(const abi_spec&) = delete;
    abi_spec& operator=(const abi_spec&) = delete;
    [[nodiscard]] const ndsc_spec* get() const noexcept { return &spec_; }
    // Overwrites every field and the range array with junk: an adapter must not keep
    // pointers into the spec after ndsc_create returns.
    void scribble() noexcept;

private:
    ndsc_spec spec_{};
    std::vector<ndsc_core_range> ranges_;
};

// Pages of the spec's tensor: the oracle's count when it accepts the spec, otherwise the
// product of the tensor dims as given (an upper bound).
std::uint64_t total_pages(const distribution_spec& s);

// Representable in the ABI (rank 1..8, shard rank <= 8) and inside the declared domain
// (strategies, page kinds, ranks, core coordinates).
bool in_domain(const distribution_spec& s, const impl_info& info);

// Moves a spec into the declared domain where a simple rewrite does it (an unsupported
// strategy becomes a supported 1D one, an unsupported page kind becomes pages when the
// oracle accepts the spec, core ranges past the largest declared coordinate move towards
// the origin); false when it stays outside.
bool fit_to_domain(distribution_spec& s, const impl_info& info);

// A one-line, unambiguous key of the spec (for the shrinker's visited set).
std::string spec_key(const distribution_spec& s);

}  // namespace ndshard::conform
