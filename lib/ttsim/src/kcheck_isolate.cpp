// Cases in child processes, several at once (kcheck_isolate.hpp).
#include "kcheck_isolate.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "ndshard/testkit/sanitizer_report.hpp"

namespace ndshard::ttsim::detail {

namespace {

using clock = std::chrono::steady_clock;

// The child's first line once its kernels are compiled; its findings follow.
constexpr std::string_view kCompiled = "compiled\n";

// One case's findings over a pipe: a line per finding, fields separated by tabs, newlines
// inside a field as \x01.
std::string encode(const case_result& r) {
    std::string out;
    auto field = [](std::string s) {
        std::replace(s.begin(), s.end(), '\n', '\x01');
        std::replace(s.begin(), s.end(), '\t', ' ');
        return s;
    };
    for (const finding& f : r.findings)
        out += std::string(to_string(f.kind)) + "\t" + field(f.kernel) + "\t" + field(f.what) + "\n";
    return out;
}

case_result decode(const std::string& text) {
    case_result r;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const std::size_t a = line.find('\t'), b = line.find('\t', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        finding f{finding_kind_from(line.substr(0, a)).value_or(finding_kind::crash), line.substr(a + 1, b - a - 1),
                  line.substr(b + 1)};
        std::replace(f.what.begin(), f.what.end(), '\x01', '\n');
        r.findings.push_back(std::move(f));
    }
    r.passed = r.findings.empty();
    r.summary = r.passed ? "passed" : std::string(to_string(r.findings.front().kind)) + ": " + r.findings.front().what;
    return r;
}

case_result crashed(const std::string& what) { return {false, {{finding_kind::crash, "", what}}, "crash: " + what}; }

void write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = write(fd, text.data(), text.size());
        if (n <= 0) return;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

// A running child: its case, pipes (-1 once closed) and what it has said so far.
struct child {
    std::size_t index = 0;
    pid_t pid = -1;
    int out = -1, err = -1;
    std::string out_text, err_text;
    clock::time_point deadline;
    bool compiled = false;
};

[[noreturn]] void child_main(const case_spec& c, const case_runner& run, const check_options& o, int out, int err) {
    setpgid(0, 0);  // its compilers join its group, so a timeout kills them too
    dup2(err, 2);
    std::string text;
    launch_options lo = o.launch;
    lo.on_compiled = [out] { write_all(out, kCompiled); };  // the case's timer starts now
    try {
        text = encode(run(c, lo));
    } catch (const std::exception& e) {
        text = "kernel_error\t\trun_case: " + std::string(e.what()) + "\n";
    }
    write_all(out, text);
    _exit(0);
}

child start(std::size_t index, const case_spec& c, const case_runner& run, const check_options& o) {
    int out_pipe[2], err_pipe[2];
    if (pipe(out_pipe) != 0) throw std::runtime_error("kcheck: pipe failed: " + std::string(strerror(errno)));
    if (pipe(err_pipe) != 0) {
        close(out_pipe[0]);
        close(out_pipe[1]);
        throw std::runtime_error("kcheck: pipe failed: " + std::string(strerror(errno)));
    }
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("kcheck: fork failed: " + std::string(strerror(errno)));
    if (pid == 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        child_main(c, run, o, out_pipe[1], err_pipe[1]);
    }
    setpgid(pid, pid);  // also here, so a kill right after the fork finds the group
    close(out_pipe[1]);
    close(err_pipe[1]);
    child ch;
    ch.index = index;
    ch.pid = pid;
    ch.out = out_pipe[0];
    ch.err = err_pipe[0];
    ch.deadline = clock::now() + std::chrono::seconds(compile_limit_s(o));
    return ch;
}

void close_pipes(child& ch) {
    for (int* fd : {&ch.out, &ch.err})
        if (*fd >= 0) {
            close(*fd);
            *fd = -1;
        }
}

// Kills the child's group and reaps it.
void kill_child(child& ch) {
    kill(-ch.pid, SIGKILL);
    kill(ch.pid, SIGKILL);
    close_pipes(ch);
    int status = 0;
    waitpid(ch.pid, &status, 0);
}

// The result of a child whose pipes are both closed.
case_result finish(child& ch) {
    int status = 0;
    waitpid(ch.pid, &status, 0);
    kill(-ch.pid, SIGKILL);  // a compiler it left behind
    if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0)) {
        const std::string found = testkit::sanitizer_summary(ch.err_text);
        const std::string how = WIFSIGNALED(status) ? std::string("signal ") + strsignal(WTERMSIG(status))
                                                    : "exit status " + std::to_string(WEXITSTATUS(status));
        return crashed("the case's process died (" + how + ")" + (found.empty() ? "" : ": " + found));
    }
    std::string text = ch.out_text;
    if (text.starts_with(kCompiled)) text.erase(0, kCompiled.size());
    return decode(text);
}

