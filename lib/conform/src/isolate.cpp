// Worker children: fork, load the implementation, run cases, report over a pipe.
//
// Record on the pipe: u8 kind, u64 index, u32 field count, then per field u32 length and
// bytes. Kinds: passed, failed (query, expected, got), load_failed (message), info
// (describe's fields). The parent resets the watchdog at every record.
#include "isolate.hpp"

#include "ndshard/testkit/sanitizer_report.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace ndshard::conform::detail {

namespace {

enum record_kind : std::uint8_t { rec_passed = 0, rec_failed = 1, rec_load_failed = 2, rec_info = 3 };

struct record {
    record_kind kind = rec_passed;
    std::uint64_t index = 0;
    std::vector<std::string> fields;
};

void put_u32(std::string& out, std::uint32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

void write_all(int fd, const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) ::_exit(120);  // the parent is gone
        done += static_cast<std::size_t>(n);
    }
}

void send(int fd, const record& r) {
    std::string out;
    out.push_back(static_cast<char>(r.kind));
    out.append(reinterpret_cast<const char*>(&r.index), sizeof r.index);
    put_u32(out, static_cast<std::uint32_t>(r.fields.size()));
    for (const std::string& f : r.fields) {
        put_u32(out, static_cast<std::uint32_t>(f.size()));
        out += f;
    }
    write_all(fd, out);
}

// Parses complete records from the front of `buffer`.
bool take(std::string& buffer, record& r) {
    std::size_t pos = 0;
    auto need = [&](std::size_t n) { return buffer.size() - pos >= n; };
    auto u32_at = [&](std::uint32_t& v) {
        if (!need(4)) return false;
        std::memcpy(&v, buffer.data() + pos, 4);
        pos += 4;
        return true;
    };
    if (!need(1 + 8)) return false;
    r.kind = static_cast<record_kind>(buffer[0]);
    std::memcpy(&r.index, buffer.data() + 1, 8);
    pos = 9;
    std::uint32_t fields = 0;
    if (!u32_at(fields)) return false;
    r.fields.clear();
    for (std::uint32_t i = 0; i < fields; ++i) {
        std::uint32_t len = 0;
        if (!u32_at(len) || !need(len)) return false;
        r.fields.emplace_back(buffer.data() + pos, len);
        pos += len;
    }
    buffer.erase(0, pos);
    return true;
}

const char* signal_name(int sig) {
    switch (sig) {
        case SIGSEGV:
            return "SIGSEGV";
        case SIGABRT:
            return "SIGABRT";
        case SIGBUS:
            return "SIGBUS";
        case SIGFPE:
            return "SIGFPE";
        case SIGILL:
            return "SIGILL";
        case SIGKILL:
            return "SIGKILL";
        case SIGTERM:
            return "SIGTERM";
        case SIGTRAP:
            return "SIGTRAP";
        default:
            return "signal";
    }
}

// Shared with the children: the query the implementation is in.
struct query_page {
    char* text = nullptr;
    static constexpr std::size_t size = 1024;
    query_page() {
        void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        text = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
        if (text) text[0] = '\0';
    }
    ~query_page() {
        if (text) ::munmap(text, size);
    }
    query_page(const query_page&) = delete;
    query_page& operator=(const query_page&) = delete;
    [[nodiscard]] std::string read() const { return text ? std::string(text, ::strnlen(text, size)) : std::string(); }
};

struct child {
    pid_t pid = -1;
    int fd = -1;
    int err = -1;  // the child's standard error, kept to name what a sanitizer found
};

// Forks a worker that runs `work(write_fd)` and exits 0.
template <class Work>
child spawn(const query_page& page, Work&& work) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const int err = ::memfd_create("ndshard-conform-stderr", MFD_CLOEXEC);
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        ::close(fds[0]);
        // Whatever the implementation prints must not mix with the report on stdout.
        const int null_fd = ::open("/dev/null", O_WRONLY);
        if (null_fd >= 0) {
            ::dup2(null_fd, STDOUT_FILENO);
            ::close(null_fd);
        }
        if (err >= 0) ::dup2(err, STDERR_FILENO);
        ::signal(SIGPIPE, SIG_DFL);
        set_query_buffer(page.text, page.text ? query_page::size : 0);
        work(fds[1]);
        ::close(fds[1]);
        ::_exit(0);
    }
    ::close(fds[1]);
    return {pid, fds[0], err};
}

// What the child wrote on standard error (a sanitizer's report, if it died of one); passed
// on to ours, so the whole report stays visible.
std::string child_stderr(child& c) {
    std::string text;
    if (c.err < 0) return text;
    char chunk[4096];
    for (off_t at = 0;;) {
        const ssize_t n = ::pread(c.err, chunk, sizeof chunk, at);
        if (n <= 0) break;
        text.append(chunk, static_cast<std::size_t>(n));
        at += n;
        if (text.size() > (1U << 20)) break;
    }
    ::close(c.err);
    c.err = -1;
    if (!text.empty()) std::cerr << text << std::flush;
    return text;
}

// How a child that stopped early ended, and what a sanitizer said if one stopped it.
std::string ending(int status, child& c) {
    const std::string found = testkit::sanitizer_summary(child_stderr(c));
    std::string how = "stopped";
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        how = "crashed: signal " + std::to_string(sig) + " (" + signal_name(sig) + ")";
    } else if (WIFEXITED(status)) {
        how = "exited with status " + std::to_string(WEXITSTATUS(status));
    }
    return found.empty() ? how : how + ": " + found;
}

