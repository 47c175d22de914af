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

// {2,0,1} for rank 3: every dim exactly once.
bool is_permutation(const std::vector<std::size_t>& order, std::size_t rank) {
    if (order.size() != rank) return false;
    std::vector<bool> seen(rank, false);
    for (std::size_t o : order) {
        if (o >= rank || seen[o]) return false;
        seen[o] = true;
    }
    return true;
}

// `in` with the reduced dim kept as 1 (dim < rank).
shape kept_dim_pages(const op_spec& op, const shape& in) {
    shape kept = in;
    kept[op.dim] = 1;
    return kept;
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
            op.order.push_back(
                parse_index(arg.substr(from, comma == std::string_view::npos ? arg.npos : comma - from), text));
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
        case op_kind::reshard:
            return "reshard";
        case op_kind::eltwise_add:
            return "eltwise_add";
        case op_kind::reduce_sum:
            return "reduce_sum:" + std::to_string(op.dim);
        case op_kind::permute:
            return "permute:" + join(op.order);
    }
    return "?";
}

std::size_t arity(op_kind kind) noexcept { return kind == op_kind::eltwise_add ? 2 : 1; }

shape output_pages(const op_spec& op, const shape& in) {
    switch (op.kind) {
        case op_kind::reshard:
        case op_kind::eltwise_add:
            return in;
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
            if (!is_permutation(op.order, in.rank()))
                throw op_error(to_string(op) + " on pages " + to_string(in) +
                               ": the order is not a permutation of 0.." + std::to_string(in.rank() - 1));
            shape out;
            for (std::size_t o : op.order) out.push_back(in[o]);
            return out;
        }
    }
    return in;
}

bool produces(const op_spec& op, const shape& in, const shape& out) {
    switch (op.kind) {
        case op_kind::reshard:
        case op_kind::eltwise_add:
            return out == in;
        case op_kind::reduce_sum:
            if (op.dim >= in.rank()) return false;
            return out == kept_dim_pages(op, in) || out == output_pages(op, in);
        case op_kind::permute:
            return is_permutation(op.order, in.rank()) && out == output_pages(op, in);
    }
    return false;
}

void check_output_pages(const op_spec& op, const shape& in, const shape& out) {
    const shape want = output_pages(op, in);  // op_error when the op does not apply to `in`
    if (produces(op, in, out)) return;
    const shape kept = op.kind == op_kind::reduce_sum ? kept_dim_pages(op, in) : want;
    throw op_error(to_string(op) + " of pages " + to_string(in) + " gives pages " + to_string(want) +
                   (!(kept == want) ? " (or " + to_string(kept) + ")" : "") + ", not " + to_string(out));
}

traffic_stats run_op(device& dev, const op_spec& op, std::span<const buffer_id> inputs, buffer_id out,
                     std::uint64_t seed) {
    if (inputs.size() != arity(op.kind))
        throw op_error(to_string(op) + " takes " + std::to_string(arity(op.kind)) + " input(s), got " +
                       std::to_string(inputs.size()));
    switch (op.kind) {
        case op_kind::reshard:
            return reshard(dev, inputs[0], out, seed);
        case op_kind::eltwise_add:
            return eltwise_add(dev, inputs[0], inputs[1], out, seed);
        case op_kind::reduce_sum:
            return reduce_sum(dev, inputs[0], out, op.dim, seed);
        case op_kind::permute:
            return permute(dev, inputs[0], out, op.order, seed);
    }
    return {};
}

dense_tensor oracle_op(const op_spec& op, std::span<const dense_tensor> inputs, const shape& out_pages) {
    if (inputs.size() != arity(op.kind))
        throw op_error(to_string(op) + " takes " + std::to_string(arity(op.kind)) + " input(s), got " +
                       std::to_string(inputs.size()));
    check_output_pages(op, inputs[0].pages, out_pages);
    switch (op.kind) {
        case op_kind::reshard:
            return inputs[0];
        case op_kind::eltwise_add:
            return dense::eltwise_add(inputs[0], inputs[1]);
        case op_kind::reduce_sum:
            return dense::reduce_sum(inputs[0], op.dim, out_pages.rank() == inputs[0].pages.rank());
        case op_kind::permute:
            return dense::permute(inputs[0], op.order);
    }
    return inputs[0];
}

}  // namespace ndshard::sim
