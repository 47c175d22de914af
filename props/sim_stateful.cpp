// The simulated device against a dense model (rc::state): random sequences of
// allocate (first fit, or at a chosen base), host write, kernel run, host read, free,
// and stray NoC reads. The model keeps each live buffer's dense contents and its byte
// range in every bank, and predicts - naively, by scanning addresses - where the
// device places a buffer, when it must refuse one, and which NoC reads must fail.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>
#include <rapidcheck/state.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <tuple>
#include <string>
#include <vector>

#include "ndshard/sim/op.hpp"
#include "ndshard/sim/scenario.hpp"
#include "ndshard/testkit/rc_entropy.hpp"

namespace {

using namespace ndshard;
using namespace ndshard::sim;

// Small memories, so buffers collide and allocations fail.
device_config stateful_config() {
    return {.grid_x = 4, .grid_y = 3, .l1_size = 2048, .num_dram_banks = 3, .dram_bank_size = 4096};
}

struct model_buffer {
    std::uint32_t handle = 0;
    drawn_spec drawn;
    std::vector<core_coord> banks;      // the distribution's cores
    std::uint64_t base = 0, bytes = 0;  // per bank
    dense_tensor contents;
};

struct sim_model {
    std::vector<model_buffer> live;
    std::uint32_t next_handle = 1;

