// ndshard::ttsim::check_kernel: an op over generated distributions (kcheck.hpp).
#include "ndshard/ttsim/kcheck.hpp"
#include "ndshard/ttsim/not_applicable.hpp"

#include "kcheck_isolate.hpp"
#include "kcheck_internal.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "ndshard/error.hpp"
#include "ndshard/sim/error.hpp"
#include "ndshard/sim/scenario.hpp"
#include "ndshard/specio/spec_text.hpp"
#include "ndshard/testkit/entropy.hpp"
#include "ndshard/testkit/spec_gen.hpp"
#include "ndshard/testkit/splitmix64.hpp"
#include "ndshard/tt/noc.hpp"

#include <nlohmann/json.hpp>

namespace ndshard::ttsim {

using detail::case_device;
using detail::whole_table_interleaved;

namespace {

// Why `g` is no device a case runs on, or "".
std::string bad_grid(const case_grid& g) {
    if (g.x < 1 || g.x > 8 || g.y < 1 || g.y > 8 || g.dram_banks < 1 || g.dram_banks > 12)
        return "device " + std::to_string(g.x) + "x" + std::to_string(g.y) + " with " + std::to_string(g.dram_banks) +
               " DRAM banks: workers 1..8 by 1..8, 1..12 banks (tt-metal's Wormhole grid is 8x8, 12 banks)";
    return "";
}

const char* memory_name(sim::memory_kind k) { return k == sim::memory_kind::dram ? "dram" : "l1"; }
sim::memory_kind memory_of(const std::string& s) {
    if (s == "dram") return sim::memory_kind::dram;
    if (s == "l1") return sim::memory_kind::l1;
    throw spec_error("kcheck_case", "memory '" + s + "' is neither l1 nor dram");
}

// Whether `s` is what tt-metal calls interleaved on `cfg`: one-page shards dealt round robin
// over every bank of the platform's table in order (as accessor_words decides).
bool is_interleaved(const sim::device_config& cfg, const distribution_spec& s, sim::memory_kind m) {
    for (std::size_t d = 0; d < s.shard.rank(); ++d)
        if (s.shard[d] != 1) return false;
    try {
        const distribution d = make_distribution(s);
        const distribution w = make_distribution(whole_table_interleaved(cfg, s.tensor, s.element_size, m));
        return d.layout.rule == deal_rule::round_robin && d.cores == w.cores;
    } catch (const spec_error&) {
        return false;
    }
}

case_result not_applicable_result(const std::string& why) {
    case_result r;
    r.applicable = false;
    r.summary = "not applicable: " + why;
    return r;
}

}  // namespace

std::string outside_contract(const op_contract& k, const case_spec& c) {
    const sim::device_config cfg = case_device(c.device);
    if (k.same_spec && !c.inputs.empty() && (!(c.output == c.inputs[0]) || c.output_memory != c.input_memory[0]))
        return "the output's distribution is not the input's (the op takes only equal ones)";
    std::vector<std::tuple<std::string, const distribution_spec*, sim::memory_kind>> all;
    for (std::size_t i = 0; i < c.inputs.size(); ++i)
        all.emplace_back("input " + std::to_string(i), &c.inputs[i], c.input_memory.at(i));
    all.emplace_back("the output", &c.output, c.output_memory);
    std::uint64_t aligned = 0;
    for (const auto& [name, s, m] : all) {
        if (k.memory && m != *k.memory)
            return name + " is in " + memory_name(m) + " (the op takes " + memory_name(*k.memory) + " only)";
        if (k.layout != op_contract::layouts::any) {
            const bool inter = is_interleaved(cfg, *s, m);
            if (inter != (k.layout == op_contract::layouts::interleaved))
                return name + (inter ? " is interleaved (the op takes sharded buffers only)"
                                     : " is not interleaved (the op takes interleaved buffers only)");
        }
        if (k.same_aligned_page) {
            std::uint64_t a = 0;
            try {
                a = make_distribution(*s).aligned_page_size;
            } catch (const spec_error&) {
                return name + " is not a valid distribution";
            }
            if (aligned != 0 && a != aligned)
                return name + "'s aligned page size " + std::to_string(a) + " is not the others' " +
                       std::to_string(aligned) + " (the op takes equal ones only)";
            aligned = a;
        }
    }
    if (!k.mixes.empty() && std::find(k.mixes.begin(), k.mixes.end(), c.mix) == k.mixes.end())
        return "accessor mix " + std::to_string(c.mix) + " is not one the op takes";
    return k.also ? k.also(c) : std::string();
}

std::string describe(const case_spec& c) {
    std::string s;
    auto one = [&](const char* what, const distribution_spec& d, sim::memory_kind m) {
        s += std::string(what) + " " + to_string(d.tensor) + " cut " + to_string(d.shard) + " " + to_string(d.strat) +
             " " + to_string(d.orient) + " on " + std::to_string(d.cores.size()) + " range(s) in " + memory_name(m) +
             ", " + std::to_string(d.element_size) + " B pages aligned " + std::to_string(d.alignment) + "; ";
    };
    for (std::size_t i = 0; i < c.inputs.size(); ++i) one("input", c.inputs[i], c.input_memory[i]);
    one("output", c.output, c.output_memory);
    s += "mix " + std::to_string(c.mix) + ", " + std::to_string(c.num_cores) + " cores, seed " + std::to_string(c.seed);
    if (c.device != case_grid{})
        s += ", on " + std::to_string(c.device.x) + "x" + std::to_string(c.device.y) + " workers and " +
             std::to_string(c.device.dram_banks) + " DRAM banks";
    if (c.top) s += ", every buffer at the top of its memory";
    return s;
}

std::string replay_flags(const case_spec& c) {
    nlohmann::ordered_json j;
    j["inputs"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < c.inputs.size(); ++i)
        j["inputs"].push_back({{"spec", nlohmann::ordered_json::parse(specio::spec_to_json(c.inputs[i]))},
                               {"memory", memory_name(c.input_memory[i])}});
    j["output"] = {{"spec", nlohmann::ordered_json::parse(specio::spec_to_json(c.output))},
                   {"memory", memory_name(c.output_memory)}};
    j["mix"] = c.mix;
    j["cores"] = c.num_cores;
    j["seed"] = c.seed;
    if (c.device != case_grid{}) j["device"] = {c.device.x, c.device.y, c.device.dram_banks};
    if (c.top) j["top"] = true;
    return "--case '" + j.dump() + "'";
}

case_spec parse_case(const std::string& text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const std::exception& e) {
        throw spec_error("kcheck_case", std::string("--case is not JSON: ") + e.what());
    }
    case_spec c;
    try {
        for (const auto& in : j.at("inputs")) {
            c.inputs.push_back(specio::parse_spec_json(in.at("spec").dump()));
            c.input_memory.push_back(memory_of(in.at("memory").get<std::string>()));
        }
        c.output = specio::parse_spec_json(j.at("output").at("spec").dump());
        c.output_memory = memory_of(j.at("output").at("memory").get<std::string>());
        c.mix = j.at("mix").get<std::uint32_t>();
        c.num_cores = j.at("cores").get<std::uint32_t>();
        c.seed = j.at("seed").get<std::uint64_t>();
        if (j.contains("device")) {
            const auto dims = j.at("device").get<std::vector<std::uint32_t>>();
            if (dims.size() != 3)
                throw spec_error("kcheck_case", "--case: device is [workers x, workers y, DRAM banks]");
            c.device = {dims[0], dims[1], dims[2]};
        }
        if (j.contains("top")) c.top = j.at("top").get<bool>();
    } catch (const spec_error&) {
        throw;
    } catch (const std::exception& e) {
        throw spec_error("kcheck_case", std::string("--case: ") + e.what() +
                                            " (keys: inputs[{spec, memory}], output{spec, memory}, mix, cores, seed, "
                                            "optional device [x, y, banks], optional top)");
    }
    if (!tt::is_valid_runtime_mix(c.mix) || (c.mix & ~tt::flag::runtime_all) != 0)
        throw spec_error("kcheck_case",
                         "--case: mix " + std::to_string(c.mix) + " is not one of the 15 (tt::flag Runtime bits)");
    if (const std::string bad = bad_grid(c.device); !bad.empty()) throw spec_error("kcheck_case", "--case: " + bad);
    if (c.num_cores < 1 || c.num_cores > c.device.x * c.device.y)
        throw spec_error("kcheck_case", "--case: cores " + std::to_string(c.num_cores) + " is not in 1.." +
                                            std::to_string(c.device.x * c.device.y));
    return c;
}

