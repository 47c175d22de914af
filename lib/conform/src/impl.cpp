// Loading an implementation under test: dlopen, dlsym, ndsc_describe, sanity checks.
#include "ndshard/conform/impl.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <utility>

namespace ndshard::conform {

namespace {

std::string quoted(const std::string& path) { return "--impl \"" + path + "\""; }

template <class Fn>
Fn symbol(void* handle, const char* name) {
    return reinterpret_cast<Fn>(::dlsym(handle, name));
}

}  // namespace

loaded_impl::loaded_impl(loaded_impl&& other) noexcept
    : create(other.create),
      destroy(other.destroy),
      locate_page(other.locate_page),
      locate_coord(other.locate_coord),
      locate_shard_page(other.locate_shard_page),
      core_pages(other.core_pages),
      page_run(other.page_run),
      thread_pages(other.thread_pages),
      handle_(std::exchange(other.handle_, nullptr)),
      path_(std::move(other.path_)),
      info_(std::move(other.info_)) {}

loaded_impl::~loaded_impl() {
    if (handle_) ::dlclose(handle_);
}

loaded_impl loaded_impl::open(const std::string& path) {
    struct stat st {};
    if (path.empty() || ::stat(path.c_str(), &st) != 0)
        throw load_error(quoted(path) + ": no such file (give the path of the implementation's shared library)");
    if (!S_ISREG(st.st_mode)) throw load_error(quoted(path) + ": not a regular file (give a shared library)");
    // A bare name would make dlopen search the system's library path instead of the file.
    const std::string file = path.find('/') == std::string::npos ? "./" + path : path;
    loaded_impl impl;
    impl.path_ = path;
    impl.handle_ = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!impl.handle_) {
        const char* why = ::dlerror();
        throw load_error(quoted(path) + ": cannot load: " + (why ? why : "dlopen failed"));
    }
    auto describe = symbol<ndsc_describe_fn>(impl.handle_, NDSC_SYMBOL_DESCRIBE);
    impl.create = symbol<ndsc_create_fn>(impl.handle_, NDSC_SYMBOL_CREATE);
    impl.destroy = symbol<ndsc_destroy_fn>(impl.handle_, NDSC_SYMBOL_DESTROY);
    if (!describe || !impl.create || !impl.destroy)
        throw load_error(quoted(path) + ": does not export " +
                         (!describe      ? NDSC_SYMBOL_DESCRIBE
                          : !impl.create ? NDSC_SYMBOL_CREATE
                                         : NDSC_SYMBOL_DESTROY) +
                         " (ndsc_describe, ndsc_create and ndsc_destroy are required, see ndshard/conformance.h)");

    ndsc_info raw{};
    raw.struct_size = sizeof(ndsc_info);
    if (describe(&raw) != NDSC_OK) throw load_error(quoted(path) + ": ndsc_describe did not return NDSC_OK");
    impl_info& info = impl.info_;
    info.name = raw.name ? raw.name : "";
    info.version = raw.version ? raw.version : "";
    info.abi_version = raw.abi_version;
    info.queries = raw.queries;
    info.strategies = raw.strategies;
    info.page_kinds = raw.page_kinds;
    info.min_rank = raw.min_rank;
    info.max_rank = raw.max_rank;
    info.max_core_coord = raw.max_core_coord;
    if (info.abi_version == 0 || info.abi_version > NDSC_ABI_VERSION)
        throw load_error(quoted(path) + ": abi_version " + std::to_string(info.abi_version) +
                         " is not one this runner knows (1.." + std::to_string(NDSC_ABI_VERSION) + ")");
    if (info.name.empty()) throw load_error(quoted(path) + ": ndsc_describe gave no name (ndsc_info.name)");
    if (info.min_rank < 1 || info.max_rank > NDSC_MAX_RANK || info.min_rank > info.max_rank)
        throw load_error(quoted(path) + ": declared ranks " + std::to_string(info.min_rank) + ".." +
                         std::to_string(info.max_rank) + " are not a range within 1.." + std::to_string(NDSC_MAX_RANK));
    if ((info.strategies & 0x7U) == 0)
        throw load_error(quoted(path) +
                         ": declares no strategy (ndsc_info.strategies has no bit of enum ndsc_strategy)");
    if ((info.page_kinds & 0x7U) == 0)
        throw load_error(quoted(path) +
                         ": declares no page kind (ndsc_info.page_kinds has no bit of enum ndsc_page_kind)");
    info.strategies &= 0x7U;
    info.page_kinds &= 0x7U;
    // A query bit is valid from the ABI version that defined it: an adapter built against an
    // older header cannot have meant it (and its symbol would follow another contract).
    const struct {
        std::uint32_t bit;
        const char *symbol, *bit_name;
        std::uint32_t since;
    } versioned[] = {{NDSC_Q_PAGE_RUN, NDSC_SYMBOL_PAGE_RUN, "NDSC_Q_PAGE_RUN", 2},
                     {NDSC_Q_THREAD_PAGES, NDSC_SYMBOL_THREAD_PAGES, "NDSC_Q_THREAD_PAGES", 2}};
    for (const auto& v : versioned)
        if (info.has_query(v.bit) && info.abi_version < v.since)
            throw load_error(quoted(path) + ": declares " + v.symbol + " (" + v.bit_name + ", since ABI version " +
                             std::to_string(v.since) + ") with abi_version " + std::to_string(info.abi_version) +
                             " (rule: a query bit is valid only from the ABI version that defines it)");
    info.queries &= NDSC_Q_PAGE_ID | NDSC_Q_PAGE_COORD | NDSC_Q_SHARD_PAGE | NDSC_Q_CORE_PAGES | NDSC_Q_PAGE_RUN |
                    NDSC_Q_THREAD_PAGES;

    auto need = [&](std::uint32_t bit, const char* name, auto& fn) {
        if (!info.has_query(bit)) return;
        fn = symbol<std::remove_reference_t<decltype(fn)>>(impl.handle_, name);
        if (!fn) throw load_error(quoted(path) + ": declares " + name + " in ndsc_info.queries but does not export it");
    };
    need(NDSC_Q_PAGE_ID, NDSC_SYMBOL_LOCATE_PAGE, impl.locate_page);
    need(NDSC_Q_PAGE_COORD, NDSC_SYMBOL_LOCATE_COORD, impl.locate_coord);
    need(NDSC_Q_SHARD_PAGE, NDSC_SYMBOL_LOCATE_SHARD_PAGE, impl.locate_shard_page);
    need(NDSC_Q_CORE_PAGES, NDSC_SYMBOL_CORE_PAGES, impl.core_pages);
    need(NDSC_Q_PAGE_RUN, NDSC_SYMBOL_PAGE_RUN, impl.page_run);
    need(NDSC_Q_THREAD_PAGES, NDSC_SYMBOL_THREAD_PAGES, impl.thread_pages);
    return impl;
}

}  // namespace ndshard::conform
