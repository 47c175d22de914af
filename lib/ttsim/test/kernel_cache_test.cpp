// The kernel cache and a kernel's own headers: a kernel in a folder of its own includes a
// header beside it and one from an extra include directory (kernel_desc::include_dirs);
// changing either header changes what the launch runs (the cache key covers every header
// the kernel includes), and a broken header is a compile_error finding, never a stale object.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ndshard/ttsim/launch.hpp"
#include "ndshard/ttsim/program.hpp"

namespace {

using namespace ndshard;

void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

TEST(TtsimKernelCache, EveryHeaderAKernelIncludesIsPartOfItsKey) {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("ndshard-kernel-headers-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "inc");
    write(dir / "kernel.cpp",
          "#include \"debug/dprint.h\"\n#include \"beside.h\"\n#include \"extra.h\"\n"
          "void kernel_main() { DPRINT << \"value \" << (BESIDE + EXTRA) << ENDL(); }\n");
    write(dir / "beside.h", "#pragma once\n#define BESIDE 40u\n");
    write(dir / "inc" / "extra.h", "#pragma once\n#define EXTRA 2u\n");

    sim::device dev(ttsim::kernel_device_config(4, 2, 4));
    ttsim::program p;
    ttsim::kernel_desc k;
    k.source = (dir / "kernel.cpp").string();
    k.include_dirs = {(dir / "inc").string()};
    k.cores = {{0, 0}};
    p.add_kernel(k);
    ttsim::launch_options o;
    o.cache = NDSHARD_KERNEL_CACHE_DIR;
    auto run = [&] { return ttsim::launch(dev, p, o); };

    ttsim::launch_result r = run();
    ASSERT_TRUE(r.ok()) << r.findings.front().what;
    EXPECT_NE(r.log.find("value 42"), std::string::npos) << r.log;
    write(dir / "beside.h", "#pragma once\n#define BESIDE 50u\n");  // the header beside the kernel
    r = run();
    ASSERT_TRUE(r.ok()) << r.findings.front().what;
    EXPECT_NE(r.log.find("value 52"), std::string::npos) << r.log;
    write(dir / "inc" / "extra.h", "#pragma once\n#define EXTRA 7u\n");  // the one from include_dirs
    r = run();
    ASSERT_TRUE(r.ok()) << r.findings.front().what;
    EXPECT_NE(r.log.find("value 57"), std::string::npos) << r.log;
    write(dir / "beside.h", "#pragma once\n#define BESIDE 40u\n");  // back: the first object again
    r = run();
    ASSERT_TRUE(r.ok()) << r.findings.front().what;
    EXPECT_NE(r.log.find("value 47"), std::string::npos) << r.log;
    write(dir / "inc" / "extra.h", "#pragma once\n#define EXTRA 2u +\n");  // broken
    r = run();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.findings.front().kind, ttsim::finding_kind::compile_error) << r.findings.front().what;
    std::filesystem::remove_all(dir);
}

}  // namespace