namespace {

// The launch options of schedule `k` of a case (launch_options::schedules): schedule 0 is the
// case's own seed and the given switch chance; the others derive their seeds from it and
// cycle the chance (in 1/65536 per API call) through almost every call, rarely, often and
// half the calls, so a run of kernels is cut short, left long, and everything between.
launch_options schedule_options(const launch_options& given, const case_spec& c, std::uint32_t k) {
    launch_options lo = given;
    lo.seed = c.seed;
    if (k == 0) return lo;
    constexpr std::uint32_t chances[] = {65535, 256, 16384, 32768};
    lo.seed = testkit::splitmix64{c.seed + k}.next();
    lo.preempt = chances[(k - 1) % std::size(chances)];
    return lo;
}

// One launch of case `c` under `lo`, on a fresh device, and the checks after it.
case_result run_schedule(const op_desc& op, const case_spec& c, const launch_options& lo,
                         const std::map<std::string, std::string>& sources) {
    const sim::device_config cfg = case_device(c.device);
    sim::device dev(cfg);
    std::vector<sim::buffer_id> inputs;
    std::vector<sim::dense_tensor> data;
    // case_spec::top: each buffer just below the one before, from the end of its memory down.
    std::map<sim::memory_kind, std::uint64_t> below;
    auto allocate = [&](distribution_spec s, const std::string& name) {
        const distribution d = make_distribution(s);
        const sim::memory* m = d.cores.empty() ? nullptr : dev.memory_at(d.cores.front());
        if (!c.top || m == nullptr) return dev.allocate(s, name);
        const std::uint64_t bytes = d.reserved_pages_per_core() * d.aligned_page_size;
        const std::uint64_t align = std::max(s.alignment, cfg.alloc_alignment);
        std::uint64_t& end = below.try_emplace(m->kind(), m->end()).first->second;
        if (end < m->base() + bytes + align) return dev.allocate(s, name);  // no room left at the top
        s.bank_base = (end - bytes) / align * align;
        end = s.bank_base;
        return dev.allocate_at(s, name);
    };
    sim::buffer_id output;
    try {
        for (std::size_t i = 0; i < c.inputs.size(); ++i) {
            inputs.push_back(allocate(c.inputs[i], "input" + std::to_string(i)));
            const distribution& d = dev.buffer(inputs.back()).dist;
            data.push_back(sim::dense_tensor::random(d.tensor_pages, static_cast<std::uint32_t>(d.page_size / 4),
                                                     c.seed * 31 + i + 1));
            dev.write(inputs.back(), data.back());
        }
        output = allocate(c.output, "output");
    } catch (const sim::alloc_error& e) {  // no kernel ran: not a failure (nor a step the shrinker may take)
        return not_applicable_result(std::string("the buffers do not fit the device: ") + e.what());
    }
    std::vector<core_coord> cores;
    for (std::uint32_t w = 0; w < c.num_cores; ++w) cores.push_back(dev.worker(w));
    const op_case oc{dev, inputs, output, c.mix, cores, tt::default_layout, sources};
    program p;
    try {
        p = op.build(oc);
    } catch (const not_applicable& e) {  // the factory declines the case: not a failure
        return not_applicable_result(e.what());
    }
    const launch_result r = launch(dev, p, lo);
    case_result out;
    out.findings = r.findings;
    if (out.findings.empty()) {
        const shape out_pages = dev.buffer(output).dist.tensor_pages;
        const std::string diff = sim::first_difference(dev.read(output), op.reference(data, out_pages));
        if (!diff.empty())
            out.findings.push_back({finding_kind::output, "", "the output differs from the reference: " + diff});
        // Padding slots only: a kernel may write a page's alignment gap (tt-metal's page writes
        // move aligned pages).
        std::vector<std::string> pad = dev.padding_violations(output);
        std::erase_if(pad, [](const std::string& line) { return line.find("(padding)") == std::string::npos; });
        if (!pad.empty())
            out.findings.push_back(
                {finding_kind::padding, "",
                 std::to_string(pad.size()) + " padding slots or gaps written, first: " + pad.front()});
        for (std::size_t i = 0; i < inputs.size(); ++i)
            if (!(dev.read(inputs[i]) == data[i]))
                out.findings.push_back(
                    {finding_kind::input_changed, "", "input " + std::to_string(i) + " was written"});
    }
    out.passed = out.findings.empty();
    out.summary =
        out.passed ? "passed" : std::string(to_string(out.findings.front().kind)) + ": " + out.findings.front().what;
    return out;
}

}  // namespace

