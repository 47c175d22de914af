// tests/device/tt_reader_test.cpp - a kernel-style reader written against tt-metal's API
// (TensorAccessorArgs, TensorAccessor, get_noc_addr, noc_async_read, pages(),
// strided_shard_pages()), built for rv32im from tt-metal's words made on the host
// (gen_tt_cases.cpp: every one of the 15 mixes, L1 and DRAM), run under qemu-riscv32; every
// NoC address it reads from is checked against the oracle's.
// Prints failures (at most 20) and a summary; exit status 0 only when all passed.
#include <stddef.h>
#include <stdint.h>

#include <utility>

// clang-format off
#include "tt_cases.hpp"  // first: it defines the kernel's KERNEL_COMPILE_TIME_ARGS
#include "api/tensor/tensor_accessor.h"
// clang-format on
#include "rv32_runtime.hpp"

namespace {

uint32_t failures = 0, checks = 0;

void expect(bool ok, uint32_t c, const char* what, uint32_t id, uint64_t got, uint64_t want) {
    ++checks;
    if (ok) return;
    if (++failures > 20) return;
    rv32::print("FAIL case ");
    rv32::print_u32(c);
    rv32::print(": ");
    rv32::print(what);
    rv32::print(" ");
    rv32::print_u32(id);
    rv32::print(": got ");
    rv32::print_hex(static_cast<uint32_t>(got >> 32));
    rv32::print_hex(static_cast<uint32_t>(got));
    rv32::print(", want ");
    rv32::print_hex(static_cast<uint32_t>(want >> 32));
    rv32::print_hex(static_cast<uint32_t>(want));
    rv32::print("\n");
}

uint64_t expected(const uint32_t* table, uint32_t k) {
    return uint64_t{table[3 * k + 1]} | (uint64_t{table[3 * k + 2]} << 32);
}

// The reader of case I: as a tt-metal kernel would build and use its accessor.
template <size_t I>
void reader() {
    constexpr tt_cases::tt_case c = tt_cases::cases[I];
    tt_device::common_args = tt_cases::crta + c.crta;
    tt_device::common_arg_count = c.crta_count;
    constexpr auto args = TensorAccessorArgs<c.cta, 0>();
    const auto s = TensorAccessor(args, c.base);  // the page size from the words (layout 2)
    expect(s.get_aligned_page_size() == c.page_size, I, "page size", 0, s.get_aligned_page_size(), c.page_size);

    // Every listed page, one NoC read each.
    for (uint32_t k = 0; k < c.expects; ++k) {
        const uint32_t page = tt_cases::expect[3 * (c.expect_at + k)];
        noc_async_read(s.get_noc_addr(page), 0, s.get_aligned_page_size());
        expect(tt_device::last_read == expected(tt_cases::expect, c.expect_at + k), I, "page", page,
               tt_device::last_read, expected(tt_cases::expect, c.expect_at + k));
    }
    noc_async_read_barrier();
    for (uint32_t k = 0; k < c.shard_expects; ++k) {
        const uint32_t shard = tt_cases::shard_expect[3 * (c.shard_at + k)];
        const uint64_t got = s.get_shard_noc_addr(shard);
        expect(got == expected(tt_cases::shard_expect, c.shard_at + k), I, "shard", shard, got,
               expected(tt_cases::shard_expect, c.shard_at + k));
    }
    if (!c.small) return;
    // All pages through the iterator, in id order, each at its address.
    uint32_t k = 0;
    for (const auto& page : s.pages()) {
        expect(page.page_id() == k && page.noc_addr() == expected(tt_cases::expect, c.expect_at + k), I, "pages() at",
               k, page.noc_addr(), expected(tt_cases::expect, c.expect_at + k));
        ++k;
    }
    expect(k == c.pages, I, "pages() count", k, k, c.pages);
    // Three threads' shards: together every page of every shard of the grid.
    uint32_t seen = 0;
    for (uint32_t t = 0; t < 3; ++t)
        for (const auto& shard : s.strided_shard_pages(t, 3))
            for (const auto& page : shard) {
                (void)page;
                ++seen;
            }
    expect(seen == c.pages, I, "strided_shard_pages() pages", seen, seen, c.pages);
}

template <size_t... I>
void all(std::index_sequence<I...>) {
    (reader<I>(), ...);
}

}  // namespace

extern "C" int device_main(int, char**) {
    all(std::make_index_sequence<tt_cases::count>{});
    rv32::print("tt_reader_test: ");
    rv32::print_u32(tt_cases::count);
    rv32::print(" cases, ");
    rv32::print_u32(checks);
    rv32::print(" checks, ");
    rv32::print_u32(failures);
    rv32::print(" failed\n");
    return failures == 0 ? 0 : 1;
}
