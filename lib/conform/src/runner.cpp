// run_conformance: every selected law in a worker child, failures shrunk.
#include "ndshard/conform/runner.hpp"

#include <algorithm>
#include <chrono>
#include <regex>
#include <set>
#include <stdexcept>

#include "isolate.hpp"
#include "ndshard/conform/specs.hpp"
#include "ndshard/specio/spec_text.hpp"
#include "ndshard/specio/text.hpp"
#include "shrink.hpp"

namespace ndshard::conform {

namespace {

using specio::one_line;

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    testkit::random_entropy e(a ^ (b * 0x9E3779B97F4A7C15ULL));
    e.next();
    return e.next();
}

std::uint64_t name_hash(const char* name) {
    std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a: stable across builds, unlike std::hash
    for (const char* c = name; *c; ++c) h = (h ^ static_cast<unsigned char>(*c)) * 0x100000001b3ULL;
    return h;
}

std::string shell_word(const std::string& s) {
    const bool plain = !s.empty() && s.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789_./-+=:,@%") == std::string::npos;
    if (plain) return s;
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

struct shrunk {
    distribution_spec spec;
    finding what;
    std::uint32_t steps = 0;
};

// Greedy: take the first candidate that still fails, until none does (or time runs out).
shrunk shrink(const run_options& o, const law& l, const impl_info& info, distribution_spec spec, finding what) {
    shrunk best{std::move(spec), std::move(what), 0};
    std::set<std::string> passed;  // candidates known to pass
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o.shrink_seconds);
    // A hang costs the whole timeout per candidate that hangs; smaller specs answer sooner,
    // so shrinking a hang waits a quarter of it (at least 250 ms).
    const bool hang = best.what.got.rfind("timed out", 0) == 0;
    const std::uint32_t timeout_ms = hang ? std::max<std::uint32_t>(250, o.timeout_ms / 4) : o.timeout_ms;
    while (std::chrono::steady_clock::now() < deadline) {
        std::vector<distribution_spec> candidates;
        std::set<std::string> in_batch;
        auto consider = [&](const distribution_spec& c) {
            const std::string key = spec_key(c);
            if (!detail::simpler(c, best.spec) || passed.count(key) || !in_batch.insert(key).second || !l.fits(c, info))
                return;
            candidates.push_back(c);
        };
        for (const distribution_spec& c : detail::shrink_candidates(best.spec)) {
            if (l.retarget) {
                distribution_spec aimed = c;
                l.retarget(aimed, best.spec);
                consider(aimed);
            }
            consider(c);
        }
        if (candidates.empty()) break;
        const detail::batch_outcome b = detail::run_isolated(
            o.impl_path, candidates.size(),
            [&](const loaded_impl& impl, std::uint64_t i) { return l.check(impl, candidates[i]); }, timeout_ms);
        if (b.load_failure) break;
        const std::uint64_t tried = b.failed_index ? *b.failed_index : b.ran;
        for (std::uint64_t i = 0; i < tried && i < candidates.size(); ++i) passed.insert(spec_key(candidates[i]));
        if (!b.failed_index) break;
        best.spec = candidates[*b.failed_index];
        best.what = b.what;
        ++best.steps;
    }
    return best;
}

}  // namespace

std::size_t run_report::count(law_status s) const {
    std::size_t n = 0;
    for (const law_result& r : laws) n += r.status == s;
    return n;
}

impl_info probe_impl(const std::string& path, std::uint32_t timeout_ms) { return detail::probe(path, timeout_ms); }

run_report run_conformance(const run_options& o) {
    std::vector<const law*> selected;
    {
        std::regex re;
        try {
            re = std::regex(o.law_filter, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
            throw std::invalid_argument("--law \"" + o.law_filter + "\": not a valid regular expression (" + e.what() +
                                        ")");
        }
        for (const law& l : all_laws())
            if (std::regex_search(l.name, re)) selected.push_back(&l);
        if (selected.empty()) {
            std::string names;
            for (const law& l : all_laws()) names += (names.empty() ? "" : ", ") + std::string(l.name);
            throw std::invalid_argument("--law \"" + o.law_filter + "\": matches no law (the laws: " + names + ")");
        }
    }
    run_report report;
    report.seed = o.seed;
    report.cases = o.cases;
    report.impl = detail::probe(o.impl_path, std::max<std::uint32_t>(o.timeout_ms, 5000));
    const impl_info& info = report.impl;

    for (const law* l : selected) {
        const auto started = std::chrono::steady_clock::now();
        law_result r;
        r.name = l->name;
        const std::uint64_t law_seed = mix(o.seed, name_hash(l->name));
        auto spec_of_case = [&](std::uint64_t i, distribution_spec& s) {
            testkit::random_entropy e(mix(law_seed, i));
            return l->generate(e, info, s);
        };
        if (std::string why = l->unavailable(info); !why.empty()) {
            r.status = law_status::skipped;
            r.reason = why;
        } else {
            // A domain without any spec of this law: skipped, not passed.
            bool any = false;
            for (std::uint64_t i = 0; i < 32 && i < o.cases && !any; ++i) {
                distribution_spec s;
                any = spec_of_case(i, s);
            }
            if (!any && o.cases > 0) {
                r.status = law_status::skipped;
                r.reason = "no spec of this law inside the implementation's declared domain";
            }
        }
        if (r.status != law_status::skipped) {
            const detail::batch_outcome b = detail::run_isolated(
                o.impl_path, o.cases,
                [&](const loaded_impl& impl, std::uint64_t i) -> std::optional<finding> {
                    distribution_spec s;
                    if (!spec_of_case(i, s)) return std::nullopt;
                    return l->check(impl, s);
                },
                o.timeout_ms);
            if (b.load_failure) throw load_error(*b.load_failure);
            r.cases = b.ran;
            if (b.failed_index) {
                r.status = law_status::failed;
                distribution_spec s;
                spec_of_case(*b.failed_index, s);
                const shrunk small = shrink(o, *l, info, s, b.what);
                counterexample ex;
                ex.spec = specio::spec_to_flags(small.spec);
                ex.rank = static_cast<std::uint32_t>(small.spec.tensor.rank());
                ex.pages = total_pages(small.spec);
                ex.what = small.what;
                ex.shrink_steps = small.steps;
                r.example = ex;
                r.reason = one_line(small.what.query + ": expected " + small.what.expected + ", got " + small.what.got);
                r.replay = "ndshard conform --impl " + shell_word(o.impl_path) + " --law '^" + l->name + "$' --seed " +
                           std::to_string(o.seed) + " --cases " + std::to_string(*b.failed_index + 1);
                if (o.timeout_ms != 2000) r.replay += " --timeout-ms " + std::to_string(o.timeout_ms);
            }
        }
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        report.laws.push_back(std::move(r));
    }
    return report;
}

}  // namespace ndshard::conform
