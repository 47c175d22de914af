// fuzz_conform: bytes -> (a law, a spec of that law) -> the implementation under test,
// checked in-process against the oracle with the same laws as `ndshard conform`.
//
// The implementation is the shared library named by NDSHARD_CONFORM_IMPL; without it, the
// one this build was configured with (the reference adapter, conformance/adapters), or
// libndsc_reference.so beside the fuzzer (a ClusterFuzzLite $OUT). It runs in this process:
// a crash or hang inside it is the fuzzer's crash or timeout, with the usual reproducer;
// a disagreement traps after printing the law, the spec (as `ndshard map` flags), the
// query, the expected and the given answer.
//   NDSHARD_CONFORM_IMPL=./libmine.so scripts/fuzz.sh conform
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>

#include <ndshard/conform/impl.hpp>
#include <ndshard/conform/laws.hpp>
#include <ndshard/conform/specs.hpp>
#include <ndshard/specio/spec_text.hpp>
#include <ndshard/testkit/entropy.hpp>

#include "fuzz_common.hpp"

#ifndef NDSHARD_CONFORM_DEFAULT_IMPL
#define NDSHARD_CONFORM_DEFAULT_IMPL ""
#endif

namespace {

using namespace ndshard;

std::optional<conform::loaded_impl>& impl() {
    static std::optional<conform::loaded_impl> loaded;
    return loaded;
}

bool readable(const std::string& path) { return !path.empty() && ::access(path.c_str(), R_OK) == 0; }

// NDSHARD_CONFORM_IMPL, else the configured default, else the reference beside the binary.
std::string impl_path(const char* argv0) {
    if (const char* env = std::getenv("NDSHARD_CONFORM_IMPL"); env && *env) return env;
    if (readable(NDSHARD_CONFORM_DEFAULT_IMPL)) return NDSHARD_CONFORM_DEFAULT_IMPL;
    std::string self(argv0 ? argv0 : "");
    const auto slash = self.rfind('/');
    const std::string beside =
        (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/libndsc_reference.so";
    return readable(beside) ? beside : std::string(NDSHARD_CONFORM_DEFAULT_IMPL);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    const std::string path = impl_path(argc && *argc > 0 ? (*argv)[0] : nullptr);
    try {
        impl().emplace(conform::loaded_impl::open(path));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_conform: %s (set NDSHARD_CONFORM_IMPL to your implementation's shared library)\n",
                     e.what());
        std::exit(2);
    }
    std::fprintf(stderr, "fuzz_conform: %s %s from %s\n", impl()->info().name.c_str(), impl()->info().version.c_str(),
                 path.c_str());
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (!impl()) LLVMFuzzerInitialize(nullptr, nullptr);
    const conform::loaded_impl& under_test = *impl();
    const auto& laws = conform::all_laws();
    testkit::byte_entropy e(std::span<const std::uint8_t>(data, size));
    const conform::law& law = laws[e.between(0, laws.size() - 1)];
    if (!law.unavailable(under_test.info()).empty()) return 0;
    distribution_spec spec;
    if (!law.generate(e, under_test.info(), spec)) return 0;
    fuzz::note_input(std::string(law.name) + ": " + specio::spec_to_flags(spec));
    if (const auto f = law.check(under_test, spec))
        fuzz::fail("law " + std::string(law.name) + " fails\n  spec:     " + specio::spec_to_flags(spec) +
                   "\n  query:    " + f->query + "\n  expected: " + f->expected + "\n  got:      " + f->got);
    return 0;
}