    [[nodiscard]] const model_buffer* find(std::uint32_t h) const {
        for (const model_buffer& b : live)
            if (b.handle == h) return &b;
        return nullptr;
    }
    model_buffer* find(std::uint32_t h) {
        for (model_buffer& b : live)
            if (b.handle == h) return &b;
        return nullptr;
    }
};

struct sim_sut {
    device dev{stateful_config()};
    std::map<std::uint32_t, buffer_id> ids;
    int kernels = 0, refused = 0, caught = 0, frees = 0, legacy_or_dram = 0;
};

using command = rc::state::Command<sim_model, sim_sut>;
using command_ptr = std::shared_ptr<const command>;

std::uint64_t capacity_at(core_coord c) {
    const device_config cfg = stateful_config();
    return c.x < cfg.grid_x ? cfg.l1_size : cfg.dram_bank_size;
}

// Is [begin, end) of bank c used by a live buffer?
bool overlaps(const sim_model& m, core_coord c, std::uint64_t begin, std::uint64_t end) {
    if (begin == end) return false;
    for (const model_buffer& b : m.live)
        if (b.bytes != 0 && b.base < end && begin < b.base + b.bytes &&
            std::find(b.banks.begin(), b.banks.end(), c) != b.banks.end())
            return true;
    return false;
}

bool fits_at(const sim_model& m, const std::vector<core_coord>& banks, std::uint64_t base, std::uint64_t bytes) {
    return std::all_of(banks.begin(), banks.end(), [&](core_coord c) {
        return base + bytes <= capacity_at(c) && !overlaps(m, c, base, base + bytes);
    });
}

// A buffer as the model sees it; base from the spec.
model_buffer describe_buffer(const drawn_spec& s, std::uint32_t handle) {
    const distribution d = make_distribution(s.spec);
    model_buffer b;
    b.handle = handle;
    b.drawn = s;
    b.banks = d.cores;
    b.base = s.spec.bank_base;
    b.bytes = d.reserved_pages_per_core() * d.aligned_page_size;
    b.contents = dense_tensor::filled(d.tensor_pages, static_cast<std::uint32_t>(d.page_size / 4),
                                      sentinel_value(stateful_config()));
    return b;
}

// First fit, the slow way: every multiple of the alignment from 0.
std::optional<std::uint64_t> first_fit(const sim_model& m, const drawn_spec& s) {
    const model_buffer b = describe_buffer(s, 0);
    const std::uint64_t align = std::max(s.spec.alignment, stateful_config().alloc_alignment);
    for (std::uint64_t base = 0; base <= capacity_at(b.banks.empty() ? core_coord{} : b.banks.front()); base += align)
        if (fits_at(m, b.banks, base, b.bytes)) return base;
    return std::nullopt;
}

std::optional<model_buffer> predicted_allocation(const sim_model& m, drawn_spec s, bool at_base) {
    if (!at_base) {
        const auto base = first_fit(m, s);
        if (!base) return std::nullopt;
        s.spec.bank_base = *base;
    }
    model_buffer b = describe_buffer(s, m.next_handle);
    if (!fits_at(m, b.banks, b.base, b.bytes)) return std::nullopt;
    return b;
}

// --- commands --------------------------------------------------------------------

struct allocate_cmd final : command {
    drawn_spec spec;
    bool at_base;
    allocate_cmd(drawn_spec s, bool at) : spec(std::move(s)), at_base(at) {}
    void apply(sim_model& m) const override {
        if (auto b = predicted_allocation(m, spec, at_base)) m.live.push_back(std::move(*b));
        ++m.next_handle;
    }
    void run(const sim_model& m, sim_sut& sut) const override {
        const auto want = predicted_allocation(m, spec, at_base);
        if (!want) {
            RC_ASSERT_THROWS_AS(at_base ? sut.dev.allocate_at(spec.spec) : sut.dev.allocate(spec.spec), alloc_error);
            ++sut.refused;
            return;
        }
        const buffer_id id = at_base ? sut.dev.allocate_at(spec.spec) : sut.dev.allocate(spec.spec);
        RC_ASSERT(sut.dev.buffer(id).dist.bank_base == want->base);
        if (spec.family != layout_family::nd || spec.memory == memory_kind::dram) ++sut.legacy_or_dram;
        sut.ids[m.next_handle] = id;
    }
    void show(std::ostream& os) const override {
        os << (at_base ? "allocate_at " : "allocate ") << to_string(spec.spec.tensor) << " in "
           << to_string(spec.spec.shard) << " (" << to_string(spec.family) << ", " << spec.spec.cores.size()
           << " range(s), base " << spec.spec.bank_base << ")";
    }
};

struct write_cmd final : command {
    std::uint32_t handle;
    std::uint64_t seed;
    write_cmd(std::uint32_t h, std::uint64_t s) : handle(h), seed(s) {}
    void checkPreconditions(const sim_model& m) const override { RC_PRE(m.find(handle) != nullptr); }
    void apply(sim_model& m) const override {
        model_buffer& b = *m.find(handle);
        b.contents = dense_tensor::random(b.contents.pages, b.contents.page_elems, seed);
    }
    void run(const sim_model& m, sim_sut& sut) const override {
        const model_buffer& b = *m.find(handle);
        const buffer_id id = sut.ids.at(handle);
        sut.dev.write(id, dense_tensor::random(b.contents.pages, b.contents.page_elems, seed));
        RC_ASSERT(sut.dev.padding_violations(id).empty());
    }
    void show(std::ostream& os) const override { os << "write #" << handle << " seed " << seed; }
};

struct read_cmd final : command {
    std::uint32_t handle;
    explicit read_cmd(std::uint32_t h) : handle(h) {}
    void checkPreconditions(const sim_model& m) const override { RC_PRE(m.find(handle) != nullptr); }
    void run(const sim_model& m, sim_sut& sut) const override {
        const std::string diff = first_difference(sut.dev.read(sut.ids.at(handle)), m.find(handle)->contents);
        if (!diff.empty()) RC_FAIL("read #" + std::to_string(handle) + ": " + diff);
    }
    void show(std::ostream& os) const override { os << "read #" << handle; }
};

struct free_cmd final : command {
    std::uint32_t handle;
    explicit free_cmd(std::uint32_t h) : handle(h) {}
    void checkPreconditions(const sim_model& m) const override { RC_PRE(m.find(handle) != nullptr); }
    void apply(sim_model& m) const override {
        std::erase_if(m.live, [&](const model_buffer& b) { return b.handle == handle; });
    }
    void run(const sim_model&, sim_sut& sut) const override {
        sut.dev.free(sut.ids.at(handle));
        sut.ids.erase(handle);
        ++sut.frees;
    }
    void show(std::ostream& os) const override { os << "free #" << handle; }
};

struct kernel_cmd final : command {
    op_spec op;
    std::vector<std::uint32_t> inputs;
    std::uint32_t output;
    std::uint64_t seed;
    kernel_cmd(op_spec o, std::vector<std::uint32_t> in, std::uint32_t out, std::uint64_t s)
        : op(std::move(o)), inputs(std::move(in)), output(out), seed(s) {}
    void checkPreconditions(const sim_model& m) const override {
        RC_PRE(m.find(output) != nullptr);
        for (std::uint32_t h : inputs) RC_PRE(m.find(h) != nullptr && h != output);
    }
    dense_tensor expected(const sim_model& m) const {
        std::vector<dense_tensor> data;
        for (std::uint32_t h : inputs) data.push_back(m.find(h)->contents);
        return oracle_op(op, data, m.find(output)->contents.pages);
    }
    void apply(sim_model& m) const override { m.find(output)->contents = expected(m); }
    void run(const sim_model& m, sim_sut& sut) const override {
        std::vector<buffer_id> ids;
        for (std::uint32_t h : inputs) ids.push_back(sut.ids.at(h));
        const buffer_id out = sut.ids.at(output);
        const traffic_stats t = run_op(sut.dev, op, ids, out, seed);
        const dense_tensor want = expected(m);
        RC_ASSERT(t.pages_written == want.num_pages());
        const std::string diff = first_difference(sut.dev.read(out), want);
        if (!diff.empty()) RC_FAIL(to_string(op) + " into #" + std::to_string(output) + ": " + diff);
        RC_ASSERT(sut.dev.padding_violations(out).empty());
        ++sut.kernels;
    }
    void show(std::ostream& os) const override {
        os << to_string(op) << " (";
        for (std::uint32_t h : inputs) os << "#" << h << " ";
        os << "-> #" << output << ")";
    }
};

// A NoC read by core (0,0) of `size` bytes at (core, addr): fine exactly when one live
// buffer of that bank holds all of it.
struct probe_cmd final : command {
    core_coord target;
    std::uint64_t addr, size;
    probe_cmd(core_coord t, std::uint64_t a, std::uint64_t s) : target(t), addr(a), size(s) {}
    bool allowed(const sim_model& m) const {
        for (const model_buffer& b : m.live)
            if (b.bytes != 0 && b.base <= addr && addr + size <= b.base + b.bytes &&
                std::find(b.banks.begin(), b.banks.end(), target) != b.banks.end())
                return true;
        return false;
    }
    void run(const sim_model& m, sim_sut& sut) const override {
        std::vector<std::byte> bytes(size);
        const noc_addr at{target.x, target.y, static_cast<std::uint32_t>(addr)};
        if (allowed(m)) {
            sut.dev.noc_read({0, 0}, at, bytes);
        } else {
            RC_ASSERT_THROWS_AS(sut.dev.noc_read({0, 0}, at, bytes), noc_error);
            ++sut.caught;
        }
    }
    void show(std::ostream& os) const override {
        os << "noc read of " << size << " bytes at " << to_string(target) << " " << addr;
    }
};

// --- generation --------------------------------------------------------------------

template <class C, class... A>
command_ptr make(A&&... args) {
    return std::make_shared<const C>(std::forward<A>(args)...);
}

// A spec for a fresh page grid, or for the output of some op on a live buffer.
drawn_spec draw_buffer_spec(testkit::entropy& e, const sim_model& m) {
    const device_config cfg = stateful_config();
    shape pages;
    std::uint32_t elems = 0;
    if (!m.live.empty() && e.between(0, 2) != 0) {
        const model_buffer& src = m.live[e.between(0, m.live.size() - 1)];
        const shape& in = src.contents.pages;
        elems = src.contents.page_elems;
        op_spec op;
        op.kind = static_cast<op_kind>(e.between(0, 3));
        op.dim = e.between(0, in.rank() - 1);
        for (std::size_t i = 0; i < in.rank(); ++i) op.order.push_back(i);
        for (std::size_t i = 0; i + 1 < in.rank(); ++i) std::swap(op.order[i], op.order[e.between(i, in.rank() - 1)]);
        pages = output_pages(op, in);
        if (op.kind == op_kind::reduce_sum && in.rank() > 1 && e.between(0, 3) == 0) {
            pages = in;
            pages[op.dim] = 1;
        }
    } else {
        pages = draw_page_grid(e, e.between(1, 3), 24, 5);
        elems = static_cast<std::uint32_t>(e.between(1, 2));
    }
    return draw_distribution(e, cfg, pages, elems * 4);
}

// Every kernel the live buffers allow: (op, inputs, output).
std::vector<std::tuple<op_spec, std::vector<std::uint32_t>, std::uint32_t>> kernel_choices(const sim_model& m) {
    std::vector<std::tuple<op_spec, std::vector<std::uint32_t>, std::uint32_t>> out;
    auto fits = [](const op_spec& op, const model_buffer& in, const model_buffer& o) {
        return in.contents.page_elems == o.contents.page_elems && produces(op, in.contents.pages, o.contents.pages);
    };
    for (const model_buffer& o : m.live)
        for (const model_buffer& in : m.live) {
            if (in.handle == o.handle) continue;
            const shape& p = in.contents.pages;
            if (fits({op_kind::reshard, 0, {}}, in, o))
                out.push_back({{op_kind::reshard, 0, {}}, {in.handle}, o.handle});
            for (std::size_t d = 0; d < p.rank(); ++d)
                if (fits({op_kind::reduce_sum, d, {}}, in, o))
                    out.push_back({{op_kind::reduce_sum, d, {}}, {in.handle}, o.handle});
            std::vector<std::size_t> order(p.rank());
            for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
            do {
                const op_spec op{op_kind::permute, 0, order};
                if (fits(op, in, o)) out.push_back({op, {in.handle}, o.handle});
            } while (std::next_permutation(order.begin(), order.end()));
            for (const model_buffer& b : m.live)
                if (b.handle != o.handle && fits({op_kind::eltwise_add, 0, {}}, in, o) &&
                    fits({op_kind::eltwise_add, 0, {}}, b, o))
                    out.push_back({{op_kind::eltwise_add, 0, {}}, {in.handle, b.handle}, o.handle});
        }
    return out;
}

rc::Gen<command_ptr> next_command(const sim_model& m) {
    using rc::gen::exec;
    std::vector<std::pair<std::size_t, rc::Gen<command_ptr>>> choices;
    choices.emplace_back(3, exec([m] {
                             testkit::rc_entropy e;
                             return make<allocate_cmd>(draw_buffer_spec(e, m), false);
                         }));
    choices.emplace_back(1, exec([m] {
                             testkit::rc_entropy e;
                             drawn_spec s = draw_buffer_spec(e, m);
                             s.spec.bank_base = 32 * e.between(0, 2048 / 32);
                             return make<allocate_cmd>(std::move(s), true);
                         }));
    choices.emplace_back(1, exec([m] {
                             testkit::rc_entropy e;
                             const device_config cfg = stateful_config();
                             std::uint64_t addr = 0;
                             core_coord target{};
                             if (!m.live.empty() && e.between(0, 2) != 0) {  // near a live buffer's edges
                                 const model_buffer& b = m.live[e.between(0, m.live.size() - 1)];
                                 target = b.banks.empty() ? core_coord{} : b.banks[e.between(0, b.banks.size() - 1)];
                                 addr = b.base + e.between(0, b.bytes + 8);
                                 addr = addr >= 8 ? addr - e.between(0, 8) : addr;
                             } else {
                                 target = e.between(0, 3) == 0
                                              ? core_coord{cfg.grid_x, static_cast<std::uint32_t>(e.between(0, 2))}
                                              : core_coord{static_cast<std::uint32_t>(e.between(0, cfg.grid_x + 1)),
                                                           static_cast<std::uint32_t>(e.between(0, cfg.grid_y - 1))};
                                 addr = e.between(0, 4096);
                             }
                             return make<probe_cmd>(target, addr, e.between(1, 16));
                         }));
    if (!m.live.empty()) {
        std::vector<std::uint32_t> handles;
        for (const model_buffer& b : m.live) handles.push_back(b.handle);
        choices.emplace_back(3, exec([handles] {
                                 return make<write_cmd>(*rc::gen::elementOf(handles),
                                                        *rc::gen::inRange<std::uint64_t>(0, 1000));
                             }));
        choices.emplace_back(2, exec([handles] { return make<read_cmd>(*rc::gen::elementOf(handles)); }));
        // Freeing grows likelier with more live buffers, which keeps the model small.
        choices.emplace_back(1 + handles.size() / 3,
                             exec([handles] { return make<free_cmd>(*rc::gen::elementOf(handles)); }));
        auto kernels = kernel_choices(m);
        if (!kernels.empty())
            choices.emplace_back(6, exec([kernels] {
                                     const auto& [op, in, out] = *rc::gen::elementOf(kernels);
                                     return make<kernel_cmd>(op, in, out, *rc::gen::inRange<std::uint64_t>(0, 1000));
                                 }));
    }
    std::size_t total = 0;
    for (const auto& c : choices) total += c.first;
    return exec([choices, total] {
        std::size_t pick = *rc::gen::inRange<std::size_t>(0, total);
        for (const auto& [weight, gen] : choices) {
            if (pick < weight) return *gen;
            pick -= weight;
        }
        return *choices.back().second;
    });
}

}  // namespace

RC_GTEST_PROP(SimStateful, DeviceMatchesADenseModel, ()) {
    sim_sut sut;
    rc::state::check(sim_model{}, sut, next_command);
    RC_CLASSIFY(sut.kernels > 0, "kernels ran");
    RC_CLASSIFY(sut.refused > 0, "allocation refused");
    RC_CLASSIFY(sut.caught > 0, "stray NoC read caught");
    RC_CLASSIFY(sut.frees > 0, "buffers freed");
    RC_CLASSIFY(sut.legacy_or_dram > 0, "legacy, interleaved or DRAM buffer");
}
