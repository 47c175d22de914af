#include "ndshard/testkit/coords.hpp"

namespace ndshard::testkit {

std::vector<std::uint64_t> row_major_coord(std::uint64_t id, std::span<const std::uint64_t> extents) {
    std::vector<std::uint64_t> c(extents.size());
    for (std::size_t d = extents.size(); d-- > 0;) {
        const std::uint64_t e = extents[d];
        c[d] = e == 0 ? 0 : id % e;
        id = e == 0 ? 0 : id / e;
    }
    return c;
}

}  // namespace ndshard::testkit
