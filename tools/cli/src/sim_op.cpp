// `ndshard sim` on lib/sim: the request checked, a device just large enough, the op run and
// verified (see sim_op.hpp).
#include "ndshard/cli/sim_op.hpp"

#include <algorithm>

#include "ndshard/distribution.hpp"
#include "ndshard/sim/device.hpp"
#include "ndshard/sim/op.hpp"

namespace ndshard::cli {
namespace {

using namespace ndshard::sim;

std::string role(std::size_t i, std::size_t inputs) {
    return i < inputs ? "input " + std::to_string(i + 1) : std::string("output");
}

}  // namespace

sim_op_result run_sim_op(std::string_view op_text, const std::vector<distribution_spec>& inputs,
                         const distribution_spec& output, std::uint32_t page_elems, std::uint64_t seed) {
    const op_spec op = parse_op(op_text);
    if (inputs.size() != arity(op.kind))
        throw op_error(to_string(op) + " takes " + std::to_string(arity(op.kind)) + " --in spec(s), got " +
                       std::to_string(inputs.size()));
    if (page_elems == 0) throw op_error("--page-elems must be >= 1");

    // Page sizes in int32 values, then validation (the spec's own rules first).
    std::vector<distribution_spec> specs = inputs;
    specs.push_back(output);
    std::vector<distribution> dists;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        distribution_spec& s = specs[i];
        s.element_size = s.page.kind == page_kind::pages ? std::uint64_t{page_elems} * 4 : 4;
        s.bank_base = 0;
        try {
            dists.push_back(make_distribution(s));
        } catch (const spec_error& e) {
            throw spec_error(e.rule(), role(i, inputs.size()) + ": " + e.what());
        }
    }
    for (std::size_t i = 0; i < dists.size(); ++i)
        if (dists[i].page_size != dists.front().page_size)
            throw op_error(to_string(op) + ": " + role(i, inputs.size()) + " has pages of " +
                           std::to_string(dists[i].page_size / 4) + " int32, " + role(0, inputs.size()) + " of " +
                           std::to_string(dists.front().page_size / 4));
    for (std::size_t i = 1; i < inputs.size(); ++i)
        if (!(dists[i].tensor_pages == dists[0].tensor_pages))
            throw op_error(to_string(op) + ": input pages " + to_string(dists[0].tensor_pages) + " and " +
                           to_string(dists[i].tensor_pages) + " differ");
    check_output_pages(op, dists[0].tensor_pages, dists.back().tensor_pages);

    // A device just large enough.
    device_config cfg;
    cfg.grid_x = cfg.grid_y = 1;
    std::uint64_t per_core = 0, total = 0;
    for (const distribution& d : dists) {
        for (const core_coord& c : d.cores) {
            cfg.grid_x = std::max(cfg.grid_x, c.x + 1);
            cfg.grid_y = std::max(cfg.grid_y, c.y + 1);
        }
        const std::uint64_t align = std::max(d.spec.alignment, cfg.alloc_alignment);
        const std::uint64_t bytes = d.reserved_pages_per_core() * d.aligned_page_size;
        per_core += (bytes + align - 1) / align * align;
        total += bytes * d.cores.size();
    }
    if (std::uint64_t{cfg.grid_x} * cfg.grid_y > max_cores)
        throw op_error("the cores span a " + std::to_string(cfg.grid_x) + "x" + std::to_string(cfg.grid_y) +
                       " grid; the simulator models at most 65536 worker cores");
    if (total > sim_memory_limit || per_core > two_pow_32)
        throw op_error("too large to simulate: " + std::to_string(total) + " bytes of buffers (the limit is " +
                       std::to_string(sim_memory_limit) + ")");
    cfg.l1_size = std::max<std::uint64_t>(per_core, 1);
    device dev(cfg);

    std::vector<buffer_id> ins;
    std::vector<dense_tensor> data;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        ins.push_back(dev.allocate(specs[i], "in" + std::to_string(i + 1)));
        data.push_back(dense_tensor::random(dists[i].tensor_pages, static_cast<std::uint32_t>(dists[i].page_size / 4),
                                            seed * 0x9E3779B97F4A7C15ULL + i));
        dev.write(ins.back(), data.back());
    }
    const buffer_id out = dev.allocate(specs.back(), "out");
    const traffic_stats t = run_op(dev, op, ins, out, seed);

    sim_op_result r{to_string(op),  false,        t.pages_read,    t.pages_written, t.local_reads,
                    t.remote_reads, t.bytes_read, t.bytes_written, t.hops,          {}};
    const dense_tensor want = oracle_op(op, data, dists.back().tensor_pages);
    r.detail = first_difference(dev.read(out), want);
    if (!r.detail.empty()) r.detail = "output differs from the oracle at " + r.detail;
    for (std::size_t i = 0; i < ins.size() && r.detail.empty(); ++i) {
        const std::string diff = first_difference(dev.read(ins[i]), data[i]);
        if (!diff.empty()) r.detail = "input " + std::to_string(i + 1) + " changed at " + diff;
    }
    std::vector<buffer_id> all = ins;
    all.push_back(out);
    for (buffer_id id : all) {
        const auto bad = dev.padding_violations(id);
        if (r.detail.empty() && !bad.empty())
            r.detail = "'" + dev.buffer(id).name + "' lost its sentinel: " + bad.front();
    }
    r.verified = r.detail.empty();
    return r;
}

std::string to_json(const sim_op_result& r) {
    std::string op;
    for (char c : r.op) {  // op names are plain ASCII, but never emit a broken string
        if (c == '"' || c == '\\') op += '\\';
        op += c;
    }
    return "{\"op\":\"" + op + "\",\"verified\":" + (r.verified ? "true" : "false") +
           ",\"pages_read\":" + std::to_string(r.pages_read) + ",\"pages_written\":" + std::to_string(r.pages_written) +
           ",\"local_reads\":" + std::to_string(r.local_reads) + ",\"remote_reads\":" + std::to_string(r.remote_reads) +
           ",\"bytes_read\":" + std::to_string(r.bytes_read) + ",\"bytes_written\":" + std::to_string(r.bytes_written) +
           ",\"hops\":" + std::to_string(r.hops) + "}";
}

}  // namespace ndshard::cli
