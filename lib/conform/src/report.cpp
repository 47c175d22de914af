// The report of `ndshard conform`: text lines and one JSON object.
#include <nlohmann/json.hpp>

#include "ndshard/conform/runner.hpp"

namespace ndshard::conform {

namespace {

const char* word(law_status s) {
    switch (s) {
        case law_status::passed:
            return "PASS";
        case law_status::failed:
            return "FAIL";
        case law_status::skipped:
            return "SKIP";
    }
    return "?";
}

const char* json_word(law_status s) {
    switch (s) {
        case law_status::passed:
            return "passed";
        case law_status::failed:
            return "failed";
        case law_status::skipped:
            return "skipped";
    }
    return "?";
}

}  // namespace

void write_text(const run_report& report, std::ostream& out) {
    out << "ndshard conform: " << report.impl.name << " " << report.impl.version << " (ABI " << report.impl.abi_version
        << "), seed " << report.seed << ", " << report.cases << " cases per law\n";
    for (const law_result& r : report.laws) {
        out << word(r.status) << " " << r.name << " (" << r.cases << " cases)";
        if (r.status == law_status::skipped) out << ": " << r.reason;
        out << "\n";
        if (r.status != law_status::failed || !r.example) continue;
        const counterexample& ex = *r.example;
        out << "  spec:     " << ex.spec << "\n"
            << "            (rank " << ex.rank << ", " << ex.pages << " pages; shrunk in " << ex.shrink_steps
            << " steps)\n"
            << "  query:    " << ex.what.query << "\n"
            << "  expected: " << ex.what.expected << "\n"
            << "  got:      " << ex.what.got << "\n"
            << "  replay:   " << r.replay << "\n";
    }
    out << report.count(law_status::passed) << " passed, " << report.count(law_status::failed) << " failed, "
        << report.count(law_status::skipped) << " skipped\n";
}

void write_json(const run_report& report, std::ostream& out) {
    nlohmann::ordered_json j;
    j["impl"] = {
        {"name", report.impl.name}, {"version", report.impl.version}, {"abi_version", report.impl.abi_version}};
    j["seed"] = report.seed;
    j["cases"] = report.cases;
    nlohmann::ordered_json laws = nlohmann::ordered_json::array();
    for (const law_result& r : report.laws) {
        nlohmann::ordered_json l;
        l["name"] = r.name;
        l["status"] = json_word(r.status);
        l["cases"] = r.cases;
        l["seconds"] = r.seconds;
        if (r.status != law_status::passed) l["reason"] = r.reason;
        if (r.status == law_status::failed && r.example) {
            const counterexample& ex = *r.example;
            l["counterexample"] = {{"spec", ex.spec},
                                   {"rank", ex.rank},
                                   {"pages", ex.pages},
                                   {"query", ex.what.query},
                                   {"expected", ex.what.expected},
                                   {"got", ex.what.got},
                                   {"shrink_steps", ex.shrink_steps}};
            l["replay"] = r.replay;
        }
        laws.push_back(std::move(l));
    }
    j["laws"] = std::move(laws);
    j["passed"] = report.count(law_status::passed);
    j["failed"] = report.count(law_status::failed);
    j["skipped"] = report.count(law_status::skipped);
    // Implementations may answer with arbitrary bytes: replace invalid UTF-8 instead of throwing.
    out << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace ndshard::conform
