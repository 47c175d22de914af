// The dense oracle: deliberately naive loops over page coordinates. It uses nothing of
// the mapping or the accessor; its only index math is the row-major order of a grid.
#include "ndshard/sim/dense.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ndshard/testkit/splitmix64.hpp"

namespace ndshard::sim {
namespace {

std::uint64_t count_pages(const shape& s) {
    std::uint64_t n = 1;
    for (auto d : s) n *= d;
    return n;
}

// Advances a row-major coordinate; false after the last one.
bool next_coord(std::vector<std::uint64_t>& c, const shape& s) {
    for (std::size_t d = s.rank(); d-- > 0;) {
        if (++c[d] < s[d]) return true;
        c[d] = 0;
    }
    return false;
}

std::uint64_t linear(const std::vector<std::uint64_t>& c, const shape& s) {
    std::uint64_t id = 0;
    for (std::size_t d = 0; d < s.rank(); ++d) id = id * s[d] + c[d];
    return id;
}

std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

}  // namespace

dense_tensor dense_tensor::filled(const shape& pages, std::uint32_t page_elems, std::int32_t v) {
    return {pages, page_elems, std::vector<std::int32_t>(count_pages(pages) * page_elems, v)};
}

dense_tensor dense_tensor::random(const shape& pages, std::uint32_t page_elems, std::uint64_t seed) {
    dense_tensor t = filled(pages, page_elems, 0);
    // The tests' one SplitMix64: a few instructions per value and no state to fill first
    // (mt19937_64 initialises 312 words per seed; every fuzz_kernel input draws a few tensors).
    testkit::splitmix64 gen{seed};
    for (auto& v : t.data) v = static_cast<std::int32_t>(static_cast<std::uint32_t>(gen.next() >> 32));
    return t;
}

std::uint64_t dense_tensor::num_pages() const noexcept { return count_pages(pages); }

std::span<std::int32_t> dense_tensor::page(std::uint64_t id) noexcept {
    return std::span<std::int32_t>(data).subspan(id * page_elems, page_elems);
}

std::span<const std::int32_t> dense_tensor::page(std::uint64_t id) const noexcept {
    return std::span<const std::int32_t>(data).subspan(id * page_elems, page_elems);
}

namespace dense {

dense_tensor eltwise_add(const dense_tensor& a, const dense_tensor& b) {
    if (!(a.pages == b.pages) || a.page_elems != b.page_elems)
        throw std::invalid_argument("eltwise_add: shapes " + to_string(a.pages) + " x " + std::to_string(a.page_elems) +
                                    " and " + to_string(b.pages) + " x " + std::to_string(b.page_elems) + " differ");
    dense_tensor out = a;
    for (std::size_t i = 0; i < out.data.size(); ++i) out.data[i] = wrap_add(a.data[i], b.data[i]);
    return out;
}

dense_tensor reduce_sum(const dense_tensor& in, std::size_t dim, bool keep_dim) {
    const std::size_t r = in.pages.rank();
    if (dim >= r)
        throw std::invalid_argument("reduce_sum: dim " + std::to_string(dim) + " is not in 0.." +
                                    std::to_string(r == 0 ? 0 : r - 1));
    shape kept;  // the output with the reduced dim kept as 1
    for (std::size_t d = 0; d < r; ++d) kept.push_back(d == dim ? 1 : in.pages[d]);
    dense_tensor out = dense_tensor::filled(kept, in.page_elems, 0);
    std::vector<std::uint64_t> c(r, 0);
    if (count_pages(in.pages) != 0) {
        do {
            std::vector<std::uint64_t> oc = c;
            oc[dim] = 0;
            const auto src = in.page(linear(c, in.pages));
            const auto dst = out.page(linear(oc, kept));
            for (std::size_t e = 0; e < dst.size(); ++e) dst[e] = wrap_add(dst[e], src[e]);
        } while (next_coord(c, in.pages));
    }
    if (!keep_dim && r > 1) {
        shape dropped;
        for (std::size_t d = 0; d < r; ++d)
            if (d != dim) dropped.push_back(in.pages[d]);
        out.pages = dropped;  // same pages in the same order
    }
    return out;
}

dense_tensor permute(const dense_tensor& in, std::span<const std::size_t> order) {
    const std::size_t r = in.pages.rank();
    std::vector<bool> seen(r, false);
    if (order.size() != r)
        throw std::invalid_argument("permute: order has " + std::to_string(order.size()) + " entries for rank " +
                                    std::to_string(r));
    for (std::size_t o : order) {
        if (o >= r || seen[o])
            throw std::invalid_argument("permute: order is not a permutation of 0.." + std::to_string(r - 1));
        seen[o] = true;
    }
    shape out_shape;
    for (std::size_t i = 0; i < r; ++i) out_shape.push_back(in.pages[order[i]]);
    dense_tensor out = dense_tensor::filled(out_shape, in.page_elems, 0);
    std::vector<std::uint64_t> c(r, 0);
    if (count_pages(in.pages) == 0) return out;
    do {
        std::vector<std::uint64_t> oc(r);
        for (std::size_t i = 0; i < r; ++i) oc[i] = c[order[i]];
        const auto src = in.page(linear(c, in.pages));
        const auto dst = out.page(linear(oc, out_shape));
        std::copy(src.begin(), src.end(), dst.begin());
    } while (next_coord(c, in.pages));
    return out;
}

}  // namespace dense

std::string first_difference(const dense_tensor& got, const dense_tensor& want) {
    if (!(got.pages == want.pages) || got.page_elems != want.page_elems)
        return "shape " + to_string(got.pages) + " x " + std::to_string(got.page_elems) +
               " != " + to_string(want.pages) + " x " + std::to_string(want.page_elems);
    if (got.data.size() != want.data.size()) return "data sizes differ";
    for (std::size_t i = 0; i < got.data.size(); ++i)
        if (got.data[i] != want.data[i])
            return "page " + std::to_string(i / got.page_elems) + " elem " + std::to_string(i % got.page_elems) + ": " +
                   std::to_string(got.data[i]) + " != " + std::to_string(want.data[i]);
    return {};
}

}  // namespace ndshard::sim
