// load_factory: a factory source compiled into a shared object, cached by content, loaded once.
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "ndshard/ttmetal_host/bridge.hpp"

extern char** environ;

namespace ndshard::ttmetal_host {

namespace {

namespace fs = std::filesystem;
namespace tm = ::tt::tt_metal;

// The function the wrapper exports: make_program behind a C name.
using entry_fn = void (*)(tm::Program*, tm::Buffer*, tm::Buffer*, const op_params*);

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error("factory: cannot read " + p.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> words_of(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::string w;
    std::istringstream in(text);
    while (std::getline(in, w, sep))
        if (!w.empty() && w != " ") out.push_back(w);
    return out;
}

// A 64-bit FNV-1a digest (names a cached object, nothing more).
class digest {
public:
    void add(const std::string& s) {
        for (const char c : s) h_ = (h_ ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
        h_ = (h_ ^ 0x1F) * 0x100000001b3ULL;
    }
    [[nodiscard]] std::string hex() const {
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
        return buf;
    }

private:
    std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

// The headers a factory sees, by content: a change to any of them is a new object.
const std::string& headers_digest() {
    static const std::string d = [] {
        digest h;
        for (const std::string& dir : words_of(NDSHARD_HOST_INCLUDES, '|')) {
            std::vector<fs::path> files;
            for (const auto& e : fs::recursive_directory_iterator(dir))
                if (e.is_regular_file()) files.push_back(e.path());
            std::sort(files.begin(), files.end());
            for (const fs::path& f : files) {
                h.add(f.string());
                h.add(slurp(f));
            }
        }
        return h.hex();
    }();
    return d;
}

int run_compiler(const std::vector<std::string>& cmd, const fs::path& log) {
    std::vector<char*> argv;
    argv.reserve(cmd.size() + 1);
    for (const std::string& a : cmd) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = 0;
    const int err = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0) return -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

program_factory load_factory(const fs::path& source, const fs::path& cache_in) {
    const fs::path src = fs::absolute(source);
    const std::string text = slurp(src);
    fs::path cache = cache_in;
    if (cache.empty()) {
        const char* env = std::getenv("NDSHARD_KERNEL_CACHE");
        cache = env != nullptr && *env != 0 ? fs::path(env) : fs::temp_directory_path() / "ndshard-kernel-cache";
    }
    fs::create_directories(cache);

    std::vector<std::string> cmd{NDSHARD_HOST_CXX};
    for (const std::string& f : words_of(NDSHARD_HOST_FLAGS, ' ')) cmd.push_back(f);
    cmd.insert(cmd.end(), {"-std=c++20", "-g1", "-fPIC", "-shared", "-fvisibility=hidden"});
    for (const std::string& dir : words_of(NDSHARD_HOST_INCLUDES, '|')) cmd.push_back("-I" + dir);
    cmd.push_back("-I" + src.parent_path().string());

    digest h;
    h.add("entry 2");  // the wrapper's shape: a new one is a new object
    h.add(headers_digest());
    h.add(src.string());
    h.add(text);
    for (const std::string& a : cmd) h.add(a);
    const fs::path object = cache / ("factory-" + h.hex() + ".so");

    if (!fs::exists(object)) {
        const std::string tag = "." + std::to_string(getpid()) + ".tmp";
        const fs::path wrapper = cache / ("factory-" + h.hex() + ".cpp");
        {
            std::ofstream w(wrapper.string() + tag);
            // make_program with the op's parameters when the factory defines that one.
            w << "#include \"" << src.string() << "\"\n"
              << "namespace ndshard_factory {\n"
              << "template <class B, class P>\n"
              << "tt::tt_metal::Program call(B& in, B& o, const P& params) {\n"
              << "    if constexpr (requires { make_program(in, o, params); }) return make_program(in, o, params);\n"
              << "    else return make_program(in, o);\n}\n}\n"
              << "extern \"C\" __attribute__((visibility(\"default\"))) void ndshard_make_program(\n"
              << "    tt::tt_metal::Program* out, tt::tt_metal::Buffer* in, tt::tt_metal::Buffer* o,\n"
              << "    const std::vector<std::uint32_t>* params) {\n"
              << "    *out = ndshard_factory::call(*in, *o, *params);\n}\n";
        }
        fs::rename(wrapper.string() + tag, wrapper);
        const fs::path log = object.string() + ".log" + tag, tmp = object.string() + tag;
        cmd.insert(cmd.end(), {wrapper.string(), "-o", tmp.string()});
        const int rc = run_compiler(cmd, log);
        if (rc != 0) {
            std::istringstream lines(fs::exists(log) ? slurp(log) : "");
            std::string first, line;
            for (int i = 0; i < 12 && std::getline(lines, line); ++i) first += line + "\n";
            fs::remove(log);
            fs::remove(tmp);
            throw std::runtime_error("factory " + source.string() + " does not compile (exit " + std::to_string(rc) +
                                     "):\n" + first);
        }
        fs::remove(log);
        fs::rename(tmp, object);
    }

    static std::mutex mutex;
    static std::map<std::string, entry_fn> loaded;
    const std::lock_guard<std::mutex> lock(mutex);
    entry_fn entry = nullptr;
    if (const auto it = loaded.find(object.string()); it != loaded.end()) {
        entry = it->second;
    } else {
        void* handle = dlopen(object.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) throw std::runtime_error(std::string("factory: cannot load ") + dlerror());
        entry = reinterpret_cast<entry_fn>(dlsym(handle, "ndshard_make_program"));
        if (entry == nullptr) throw std::runtime_error("factory " + source.string() + ": no make_program");
        loaded.emplace(object.string(), entry);
    }
    return [entry](tm::Buffer& in, tm::Buffer& out, const op_params& params) {
        tm::Program p;
        entry(&p, &in, &out, &params);
        return p;
    };
}

}  // namespace ndshard::ttmetal_host
