// `ndshard kcheck`: kernels/ops' program for OP, with the user's reader and writer in place
// of the op's own when given, or the program of a factory source written with tt-metal's
// host API (--program, checked against --reference), checked by ndshard::ttsim over
// generated distributions.
#include "ndshard/cli/kcheck.hpp"

#include <algorithm>
#include <thread>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "flag_help.hpp"
#include "kcheck_flags.hpp"
#include "ndshard/cli/spec_input.hpp"
#include "ndshard/ttmetal_host/bridge.hpp"
#include "ndshard/ttsim/kcheck.hpp"
#include "ops/ops.hpp"

namespace ndshard::cli {
namespace {

// A path as the replay line prints it: in single quotes, each ' written '\''.
std::string shell_quoted(const std::string& text) {
    std::string out = "'";
    for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return out + "'";
}

// The flags a replay needs besides --case: which kernels ran.
std::string kernel_flags(const kcheck_command& c) {
    std::string out;
    if (!c.program.empty()) out += " --program " + shell_quoted(c.program);
    if (!c.reader.empty()) out += " --reader " + shell_quoted(c.reader);
    if (!c.writer.empty()) out += " --writer " + shell_quoted(c.writer);
    for (const std::string& dir : c.include_dirs) out += " --include " + shell_quoted(dir);
    if (c.semaphore) out += " --semaphore";
    if (!c.contract.empty()) {
        std::string terms;
        for (const std::string& t : c.contract) terms += (terms.empty() ? "" : ",") + t;
        out += " --contract " + terms;
    }
    return out;
}

nlohmann::ordered_json findings_json(const ttsim::case_result& r) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const ttsim::finding& f : r.findings)
        out.push_back({{"kind", ttsim::to_string(f.kind)}, {"kernel", f.kernel}, {"what", f.what}});
    return out;
}

// At most this many findings of a failing case in the text report (the JSON has all).
constexpr std::size_t findings_shown = 8;

void write_findings(const ttsim::case_result& r, std::ostream& out) {
    for (std::size_t i = 0; i < r.findings.size() && i < findings_shown; ++i) {
        const ttsim::finding& f = r.findings[i];
        out << "  " << ttsim::to_string(f.kind) << (f.kernel.empty() ? "" : " in " + f.kernel) << ": " << f.what
            << "\n";
    }
    if (r.findings.size() > findings_shown)
        out << "  ... " << r.findings.size() - findings_shown << " more findings (--json lists them all)\n";
}

ttsim::check_options options_of(const kcheck_command& c) {
    ttsim::check_options o;
    o.cases = c.cases;
    o.seed = c.seed;
    o.max_pages = c.max_pages;
    o.max_cores = c.max_cores;
    o.static_mix_percent = c.static_percent;
    o.page_bytes = c.page_bytes;
    o.isolate = c.isolate;
    o.case_timeout_s = c.timeout_s;
    o.jobs = c.jobs != 0 ? c.jobs : std::max(1U, std::thread::hardware_concurrency());
    o.hard_every = c.hard_every;
    o.launch.schedules = c.schedules;
    o.keep_going = c.keep_going;
    o.device = {c.grid_x, c.grid_y, c.dram_banks};
    if (!c.cache.empty()) o.launch.cache = c.cache;
    return o;
}

int run_one_case(const ttsim::op_desc& op, const kcheck_command& c, const ttsim::check_options& o, std::ostream& out) {
    const ttsim::case_spec spec = ttsim::parse_case(*c.one_case);
    const ttsim::case_result r = ttsim::run_one(op, spec, o);
    if (!r.applicable) {
        if (c.json)
            out << nlohmann::ordered_json{{"op", c.op}, {"applicable", false}, {"summary", r.summary}}.dump(2) << "\n";
        else out << "kcheck " << c.op << ": " << r.summary << "\n";
        return 0;
    }
    if (c.json) {
        nlohmann::ordered_json j;
        j["op"] = c.op;
        j["case"] = ttsim::describe(spec);
        j["passed"] = r.passed;
        j["findings"] = findings_json(r);
        out << j.dump(2) << "\n";
    } else {
        out << "kcheck " << c.op << ": " << ttsim::describe(spec) << "\n"
            << (r.passed ? "PASS" : "FAIL: " + r.summary) << "\n";
        write_findings(r, out);
    }
    return r.passed ? 0 : 1;
}

