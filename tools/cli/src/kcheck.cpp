// `ndshard kcheck`: kernels/ops' program for OP, with the user's reader and writer in place
// of the op's own when given, checked by ndshard::ttsim over generated distributions.
#include "ndshard/cli/kcheck.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

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
    if (!c.reader.empty()) out += " --reader " + shell_quoted(c.reader);
    if (!c.writer.empty()) out += " --writer " + shell_quoted(c.writer);
    if (c.semaphore) out += " --semaphore";
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
    if (!c.cache.empty()) o.launch.cache = c.cache;
    return o;
}

int run_one_case(const ttsim::op_desc& op, const kcheck_command& c, const ttsim::check_options& o, std::ostream& out) {
    const ttsim::case_spec spec = ttsim::parse_case(*c.one_case);
    const ttsim::case_result r = ttsim::run_one(op, spec, o);
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

}  // namespace

int run_kcheck(const kcheck_command& c, std::ostream& out) {
    kernels::kernel_swap swap;
    swap.reader = c.reader;
    swap.writer = c.writer;
    swap.semaphore = c.semaphore;
    const ttsim::op_desc op = kernels::make_op(c.op, swap);
    const ttsim::check_options o = options_of(c);
    if (c.one_case) return run_one_case(op, c, o, out);

    const ttsim::check_report r = ttsim::check_kernel(op, o);
    const std::string replay = r.smallest ? r.replay + kernel_flags(c) : std::string();
    if (c.json) {
        nlohmann::ordered_json j;
        j["op"] = c.op;
        j["seed"] = c.seed;
        j["cases_run"] = r.cases_run;
        j["cases_failed"] = r.cases_failed;
        j["reached"] = r.tags;
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
        << " failed\n";
    if (!r.tags.empty()) {
        out << "reached:";
        for (const std::string& t : r.tags) out << " " << t << ";";
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
    out << "FAIL: " << r.smallest_result.summary << "\n"
        << "smallest failing case: " << ttsim::describe(*r.smallest) << "\n";
    write_findings(r.smallest_result, out);
    out << "replay: " << replay << "\n";
    return 1;
}

}  // namespace ndshard::cli
