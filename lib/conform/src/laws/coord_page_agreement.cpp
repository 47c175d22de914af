// coord_page_agreement: ndsc_locate_coord(the row-major coordinate of page p) answers a
// location, and the one ndsc_locate_page(p) answers.
#include "registry.hpp"

#include <cstdint>
#include <optional>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "generators.hpp"
#include "ndshard/testkit/coords.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

std::string need_page_coord(const impl_info& info) { return needs(info, NDSC_Q_PAGE_ID | NDSC_Q_PAGE_COORD); }

std::optional<finding> check_coord_page(const loaded_impl& impl, const distribution_spec& s) {
    const oracle::model m = *model_of(s);
    const created c(impl, s);
    if (auto f = expect_accepted(c)) return f;
    return agrees_with_locate_page(impl, c, m, s, [&](std::uint64_t p, auto judge) {
        const std::vector<std::uint64_t> coord = testkit::row_major_coord(p, m.tensor_pages);
        judge(coord_call(coord), ask_coord(impl, c.handle(), coord));
    });
}

}  // namespace

const law coord_page_agreement = {.name = "coord_page_agreement",
                                  .summary = "ndsc_locate_coord(coordinate of p) == ndsc_locate_page(p)",
                                  .unavailable = need_page_coord,
                                  .generate = gen_placement,
                                  .fits = fits_valid,
                                  .check = check_coord_page,
                                  .retarget = retarget_address};

}  // namespace ndshard::conform::laws