// A value of `flag` in lo..hi.
std::uint64_t bounded(const std::string& text, const char* flag, std::uint64_t lo, std::uint64_t hi) {
    const std::uint64_t n = parse_u64(text, flag);
    if (n < lo || n > hi)
        throw usage_error(std::string(flag) + " " + quote_value(text) + ": must be between " + std::to_string(lo) +
                          " and " + std::to_string(hi));
    return n;
}

// A kernel source named on the command line, as an absolute path (the simulator compiles it
// from its own folder).
std::string kernel_file(const std::string& text, const char* flag) {
    if (text.empty()) throw usage_error(std::string(flag) + " \"\": give the path of a kernel source file");
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(text, ec), ec);
    if (ec || !std::filesystem::is_regular_file(p, ec))
        throw usage_error(std::string(flag) + " " + quote_value(text) + ": not a readable file");
    return p.string();
}

// The op's contract narrowed by --contract's terms (checked by kcheck_of).
void narrow(ttsim::op_contract& k, const std::vector<std::string>& terms) {
    for (const std::string& t : terms) {
        if (t == "same-spec") k.same_spec = true;
        else if (t == "same-aligned-page") k.same_aligned_page = true;
        else if (t == "compile-time") k.mixes = {ttsim::all_compile_time};
        else if (t == "runtime") k.mixes = {ttsim::all_runtime};
        else if (t == "l1") k.memory = sim::memory_kind::l1;
        else if (t == "dram") k.memory = sim::memory_kind::dram;
        else if (t == "interleaved") k.layout = ttsim::op_contract::layouts::interleaved;
        else if (t == "sharded") k.layout = ttsim::op_contract::layouts::sharded;
    }
}

// An include directory named on the command line, as an absolute path.
std::string include_dir(const std::string& text) {
    if (text.empty()) throw usage_error("--include \"\": give the path of a directory");
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(text, ec), ec);
    if (ec || !std::filesystem::is_directory(p, ec))
        throw usage_error("--include " + quote_value(text) + ": not a directory");
    return p.string();
}

}  // namespace

