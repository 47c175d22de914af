#include "ndshard/sim/kernels.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "ndshard/sim/op.hpp"

namespace ndshard::sim {

// ---------------------------------------------------------------------------------
// Kernel arguments and the core's NoC

tensor_arg tensor_arg::of(const buffer_info& b) {
    return {b.id, b.words, narrow_cast<std::uint32_t>(b.dist.bank_base),
            narrow_cast<std::uint32_t>(b.dist.aligned_page_size), b.page_elems()};
}

page_grid page_grid::of(const shape& s) {
    page_grid g;
    g.rank = static_cast<std::uint32_t>(s.rank());
    for (std::size_t d = 0; d < s.rank(); ++d) g.extent[d] = narrow_cast<std::uint32_t>(s[d]);
    return g;
}

page_grid::coord page_grid::coord_of(std::uint32_t page_id) const noexcept {
    coord c{};
    for (std::uint32_t d = rank; d-- > 0;) {
        c[d] = page_id % extent[d];
        page_id /= extent[d];
    }
    return c;
}

std::uint32_t page_grid::id_of(const coord& c) const noexcept {
    std::uint32_t id = 0;
    for (std::uint32_t d = 0; d < rank; ++d) id = id * extent[d] + c[d];
    return id;
}

void core_context::read(const tensor_arg& t, noc_addr src, std::span<std::int32_t> page) {
    dev_.noc_read(me_, src, std::as_writable_bytes(page), t.buffer);
}

void core_context::write(const tensor_arg& t, noc_addr dst, std::span<const std::int32_t> page) {
    dev_.noc_write(me_, dst, std::as_bytes(page), t.buffer);
}

// ---------------------------------------------------------------------------------
// Device code. Only the accessor (local_pages, get_noc_addr, noc_address_of) and the
// core's NoC reads and writes.
//
// Each kernel asks one accessor at a time: first the output's (this core's pages and
// where they go), then each input's. A real kernel holds all of them at once, each with
// its own compile-time words; here every accessor is one of two runtime types (the deal
// rule), and asking them one at a time compiles each query for 2 types, not for every
// pairing of them (2 x 2 x 2 for eltwise_add).

namespace {

template <class F>
void with_accessor(const tensor_arg& t, F&& f) {
    with_runtime_accessor(t.words, t.bank_base, t.aligned_page_size, std::forward<F>(f));
}

// The output's pages on this core, in its order, with their NoC addresses.
struct out_page {
    std::uint32_t page_id;
    noc_addr addr;
};
std::vector<out_page> local_out_pages(const core_context& core, const tensor_arg& out) {
    std::vector<out_page> pages;
    with_accessor(out, [&](const auto& dst) {
        for (const page_ref p : dst.local_pages(core.bank())) pages.push_back({p.page_id, dst.noc_address_of(p)});
    });
    return pages;
}

// Where the same page ids live in `in` (same page grid).
std::vector<noc_addr> same_pages_in(const tensor_arg& in, const std::vector<out_page>& pages) {
    std::vector<noc_addr> at;
    at.reserve(pages.size());
    with_accessor(in, [&](const auto& src) {
        for (const out_page& p : pages) at.push_back(src.get_noc_addr(p.page_id));
    });
    return at;
}

void add_into(std::span<std::int32_t> acc, std::span<const std::int32_t> x) {
    for (std::size_t e = 0; e < acc.size(); ++e)
        acc[e] = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc[e]) + static_cast<std::uint32_t>(x[e]));
}

}  // namespace

void reshard_kernel(core_context& core, const tensor_arg& in, const tensor_arg& out) {
    std::vector<std::int32_t> page(out.page_elems);
    const std::vector<out_page> pages = local_out_pages(core, out);
    const std::vector<noc_addr> from = same_pages_in(in, pages);
    for (std::size_t i = 0; i < pages.size(); ++i) {
        core.read(in, from[i], page);
        core.write(out, pages[i].addr, page);
    }
}

