#include "ndshard/sim/op.hpp"

#include <charconv>

#include "ndshard/sim/kernels.hpp"

namespace ndshard::sim {
namespace {

constexpr const char* expected_ops = "expected reshard, eltwise_add, reduce_sum:D or permute:a,b,...";

std::size_t parse_index(std::string_view text, std::string_view whole) {
    std::size_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || v >= max_rank)
        throw op_error("op '" + std::string(whole) + "': '" + std::string(text) + "' is not a dim in 0.." +
                       std::to_string(max_rank - 1));
    return v;
}

std::string join(const std::vector<std::size_t>& v) {
    std::string s;
    for (std::size_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}

}  // namespace

op_spec parse_op(std::string_view text) {
    const std::size_t colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    const bool has_arg = colon != std::string_view::npos;
    const std::string_view arg = has_arg ? text.substr(colon + 1) : std::string_view{};
    op_spec op;
    if (name == "reshard" || name == "eltwise_add") {
        if (has_arg) throw op_error("op '" + std::string(text) + "': " + std::string(name) + " takes no argument");
        op.kind = name == "reshard" ? op_kind::reshard : op_kind::eltwise_add;
    } else if (name == "reduce_sum") {
        if (!has_arg) throw op_error("op 'reduce_sum' needs the dim to reduce: reduce_sum:D");
        op.kind = op_kind::reduce_sum;
        op.dim = parse_index(arg, text);
    } else if (name == "permute") {
        if (!has_arg) throw op_error("op 'permute' needs the order: permute:a,b,...");
        op.kind = op_kind::permute;
        for (std::size_t from = 0;;) {
            const std::size_t comma = arg.find(',', from);
            op.order.push_back(parse_index(arg.substr(from, comma == std::string_view::npos ? arg.npos : comma - from), text));
            if (comma == std::string_view::npos) break;
            from = comma + 1;
        }
    } else {
        throw op_error("unknown op '" + std::string(text) + "' (" + expected_ops + ")");
    }
    return op;
}

std::string to_string(const op_spec& op) {
    switch (op.kind) {
        case op_kind::reshard: return "reshard";
        case op_kind::eltwise_add: return "eltwise_add";
        case op_kind::reduce_sum: return "reduce_sum:" + std::to_string(op.dim);
        case op_kind::permute: return "permute:" + join(op.order);
    }
    return "?";
}

std::size_t arity(op_kind kind) noexcept { return kind == op_kind::eltwise_add ? 2 : 1; }

shape output_pages(const op_spec& op, const shape& in) {
    switch (op.kind) {
        case op_kind::reshard:
        case op_kind::eltwise_add: return in;
        case op_kind::reduce_sum: {
            if (op.dim >= in.rank())
                throw op_error(to_string(op) + " on pages " + to_string(in) + ": dim " + std::to_string(op.dim) +
                               " is not in 0.." + std::to_string(in.rank() - 1));
            if (in.rank() == 1) return shape{1};
            shape out;
            for (std::size_t d = 0; d < in.rank(); ++d)
                if (d != op.dim) out.push_back(in[d]);
            return out;
        }
        case op_kind::permute: {
            std::vector<bool> seen(in.rank(), false);
            bool valid = op.order.size() == in.rank();
            for (std::size_t o : op.order) {
                valid = valid && o < in.rank() && !seen[o];
                if (valid) seen[o] = true;
            }
            if (!valid)
                throw op_error(to_string(op) + " on pages " + to_string(in) + ": the order is not a permutation of 0.." +
                               std::to_string(in.rank() - 1));
            shape out;
            for (std::size_t o : op.order) out.push_back(in[o]);
            return out;
        }
    }
    return in;
}

void check_output_pages(const op_spec& op, const shape& in, const shape& out) {
    const shape want = output_pages(op, in);
    if (out == want) return;
    shape kept = in;
    if (op.kind == op_kind::reduce_sum) kept[op.dim] = 1;
    if (op.kind == op_kind::reduce_sum && out == kept) return;
    throw op_error(to_string(op) + " of pages " + to_string(in) + " gives pages " + to_string(want) +
                   (op.kind == op_kind::reduce_sum && !(kept == want) ? " (or " + to_string(kept) + ")" : "") +
                   ", not " + to_string(out));
}

traffic_stats run_op(device& dev, const op_spec& op, std::span<const buffer_id> inputs, buffer_id out, std::uint64_t seed) {
    if (inputs.size() != arity(op.kind))
        throw op_error(to_string(op) + " takes " + std::to_string(arity(op.kind)) + " input(s), got " +
                       std::to_string(inputs.size()));
    switch (op.kind) {
        case op_kind::reshard: return reshard(dev, inputs[0], out, seed);
        case op_kind::eltwise_add: return eltwise_add(dev, inputs[0], inputs[1], out, seed);
        case op_kind::reduce_sum: return reduce_sum(dev, inputs[0], out, op.dim, seed);
        case op_kind::permute: return permute(dev, inputs[0], out, op.order, seed);
    }
    return {};
}

dense_tensor oracle_op(const op_spec& op, std::span<const dense_tensor> inputs, const shape& out_pages) {
    if (inputs.size() != arity(op.kind))
        throw op_error(to_string(op) + " takes " + std::to_string(arity(op.kind)) + " input(s), got " +
                       std::to_string(inputs.size()));
    check_output_pages(op, inputs[0].pages, out_pages);
    switch (op.kind) {
        case op_kind::reshard: return inputs[0];
        case op_kind::eltwise_add: return dense::eltwise_add(inputs[0], inputs[1]);
        case op_kind::reduce_sum:
            return dense::reduce_sum(inputs[0], op.dim, out_pages.rank() == inputs[0].pages.rank());
        case op_kind::permute: return dense::permute(inputs[0], op.order);
    }
    return inputs[0];
}

}  // namespace ndshard::sim
