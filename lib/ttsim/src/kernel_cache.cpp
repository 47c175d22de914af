#include "kernel_cache.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace ndshard::ttsim::detail {

namespace {

// FNV-1a, 64 bits: names a variant in the cache (not a security boundary).
struct fnv {
    std::uint64_t h = 1469598103934665603ULL;
    void add(std::string_view s) {
        for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
        h = (h ^ 0xFF) * 1099511628211ULL;  // a separator, so ("ab","c") != ("a","bc")
    }
};

std::string hex(std::uint64_t h) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error("ttsim: cannot read kernel source " + p.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Everything a kernel's object depends on besides its own source and arguments: the
// headers it is compiled with (their contents), the compiler and its flags.
const std::string& build_fingerprint() {
    static const std::string fp = [] {
        fnv f;
        f.add(NDSHARD_TTSIM_CXX);
        f.add(NDSHARD_TTSIM_FLAGS);
        f.add(std::to_string(abi::version));
        for (const char* dir :
             {NDSHARD_TTSIM_INCLUDE_CORE, NDSHARD_TTSIM_INCLUDE_TTMETAL, NDSHARD_TTSIM_INCLUDE_SELF}) {
            std::vector<std::filesystem::path> files;
            for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
                if (e.is_regular_file()) files.push_back(e.path());
            std::sort(files.begin(), files.end());
            for (const auto& p : files) {
                f.add(p.string());
                f.add(read_file(p));
            }
        }
        return hex(f.h);
    }();
    return fp;
}

std::vector<std::string> split_flags(const std::string& flags) {
    std::vector<std::string> out;
    std::istringstream in(flags);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// The flags a variant and its precompiled prelude share: GCC uses a precompiled header
// only when these (and every macro the header reads, such as NOC_INDEX) are the same.
std::vector<std::string> shared_flags(const kernel_desc& k) {
    std::vector<std::string> cmd{NDSHARD_TTSIM_CXX};
    for (std::string& f : split_flags(NDSHARD_TTSIM_FLAGS)) cmd.push_back(std::move(f));
    // -g1: line tables, enough for a sanitizer's stack, at half the compile time of -g.
    // The optimisation level is in NDSHARD_TTSIM_FLAGS (-O0 under the sanitizers, else -O1).
    cmd.insert(cmd.end(), {"-std=c++20", "-g1", "-fPIC", "-fvisibility=hidden", "-w", "-DKERNEL_BUILD",
                           "-DARCH_WORMHOLE", "-DNDSHARD_TT_PLATFORM=\"ndshard/ttsim/kernel_platform.hpp\""});
#if defined(__GNUC__) && !defined(__clang__)
    // One copy of each function-local static per object, never one merged across every
    // dlopen'ed variant (GCC's STB_GNU_UNIQUE would bind them together).
    cmd.push_back("-fno-gnu-unique");
#endif
    const int noc = k.noc >= 0 ? k.noc : (k.proc == processor::riscv_0 ? 0 : 1);
    cmd.push_back("-DNOC_INDEX=" + std::to_string(noc));
    cmd.push_back(k.proc == processor::riscv_0 ? "-DCOMPILE_FOR_BRISC" : "-DCOMPILE_FOR_NCRISC");
    for (const char* dir : {NDSHARD_TTSIM_INCLUDE_TTMETAL, NDSHARD_TTSIM_INCLUDE_CORE, NDSHARD_TTSIM_INCLUDE_SELF})
        cmd.push_back(std::string("-I") + dir);
    return cmd;
}

// A binding's name must be a C++ identifier: it becomes a declaration in the kernel.
void check_binding_name(const kernel_desc& k, const std::string& what, const std::string& name) {
    const bool ok = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) != 0 || name[0] == '_') &&
                    std::all_of(name.begin(), name.end(),
                                [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
    if (!ok)
        throw std::invalid_argument("kernel " + k.source + ": " + what + " name '" + name +
                                    "' is not a C++ identifier (a binding is declared in the kernel)");
}

// The macros internal/ndshard_kernel_bindings.h declares a kernel's Metal 2.0 bindings from
// (none for a kernel that declares none).
std::vector<std::string> binding_flags(const kernel_desc& k) {
    if (!k.bindings && k.named_runtime_args.empty() && k.named_common_runtime_args.empty() &&
        k.tensor_bindings.empty() && k.semaphore_bindings.empty() && k.dataflow_buffer_bindings.empty())
        return {};
    std::string args, tensors, sems, dfbs;
    for (std::size_t i = 0; i < k.named_runtime_args.size(); ++i) {
        check_binding_name(k, "named runtime argument", k.named_runtime_args[i]);
        args += "NDSHARD_RTA(" + k.named_runtime_args[i] + "," + std::to_string(4 * i) + "u)";
    }
    for (std::size_t i = 0; i < k.named_common_runtime_args.size(); ++i) {
        check_binding_name(k, "named common runtime argument", k.named_common_runtime_args[i]);
        args += "NDSHARD_CRTA(" + k.named_common_runtime_args[i] + "," + std::to_string(4 * i) + "u)";
    }
    for (const auto& [name, value] : k.named_compile_time_args) {
        check_binding_name(k, "named compile-time argument", name);
        args += "NDSHARD_CTA(" + name + "," + std::to_string(value) + "u)";
    }
    const std::size_t named_common = k.named_common_runtime_args.size();
    for (std::size_t i = 0; i < k.tensor_bindings.size(); ++i) {
        check_binding_name(k, "tensor binding", k.tensor_bindings[i].name);
        tensors += "NDSHARD_TENSOR(" + k.tensor_bindings[i].name + "," +
                   std::to_string(k.tensor_bindings[i].cta_offset) + "u," + std::to_string(4 * (named_common + i)) +
                   "u)";
    }
    for (const auto& [name, id] : k.semaphore_bindings) {
        check_binding_name(k, "semaphore binding", name);
        sems += "NDSHARD_SEM(" + name + "," + std::to_string(id) + "u)";
    }
    for (const auto& [name, id] : k.dataflow_buffer_bindings) {
        check_binding_name(k, "dataflow buffer binding", name);
        dfbs += "NDSHARD_DFB(" + name + "," + std::to_string(id) + ")";
    }
    return {"-DNDSHARD_ARGS=" + args,
            "-DNDSHARD_TENSORS=" + tensors,
            "-DNDSHARD_SEMS=" + sems,
            "-DNDSHARD_DFBS=" + dfbs,
            "-DNDSHARD_NAMED_RTA_WORDS=" + std::to_string(k.named_runtime_args.size()) + "u",
            "-DNDSHARD_NAMED_CRTA_WORDS=" + std::to_string(named_common + k.tensor_bindings.size()) + "u"};
}

// The compiler's command line for one variant; `prelude` is the arguments that force the
// precompiled prelude in (empty: none).
std::vector<std::string> command(const kernel_desc& k, const std::filesystem::path& out,
                                 const std::vector<std::string>& prelude) {
    std::vector<std::string> cmd = shared_flags(k);
    cmd.push_back("-shared");
    std::string cta;
    for (std::uint32_t v : k.compile_time_args) cta += (cta.empty() ? "" : ",") + std::to_string(v) + "u";
    cmd.push_back("-DKERNEL_COMPILE_TIME_ARGS=" + cta);
    if (!k.named_compile_time_args.empty()) {
        std::string map;
        for (const auto& [name, v] : k.named_compile_time_args)
            map += (map.empty() ? "" : ",") + std::string("{\"") + name + "\"," + std::to_string(v) + "u}";
        cmd.push_back("-DKERNEL_COMPILE_TIME_ARG_MAP=" + map);
    }
    for (const auto& [name, value] : k.defines) cmd.push_back("-D" + name + (value.empty() ? "" : "=" + value));
    const std::vector<std::string> bound = binding_flags(k);
    cmd.insert(cmd.end(), bound.begin(), bound.end());
    const std::filesystem::path src = std::filesystem::absolute(k.source);
    cmd.push_back("-I" + src.parent_path().string());
    for (const std::string& dir : k.include_dirs) cmd.push_back("-I" + std::filesystem::absolute(dir).string());
    cmd.insert(cmd.end(), prelude.begin(), prelude.end());
    // Many kernels include nothing: the firmware includes the API before them, as here.
    cmd.insert(cmd.end(), {"-include", "api/dataflow/dataflow_api.h"});
    if (!bound.empty()) cmd.insert(cmd.end(), {"-include", "internal/ndshard_kernel_bindings.h"});
    cmd.insert(cmd.end(), {src.string(), "-o", out.string()});
    return cmd;
}

// Runs `cmd`, its output to `log`; the exit status.
int run(const std::vector<std::string>& cmd, const std::filesystem::path& log) {
    std::vector<char*> argv;
    for (const std::string& a : cmd) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The precompiled prelude (kernel_prelude.hpp) for `k`'s shared flags, built once into the
// cache: the arguments that force it into a variant's compile, or none when it cannot be
// built. It holds only headers every variant includes anyway, compiled with the variant's
// own flags, so it changes no variant: GCC checks a precompiled header against the command
// line and parses the text instead when they differ; clang refuses the compile, and
// load_kernel then compiles again without it.
std::vector<std::string> precompiled_prelude(const kernel_desc& k, const std::filesystem::path& cache) {
#if defined(__clang__)
    constexpr const char* suffix = ".pch";
#else
    constexpr const char* suffix = ".gch";
#endif
    const std::vector<std::string> flags = shared_flags(k);
    fnv f;
    f.add(build_fingerprint());
    for (const std::string& a : flags) f.add(a);
    const std::filesystem::path dir = cache / ("prelude-" + hex(f.h));
    const std::filesystem::path header = dir / "prelude.hpp", pch = header.string() + suffix, failed = dir / "failed";
#if defined(__clang__)
    const std::vector<std::string> use{"-include-pch", pch.string()};
#else
    const std::vector<std::string> use{"-include", header.string()};  // GCC finds prelude.hpp.gch beside it
#endif
    static std::mutex mutex;
    const std::lock_guard<std::mutex> lock(mutex);
    if (std::filesystem::exists(pch)) return use;
    if (std::filesystem::exists(failed)) return {};
    std::filesystem::create_directories(dir);
    const std::string tag = "." + std::to_string(getpid()) + ".tmp";
    {
        const std::filesystem::path tmp = header.string() + tag;
        std::ofstream(tmp) << "#include \"ndshard/ttsim/kernel_prelude.hpp\"\n";
        std::filesystem::rename(tmp, header);
    }
    std::vector<std::string> cmd = flags;
    const std::filesystem::path tmp = pch.string() + tag, log = dir / ("log" + tag);
    cmd.insert(cmd.end(), {"-x", "c++-header", header.string(), "-o", tmp.string()});
    if (run(cmd, log) != 0) {
        std::filesystem::remove(tmp);
        std::filesystem::rename(log, failed);  // kept: it says why
        return {};
    }
    std::filesystem::remove(log);
    std::filesystem::rename(tmp, pch);
    return use;
}

// The files a make rule (the compiler's -MMD output) depends on, as written.
std::vector<std::string> dep_files(const std::string& text) {
    std::vector<std::string> out;
    std::size_t i = text.find(": ");
    if (i == std::string::npos) return out;
    std::string cur;
    for (i += 2; i < text.size(); ++i) {
        char ch = text[i];
        if (ch == '\\' && i + 1 < text.size()) {
            const char next = text[i + 1];
            if (next == '\n' || next == '\r') {
                ++i;
                ch = ' ';  // a continued line
            } else if (next == ' ' || next == '#' || next == '\\') {
                cur += next;  // an escaped space (or #, \\) inside a path
                ++i;
                continue;
            }
        } else if (ch == '$' && i + 1 < text.size() && text[i + 1] == '$') {
            cur += '$';
            ++i;
            continue;
        }
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') {
            if (!cur.empty()) out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += ch;
        }
    }
    if (!cur.empty()) out.push_back(std::move(cur));
    return out;
}

// The headers of a variant that its key does not already cover: everything it included
// but its own source, the API's folders (build_fingerprint hashes them) and the cache (the
// precompiled prelude), as absolute paths, sorted.
std::vector<std::string> own_headers(const std::string& deps_text, const std::filesystem::path& source,
                                     const std::filesystem::path& cache) {
    std::vector<std::string> skip;
    for (const std::filesystem::path& dir :
         {std::filesystem::path(NDSHARD_TTSIM_INCLUDE_CORE), std::filesystem::path(NDSHARD_TTSIM_INCLUDE_TTMETAL),
          std::filesystem::path(NDSHARD_TTSIM_INCLUDE_SELF), cache})
        skip.push_back((std::filesystem::absolute(dir).lexically_normal() / "").string());
    const std::string src = std::filesystem::absolute(source).lexically_normal().string();
    std::vector<std::string> out;
    for (const std::string& d : dep_files(deps_text)) {
        const std::string p = std::filesystem::absolute(d).lexically_normal().string();
        if (p == src || std::any_of(skip.begin(), skip.end(), [&](const std::string& s) { return p.starts_with(s); }))
            continue;
        out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// The hash of the headers' names and present contents under `key`; nullopt when one of
// them is gone.
std::optional<std::string> headers_hash(const std::string& key, const std::vector<std::string>& headers) {
    fnv f;
    f.add(key);
    for (const std::string& h : headers) {
        std::ifstream in(h, std::ios::binary);
        if (!in) return std::nullopt;
        std::ostringstream text;
        text << in.rdbuf();
        f.add(h);
        f.add(text.str());
    }
    return hex(f.h);
}

// Writes `text` to `file` through a temporary beside it (readers never see half of it).
void write_atomically(const std::filesystem::path& file, const std::string& text) {
    const std::filesystem::path tmp = file.string() + "." + std::to_string(getpid()) + ".tmp";
    std::ofstream(tmp, std::ios::binary) << text;
    std::filesystem::rename(tmp, file);
}

}  // namespace

std::filesystem::path cache_folder(const std::filesystem::path& preferred) {
    if (!preferred.empty()) return preferred;
    if (const char* env = std::getenv("NDSHARD_KERNEL_CACHE"); env != nullptr && *env != 0) return env;
    return std::filesystem::temp_directory_path() / "ndshard-kernel-cache";
}

compiled_kernel load_kernel(const kernel_desc& k, const std::filesystem::path& cache) {
    // The key covers the source, the API's headers (build_fingerprint), the compiler and
    // the command line; the variant's own headers (beside it, in include_dirs) are listed
    // by the compiler (-MMD) in <key>.deps, and the object is <key>-<their hash>.so: a
    // changed header names another object, so it is compiled again (and a broken one fails).
    const std::string source = read_file(k.source);
    fnv f;
    f.add(build_fingerprint());
    f.add(std::filesystem::absolute(k.source).string());
    f.add(source);
    std::filesystem::create_directories(cache);
    const std::vector<std::string> prelude = precompiled_prelude(k, cache);
    const std::filesystem::path out_probe = cache / "x.so";
    for (const std::string& a : command(k, out_probe, {})) f.add(a);  // the prelude changes no variant
    const std::string key = hex(f.h);
    const std::filesystem::path manifest = cache / (key + ".deps");

    compiled_kernel ck;
    if (std::ifstream in(manifest); in) {
        std::vector<std::string> headers;
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) headers.push_back(line);
        if (const std::optional<std::string> h = headers_hash(key, headers))
            if (std::filesystem::exists(cache / (key + "-" + *h + ".so"))) ck.object = cache / (key + "-" + *h + ".so");
    }
    if (ck.object.empty()) {
        // Built beside its final name and renamed into place: another process building the
        // same variant at the same time never sees half an object.
        const std::string tag = "." + std::to_string(getpid());
        const std::filesystem::path tmp = cache / (key + tag + ".tmp"), log = cache / (key + tag + ".log"),
                                    deps = cache / (key + tag + ".d");
        const std::vector<std::string> with_deps{"-MMD", "-MF", deps.string()};
        auto compile = [&](const std::vector<std::string>& pre) {
            std::vector<std::string> cmd = command(k, tmp, pre);
            cmd.insert(cmd.end() - 3, with_deps.begin(), with_deps.end());  // before the source and -o
            return run(cmd, log);
        };
        const auto t0 = std::chrono::steady_clock::now();
        int rc = compile(prelude);
        if (rc != 0 && !prelude.empty()) rc = compile({});  // without the prelude, to be sure
        ck.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (rc != 0) {
            std::string text = std::filesystem::exists(log) ? read_file(log) : "";
            for (const auto& p : {log, tmp, deps}) std::filesystem::remove(p);
            std::istringstream lines(text);
            std::string first, line;
            for (int n = 0; n < 12 && std::getline(lines, line); ++n) first += line + "\n";
            throw std::runtime_error("kernel " + k.source + " does not compile (" + NDSHARD_TTSIM_CXX + " exit " +
                                     std::to_string(rc) + "):\n" + first);
        }
        std::filesystem::remove(log);
        const std::vector<std::string> headers =
            own_headers(std::filesystem::exists(deps) ? read_file(deps) : "", k.source, cache);
        std::filesystem::remove(deps);
        const std::optional<std::string> h = headers_hash(key, headers);
        if (!h) throw std::runtime_error("ttsim: a header of kernel " + k.source + " vanished while it compiled");
        std::string listed;
        for (const std::string& header : headers) listed += header + "\n";
        write_atomically(manifest, listed);
        ck.object = cache / (key + "-" + *h + ".so");
        {
            // Beside the object, its command line: how to rebuild the variant by hand.
            std::ofstream cmd_file(ck.object.string() + ".cmd");
            for (const std::string& a : command(k, ck.object, {})) cmd_file << a << '\n';
        }
        std::filesystem::rename(tmp, ck.object);
        ck.fresh = true;
    }
    const std::filesystem::path& object = ck.object;
    // Loaded once per process and kept: a variant's code is small, and reloading costs more.
    static std::mutex loaded_mutex;
    static std::map<std::string, kernel_entry> loaded;
    const std::lock_guard<std::mutex> lock(loaded_mutex);
    if (auto it = loaded.find(object.string()); it != loaded.end()) {
        ck.entry = it->second;
        return ck;
    }
    void* h = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) throw std::runtime_error(std::string("ttsim: cannot load kernel object: ") + dlerror());
    using version_fn = std::uint32_t (*)();
    const auto version = reinterpret_cast<version_fn>(dlsym(h, "ndshard_ttsim_abi_version"));
    ck.entry = reinterpret_cast<kernel_entry>(dlsym(h, "ndshard_ttsim_entry"));
    if (version == nullptr || ck.entry == nullptr || version() != abi::version)
        throw std::runtime_error("ttsim: " + object.string() + " is not a kernel of this simulator (ABI version)");
    loaded.emplace(object.string(), ck.entry);
    return ck;
}

}  // namespace ndshard::ttsim::detail