// Reads what is ready on `fd` into `text`; closes it at its end.
void drain(int& fd, std::string& text, bool keep_tail) {
    char buf[4096];
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) {
        close(fd);
        fd = -1;
        return;
    }
    text.append(buf, static_cast<std::size_t>(n));
    if (keep_tail && text.size() > (1 << 20)) text.erase(0, text.size() - (1 << 19));
}

}  // namespace

std::vector<case_result> run_isolated(std::span<const case_spec> cases, const case_runner& run, const check_options& o,
                                      bool stop_at_failure) {
    const std::size_t jobs = std::max<std::size_t>(1, o.jobs);
    std::vector<std::optional<case_result>> results(cases.size());
    std::size_t end = cases.size();  // cases at or past `end` are not wanted
    std::size_t next = 0;
    std::vector<child> running;
    auto stop_after = [&](std::size_t index) {
        end = std::min(end, index + 1);
        for (child& ch : running)
            if (ch.index >= end) kill_child(ch);
        std::erase_if(running, [&](const child& ch) { return ch.index >= end; });
    };
    while (true) {
        while (next < end && running.size() < jobs) {
            running.push_back(start(next, cases[next], run, o));
            ++next;
        }
        if (running.empty()) break;
        std::vector<pollfd> fds;
        for (const child& ch : running)
            for (int fd : {ch.out, ch.err})
                if (fd >= 0) fds.push_back({fd, POLLIN, 0});
        clock::time_point soonest = clock::time_point::max();
        for (const child& ch : running) soonest = std::min(soonest, ch.deadline);
        const auto wait_ms = std::chrono::duration_cast<std::chrono::milliseconds>(soonest - clock::now()).count();
        const int timeout = static_cast<int>(std::clamp<long long>(wait_ms, 0, std::numeric_limits<int>::max()));
        if (poll(fds.data(), fds.size(), timeout) < 0 && errno != EINTR)
            throw std::runtime_error("kcheck: poll failed: " + std::string(strerror(errno)));
        for (const pollfd& p : fds) {
            if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
            for (child& ch : running) {
                if (p.fd == ch.out) {
                    drain(ch.out, ch.out_text, false);
                    if (!ch.compiled && ch.out_text.starts_with(kCompiled)) {
                        ch.compiled = true;  // the case's own time starts now
                        ch.deadline = clock::now() + std::chrono::seconds(o.case_timeout_s);
                    }
                } else if (p.fd == ch.err) {
                    drain(ch.err, ch.err_text, true);
                }
            }
        }
        const clock::time_point now = clock::now();
        std::vector<std::size_t> failed;
        for (child& ch : running) {
            if (ch.out < 0 && ch.err < 0) {
                results[ch.index] = finish(ch);
            } else if (now >= ch.deadline) {
                kill_child(ch);
                results[ch.index] =
                    ch.compiled ? crashed("the case ran longer than " + std::to_string(o.case_timeout_s) +
                                          " s after its kernels were compiled (a hang outside the API, or a busy loop)")
                                : crashed("compiling the case's kernels took longer than " +
                                          std::to_string(compile_limit_s(o)) + " s");
            } else {
                continue;
            }
            ch.pid = -1;
            if (!results[ch.index]->passed) failed.push_back(ch.index);
        }
        std::erase_if(running, [](const child& ch) { return ch.pid < 0; });
        if (stop_at_failure)
            for (std::size_t index : failed) stop_after(index);
    }
    std::vector<case_result> out;
    for (std::size_t i = 0; i < end; ++i) out.push_back(std::move(*results[i]));
    return out;
}

}  // namespace ndshard::ttsim::detail
