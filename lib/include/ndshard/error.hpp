// ndshard/error.hpp - the one exception type of the library.
//
// Validation happens once, at the edge (building a distribution or parsing accessor
// words). Every rejection names the offending value and the rule it breaks; `rule()`
// is a stable identifier from docs/rules.md so tests can compare it with the oracle.
#pragma once

#include <stdexcept>
#include <string>

namespace ndshard {

class spec_error : public std::invalid_argument {
public:
    spec_error(std::string rule, const std::string& message) : std::invalid_argument(message), rule_(std::move(rule)) {}
    // Stable rule id, e.g. "alignment", "address_32bit", "args_checksum".
    [[nodiscard]] const std::string& rule() const noexcept { return rule_; }

private:
    std::string rule_;
};

namespace detail {
// The refusal of an accessor argument word list: message + " [rule <id>]".
[[noreturn]] inline void reject_args(const char* rule, const std::string& message) {
    throw spec_error(rule, message + " [rule " + rule + "]");
}
}  // namespace detail

}  // namespace ndshard