void reap(child& c, bool kill_first) {
    if (c.fd >= 0) ::close(c.fd);
    c.fd = -1;
    if (c.err >= 0) ::close(c.err);
    c.err = -1;
    if (c.pid > 0) {
        if (kill_first) ::kill(c.pid, SIGKILL);
        int status = 0;
        while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {}
    }
    c.pid = -1;
}

// Reads records until `on_record` says stop (true), EOF, or the watchdog fires.
enum class wait_end { stopped, eof, timeout };
template <class OnRecord>
wait_end pump(child& c, std::uint32_t timeout_ms, OnRecord&& on_record) {
    std::string buffer;
    char chunk[4096];
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return wait_end::timeout;
        pollfd p{c.fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        const ssize_t n = ::read(c.fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return wait_end::eof;
        buffer.append(chunk, static_cast<std::size_t>(n));
        record r;
        bool progressed = false;
        while (take(buffer, r)) {
            progressed = true;
            if (on_record(r)) return wait_end::stopped;
        }
        if (progressed) deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    }
}

}  // namespace

batch_outcome run_isolated(const std::string& impl_path, std::uint64_t count, const case_body& body,
                           std::uint32_t timeout_ms) {
    batch_outcome out;
    if (count == 0) return out;
    query_page page;
    child c = spawn(page, [&](int fd) {
        std::optional<loaded_impl> impl;
        try {
            impl.emplace(loaded_impl::open(impl_path));
        } catch (const std::exception& e) {
            send(fd, {rec_load_failed, 0, {e.what()}});
            return;
        }
        for (std::uint64_t i = 0; i < count; ++i) {
            std::optional<finding> f;
            try {
                f = body(*impl, i);
            } catch (const std::exception& e) {
                f = finding{current_query(), "no exception", std::string("the runner caught: ") + e.what()};
            }
            if (f) {
                send(fd, {rec_failed, i, {f->query, f->expected, f->got}});
                return;
            }
            send(fd, {rec_passed, i, {}});
        }
    });
    bool done = false;
    const wait_end end = pump(c, timeout_ms, [&](const record& r) {
        if (r.kind == rec_load_failed) {
            out.load_failure = r.fields.empty() ? "cannot load" : r.fields[0];
            return true;
        }
        out.ran = r.index + 1;
        if (r.kind == rec_failed) {
            out.failed_index = r.index;
            out.what = {r.fields.at(0), r.fields.at(1), r.fields.at(2)};
            return true;
        }
        done = r.index + 1 == count;
        return done;
    });
    if (end == wait_end::timeout) {
        reap(c, true);
        out.failed_index = out.ran;
        out.ran += 1;
        out.what = {page.read(), "an answer within " + std::to_string(timeout_ms) + " ms",
                    "timed out after " + std::to_string(timeout_ms) + " ms"};
        return out;
    }
    if (end == wait_end::stopped) {
        reap(c, true);
        return out;
    }
    // EOF before every case reported: the worker died in case `ran`.
    ::close(c.fd);
    c.fd = -1;
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {}
    c.pid = -1;
    if (out.ran < count && !out.failed_index && !out.load_failure) {
        out.failed_index = out.ran;
        out.ran += 1;
        out.what = {page.read(), "an answer", ending(status, c)};
    }
    return out;
}

impl_info probe(const std::string& impl_path, std::uint32_t timeout_ms) {
    query_page page;
    child c = spawn(page, [&](int fd) {
        try {
            const loaded_impl impl = loaded_impl::open(impl_path);
            const impl_info& i = impl.info();
            send(fd, {rec_info,
                      0,
                      {i.name, i.version, std::to_string(i.abi_version), std::to_string(i.queries),
                       std::to_string(i.strategies), std::to_string(i.page_kinds), std::to_string(i.min_rank),
                       std::to_string(i.max_rank), std::to_string(i.max_core_coord)}});
        } catch (const std::exception& e) {
            send(fd, {rec_load_failed, 0, {e.what()}});
        }
    });
    std::optional<record> got;
    const wait_end end = pump(c, timeout_ms, [&](const record& r) {
        got = r;
        return true;
    });
    if (end == wait_end::timeout) {
        reap(c, true);
        throw load_error("--impl \"" + impl_path + "\": loading it or ndsc_describe timed out after " +
                         std::to_string(timeout_ms) + " ms");
    }
    if (!got) {
        ::close(c.fd);
        c.fd = -1;
        int status = 0;
        while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {}
        c.pid = -1;
        throw load_error("--impl \"" + impl_path + "\": loading it or ndsc_describe " + ending(status, c));
    }
    reap(c, true);
    if (got->kind == rec_load_failed) throw load_error(got->fields.empty() ? "cannot load" : got->fields[0]);
    const auto& f = got->fields;
    impl_info info;
    info.name = f.at(0);
    info.version = f.at(1);
    info.abi_version = static_cast<std::uint32_t>(std::stoul(f.at(2)));
    info.queries = static_cast<std::uint32_t>(std::stoul(f.at(3)));
    info.strategies = static_cast<std::uint32_t>(std::stoul(f.at(4)));
    info.page_kinds = static_cast<std::uint32_t>(std::stoul(f.at(5)));
    info.min_rank = static_cast<std::uint32_t>(std::stoul(f.at(6)));
    info.max_rank = static_cast<std::uint32_t>(std::stoul(f.at(7)));
    info.max_core_coord = static_cast<std::uint32_t>(std::stoul(f.at(8)));
    return info;
}

}  // namespace ndshard::conform::detail