void eltwise_add_kernel(core_context& core, const tensor_arg& a, const tensor_arg& b, const tensor_arg& out) {
    std::vector<std::int32_t> sum(out.page_elems), page(out.page_elems);
    const std::vector<out_page> pages = local_out_pages(core, out);
    const std::vector<noc_addr> from_a = same_pages_in(a, pages), from_b = same_pages_in(b, pages);
    for (std::size_t i = 0; i < pages.size(); ++i) {
        core.read(a, from_a[i], sum);
        core.read(b, from_b[i], page);
        add_into(sum, page);
        core.write(out, pages[i].addr, sum);
    }
}

void reduce_sum_kernel(core_context& core, const tensor_arg& in, const page_grid& in_grid, std::uint32_t dim,
                       const tensor_arg& out, const page_grid& out_grid) {
    std::vector<std::int32_t> sum(out.page_elems), page(out.page_elems);
    const bool kept = out_grid.rank == in_grid.rank;
    const std::vector<out_page> pages = local_out_pages(core, out);
    with_accessor(in, [&](const auto& src) {
        for (const out_page& p : pages) {
            const page_grid::coord oc = out_grid.coord_of(p.page_id);
            page_grid::coord ic{};
            for (std::uint32_t d = 0, o = 0; d < in_grid.rank; ++d) ic[d] = d == dim ? (kept ? oc[o++] : 0) : oc[o++];
            std::fill(sum.begin(), sum.end(), 0);
            for (ic[dim] = 0; ic[dim] < in_grid.extent[dim]; ++ic[dim]) {
                core.read(in, src.get_noc_addr(in_grid.id_of(ic)), page);
                add_into(sum, page);
            }
            core.write(out, p.addr, sum);
        }
    });
}

void permute_kernel(core_context& core, const tensor_arg& in, const page_grid& in_grid, const tensor_arg& out,
                    const page_grid& out_grid, const page_grid::coord& order) {
    std::vector<std::int32_t> page(out.page_elems);
    const std::vector<out_page> pages = local_out_pages(core, out);
    with_accessor(in, [&](const auto& src) {
        for (const out_page& p : pages) {
            const page_grid::coord oc = out_grid.coord_of(p.page_id);
            page_grid::coord ic{};
            for (std::uint32_t i = 0; i < out_grid.rank; ++i) ic[order[i]] = oc[i];
            core.read(in, src.get_noc_addr(in_grid.id_of(ic)), page);
            core.write(out, p.addr, page);
        }
    });
}

// ---------------------------------------------------------------------------------
// Host side

namespace {

std::string grid_text(const buffer_info& b) {
    return "'" + b.name + "' " + to_string(b.dist.tensor_pages) + " x " + std::to_string(b.page_elems());
}

// The buffers of a request, checked for liveness, aliasing and page size.
std::vector<const buffer_info*> operands(const device& dev, const char* op, std::initializer_list<buffer_id> inputs,
                                         buffer_id out) {
    std::vector<const buffer_info*> all;
    for (buffer_id id : inputs) {
        if (!dev.is_live(id))
            throw op_error(std::string(op) + ": input buffer #" + std::to_string(id.value) + " is not live");
        if (id == out) throw op_error(std::string(op) + ": the output '" + dev.buffer(out).name + "' is also an input");
        all.push_back(&dev.buffer(id));
    }
    if (!dev.is_live(out))
        throw op_error(std::string(op) + ": output buffer #" + std::to_string(out.value) + " is not live");
    all.push_back(&dev.buffer(out));
    for (const buffer_info* b : all)
        if (b->dist.page_size != all.back()->dist.page_size)
            throw op_error(std::string(op) + ": page sizes differ: " + grid_text(*b) + " vs " + grid_text(*all.back()) +
                           " int32 per page");
    return all;
}

// op_error unless `op` can turn `in`'s page grid into `out`'s.
void check_grids(const op_spec& op, const buffer_info& in, const buffer_info& out) {
    try {
        check_output_pages(op, in.dist.tensor_pages, out.dist.tensor_pages);
    } catch (const op_error& e) {
        throw op_error(std::string(e.what()) + " (input " + grid_text(in) + ", output " + grid_text(out) + ")");
    }
}

// Runs body(core_context&) for every bank of `out`, in a shuffled order.
template <class Body>
traffic_stats launch(device& dev, const buffer_info& out, std::uint64_t seed, Body&& body) {
    dev.reset_traffic();
    std::vector<std::uint32_t> order(out.dist.cores.size());
    std::iota(order.begin(), order.end(), 0U);
    std::mt19937_64 rng(seed ^ (0x9E3779B97F4A7C15ULL * (dev.next_launch() + 1)));
    std::shuffle(order.begin(), order.end(), rng);
    for (std::uint32_t bank : order) {
        core_context core(dev, dev.executor_for(out.dist.cores[bank]), bank);
        body(core);
    }
    return dev.traffic();
}

}  // namespace