case_result run_case(const op_desc& op, const case_spec& c, const launch_options& options,
                     const std::map<std::string, std::string>& sources) {
    if (const std::string why = outside_contract(op.contract, c); !why.empty()) return not_applicable_result(why);
    case_result r;
    for (std::uint32_t k = 0; k < std::max(options.schedules, 1U); ++k) {
        r = run_schedule(op, c, schedule_options(options, c, k), sources);
        if (!r.applicable || !r.passed) {
            if (k > 0 && !r.passed) {  // each finding says which interleaving it came from
                for (finding& f : r.findings) f.what = "schedule " + std::to_string(k) + ": " + f.what;
                r.summary = std::string(to_string(r.findings.front().kind)) + ": " + r.findings.front().what;
            }
            break;
        }
    }
    return r;
}

namespace {

// Simpler variants of a failing case, the simplest first.
std::vector<case_spec> simpler(const op_desc& op, const case_spec& c) {
    std::vector<case_spec> out;
    auto add = [&](case_spec v) {
        if (op.contract.same_spec && !v.inputs.empty()) {  // the output and the input change together
            if (!(v.output == c.output) || v.output_memory != c.output_memory) {
                v.inputs.front() = v.output;
                v.input_memory.front() = v.output_memory;
            } else {
                v.output = v.inputs.front();
                v.output_memory = v.input_memory.front();
            }
        }
        if (!outside_contract(op.contract, v).empty() || replay_flags(v) == replay_flags(c)) return;
        try {
            for (const distribution_spec& s : v.inputs) (void)make_distribution(s);
            (void)make_distribution(v.output);
        } catch (const spec_error&) {
            return;  // not a valid case
        }
        out.push_back(std::move(v));
    };
    // A smaller page grid, one dim at a time: to 1, to half, one less. Every input has the
    // grid as its tensor (in pages) and the output has the op's shape of it; the shards
    // stay, so a shard may now outgrow its tensor, which is a valid case too.
    const bool in_pages = std::all_of(c.inputs.begin(), c.inputs.end(), [&](const distribution_spec& s) {
        return s.page.kind == page_kind::pages && s.tensor == c.inputs.front().tensor;
    });
    if (!c.inputs.empty() && in_pages && c.output.page.kind == page_kind::pages) {
        const shape grid = c.inputs.front().tensor;
        for (std::size_t d = 0; d < grid.rank(); ++d) {
            std::uint64_t tried = 0;
            for (const std::uint64_t target : {std::uint64_t{1}, grid[d] / 2, grid[d] - 1}) {
                if (target <= tried || target >= grid[d]) continue;
                tried = target;
                shape g = grid;
                g[d] = target;
                const std::optional<shape> out_grid = op.output_pages(std::vector<shape>(c.inputs.size(), g));
                if (!out_grid) continue;
                case_spec v = c;
                for (distribution_spec& s : v.inputs) s.tensor = g;
                v.output.tensor = *out_grid;
                add(std::move(v));
            }
        }
    }
    if (c.num_cores > 1) {
        case_spec v = c;
        v.num_cores = 1;
        add(v);
        v = c;
        v.num_cores = c.num_cores / 2;
        add(v);
    }
    if (c.mix != all_runtime) {
        case_spec v = c;
        v.mix = all_runtime;
        add(v);
    }
    // Each buffer alone made simpler: fewer core ranges, fewer pages per page, no alignment gap.
    auto each_buffer = [&](auto&& change) {
        for (std::size_t i = 0; i <= c.inputs.size(); ++i) {
            case_spec v = c;
            distribution_spec& s = i < c.inputs.size() ? v.inputs[i] : v.output;
            if (change(s)) add(std::move(v));
        }
    };
    each_buffer([](distribution_spec& s) {
        if (s.cores.size() <= 1) return false;
        s.cores.pop_back();
        return true;
    });
    each_buffer([](distribution_spec& s) {
        if (s.cores.size() != 1 || s.cores[0].start == s.cores[0].end) return false;
        core_range& r = s.cores[0];
        if (r.end.x > r.start.x) --r.end.x;
        else --r.end.y;
        return true;
    });
    // Smaller shards, one dim of one buffer at a time: to 1, to half.
    for (std::size_t i = 0; i <= c.inputs.size(); ++i) {
        const distribution_spec& s = i < c.inputs.size() ? c.inputs[i] : c.output;
        for (std::size_t d = 0; d < s.shard.rank(); ++d) {
            std::uint64_t tried = 0;
            for (const std::uint64_t target : {std::uint64_t{1}, s.shard[d] / 2}) {
                if (target <= tried || target >= s.shard[d]) continue;
                tried = target;
                case_spec v = c;
                (i < c.inputs.size() ? v.inputs[i] : v.output).shard[d] = target;
                add(std::move(v));
            }
        }
    }
    each_buffer([](distribution_spec& s) {
        if (s.strat == strategy::round_robin_1d) return false;
        s.strat = strategy::round_robin_1d;
        return true;
    });
    each_buffer([](distribution_spec& s) {
        if (s.orient == orientation::row_major) return false;
        s.orient = orientation::row_major;
        return true;
    });
    // The page size and the page grid, the same for every buffer (the op's shapes must agree).
    if (c.output.element_size > 4) {
        case_spec v = c;
        for (distribution_spec& s : v.inputs) s.element_size = 4;
        v.output.element_size = 4;
        add(v);
    }
    {  // the smallest alignment each memory allows (tt-metal's allocator's)
        case_spec v = c;
        bool changed = false;
        auto least = [&](distribution_spec& s, sim::memory_kind m) {
            const std::uint64_t a = m == sim::memory_kind::dram ? tt::chip_dram_alignment : tt::chip_l1_alignment;
            if (s.alignment > a) s.alignment = a, changed = true;
        };
        for (std::size_t i = 0; i < v.inputs.size(); ++i) least(v.inputs[i], v.input_memory[i]);
        least(v.output, v.output_memory);
        if (changed) add(v);
    }
    if (c.top) {
        case_spec v = c;
        v.top = false;
        add(v);
    }
    if (c.seed != 0) {
        case_spec v = c;
        v.seed = 0;
        add(v);
    }
    return out;
}

}  // namespace

