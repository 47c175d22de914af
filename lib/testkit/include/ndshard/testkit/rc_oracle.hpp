// ndshard/testkit/rc_oracle.hpp - small helpers shared by the RapidCheck properties.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <ndshard/oracle/oracle.hpp>

#include "ndshard/distribution.hpp"
#include "ndshard/testkit/describe.hpp"
#include "ndshard/testkit/oracle_bridge.hpp"  // accepted_model
#include "ndshard/testkit/spec_gen.hpp"

namespace ndshard::testkit {

// Whether features(spec) (spec_gen.hpp) lists `name`; a name ending in '*' asks for any
// feature that starts with the rest ("rejected:*").
inline bool has_feature(const std::vector<std::string>& features, std::string_view name) {
    if (!name.empty() && name.back() == '*') {
        const std::string_view prefix = name.substr(0, name.size() - 1);
        return std::any_of(features.begin(), features.end(), [&](const std::string& f) {
            return std::string_view(f).substr(0, prefix.size()) == prefix;
        });
    }
    return std::find(features.begin(), features.end(), name) != features.end();
}

// A feature of features(spec) and the tag RapidCheck shows for it: the feature's own
// name ("uneven"), or a shorter one ({"strategy:contiguous_1d", "contiguous"}). Several
// features may share a tag ({"rank:1", "rank 1 or 8"}, {"rank:8", "rank 1 or 8"}).
struct feature_tag {
    const char* feature;
    const char* tag;
    // Implicit, so that a list of tags can hold plain feature names.
    feature_tag(const char* name) : feature(name), tag(name) {}
    feature_tag(const char* feature_name, const char* shown) : feature(feature_name), tag(shown) {}
};

// Tags the running case with the tag of each listed feature that features(spec) lists, in
// list order (RapidCheck's table counts each combination of tags, in order), so that it
// shows how often each hard case came up: with {"uneven", "folded"}, a spec whose last
// shard is partial along some dim is tagged "uneven". A tag is given once, however many
// of its features the spec has.
inline void classify_by_features(const distribution_spec& spec, std::initializer_list<feature_tag> tags) {
    const std::vector<std::string> f = features(spec);
    std::vector<std::string_view> given;
    for (const feature_tag& t : tags) {
        const bool fresh = std::find(given.begin(), given.end(), std::string_view(t.tag)) == given.end();
        if (fresh && has_feature(f, t.feature)) {
            given.emplace_back(t.tag);
            RC_CLASSIFY(true, t.tag);
        }
    }
}

// What a property does first with the spec it generated: RC_LOG() it as one line
// (describe.hpp), so that a counterexample names the spec, then classify_by_features.
inline void log_and_classify(const distribution_spec& spec, std::initializer_list<feature_tag> tags) {
    RC_LOG() << describe(spec) << "\n";
    classify_by_features(spec, tags);
}

}  // namespace ndshard::testkit
