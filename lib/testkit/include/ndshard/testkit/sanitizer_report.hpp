// ndshard/testkit/sanitizer_report.hpp - what a sanitizer said, in one line, from the
// standard error of a process it stopped: conform's and kcheck's child processes report
// "AddressSanitizer: stack-use-after-return ... | #0 in f() at x.cpp:12" instead of "exited
// with status 1". Empty when no sanitizer spoke.
#pragma once

#include <string>
#include <string_view>

namespace ndshard::testkit {

inline std::string sanitizer_summary(std::string_view err) {
    for (std::string_view tag : {"ERROR: AddressSanitizer: ", "ERROR: LeakSanitizer: ", "ERROR: ThreadSanitizer: ",
                                 "ERROR: UndefinedBehaviorSanitizer: ", "runtime error: "}) {
        const std::size_t at = err.find(tag);
        if (at == std::string_view::npos) continue;
        const std::size_t from = tag.substr(0, 7) == "ERROR: " ? at + 7 : at;  // "AddressSanitizer: ..."
        const std::size_t end = err.find('\n', at);
        std::string line(err.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from));
        if (tag == "runtime error: ") {  // UBSan: "file:line:col: runtime error: what"
            const std::size_t start = err.rfind('\n', at);
            line = "UndefinedBehaviorSanitizer: " +
                   std::string(err.substr(start == std::string_view::npos ? 0 : start + 1,
                                          (end == std::string_view::npos ? err.size() : end) -
                                              (start == std::string_view::npos ? 0 : start + 1)));
        }
        // The first stack frame after the report says where.
        const std::size_t frame = err.find("#0 ", at);
        if (frame != std::string_view::npos) {
            const std::size_t fe = err.find('\n', frame);
            line += " | " +
                    std::string(err.substr(frame, fe == std::string_view::npos ? std::string_view::npos : fe - frame));
        }
        return line;
    }
    return "";
}

}  // namespace ndshard::testkit