CLI::App* add_kcheck_command(CLI::App& app, kcheck_flags& f) {
    CLI::App* kcheck =
        app.add_subcommand("kcheck", "run a tt-metal reader and writer on the simulated device, every distribution");
    kcheck
        ->add_option("op", f.op, "the op whose program runs the kernels: copy, copy_shards, permute:a,b,..., reduce:D")
        ->type_name("OP");
    add_text(kcheck, "--program", f.program,
             "a factory source written with tt-metal's host API (make_program(input, output[, params])) in place of OP",
             "FILE.cpp");
    add_text(kcheck, "--reference", f.reference,
             "with --program: the op whose result it must give: copy, copy_shards, "
             "permute:a,b,..., reduce:D (its numbers are make_program's params)",
             "OP");
    add_text(kcheck, "--reader", f.reader, "your reader kernel (riscv_0, NoC 0) in place of the op's", "FILE.cpp");
    add_text(kcheck, "--writer", f.writer, "your writer kernel (riscv_1, NoC 1) in place of the op's", "FILE.cpp");
    kcheck
        ->add_option("--include", f.include,
                     "an include directory for the kernels (headers a kernel includes are part of its cache key); "
                     "repeatable")
        ->allow_extra_args(false)
        ->type_name("DIR");
    kcheck->add_flag("--semaphore", f.semaphore,
                     "one semaphore (initially 0) on the kernels' cores, its id the last runtime arg of both");
    add_text(kcheck, "--cases", f.cases, "cases to draw, 1..1000000; default 100", "N");
    add_text(kcheck, "--seed", f.seed, "seed of the drawn cases; default 1", "S");
    add_text(kcheck, "--max-pages", f.max_pages,
             "pages of any tensor drawn, 1..1048576; default 4096 (hard cases go past it)", "N");
    add_text(kcheck, "--hard-every", f.hard_every,
             "every N-th case a hard one (over 65,536 pages, shards over 64 KiB, tile pages, buffers at "
             "the top of L1 or DRAM, every rank), 0..1000000, 0: none; default 10",
             "N");
    add_text(kcheck, "--cores", f.cores, "most worker cores (and L1 banks) a case uses, 1..8; default 8", "N");
    add_text(kcheck, "--page-bytes", f.page_bytes,
             "page sizes to draw from, multiples of 4 up to 4096; default: three drawn per run", "B,B,...");
    add_text(kcheck, "--static-percent", f.static_percent,
             "cases whose accessor words have compile-time parts (each set is a compile), 0..100; default 30", "P");
    add_text(kcheck, "--case", f.one_case, "run only this case (the JSON a failure's replay line prints)", "JSON");
    add_text(kcheck, "--timeout-s", f.timeout,
             "a case running longer once its kernels are compiled is a hang; 1..3600, default 60", "S");
    add_text(kcheck, "--cache", f.cache,
             "folder of compiled kernels (default: $NDSHARD_KERNEL_CACHE, else one under the temp dir)", "DIR");
    add_text(kcheck, "--jobs", f.jobs,
             "cases run at once, each in its own process (the same results for any count), 1..256; default: one a "
             "core",
             "N");
    add_text(kcheck, "--schedules", f.schedules,
             "interleavings of the kernels each case runs under (its seed's, then others: the scheduler "
             "switching at almost every call, rarely, ...; the first that fails is the result), 1..64; default 1",
             "N");
    kcheck->add_flag("--no-isolate", f.no_isolate,
                     "run cases in this process (a debugger sees the kernel; a crash ends the run)");
    add_text(kcheck, "--contract", f.contract,
             "the cases your kernels take, comma-separated: same-spec, same-aligned-page, compile-time, runtime, l1, "
             "dram, interleaved, sharded (others are drawn never, and not applicable when replayed)",
             "TERM,...");
    kcheck->add_flag("--keep-going", f.keep_going,
                     "run every case after the first failure too and count the failures (the first is shrunk)");
    add_text(kcheck, "--grid", f.grid,
             "the case device's workers, 1..8 by 1..8 (tt-metal's Wormhole: 8x8); default 4x2", "XxY");
    add_text(kcheck, "--dram-banks", f.dram_banks, "the case device's DRAM banks, 1..12; default 4", "N");
    kcheck->add_flag("--json", f.json, "one JSON object on stdout instead of text");
    kcheck->footer(
        "\nCompiles the kernels as they are, against ndshard's tt-metal headers (dataflow_api.h,\n"
        "api/tensor/tensor_accessor.h), and runs the op's program over generated input and output\n"
        "distributions: every strategy, uneven edge shards, more cores than shards, ranks 1..8,\n"
        "interleaved, L1 and DRAM, every compile-time/runtime accessor mix. Each case runs in a child\n"
        "process; every output page is compared with the op's reference, every padding slot with its\n"
        "sentinel, every NoC access and CB call with its rules. The first failure is shrunk to the\n"
        "smallest failing distribution and printed with the command that replays it.\n"
        "Exit 0 when every case passes, 1 when one fails, 2 for a bad flag or op.\n" +
        examples({"ndshard kcheck copy --cases 20",
                  "ndshard kcheck copy --reader my_reader.cpp --writer my_writer.cpp --cases 200 --seed 7",
                  "ndshard kcheck permute:1,0 --page-bytes 16,64 --json > report.json",
                  "ndshard kcheck --program kernels/ops/copy/program.cpp --reference copy --cases 20"}));
    return kcheck;
}

