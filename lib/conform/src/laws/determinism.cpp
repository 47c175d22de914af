// determinism: two handles of one spec answer alike, the first one's ndsc_spec (and its
// range array) overwritten and freed after ndsc_create returned: an adapter must not keep
// pointers into the spec.
#include "registry.hpp"

#include <cstdint>
#include <memory>
#include <optional>

#include <ndshard/oracle/oracle.hpp>

#include "generators.hpp"
#include "ndshard/conform/specs.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

std::optional<finding> check_determinism(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    auto first_spec = std::make_unique<abi_spec>(s);
    const created first(impl, *first_spec);
    if (auto f = expect_accepted(first)) return f;
    first_spec->scribble();
    first_spec.reset();
    const abi_spec second_spec(s);
    const created second(impl, second_spec);
    if (auto f = expect_accepted(second)) return f;
    for (std::uint64_t p : pages_to_check(m, s)) {
        const answer a = ask_page(impl, first.handle(), p);
        const answer b = ask_page(impl, second.handle(), p);
        if (!(a == b))
            return finding{text(page_call(p)) +
                               " on two handles of the spec (the first one's "
                               "ndsc_spec overwritten after ndsc_create)",
                           show(b) + " on both", show(a) + " on the first"};
    }
    return std::nullopt;
}

}  // namespace

const law determinism = {.name = "determinism",
                         .summary = "two handles of one spec answer alike; the spec is not read after ndsc_create",
                         .unavailable = need_page,
                         .generate = gen_placement,
                         .fits = fits_valid,
                         .check = check_determinism,
                         .retarget = retarget_address};

}  // namespace ndshard::conform::laws
