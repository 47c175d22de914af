// ndshard::ttsim::launch on hand-picked programs: a copy of every page through a circular
// buffer between two kernels on two cores, against the input; the findings of kernels
// with one mistake each (a push before the read landed, a deadlock); and what the API
// answers about circular buffers (get_tile_size of each format) and accessors (runs of
// contiguous pages, StridedShardPages); a copy written with the NoC and CB objects; one
// in tt-metal's newest style (named arguments, bindings, DEVICE_PRINT, inline writes and
// zeros), and inline writes done wrong.
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "ndshard/error.hpp"
#include "ndshard/sim/dense.hpp"
#include "ndshard/ttsim/launch.hpp"
#include "ndshard/ttsim/program.hpp"

namespace {

using namespace ndshard;

const std::string kernels = NDSHARD_TTSIM_TEST_KERNELS;

// [tensor] pages of 16 int32 (64 bytes, padded to alignment) in [shard] shards on the L1
// of cores (0,0) and (1,0).
distribution_spec int32_pages_on_two_cores(shape tensor, shape shard, std::uint64_t alignment = 32) {
    return {.tensor = std::move(tensor),
            .shard = std::move(shard),
            .page = {.kind = page_kind::pages},
            .element_size = 64,
            .alignment = alignment,
            .cores = {core_range{{0, 0}, {1, 0}}}};
}

struct copy_setup {
    sim::device dev{ttsim::kernel_device_config(4, 2, 4)};
    sim::buffer_id in, out, src;  // src: what the reader reads (in, unless a test says)
    sim::dense_tensor data;
    std::vector<core_coord> cores{{0, 0}, {1, 0}};

    explicit copy_setup(std::uint32_t mix) {
        // [3,7,5] pages of 16 int32, [2,2,2] shards on 2 L1 banks
        distribution_spec s = int32_pages_on_two_cores({3, 7, 5}, {2, 2, 2});
        in = dev.allocate(s, "in");
        distribution_spec o = s;  // the output: [1,1,5] shards over the 4 DRAM banks
        o.shard = {1, 1, 5};
        o.cores = dev.dram_bank_ranges(4);
        out = dev.allocate(o, "out");
        data = sim::dense_tensor::random(dev.buffer(in).dist.tensor_pages, 16, 7);
        dev.write(in, data);
        src = in;
        (void)mix;
    }

