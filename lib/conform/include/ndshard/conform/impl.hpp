// ndshard/conform/impl.hpp - an implementation under test, loaded from a shared library.
//
// The library exports the functions of ndshard/conformance.h. open() checks what can be
// checked without calling into the library beyond ndsc_describe: the required symbols,
// the ABI version (1..NDSC_ABI_VERSION), a sane domain (ranks in 1..8, at least one
// strategy and page kind), one exported symbol per declared query, and no query bit newer
// than the adapter's own abi_version (NDSC_Q_PAGE_RUN and NDSC_Q_THREAD_PAGES need 2).
// The library is untrusted: the runner calls it in a child process (isolate.hpp); the
// fuzz target calls it in-process, where a crash is the fuzzer's crash.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "ndshard/conformance.h"

namespace ndshard::conform {

// Why an implementation cannot be used: names the path and the broken rule.
class load_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What ndsc_describe said, with the strings copied.
struct impl_info {
    std::string name, version;
    std::uint32_t abi_version = 0;
    std::uint32_t queries = 0, strategies = 0, page_kinds = 0;
    std::uint32_t min_rank = 1, max_rank = NDSC_MAX_RANK;
    std::uint32_t max_core_coord = 0;  // the largest core coordinate; 0: no limit but the rules'

    [[nodiscard]] bool has_query(std::uint32_t bit) const noexcept { return (queries & bit) == bit; }
    [[nodiscard]] bool has_strategy(std::uint32_t s) const noexcept { return (strategies >> s) & 1U; }
    [[nodiscard]] bool has_page_kind(std::uint32_t k) const noexcept { return (page_kinds >> k) & 1U; }
    [[nodiscard]] bool has_core_coord(std::uint64_t c) const noexcept {
        return max_core_coord == 0 || c <= max_core_coord;
    }
};

// One dlopen'ed implementation. Move-only; dlclose on destruction.
class loaded_impl {
public:
    // Throws load_error: "--impl \"x.so\": cannot load: <dlerror>", "... abi_version 3 is
    // not one this runner knows (1..2)", "... declares ndsc_core_pages but does not export
    // it", "... declares ndsc_page_run (NDSC_Q_PAGE_RUN, since ABI version 2) with
    // abi_version 1".
    static loaded_impl open(const std::string& path);

    loaded_impl(loaded_impl&& other) noexcept;
    loaded_impl& operator=(loaded_impl&&) = delete;
    loaded_impl(const loaded_impl&) = delete;
    ~loaded_impl();

    [[nodiscard]] const impl_info& info() const noexcept { return info_; }
    [[nodiscard]] const std::string& path() const noexcept { return path_; }

    ndsc_create_fn create = nullptr;
    ndsc_destroy_fn destroy = nullptr;
    ndsc_locate_page_fn locate_page = nullptr;    // null unless declared
    ndsc_locate_coord_fn locate_coord = nullptr;  // null unless declared
    ndsc_locate_shard_page_fn locate_shard_page = nullptr;
    ndsc_core_pages_fn core_pages = nullptr;
    ndsc_page_run_fn page_run = nullptr;  // version 2
    ndsc_thread_pages_fn thread_pages = nullptr;

private:
    loaded_impl() = default;
    void* handle_ = nullptr;
    std::string path_;
    impl_info info_;
};

}  // namespace ndshard::conform
