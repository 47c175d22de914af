// kernels/ops/ops.cpp - the op registry and what the ops share (factory.hpp): a factory's
// program with a kernel_swap applied, and lib/sim's output grid and reference.
#include "ops/ops.hpp"

#include <charconv>

#include "ndshard/distribution.hpp"
#include "ndshard/error.hpp"
#include "ndshard/sim/error.hpp"
#include "ops/factory.hpp"

#ifndef NDSHARD_KERNELS_DIR
#error "NDSHARD_KERNELS_DIR must name the kernels/ folder (kernels/CMakeLists.txt defines it)"
#endif

namespace ndshard::kernels {

std::filesystem::path kernels_dir() { return std::filesystem::path(NDSHARD_KERNELS_DIR); }

namespace detail {

ttsim::program host_program(const ttsim::op_case& c, const ttmetal_host::program_factory& factory,
                            const std::string& folder, const kernel_swap& swap) {
    namespace tm = ::tt::tt_metal;
    tm::Program program = ttmetal_host::run_factory(c, factory);
    std::vector<tm::detail::kernel_record>& kernels = program.ndshard_state().kernels;
    if (kernels.empty()) return {};  // nothing to run
    if (kernels.size() != 2)
        throw std::logic_error(folder + ": a factory with a kernel swap makes a reader and a writer, not " +
                               std::to_string(kernels.size()) + " kernels");
    // A swapped source is relative to kernels_dir() (or absolute): its path from the op's folder.
    if (!swap.reader.empty()) kernels[0].path = (kernels_dir() / swap.reader).string();
    if (!swap.writer.empty()) kernels[1].path = (kernels_dir() / swap.writer).string();
    if (swap.semaphore) {
        std::vector<::CoreRange> cores;
        for (const CoreCoord& core : ::corerange_to_cores(kernels[0].cores))
            if (!kernels[1].cores.contains(core)) cores.emplace_back(core);
        for (const ::CoreRange& r : kernels[1].cores.ranges()) cores.push_back(r);
        const std::uint32_t id = tm::CreateSemaphore(program, ::CoreRangeSet(std::move(cores)), 0);
        for (tm::detail::kernel_record& k : kernels)
            for (auto& [core, args] : k.runtime_args) args.push_back(id);
    }
    return ttmetal_host::to_ttsim(program, c.dev, kernels_dir() / folder);
}

ttsim::op_desc sim_op_desc(std::string name, const sim::op_spec& op, std::size_t min_rank, std::size_t max_rank,
                           std::function<ttsim::program(const ttsim::op_case&)> build) {
    ttsim::op_desc d;
    d.name = std::move(name);
    d.num_inputs = 1;
    d.min_rank = min_rank;
    d.max_rank = max_rank;
    d.output_pages = [op](const std::vector<shape>& inputs) -> std::optional<shape> {
        if (inputs.size() != 1) return std::nullopt;
        try {
            return sim::output_pages(op, inputs[0]);
        } catch (const sim::op_error&) {
            return std::nullopt;
        }
    };
    // Its contract: what the factories take (op_error otherwise), so that a replayed case of
    // another shape is not applicable rather than a failure.
    d.contract.also = [op](const ttsim::case_spec& c) -> std::string {
        try {
            const distribution in = make_distribution(c.inputs.at(0));
            const distribution out = make_distribution(c.output);
            if (in.page_size != out.page_size)
                return "input pages of " + std::to_string(in.page_size) + " bytes, output pages of " +
                       std::to_string(out.page_size) + " (the op takes equal page sizes)";
            if (!(sim::output_pages(op, in.tensor_pages) == out.tensor_pages))
                return "the output's page grid " + to_string(out.tensor_pages) + " is not the op's of the input's " +
                       to_string(in.tensor_pages);
        } catch (const std::exception& e) {
            return std::string("not a case of the op: ") + e.what();
        }
        return "";
    };
    d.build = std::move(build);
    d.reference = [op](const std::vector<sim::dense_tensor>& inputs, const shape& output_pages) {
        return sim::oracle_op(op, inputs, output_pages);
    };
    return d;
}

}  // namespace detail

namespace {

[[noreturn]] void reject_name(std::string_view name, const std::string& why) {
    throw spec_error(
        "op", "op '" + std::string(name) + "': " + why + " (expected copy, copy_shards, permute:a,b,... or reduce:D)");
}

// "2,0,1" -> {2, 0, 1}; every entry a dim below max_rank.
std::vector<std::size_t> parse_dims(std::string_view list, std::string_view name) {
    std::vector<std::size_t> dims;
    for (std::size_t from = 0;;) {
        const std::size_t comma = list.find(',', from);
        const std::string_view item = list.substr(from, comma == std::string_view::npos ? list.npos : comma - from);
        std::size_t v = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
        if (item.empty() || ec != std::errc{} || end != item.data() + item.size() || v >= max_rank)
            reject_name(name, "'" + std::string(item) + "' is not a dim in 0.." + std::to_string(max_rank - 1));
        dims.push_back(v);
        if (comma == std::string_view::npos) return dims;
        from = comma + 1;
    }
}

ttsim::op_desc permute_desc(std::vector<std::size_t> order, const kernel_swap& swap) {
    std::string name = "permute:";
    for (std::size_t i = 0; i < order.size(); ++i) name += (i ? "," : "") + std::to_string(order[i]);
    sim::op_spec op;
    op.kind = sim::op_kind::permute;
    op.order = order;
    const std::size_t rank = order.size();
    return detail::sim_op_desc(
        std::move(name), op, rank, rank,
        [order = std::move(order), swap](const ttsim::op_case& c) { return detail::build_permute(c, order, swap); });
}

ttsim::op_desc reduce_desc(std::size_t dim, const kernel_swap& swap) {
    sim::op_spec op;
    op.kind = sim::op_kind::reduce_sum;
    op.dim = dim;
    return detail::sim_op_desc("reduce:" + std::to_string(dim), op, dim + 1, max_rank,
                               [dim, swap](const ttsim::op_case& c) { return detail::build_reduce(c, dim, swap); });
}

ttsim::op_desc copy_desc(const kernel_swap& swap) {
    return detail::sim_op_desc("copy", sim::parse_op("reshard"), 1, max_rank,
                               [swap](const ttsim::op_case& c) { return detail::build_copy(c, swap); });
}

ttsim::op_desc copy_shards_desc(const kernel_swap& swap) {
    return detail::sim_op_desc("copy_shards", sim::parse_op("reshard"), 1, max_rank,
                               [swap](const ttsim::op_case& c) { return detail::build_copy_shards(c, swap); });
}

}  // namespace

const ttsim::op_desc& copy_op() {
    static const ttsim::op_desc op = copy_desc({});
    return op;
}

const ttsim::op_desc& copy_shards_op() {
    static const ttsim::op_desc op = copy_shards_desc({});
    return op;
}

ttsim::op_desc permute_op(std::vector<std::size_t> order) { return permute_desc(std::move(order), {}); }

ttsim::op_desc reduce_op(std::size_t dim) { return reduce_desc(dim, {}); }

ttsim::op_desc make_op(std::string_view name, const kernel_swap& swap) {
    const std::size_t colon = name.find(':');
    const std::string_view kind = name.substr(0, colon);
    const bool has_arg = colon != std::string_view::npos;
    const std::string_view arg = has_arg ? name.substr(colon + 1) : std::string_view{};
    if (kind == "copy" || kind == "copy_shards") {
        if (has_arg) reject_name(name, std::string(kind) + " takes no argument");
        return kind == "copy" ? copy_desc(swap) : copy_shards_desc(swap);
    }
    if (kind == "permute") {
        if (!has_arg) reject_name(name, "permute needs its order, permute:a,b,...");
        std::vector<std::size_t> order = parse_dims(arg, name);
        std::vector<bool> seen(order.size(), false);
        for (std::size_t o : order) {
            if (o >= order.size() || seen[o]) reject_name(name, "the order is not a permutation of 0..rank-1");
            seen[o] = true;
        }
        return permute_desc(std::move(order), swap);
    }
    if (kind == "reduce") {
        if (!has_arg) reject_name(name, "reduce needs the dim to sum over, reduce:D");
        const std::vector<std::size_t> dims = parse_dims(arg, name);
        if (dims.size() != 1) reject_name(name, "reduce sums over one dim");
        return reduce_desc(dims[0], swap);
    }
    reject_name(name, "unknown op");
}

std::vector<std::string> op_patterns() { return {"copy", "copy_shards", "permute:a,b,...", "reduce:D"}; }

}  // namespace ndshard::kernels