    ttsim::program program(const std::string& reader, std::uint32_t mix) {
        ttsim::program p;
        ttsim::circular_buffer_desc cb;
        cb.page_size = 64;
        cb.num_pages = 2;
        cb.cores = cores;
        p.add_circular_buffer(cb);
        std::vector<std::uint32_t> rct{0}, rcrt, wct{0}, wcrt;
        ttsim::append_accessor_args(dev, src, mix, rct, rcrt);
        ttsim::append_accessor_args(dev, out, mix, wct, wcrt);
        ttsim::kernel_desc rk, wk;
        rk.source = kernels + "/" + reader;
        rk.compile_time_args = rct;
        rk.cores = cores;
        wk.source = kernels + "/copy_writer.cpp";
        wk.proc = ttsim::riscv_1;
        wk.compile_time_args = wct;
        wk.cores = cores;
        const auto r = p.add_kernel(rk);
        const auto w = p.add_kernel(wk);
        p.set_common_runtime_args(r, rcrt);
        p.set_common_runtime_args(w, wcrt);
        const std::uint32_t pages = 105, half = 53;
        for (std::uint32_t i = 0; i < 2; ++i) {
            const std::uint32_t start = i * half, count = i == 0 ? half : pages - half;
            p.set_runtime_args(r, cores[i], {static_cast<std::uint32_t>(dev.buffer(src).dist.bank_base), start, count});
            p.set_runtime_args(w, cores[i], {static_cast<std::uint32_t>(dev.buffer(out).dist.bank_base), start, count});
        }
        return p;
    }
};

ttsim::launch_options options(std::uint64_t seed) {
    ttsim::launch_options o;
    o.seed = seed;
    o.cache = NDSHARD_KERNEL_CACHE_DIR;
    return o;
}

std::string findings(const ttsim::launch_result& r) {
    std::string s;
    for (const auto& f : r.findings) s += std::string(ttsim::to_string(f.kind)) + " " + f.kernel + ": " + f.what + "\n";
    return s;
}

// The launch failed, its first finding is `kind`, and the findings' text names every one of
// `parts`.
void expect_found(const ttsim::launch_result& r, ttsim::finding_kind kind, std::initializer_list<std::string> parts) {
    const std::string all = findings(r);
    ASSERT_FALSE(r.ok()) << all;
    EXPECT_EQ(r.findings.front().kind, kind) << all;
    for (const std::string& part : parts) EXPECT_NE(all.find(part), std::string::npos) << part << "\n" << all;
}

TEST(TtsimLaunch, CopiesEveryPageThroughACircularBuffer) {
    for (std::uint32_t mix : {ttsim::all_compile_time, ttsim::all_runtime}) {
        for (std::uint64_t seed : {1, 2, 3}) {
            copy_setup c(mix);
            const ttsim::launch_result r = ttsim::launch(c.dev, c.program("copy_reader.cpp", mix), options(seed));
            ASSERT_TRUE(r.ok()) << findings(r);
            EXPECT_EQ(sim::first_difference(c.dev.read(c.out), c.data), "") << "mix " << mix << " seed " << seed;
            EXPECT_TRUE(c.dev.padding_violations(c.out).empty());
            EXPECT_EQ(r.traffic.pages_read, 105U);
            EXPECT_EQ(r.traffic.pages_written, 105U);
        }
    }
}

TEST(TtsimLaunch, APushBeforeTheReadLandsIsFound) {
    copy_setup c(ttsim::all_runtime);
    const ttsim::launch_result r =
        ttsim::launch(c.dev, c.program("push_before_barrier_reader.cpp", ttsim::all_runtime), options(1));
    expect_found(r, ttsim::finding_kind::async, {});
    EXPECT_NE(r.findings.front().what.find("noc_async_read_barrier"), std::string::npos) << findings(r);
}

TEST(TtsimLaunch, ADeadlockNamesWhatEachKernelWaitsFor) {
    copy_setup c(ttsim::all_runtime);
    const ttsim::launch_result r = ttsim::launch(c.dev, c.program("greedy_reader.cpp", ttsim::all_runtime), options(1));
    expect_found(r, ttsim::finding_kind::deadlock,
                 {"greedy_reader.cpp on (0,0) waits for cb_wait_front(0, 1)",
                  "copy_writer.cpp on (1,0) waits for cb_wait_front(0, 1)"});
}

// get_tile_size is one tile of the CB's format and tile shape (as on tt-metal), not its page size.
TEST(TtsimLaunch, GetTileSizeIsTheTileOfTheCbsFormat) {
    sim::device dev{ttsim::kernel_device_config(2, 1, 2)};
    const std::vector<core_coord> core{{0, 0}};
    ttsim::program p;
    const std::pair<ttsim::data_format, std::uint32_t> cbs[] = {{ttsim::data_format::Float16_b, 1024},
                                                                {ttsim::data_format::Bfp8_b, 1024},
                                                                {ttsim::data_format::Float32, 1024},
                                                                {ttsim::data_format::Float16_b, 16 * 32}};
    for (std::uint32_t id = 0; id < 4; ++id)
        p.add_circular_buffer({.id = id,
                               .page_size = 64,
                               .num_pages = 1,
                               .format = cbs[id].first,
                               .tile_hw = cbs[id].second,
                               .cores = core});
    ttsim::kernel_desc k;
    k.source = kernels + "/tile_size_probe.cpp";
    k.cores = core;
    p.add_kernel(k);
    const ttsim::launch_result r = ttsim::launch(dev, p, options(1));
    ASSERT_TRUE(r.ok()) << findings(r);
    EXPECT_NE(r.log.find("cb 0: 2048 bytes, 1024 elements, format 5"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("cb 1: 1088 bytes, 1024 elements, format 6"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("cb 2: 4096 bytes, 1024 elements, format 0"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("cb 3: 1024 bytes, 512 elements, format 5"), std::string::npos) << r.log;
}

// tt-metal's accessor signatures: num_contiguous_pages(page, end) walks contiguous_page_stride()
// (the tensor's row for [4,1] shards, the bank count interleaved), StridedShardPages(a, first,
// total, stride) deduces its type, and the older make_tensor_accessor_args / _from_args.
TEST(TtsimLaunch, AccessorRunsAndStridedShardsAsTtMetalWritesThem) {
    sim::device dev{ttsim::kernel_device_config(2, 1, 2)};
    // [4,6] pages of 16 int32 in [4,1] shards (6 of them) on 2 L1 banks
    distribution_spec s = int32_pages_on_two_cores({4, 6}, {4, 1});
    const sim::buffer_id sharded = dev.allocate(s, "sharded");
    s.shard = {1, 1};  // interleaved over the 2 DRAM banks
    s.cores = dev.dram_bank_ranges(2);
    const sim::buffer_id interleaved = dev.allocate(s, "interleaved");
    std::vector<std::uint32_t> cta, crta;
    ttsim::append_accessor_args(dev, sharded, ttsim::all_compile_time, cta, crta);
    ttsim::append_accessor_args(dev, interleaved, ttsim::all_compile_time, cta, crta);
    ttsim::program p;
    ttsim::kernel_desc k;
    k.source = kernels + "/accessor_api_probe.cpp";
    k.compile_time_args = cta;
    k.cores = {{0, 0}};
    const auto h = p.add_kernel(k);
    p.set_common_runtime_args(h, crta);
    p.set_runtime_args(h, {0, 0},
                       {static_cast<std::uint32_t>(dev.buffer(sharded).dist.bank_base),
                        static_cast<std::uint32_t>(dev.buffer(interleaved).dist.bank_base), 6});
    const ttsim::launch_result r = ttsim::launch(dev, p, options(1));
    ASSERT_TRUE(r.ok()) << findings(r);
    for (const char* line :
         {"run 0 24: 4 stride 6", "run 0 13: 3 stride 6", "run 7 24: 3 stride 6", "one-argument run of page 0: 1",
          "run 1 24: 12 stride 2", "run 1 6: 3 stride 2", "strided shards 3 pages 12"})
        EXPECT_NE(r.log.find(line), std::string::npos) << line << "\n" << r.log;
}

// A copy with tt-metal's Noc and CircularBuffer objects (experimental:: and global), by pages
// (a TensorAccessor page in, a Page out) and by whole shards (async_read_shard /
// async_write_shard, through the CB or from the input's local shard), L1 [4,8,6] / [2,2,2]
// shards on 2 cores into the same shards in DRAM.
TEST(TtsimLaunch, TheNocAndCircularBufferObjectsCopyPagesAndShards) {
    for (std::uint32_t mode : {0U, 1U, 2U}) {
        sim::device dev{ttsim::kernel_device_config(2, 1, 2)};
        distribution_spec s = int32_pages_on_two_cores({4, 8, 6}, {2, 2, 2});
        const sim::buffer_id in = dev.allocate(s, "in");
        s.cores = dev.dram_bank_ranges(2);
        const sim::buffer_id out = dev.allocate(s, "out");
        const sim::dense_tensor data = sim::dense_tensor::random(dev.buffer(in).dist.tensor_pages, 16, 7);
        dev.write(in, data);
        const std::vector<core_coord> cores{{0, 0}, {1, 0}};
        ttsim::program p;
        ttsim::circular_buffer_desc cb;
        cb.page_size = mode == 0 ? 64 : 8 * 64;  // a page, or a shard's slot (mode 2: unused)
        cb.num_pages = 2;
        cb.cores = cores;
        p.add_circular_buffer(cb);
        std::vector<std::uint32_t> cta{0, 64}, crta;
        ttsim::append_accessor_args(dev, in, ttsim::all_compile_time, cta, crta);
        ttsim::append_accessor_args(dev, out, ttsim::all_compile_time, cta, crta);
        ttsim::kernel_desc k;
        k.source = kernels + "/noc_object_copy.cpp";
        k.compile_time_args = cta;
        k.cores = cores;
        const auto h = p.add_kernel(k);
        p.set_common_runtime_args(h, crta);
        const auto base = [&](sim::buffer_id b) { return static_cast<std::uint32_t>(dev.buffer(b).dist.bank_base); };
        for (std::uint32_t i = 0; i < 2; ++i) {
            // pages: [0, 96) and [96, 192); shards: 0, 2, ... and 1, 3, ... of 24 (each core's own)
            const std::vector<std::uint32_t> range =
                mode == 0 ? std::vector<std::uint32_t>{i * 96, i * 96 + 96, 1} : std::vector<std::uint32_t>{i, 24, 2};
            p.set_runtime_args(h, cores[i], {base(in), base(out), mode, range[0], range[1], range[2]});
        }
        const ttsim::launch_result r = ttsim::launch(dev, p, options(1));
        ASSERT_TRUE(r.ok()) << "mode " << mode << "\n" << findings(r);
        EXPECT_EQ(sim::first_difference(dev.read(out), data), "") << "mode " << mode;
        // a read a page, or a shard; none when the input's own shards are written out
        EXPECT_EQ(r.traffic.pages_read, mode == 0 ? 192U : mode == 1 ? 24U : 0U) << "mode " << mode;
    }
}

// A CB placed in a buffer (circular_buffer_desc::address, tt-metal's
// set_globally_allocated_address): its pages are the shard's bytes on each core, untouched
// by the launch; a CB at an address outside every buffer of the core is refused.
TEST(TtsimLaunch, ACircularBufferInABufferIsItsShard) {
    copy_setup c(ttsim::all_compile_time);
    const auto base = static_cast<std::uint32_t>(c.dev.buffer(c.in).dist.bank_base);
    std::uint32_t first_word = 0;
    std::memcpy(&first_word, c.dev.memory_at(core_coord{1, 0})->bytes(base, 4).data(), 4);
    auto program = [&](std::uint32_t address) {
        ttsim::program p;
        p.add_circular_buffer({.id = 0, .page_size = 64, .num_pages = 2, .address = address, .cores = {{1, 0}}});
        ttsim::kernel_desc k;
        k.source = kernels + "/cb_in_buffer_probe.cpp";
        k.cores = {{1, 0}};
        p.add_kernel(k);
        return p;
    };
    const ttsim::launch_result r = ttsim::launch(c.dev, program(base), options(1));
    ASSERT_TRUE(r.ok()) << findings(r);
    EXPECT_NE(r.log.find("cb 0 at " + std::to_string(base) + ", first word " + std::to_string(first_word)),
              std::string::npos)
        << r.log;
    EXPECT_EQ(sim::first_difference(c.dev.read(c.in), c.data), "");
    // 4 bytes before the buffer: not inside it.
    try {
        (void)ttsim::launch(c.dev, program(base - 4), options(1));
        ADD_FAILURE() << "a CB outside every buffer launched";
    } catch (const spec_error& e) {
        EXPECT_NE(std::string(e.what()).find("circular buffer 0 at"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("is not inside a buffer in that core's L1"), std::string::npos)
            << e.what();
    }
}

}  // namespace

namespace {

// tt-metal's newest kernel style (kernels/metal2_copy.cpp): named arguments, tensor and
// semaphore bindings, varargs, DEVICE_PRINT, and the NoC's writes without an L1 source
// (inline writes, async_write_zeros), each checked by the bytes it leaves.
TEST(TtsimLaunch, NamedArgumentsBindingsAndInlineWritesAsTtMetalWritesThem) {
    sim::device dev{ttsim::kernel_device_config(2, 1, 2)};
    // [4,6] pages of 16 int32, [2,3] shards on the 2 cores' L1
    distribution_spec s = int32_pages_on_two_cores({4, 6}, {2, 3});
    const sim::buffer_id in = dev.allocate(s, "in");
    s.cores = dev.dram_bank_ranges(2);
    const sim::buffer_id out = dev.allocate(s, "out");
    distribution_spec m;  // 8 pages of 4 words, 4 on each core
    m.tensor = {8};
    m.shard = {4};
    m.page.kind = page_kind::pages;
    m.element_size = 16;
    m.alignment = 16;
    m.cores = {core_range{{0, 0}, {1, 0}}};
    const sim::buffer_id marks = dev.allocate(m, "marks");
    const sim::dense_tensor data = sim::dense_tensor::random(dev.buffer(in).dist.tensor_pages, 16, 7);
    dev.write(in, data);
    dev.write(marks, sim::dense_tensor::filled(dev.buffer(marks).dist.tensor_pages, 4, 0x11111111));

    const std::vector<core_coord> cores{{0, 0}, {1, 0}};
    ttsim::program p;
    for (std::uint32_t id : {0U, 1U}) {
        ttsim::circular_buffer_desc cb;
        cb.id = id;
        cb.page_size = 64;
        cb.num_pages = 2;
        cb.cores = cores;
        p.add_circular_buffer(cb);
    }
    const std::uint32_t flag = p.add_semaphore({.cores = cores, .initial = 0});
    std::vector<std::uint32_t> cta, unused;
    ttsim::kernel_desc k;
    k.source = kernels + "/metal2_copy.cpp";
    k.cores = cores;
    for (const auto& [name, b] : {std::pair{"in", in}, std::pair{"out", out}, std::pair{"marks", marks}}) {
        k.tensor_bindings.push_back({name, static_cast<std::uint32_t>(cta.size())});
        ttsim::append_accessor_args(dev, b, ttsim::all_compile_time, cta, unused);
    }
    k.compile_time_args = cta;
    k.named_compile_time_args = {{"page_bytes", 64}, {"cb", 0}};
    k.dataflow_buffer_bindings = {{"scratch", 1}};
    k.named_runtime_args = {"first_page", "num_pages"};
    k.named_common_runtime_args = {"zero_every"};
    k.semaphore_bindings = {{"flag", flag}};
    const auto h = p.add_kernel(k);
    const auto base = [&](sim::buffer_id b) { return static_cast<std::uint32_t>(dev.buffer(b).dist.bank_base); };
    const std::uint32_t magic = 0x5EED0000U;
    // zero_every, the three tensors' addresses, then the common vararg
    p.set_common_runtime_args(h, {5, base(in), base(out), base(marks), magic});
    // first_page, num_pages, then the vararg: the first of the other core's marks pages
    p.set_runtime_args(h, cores[0], {0, 11, 4});
    p.set_runtime_args(h, cores[1], {11, 13, 0});

    const ttsim::launch_result r = ttsim::launch(dev, p, options(3));
    ASSERT_TRUE(r.ok()) << findings(r);
    sim::dense_tensor want = data;
    for (std::uint64_t page = 4; page < want.num_pages(); page += 5)
        for (std::int32_t& v : want.page(page)) v = 0;
    EXPECT_EQ(sim::first_difference(dev.read(out), want), "");
    const sim::dense_tensor got = dev.read(marks);
    for (std::uint32_t page = 0; page < 8; ++page) {
        const auto w = got.page(page);
        EXPECT_EQ(static_cast<std::uint32_t>(w[0]), magic + page) << "page " << page;
        EXPECT_EQ(static_cast<std::uint32_t>(w[1]), ~page) << "page " << page;
        EXPECT_EQ(static_cast<std::uint32_t>(w[2]), 0x11BB11DDU) << "page " << page;  // bytes 0 and 2 only
        EXPECT_EQ(static_cast<std::uint32_t>(w[3]), 0x11111111U) << "page " << page;
    }
    EXPECT_NE(r.log.find("pages 11..24, zeros every 0x5"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("   5|5   |  5  |101|1.50|true|c|{}"), std::string::npos) << r.log;
}

// An inline write into DRAM (tt-metal refuses it), a byte-enable mask past 4 bits, zeros
// pushed before they land, and a DEVICE_PRINT whose placeholders outnumber its arguments:
// each a finding that names the value and the rule.
TEST(TtsimLaunch, WritesWithoutASourceAndDevicePrintRefuseMisuse) {
    sim::device dev{ttsim::kernel_device_config(1, 1, 1)};
    distribution_spec s;
    s.tensor = {2};
    s.shard = {2};
    s.page.kind = page_kind::pages;
    s.element_size = 16;
    s.alignment = 32;
    s.cores = dev.dram_bank_ranges(1);
    const sim::buffer_id out = dev.allocate(s, "out");
    struct expectation {
        ttsim::finding_kind kind;
        const char* what;
    };
    const expectation expected[] = {
        {ttsim::finding_kind::noc_bounds, "cannot reach DRAM"},
        {ttsim::finding_kind::kernel_error, "byte enable 0x1f is not in 0x1..0xF"},
        {ttsim::finding_kind::async, "cb_push_back"},
        {ttsim::finding_kind::compile_error, "the number of {} placeholders must match the number of arguments"},
    };
    for (std::uint32_t mode = 0; mode < 4; ++mode) {
        ttsim::program p;
        ttsim::circular_buffer_desc cb;
        cb.id = 3;
        cb.page_size = 32;
        cb.num_pages = 1;
        cb.cores = {{0, 0}};
        p.add_circular_buffer(cb);
        std::vector<std::uint32_t> cta, unused;
        ttsim::append_accessor_args(dev, out, ttsim::all_compile_time, cta, unused);
        ttsim::kernel_desc k;
        k.source = kernels + "/inline_write_misuse.cpp";
        k.cores = {{0, 0}};
        k.compile_time_args = cta;
        if (mode == 3) k.defines["BAD_PRINT"] = "";
        k.tensor_bindings = {{"out", 0}};
        k.named_runtime_args = {"mode"};
        k.dataflow_buffer_bindings = {{"scratch", 3}};
        const auto h = p.add_kernel(k);
        p.set_common_runtime_args(h, {static_cast<std::uint32_t>(dev.buffer(out).dist.bank_base)});
        p.set_runtime_args(h, {0, 0}, {mode});
        const ttsim::launch_result r = ttsim::launch(dev, p, options(1));
        ASSERT_EQ(r.findings.size(), 1U) << "mode " << mode << "\n" << findings(r);
        EXPECT_EQ(r.findings[0].kind, expected[mode].kind) << "mode " << mode << "\n" << findings(r);
        EXPECT_NE(r.findings[0].what.find(expected[mode].what), std::string::npos) << findings(r);
    }
}

// Bytes nobody wrote, in buffers: a reader that reads a padding slot of its input (its
// address computed wrong) sends padding into an output page; one that reads the output
// back before anything wrote it sends never-written pages on. Both are `uninitialized`,
// naming where the bytes were read and the page they would land in.
TEST(TtsimLaunch, UndefinedBytesOfABufferReachingAnOutputPageAreFound) {
    {
        copy_setup c(ttsim::all_runtime);
        ttsim::program p = c.program("raw_reader.cpp", ttsim::all_runtime);
        const distribution& d = c.dev.buffer(c.in).dist;
        std::uint64_t pad = 0;  // a padding slot of the input on core (0,0), bank 0
        while (d.layout.page_at(0, pad).has_value()) ++pad;
        ASSERT_LT(pad, d.reserved_pages_per_core());
        const auto base = static_cast<std::uint32_t>(d.bank_base);
        p.set_runtime_args(0, {0, 0}, {0, static_cast<std::uint32_t>(base + pad * 64), 0, 53});
        p.set_runtime_args(0, {1, 0}, {1, base, 0, 52});  // bank 1's first slot: a real page
        const ttsim::launch_result r = ttsim::launch(c.dev, p, options(1));
        expect_found(r, ttsim::finding_kind::uninitialized,
                     {"it was read from padding slot " + std::to_string(pad) + " of buffer 'in'",
                      "circular buffer 0 (slot 0) on (0,0)", "of buffer 'out' at byte 0"});
    }
    for (std::uint64_t seed : {1, 2}) {
        copy_setup c(ttsim::all_runtime);
        c.src = c.out;  // the output, read back before anything wrote it
        const ttsim::launch_result r =
            ttsim::launch(c.dev, c.program("copy_reader.cpp", ttsim::all_runtime), options(seed));
        expect_found(r, ttsim::finding_kind::uninitialized,
                     {"of buffer 'out' (0x", "never written (all its bytes held the sentinel"});
    }
}

// tt-metal's copy via bank base: each core copies its whole range of a buffer (padding slots
// and alignment gaps included) onto a buffer laid out alike. Padding lands in padding, gaps
// in gaps: no finding, and every page arrives.
TEST(TtsimLaunch, AWholeSlotCopyBetweenBuffersLaidOutAlikeIsNoFinding) {
    sim::device dev{ttsim::kernel_device_config(4, 2, 4)};
    // [3,7,5] pages of 16 int32 aligned to 128, [2,2,2] shards on 2 L1 banks
    distribution_spec s = int32_pages_on_two_cores({3, 7, 5}, {2, 2, 2}, 128);
    const sim::buffer_id in = dev.allocate(s, "in"), out = dev.allocate(s, "out");
    const sim::dense_tensor data = sim::dense_tensor::random(dev.buffer(in).dist.tensor_pages, 16, 7);
    dev.write(in, data);
    ttsim::program p;
    ttsim::kernel_desc k;
    k.source = kernels + "/slot_copy.cpp";
    k.cores = {{0, 0}, {1, 0}};
    const auto h = p.add_kernel(k);
    for (std::uint32_t bank = 0; bank < 2; ++bank)
        p.set_runtime_args(h, k.cores[bank],
                           {bank, static_cast<std::uint32_t>(dev.buffer(in).dist.bank_base),
                            static_cast<std::uint32_t>(dev.buffer(out).dist.bank_base),
                            static_cast<std::uint32_t>(dev.buffer(in).bytes_per_bank)});
    for (std::uint64_t seed : {1, 2}) {
        const ttsim::launch_result r = ttsim::launch(dev, p, options(seed));
        ASSERT_TRUE(r.ok()) << findings(r);
        EXPECT_EQ(sim::first_difference(dev.read(out), data), "");
        EXPECT_TRUE(dev.padding_violations(out).empty());
    }
    // One padding slot of the input written straight (L1 to L1, no CB) onto a real page of
    // the output: a finding, naming the slot.
    const distribution& d = dev.buffer(in).dist;
    std::uint64_t pad = 0;
    while (d.layout.page_at(0, pad).has_value()) ++pad;
    ASSERT_TRUE(d.layout.page_at(0, 0).has_value());
    const auto aps = static_cast<std::uint32_t>(d.aligned_page_size);
    p.set_runtime_args(h, k.cores[0],
                       {0, static_cast<std::uint32_t>(d.bank_base + pad * aps),
                        static_cast<std::uint32_t>(dev.buffer(out).dist.bank_base), aps});
    const ttsim::launch_result r = ttsim::launch(dev, p, options(1));
    expect_found(r, ttsim::finding_kind::uninitialized,
                 {"byte 0 of its source, padding slot " + std::to_string(pad) + " of buffer 'in'"});
}

}  // namespace
