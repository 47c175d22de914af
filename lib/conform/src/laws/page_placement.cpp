// page_placement: ndsc_locate_page equals the oracle's location of every page of a small
// spec, and of pages_to_check's sample of a large one.
#include "registry.hpp"

#include <cstdint>
#include <optional>

#include <ndshard/oracle/oracle.hpp>

#include "generators.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

std::optional<finding> check_placement(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    for (std::uint64_t p : pages_to_check(m, s)) {
        const answer a = ask_page(impl, c.handle(), p);
        const place want = oracle_page(m, p);
        if (!(a.status == NDSC_OK && a.at == want)) return finding{text(page_call(p)), show(want), show(a)};
    }
    return std::nullopt;
}

}  // namespace

const law page_placement = {.name = "page_placement",
                            .summary = "ndsc_locate_page equals the oracle",
                            .unavailable = need_page,
                            .generate = gen_placement,
                            .fits = fits_valid,
                            .check = check_placement,
                            .retarget = retarget_address};

}  // namespace ndshard::conform::laws