kcheck_command kcheck_of(const kcheck_flags& f, bool allow_files) {
    kcheck_command c;
    c.op = f.op;
    if (!allow_files && (f.reader || f.writer || f.cache || f.program || !f.include.empty()))
        throw usage_error(
            "--reader, --writer, --program, --include and --cache name files, which this caller does not allow");
    if (f.program) {
        if (!f.op.empty() || f.reader || f.writer || f.semaphore)
            throw usage_error("--program " + quote_value(*f.program) +
                              ": the factory's program runs alone (no OP, --reader, --writer or --semaphore; "
                              "--reference names the op it is checked against)");
        if (!f.reference) throw usage_error("--program needs --reference OP: copy, permute:a,b,..., reduce:D");
        c.program = kernel_file(*f.program, "--program");
        c.op = *f.reference;
    } else if (f.reference) {
        throw usage_error("--reference " + quote_value(*f.reference) + " goes with --program");
    } else if (f.op.empty()) {
        throw usage_error(
            "give an OP (copy, copy_shards, permute:a,b,..., reduce:D), or --program FILE.cpp "
            "--reference OP");
    }
    if (f.reader) c.reader = kernel_file(*f.reader, "--reader");
    if (f.writer) c.writer = kernel_file(*f.writer, "--writer");
    for (const std::string& dir : f.include) c.include_dirs.push_back(include_dir(dir));
    c.semaphore = f.semaphore;
    if (f.cases) c.cases = bounded(*f.cases, "--cases", 1, 1000000);
    if (f.seed) c.seed = parse_u64(*f.seed, "--seed");
    if (f.max_pages) c.max_pages = static_cast<std::uint32_t>(bounded(*f.max_pages, "--max-pages", 1, 1U << 20));
    if (f.grid) {
        const std::string& g = *f.grid;
        const std::size_t x = g.find('x');
        if (x == std::string::npos)
            throw usage_error("--grid " + quote_value(g) + ": workers as XxY, each 1..8 (8x8: tt-metal's Wormhole)");
        c.grid_x = static_cast<std::uint32_t>(bounded(g.substr(0, x), "--grid", 1, 8));
        c.grid_y = static_cast<std::uint32_t>(bounded(g.substr(x + 1), "--grid", 1, 8));
    }
    if (f.dram_banks) c.dram_banks = static_cast<std::uint32_t>(bounded(*f.dram_banks, "--dram-banks", 1, 12));
    c.keep_going = f.keep_going;
    if (f.contract) {
        const std::vector<std::string> known = contract_terms();
        std::string rest = *f.contract;
        for (std::size_t from = 0;;) {
            const std::size_t comma = rest.find(',', from);
            const std::string term = rest.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
            if (std::find(known.begin(), known.end(), term) == known.end())
                throw usage_error("--contract " + quote_value(*f.contract) + ": '" + term +
                                  "' is not one of same-spec, same-aligned-page, compile-time, runtime, l1, dram, "
                                  "interleaved, sharded");
            c.contract.push_back(term);
            if (comma == std::string::npos) break;
            from = comma + 1;
        }
        auto has = [&](const char* t) {
            return std::find(c.contract.begin(), c.contract.end(), t) != c.contract.end();
        };
        if ((has("l1") && has("dram")) || (has("interleaved") && has("sharded")) ||
            (has("compile-time") && has("runtime")))
            throw usage_error("--contract " + quote_value(*f.contract) + ": two terms that exclude each other");
    }
    if (f.cores)
        c.max_cores = static_cast<std::uint32_t>(bounded(*f.cores, "--cores", 1, std::uint64_t{c.grid_x} * c.grid_y));
    else c.max_cores = std::min(c.max_cores, c.grid_x * c.grid_y);
    if (f.static_percent)
        c.static_percent = static_cast<std::uint32_t>(bounded(*f.static_percent, "--static-percent", 0, 100));
    if (f.hard_every) c.hard_every = static_cast<std::uint32_t>(bounded(*f.hard_every, "--hard-every", 0, 1000000));
    if (f.schedules) c.schedules = static_cast<std::uint32_t>(bounded(*f.schedules, "--schedules", 1, 64));
    if (f.jobs) c.jobs = static_cast<std::uint32_t>(bounded(*f.jobs, "--jobs", 1, 256));
    if (f.timeout) c.timeout_s = static_cast<std::uint32_t>(bounded(*f.timeout, "--timeout-s", 1, 3600));
    if (f.page_bytes) {
        const shape sizes = parse_shape(*f.page_bytes, "--page-bytes");
        for (const std::uint64_t b : sizes) {
            if (b == 0 || b % 4 != 0 || b > 4096)
                throw usage_error("--page-bytes " + quote_value(*f.page_bytes) + ": page size " + std::to_string(b) +
                                  " is not a multiple of 4 in 4..4096 (a page holds whole words)");
            c.page_bytes.push_back(static_cast<std::uint32_t>(b));
        }
    }
    if (f.one_case) {
        (void)ttsim::parse_case(*f.one_case);  // spec_error, naming the bad part, before any work
        c.one_case = *f.one_case;
    }
    if (f.cache) c.cache = *f.cache;
    c.isolate = !f.no_isolate;
    c.json = f.json;
    return c;
}

