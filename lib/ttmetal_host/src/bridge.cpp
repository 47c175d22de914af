// A Buffer for a simulated device's buffer, a Program as a ttsim::program, an op from a factory.
#include "ndshard/ttmetal_host/bridge.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "ndshard/error.hpp"

namespace ndshard::ttmetal_host {

namespace tm = ::tt::tt_metal;

tm::Buffer make_buffer(const sim::device& dev, sim::buffer_id id, std::uint32_t case_mix, unsigned layout,
                       CoreCoord grid) {
    const sim::buffer_info& b = dev.buffer(id);
    auto s = std::make_shared<tm::detail::buffer_state>();
    s->address = static_cast<std::uint32_t>(b.dist.bank_base);
    s->page_size = b.dist.page_size;
    s->aligned_page_size = b.dist.aligned_page_size;
    s->num_pages = b.dist.num_pages();
    s->type = b.memory == sim::memory_kind::dram ? tm::BufferType::DRAM : tm::BufferType::L1;
    s->dist = b.dist;
    s->case_mix = case_mix;
    s->device = std::make_shared<tm::IDevice>(grid);
    const sim::device* d = &dev;
    s->words = [d, id, layout](std::uint32_t mix) { return ttsim::accessor_words(*d, id, mix, layout); };
    // Interleaved when its words say so (the first compile-time word is the ArgConfig).
    try {
        const tt::tt_words w = ttsim::accessor_words(dev, id, ttsim::all_compile_time, layout);
        s->sharded = !w.compile_time.empty() && (w.compile_time[0] & tt::flag::sharded) != 0;
    } catch (const spec_error&) {
        s->sharded = true;  // words cannot say it; an interleaved buffer always has words
    }
    return tm::Buffer(std::move(s));
}

namespace {

std::vector<core_coord> cores_on(const sim::device& dev, const CoreRangeSet& set, const std::string& call) {
    std::vector<core_coord> out;
    for (const CoreCoord& c : corerange_to_cores(set, std::nullopt, true)) {
        if (c.x >= dev.config().grid_x || c.y >= dev.config().grid_y)
            throw spec_error("host_api", call + ": core " + c.str() + " is outside the device's " +
                                             std::to_string(dev.config().grid_x) + "x" +
                                             std::to_string(dev.config().grid_y) + " worker grid");
        out.push_back({static_cast<std::uint32_t>(c.x), static_cast<std::uint32_t>(c.y)});
    }
    return out;
}

}  // namespace

ttsim::program to_ttsim(const tm::Program& program, const sim::device& dev, const std::filesystem::path& source_dir) {
    const tm::detail::program_state& st = program.ndshard_state();
    ttsim::program p;
    for (const tm::detail::semaphore_record& s : st.semaphores)
        p.add_semaphore({cores_on(dev, s.cores, "CreateSemaphore"), s.initial});
    for (const tm::detail::cb_record& cb : st.cbs) {
        const std::string call = "CreateCircularBuffer(" + cb.cores.str() + ")";
        const std::vector<core_coord> cores = cores_on(dev, cb.cores, call);
        for (std::uint32_t i = 0; i < tm::NUM_CIRCULAR_BUFFERS; ++i) {
            const auto format = cb.config.data_formats()[i];
            if (!format) continue;
            const std::uint32_t page = *cb.config.page_sizes()[i];
            ttsim::circular_buffer_desc d;
            d.id = i;
            d.page_size = page;
            d.num_pages = cb.config.total_size() / page;
            d.format = *format;  // tt::DataFormat is ttsim::data_format
            d.cores = cores;
            d.address = cb.config.globally_allocated_address();  // launch checks it is in a buffer there
            try {
                p.add_circular_buffer(std::move(d));
            } catch (const spec_error& e) {
                throw spec_error("host_api", call + ", CB index " + std::to_string(i) + ": " + e.what());
            }
        }
    }
    for (std::size_t k = 0; k < st.kernels.size(); ++k) {
        const tm::detail::kernel_record& r = st.kernels[k];
        const std::string call = "CreateKernel(" + r.path + ")";
        ttsim::kernel_desc d;
        const std::filesystem::path path(r.path);
        d.source = (path.is_absolute() || source_dir.empty() ? path : source_dir / path).string();
        d.proc = r.config.processor == tm::DataMovementProcessor::RISCV_0 ? ttsim::riscv_0 : ttsim::riscv_1;
        d.noc = static_cast<int>(r.config.noc);
        d.compile_time_args = r.config.compile_args;
        for (const auto& [name, value] : r.config.named_compile_args)
            d.named_compile_time_args.emplace_back(name, value);
        std::sort(d.named_compile_time_args.begin(), d.named_compile_time_args.end());
        d.defines = r.config.defines;
        d.cores = cores_on(dev, r.cores, call);
        d.name = path.filename().string();
        const ttsim::kernel_handle h = p.add_kernel(std::move(d));
        p.set_common_runtime_args(h, r.common_runtime_args);
        for (const auto& [core, args] : r.runtime_args)
            p.set_runtime_args(h, {static_cast<std::uint32_t>(core.x), static_cast<std::uint32_t>(core.y)}, args);
    }
    return p;
}

op_params params_of(const std::string& op_name) {
    op_params out;
    const std::size_t colon = op_name.find(':');
    if (colon == std::string::npos) return out;
    std::size_t from = colon + 1;
    while (from <= op_name.size()) {
        const std::size_t comma = std::min(op_name.find(',', from), op_name.size());
        const std::string item = op_name.substr(from, comma - from);
        if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 9)
            throw std::invalid_argument("op " + op_name + ": parameter '" + item + "' is not a number");
        out.push_back(static_cast<std::uint32_t>(std::stoul(item)));
        from = comma + 1;
    }
    return out;
}

tm::Program run_factory(const ttsim::op_case& c, const program_factory& factory, const op_params& params) {
    // The case's cores are the first workers in row-major order: the largest grid from (0,0) in them.
    const auto n = static_cast<std::uint32_t>(c.cores.size());
    const std::uint32_t gx = c.dev.config().grid_x;
    const CoreCoord grid = n >= gx ? CoreCoord{gx, n / gx} : CoreCoord{n, 1};
    if (c.inputs.size() != 1)
        throw std::invalid_argument("a program factory takes one input buffer, the op has " +
                                    std::to_string(c.inputs.size()));
    tm::Buffer input = make_buffer(c.dev, c.inputs[0], c.mix, c.layout, grid);
    tm::Buffer output = make_buffer(c.dev, c.output, c.mix, c.layout, grid);
    return factory(input, output, params);
}

ttsim::op_desc program_op(ttsim::op_desc reference, program_factory factory, std::filesystem::path source_dir) {
    reference.build = [factory = std::move(factory), source_dir = std::move(source_dir),
                       params = params_of(reference.name)](const ttsim::op_case& c) {
        return to_ttsim(run_factory(c, factory, params), c.dev, source_dir);
    };
    return reference;
}

ttsim::op_desc program_op(ttsim::op_desc reference, plain_program_factory factory, std::filesystem::path source_dir) {
    return program_op(std::move(reference),
                      program_factory([f = std::move(factory)](tm::Buffer& in, tm::Buffer& out, const op_params&) {
                          return f(in, out);
                      }),
                      std::move(source_dir));
}

}  // namespace ndshard::ttmetal_host