namespace {

// `cases` in order as run_one runs each, up to options.jobs at once when isolated; with
// `stop_at_failure` the results end with the first failing case.
std::vector<case_result> run_many(const op_desc& op, std::span<const case_spec> cases, const check_options& o,
                                  bool stop_at_failure) {
    if (o.isolate) {
        const auto run = [&](const case_spec& c, const launch_options& lo) {
            if (const std::string why = outside_contract(op.contract, c); !why.empty())
                return not_applicable_result(why);
            return run_case(op, c, lo, o.sources);
        };
        return detail::run_isolated(cases, run, o, stop_at_failure);
    }
    std::vector<case_result> out;
    for (const case_spec& c : cases) {
        out.push_back(run_one(op, c, o));
        if (stop_at_failure && !out.back().passed) break;
    }
    return out;
}

}  // namespace

case_result run_one(const op_desc& op, const case_spec& c, const check_options& options) {
    if (const std::string why = outside_contract(op.contract, c); !why.empty()) return not_applicable_result(why);
    if (options.isolate) return std::move(run_many(op, std::span(&c, 1), options, true).front());
    return run_case(op, c, options.launch, options.sources);
}

check_report check_kernel(const op_desc& op, const check_options& given) {
    check_report report;
    const check_options& options = given;
    if (const std::string bad = bad_grid(options.device); !bad.empty()) throw std::invalid_argument("kcheck: " + bad);
    for (const std::uint32_t b : options.page_bytes)
        if (b == 0 || b % 4 != 0)
            throw std::invalid_argument("kcheck: page size " + std::to_string(b) +
                                        " bytes: page sizes are positive multiples of 4 (a page holds whole words)");
    std::map<std::string, std::uint64_t> tags, hard;
    // Every case is drawn first (the draw does not depend on results), then run in order.
    const std::vector<std::optional<case_spec>> draws = draw_cases(op, options);
    std::vector<case_spec> drawn;
    std::vector<std::size_t> position;  // of drawn[i] among the draws
    for (std::size_t i = 0; i < draws.size(); ++i)
        if (draws[i]) {
            drawn.push_back(*draws[i]);
            position.push_back(i);
        }
    const std::vector<case_result> results = run_many(op, drawn, options, !options.keep_going);
    // Draws outside the op's grids or contract, up to the last case run.
    const std::size_t drawn_to = results.size() < drawn.size() ? position[results.size()] : draws.size();
    for (std::size_t i = 0; i < drawn_to; ++i) report.cases_not_applicable += draws[i] ? 0 : 1;
    std::optional<case_result> first_result;
    for (std::size_t i = 0; i < results.size(); ++i) {
        const case_spec& c = drawn[i];
        for (const distribution_spec& s : c.inputs)
            for (const std::string& f : testkit::features(s)) ++tags["input " + f];
        for (const std::string& f : testkit::features(c.output)) ++tags["output " + f];
        for (const sim::memory_kind m : c.input_memory) ++tags[std::string("input in ") + memory_name(m)];
        ++tags[std::string("output in ") + memory_name(c.output_memory)];
        ++tags[c.mix == all_runtime ? "mix all runtime" : "mix with compile-time parts"];
        for (const std::string& h : hard_classes(c)) ++hard[h];
        ++report.cases_run;
        if (results[i].passed) continue;
        ++report.cases_failed;
        report.failures.emplace_back(c, results[i].summary);
        if (!first_result) first_result = results[i];
    }
    if (first_result) {
        // Shrink the first failure: the first simpler variant that still fails, again and
        // again (the variants of a step run options.jobs at once; the first failing one wins).
        case_spec best = report.failures.front().first;
        case_result best_result = *first_result;
        std::uint64_t steps = 0;
        for (bool progress = true; progress && steps < options.shrink_steps;) {
            progress = false;
            std::vector<case_spec> variants = simpler(op, best);
            if (variants.size() > options.shrink_steps - steps) variants.resize(options.shrink_steps - steps);
            std::vector<case_result> tried = run_many(op, variants, options, true);
            steps += tried.size();
            if (!tried.empty() && !tried.back().passed) {
                best = variants[tried.size() - 1];
                best_result = std::move(tried.back());
                progress = true;
            }
        }
        report.smallest = best;
        report.smallest_result = best_result;
        report.replay = "ndshard kcheck " + op.name + " " + replay_flags(best);
        if (options.launch.schedules > 1) report.replay += " --schedules " + std::to_string(options.launch.schedules);
    }
    for (const auto& [tag, n] : tags) report.tags.push_back(tag + " x" + std::to_string(n));
    for (const std::string& h : all_hard_classes(op.min_rank, op.max_rank)) {
        const auto it = hard.find(h);
        if (it == hard.end()) report.hard_missed.push_back(h);
        else report.hard.push_back(h + " x" + std::to_string(it->second));
    }
    return report;
}

}  // namespace ndshard::ttsim
