// acceptance: ndsc_create accepts exactly the specs the oracle accepts (the reason of a
// rejection may differ from the oracle's rule). A quarter of the specs sit at one rule's
// boundary (boundary_spec), the rest break rules at random.
#include "registry.hpp"

#include <cstdint>
#include <optional>
#include <utility>

#include "generators.hpp"
#include "ndshard/conform/specs.hpp"
#include "ndshard/testkit/spec_gen.hpp"
#include "support.hpp"

namespace ndshard::conform::laws {

namespace {

// A spec on one side of a rule's boundary that the general generator (sizes far from the
// limits, or far past them) does not reach; valid or invalid by one step, at random:
//   the core count 65536 / 65537, in one range or two;  a range ending at x or y = 65535 /
//   65536 from a valid start;  a zero dim beside dims whose product is just below 2^32 / at
//   it (zero dims count as 1 in that rule);  a zero-size tensor, folded or not, with a shard
//   just below 2^32 pages / at or past it (no shard, yet the rule holds);  a huge spec
//   folded (shard rank lowered);  shard rank 0;  an aligned page of 2^32 - 1 / 2^32 bytes;
//   a tile side 0;  and, only invalid, a page size past 2^64, dims whose product is 2^64,
//   a range reversed by exactly one. The mutation studies found each boundary unvisited
//   (conformance/mutants/README.md).
void boundary_spec(testkit::entropy& e, distribution_spec& s) {
    const bool past = e.chance(50);
    const auto u32 = [](std::uint64_t v) { return static_cast<std::uint32_t>(v); };
    switch (e.between(0, 10)) {
        case 0: {  // core count
            const std::uint64_t width = e.pick<std::uint64_t>({256, 512, 4096, 65536}), height = 65536 / width;
            s.strat = e.chance(50) ? strategy::round_robin_1d : strategy::contiguous_1d;
            if (height >= 2 && e.chance(50)) {
                const std::uint64_t cut = e.between(1, height - 1);
                s.cores = {{{0, 0}, {u32(width - 1), u32(cut - 1)}},
                           {{0, u32(cut)}, {u32(width - 1), u32(height - 1)}}};
            } else {
                s.cores = {{{0, 0}, {u32(width - 1), u32(height - 1)}}};
            }
            if (past)
                s.cores.push_back(width < 65536 ? core_range{{u32(width), 0}, {u32(width), 0}}
                                                : core_range{{0, u32(height)}, {0, u32(height)}});
            break;
        }
        case 1: {  // core coordinate limit
            const std::uint32_t end = past ? 65536 : 65535, start = u32(65535 - e.between(0, 2));
            if (e.chance(50)) {
                s.cores = {{{start, 0}, {end, 0}}};
            } else {
                s.cores = {{{0, start}, {0, end}}};
            }
            if (s.strat == strategy::grid_2d) s.strat = strategy::round_robin_1d;
            break;
        }
        case 2: {  // zero dim beside a product near 2^32 (counted with the zero as 1)
            // a * b is the largest product below 2^32 (b + 1 reaches it).
            const std::uint64_t a = e.pick<std::uint64_t>({65536, 65537, 3, 2}), b = ((std::uint64_t{1} << 32) - 1) / a;
            s.tensor = {0, a, past ? b + 1 : b - e.between(0, 1)};
            s.shard = {1, e.between(1, 4), e.between(1, 4)};
            s.page = page_config{};
            break;
        }
        case 3: {  // zero-size tensor (sometimes folded), oversize shard: 2^32 or more pages, or just below
            s.tensor = {0, e.between(1, 4)};
            if (e.chance(50)) s.tensor.push_back(e.between(1, 4));
            s.shard = {past ? std::uint64_t{65536} : std::uint64_t{65535}, past ? e.between(65536, 65537) : 65536};
            s.page = page_config{};
            break;
        }
        case 4: {  // a huge spec folded: the 32-bit rules over the folded dims
            testkit::spec_options o;
            o.huge_percent = 100;
            o.allow_grid_2d = false;
            s = testkit::generate_spec(e, o);
            if (s.shard.rank() >= 2) {
                shape folded;
                for (std::size_t d = 1; d < s.shard.rank(); ++d) folded.push_back(s.shard[d]);
                s.shard = folded;
            } else {
                s.tensor = {2, s.tensor[0] / 2 + (past ? 1 : 0)};
            }
            break;
        }
        case 5:  // shard rank 0
            s.shard = shape{};
            break;
        case 8: {  // a range reversed by exactly one (x1 - x0 + 1 is 0: sized as empty), among valid ones
            const auto x = static_cast<std::uint32_t>(e.between(1, 8)), y = static_cast<std::uint32_t>(e.between(1, 8));
            const core_range reversed = e.chance(50) ? core_range{{x, y}, {x - 1, y}} : core_range{{x, y}, {x, y - 1}};
            if (s.strat == strategy::grid_2d) s.strat = strategy::round_robin_1d;
            s.cores.insert(s.cores.begin() + static_cast<std::ptrdiff_t>(e.between(0, s.cores.size())), reversed);
            break;
        }
        case 9: {  // dims whose product is 2^64 (a 64-bit volume wraps to 0), in the tensor or the shard
            const std::uint64_t k = e.pick<std::uint64_t>({1, 2, 16, 32}), a = std::uint64_t{1} << k,
                                b = std::uint64_t{1} << (64 - k);
            s.page = page_config{};
            if (e.chance(50)) {
                s.tensor = {a, b};
                s.shard = {1, 1};
            } else {
                s.tensor = {e.between(1, 4), e.between(1, 4)};
                s.shard = {a, b};
            }
            break;
        }
        case 10: {  // an aligned page of 2^32 - 1 bytes, or of exactly 2^32, one page on one core
            s.tensor = {1};
            s.shard = {1};
            s.page = page_config{};
            s.element_size = (std::uint64_t{1} << 32) - e.between(1, 2);
            s.alignment = past ? 2 : 1;
            s.cores = {{{0, 0}, {0, 0}}};
            s.strat = strategy::round_robin_1d;
            s.bank_base = 0;
            break;
        }
        case 7:  // a page size past 2^64 (a 64-bit product wraps to a small one)
            if (e.chance(50) || s.shard.rank() < 2 || s.tensor.rank() < 2) {
                s.page = page_config{};
                s.element_size = ~std::uint64_t{0} - e.between(0, 2);
            } else {
                s.page.kind = page_kind::tile;
                s.page.tile_h = std::uint64_t{1} << 32;
                s.page.tile_w = (std::uint64_t{1} << 32) + e.between(0, 1);
                s.element_size = e.between(1, 2);
            }
            s.alignment = e.pick<std::uint64_t>({1, 2, 64});
            break;
        default:  // a tile side 0
            if (s.shard.rank() < 2) s.shard = {1, 1};
            if (s.tensor.rank() < 2) s.tensor = {1, s.tensor.rank() ? s.tensor[0] : 1};
            s.page.kind = page_kind::tile;
            (e.chance(50) ? s.page.tile_h : s.page.tile_w) = 0;
            break;
    }
}

bool gen_acceptance(testkit::entropy& e, const impl_info& info, distribution_spec& out) {
    for (int attempt = 0; attempt < 64; ++attempt) {
        // A quarter of the specs sit at one rule's boundary, on a valid base already moved into
        // the domain (so that nothing but the boundary decides, and a pages-only implementation
        // meets them too); the rest break rules at random.
        const bool boundary = e.chance(25);
        testkit::spec_options o;
        o.max_pages = 256;
        o.max_cores = 32;
        o.huge_percent = 10;
        o.invalid_percent = boundary ? 0 : 40;
        o.allow_grid_2d = info.has_strategy(NDSC_GRID_2D);
        distribution_spec s = testkit::generate_spec(e, o);
        if (e.chance(12)) move_cores_far(e, s);
        if (!fit_to_domain(s, info)) continue;
        if (boundary) {
            boundary_spec(e, s);
            if (!in_domain(s, info)) continue;
        }
        out = std::move(s);
        return true;
    }
    return false;
}

std::optional<finding> check_acceptance(const loaded_impl& impl, const distribution_spec& s) {
    const created c(impl, s);
    return acceptance_verdict(c, s);
}

}  // namespace

const law acceptance = {.name = "acceptance",
                        .summary = "accept/reject agrees with the oracle (the reason may differ)",
                        .unavailable = always_available,
                        .generate = gen_acceptance,
                        .fits = fits_any,
                        .check = check_acceptance,
                        .retarget = retarget_address};

}  // namespace ndshard::conform::laws