std::vector<std::string> contract_terms() {
    return {"same-spec", "same-aligned-page", "compile-time", "runtime", "l1", "dram", "interleaved", "sharded"};
}

int run_kcheck(const kcheck_command& c, std::ostream& out) {
    kernels::kernel_swap swap;
    swap.reader = c.reader;
    swap.writer = c.writer;
    swap.semaphore = c.semaphore;
    swap.include_dirs = c.include_dirs;
    const ttsim::check_options o = options_of(c);
    ttsim::op_desc op = kernels::make_op(c.op, swap);
    if (!c.program.empty()) {
        const std::filesystem::path factory(c.program);
        op = ttmetal_host::program_op(std::move(op), ttmetal_host::load_factory(factory, o.launch.cache),
                                      factory.parent_path());
    }
    narrow(op.contract, c.contract);
    if (c.one_case) return run_one_case(op, c, o, out);

    const ttsim::check_report r = ttsim::check_kernel(op, o);
    std::string replay;
    if (r.smallest && c.program.empty()) replay = r.replay + kernel_flags(c);
    if (r.smallest && !c.program.empty())
        replay = "ndshard kcheck" + kernel_flags(c) + " --reference " + c.op + " " + ttsim::replay_flags(*r.smallest) +
                 (c.schedules > 1 ? " --schedules " + std::to_string(c.schedules) : "");
    if (c.json) {
        nlohmann::ordered_json j;
        j["op"] = c.op;
        j["seed"] = c.seed;
        j["cases_run"] = r.cases_run;
        j["cases_failed"] = r.cases_failed;
        j["cases_not_applicable"] = r.cases_not_applicable;
        j["failures"] = nlohmann::ordered_json::array();
        for (const auto& [spec, summary] : r.failures)
            j["failures"].push_back({{"case", ttsim::describe(spec)}, {"summary", summary}});
        j["reached"] = r.tags;
        j["hard_classes"] = r.hard;
        j["hard_classes_missed"] = r.hard_missed;
        if (r.smallest) {
            j["smallest"] = {{"case", ttsim::describe(*r.smallest)},
                             {"summary", r.smallest_result.summary},
                             {"findings", findings_json(r.smallest_result)},
                             {"replay", replay}};
        }
        out << j.dump(2) << "\n";
        return r.smallest ? 1 : 0;
    }
    out << "kcheck " << c.op << ": " << r.cases_run << " cases (seed " << c.seed << "), " << r.cases_failed
        << " failed";
    if (r.cases_not_applicable != 0) out << ", " << r.cases_not_applicable << " drawn outside the op (not applicable)";
    out << "\n";
    if (!r.tags.empty()) {
        out << "reached:";
        for (const std::string& t : r.tags) out << " " << t << ";";
        out << "\n";
    }
    if (!r.hard.empty()) {
        out << "hard classes reached:";
        for (const std::string& t : r.hard) out << " " << t << ";";
        out << "\n";
    }
    if (!r.hard_missed.empty()) {
        out << "hard classes not reached:";
        for (const std::string& t : r.hard_missed) out << " " << t << ";";
        out << "\n";
    }
    if (r.cases_run == 0) {
        out << "FAIL: no drawn case applies to " << c.op << " (raise --max-pages or --cases)\n";
        return 1;
    }
    if (!r.smallest) {
        out << "PASS\n";
        return 0;
    }
    if (c.keep_going)
        for (std::size_t i = 0; i < r.failures.size() && i < findings_shown; ++i)
            out << "failed case " << i + 1 << ": " << r.failures[i].second << "\n";
    out << "FAIL: " << r.smallest_result.summary << "\n"
        << "smallest failing case: " << ttsim::describe(*r.smallest) << "\n";
    write_findings(r.smallest_result, out);
    out << "replay: " << replay << "\n";
    return 1;
}

}  // namespace ndshard::cli