traffic_stats reshard(device& dev, buffer_id in, buffer_id out, std::uint64_t seed) {
    const auto ops = operands(dev, "reshard", {in}, out);
    check_grids({op_kind::reshard, 0, {}}, *ops[0], *ops[1]);
    const tensor_arg src = tensor_arg::of(*ops[0]), dst = tensor_arg::of(*ops[1]);
    return launch(dev, *ops[1], seed, [&](core_context& core) { reshard_kernel(core, src, dst); });
}

traffic_stats eltwise_add(device& dev, buffer_id a, buffer_id b, buffer_id out, std::uint64_t seed) {
    const auto ops = operands(dev, "eltwise_add", {a, b}, out);
    check_grids({op_kind::eltwise_add, 0, {}}, *ops[0], *ops[2]);
    check_grids({op_kind::eltwise_add, 0, {}}, *ops[1], *ops[2]);
    const tensor_arg x = tensor_arg::of(*ops[0]), y = tensor_arg::of(*ops[1]), dst = tensor_arg::of(*ops[2]);
    return launch(dev, *ops[2], seed, [&](core_context& core) { eltwise_add_kernel(core, x, y, dst); });
}

traffic_stats reduce_sum(device& dev, buffer_id in, buffer_id out, std::size_t dim, std::uint64_t seed) {
    const auto ops = operands(dev, "reduce_sum", {in}, out);
    check_grids({op_kind::reduce_sum, dim, {}}, *ops[0], *ops[1]);
    const tensor_arg src = tensor_arg::of(*ops[0]), dst = tensor_arg::of(*ops[1]);
    const page_grid in_grid = page_grid::of(ops[0]->dist.tensor_pages),
                    out_grid = page_grid::of(ops[1]->dist.tensor_pages);
    return launch(dev, *ops[1], seed, [&](core_context& core) {
        reduce_sum_kernel(core, src, in_grid, static_cast<std::uint32_t>(dim), dst, out_grid);
    });
}

traffic_stats permute(device& dev, buffer_id in, buffer_id out, std::span<const std::size_t> order,
                      std::uint64_t seed) {
    const auto ops = operands(dev, "permute", {in}, out);
    check_grids({op_kind::permute, 0, {order.begin(), order.end()}}, *ops[0], *ops[1]);
    page_grid::coord perm{};
    for (std::size_t i = 0; i < order.size(); ++i) perm[i] = static_cast<std::uint32_t>(order[i]);
    const tensor_arg src = tensor_arg::of(*ops[0]), dst = tensor_arg::of(*ops[1]);
    const page_grid in_grid = page_grid::of(ops[0]->dist.tensor_pages),
                    out_grid = page_grid::of(ops[1]->dist.tensor_pages);
    return launch(dev, *ops[1], seed,
                  [&](core_context& core) { permute_kernel(core, src, in_grid, dst, out_grid, perm); });
}

}  // namespace ndshard::sim
