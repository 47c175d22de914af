// tests/device/device_test.cpp - the accessor on rv32im under qemu-riscv32, against the
// oracle's answers in device_cases.hpp (written by gen_device_cases).
//
// For every case: sizes; every listed page by id and by coordinate (bank, offset, NoC
// address, locality, contiguous run); for small specs every shard's first slot and all
// iterators (pages(), pages(thread, 3) for each thread, shard_pages, local_pages) page by
// page; the same through the case's compile-time mix when it has one; and every malformed
// word list refused with a status naming the host's rule. Last, the device trap hook:
// a malformed list given to the constructor without a status must reach it.
// Prints failures (at most 20) and a summary; exit status 0 only when all passed.
//
// Record layout (uint32 words): 0xCA5E000s (s = small), case, runtime kind (0xFFFFFFFF
// round robin, 0xFFFFFFFE contiguous), n, n runtime words, compile-time instance or
// 0xFFFFFFFF, m, m runtime words of that instance, bank base, page size, pages, shards,
// banks, slots per bank, k, k x (page, bank, offset, address, x, y, run), [small: per
// shard, per bank: count, page ids in device order], b, b x (n, n words, base, page
// size, rule index), 0xE17D.
#include <array>
#include <cstdint>

#include "ndshard/accessor.hpp"
#include "device_cases.hpp"
#include "rv32_runtime.hpp"

namespace {

using u32 = std::uint32_t;

u32 failures = 0, checks = 0;

void fail(u32 c, const char* what, u32 at, u32 got, u32 want) {
    ++failures;
    if (failures > 20) return;
    rv32::print("FAIL case ");
    rv32::print_u32(c);
    rv32::print(": ");
    rv32::print(what);
    rv32::print(" at ");
    rv32::print_u32(at);
    rv32::print(": got ");
    rv32::print_u32(got);
    rv32::print(", want ");
    rv32::print_u32(want);
    rv32::print("\n");
}
void expect(bool ok, u32 c, const char* what, u32 at, u32 got, u32 want) {
    ++checks;
    if (!ok) fail(c, what, at, got, want);
}

struct record {
    u32 small = 0, index = 0, runtime_kind = 0;
    const u32* rt = nullptr;
    u32 rt_size = 0;
    u32 ct_instance = 0;
    const u32* ct_rt = nullptr;
    u32 ct_rt_size = 0;
    u32 base = 0, page_size = 0, pages = 0, shards = 0, banks = 0, slots = 0;
    const u32* samples = nullptr;
    u32 sample_count = 0;
    const u32* shard_lists = nullptr;  // small only
    const u32* bank_lists = nullptr;
    const u32* bad = nullptr;
    u32 bad_count = 0;
};

const u32* parse(const u32* p, record& r) {
    if ((p[0] & 0xFFFF0000U) != 0xCA5E0000U) return nullptr;
    r.small = p[0] & 1;
    r.index = p[1];
    r.runtime_kind = p[2];
    r.rt_size = p[3];
    r.rt = p + 4;
    p += 4 + r.rt_size;
    r.ct_instance = p[0];
    r.ct_rt_size = p[1];
    r.ct_rt = p + 2;
    p += 2 + r.ct_rt_size;
    r.base = p[0];
    r.page_size = p[1];
    r.pages = p[2];
    r.shards = p[3];
    r.banks = p[4];
    r.slots = p[5];
    r.sample_count = p[6];
    r.samples = p + 7;
    p += 7 + 7 * r.sample_count;
    if (r.small) {
        r.shard_lists = p;
        for (u32 s = 0; s < r.shards; ++s) p += 1 + p[0];
        r.bank_lists = p;
        for (u32 b = 0; b < r.banks; ++b) p += 1 + p[0];
    }
    r.bad_count = p[0];
    r.bad = p + 1;
    ++p;
    for (u32 i = 0; i < r.bad_count; ++i) p += p[0] + 4;
    if (p[0] != 0xE17DU) return nullptr;
    return p + 1;
}

// The sample of page id p (small specs list every page in id order).
const u32* sample(const record& r, u32 p) { return r.samples + 7 * p; }

template <class A, class It>
void check_walk(const A& a, const record& r, It it, const u32* ids, u32 count, const char* what, u32 step = 1) {
    u32 k = 0;
    for (; !(it == ndshard::page_end); ++it, ++k) {
        const ndshard::page_ref ref = *it;
        const u32 want = ids != nullptr ? (k < count ? ids[k] : 0xFFFFFFFFU) : k * step + count;
        expect(ref.page_id == want, r.index, what, k, ref.page_id, want);
        if (ref.page_id >= r.pages) return;
        const u32* s = sample(r, ref.page_id);
        expect(ref.bank == s[1], r.index, what, ref.page_id, ref.bank, s[1]);
        expect(ref.page_offset == s[2], r.index, what, ref.page_id, ref.page_offset, s[2]);
        const ndshard::noc_addr n = a.noc_address_of(ref);
        expect(n.addr == s[3] && n.x == s[4] && n.y == s[5], r.index, what, ref.page_id, n.addr, s[3]);
        if (k > r.pages) return;
    }
    if (ids != nullptr) expect(k == count, r.index, what, 0, k, count);
}

// The digits of id in a mixed radix, row-major (the last digit fastest), written by plain
// division (fine in the test itself): extent(d) is dim d's radix; digit 0 takes the rest.
template <class Extent>
std::array<u32, 8> digits_of(u32 id, u32 rank, Extent extent) {
    std::array<u32, 8> c{};
    for (u32 d = rank; d-- > 0;) {
        c[d] = d == 0 ? id : id % extent(d);
        id = d == 0 ? 0 : id / extent(d);
    }
    return c;
}

template <class A>
void check_accessor(const A& a, const record& r) {
    expect(a.num_pages() == r.pages, r.index, "num_pages", 0, a.num_pages(), r.pages);
    expect(a.num_shards() == r.shards, r.index, "num_shards", 0, a.num_shards(), r.shards);
    expect(a.num_banks() == r.banks, r.index, "num_banks", 0, a.num_banks(), r.banks);
    expect(a.max_shards_per_core() == r.slots, r.index, "max_shards_per_core", 0, a.max_shards_per_core(), r.slots);
    for (u32 i = 0; i < r.sample_count; ++i) {
        const u32* s = r.samples + 7 * i;
        const u32 p = s[0];
        const ndshard::bank_and_offset bo = a.get_bank_and_offset(p);
        expect(bo.bank == s[1], r.index, "bank", p, bo.bank, s[1]);
        expect(bo.page_offset == s[2], r.index, "offset", p, bo.page_offset, s[2]);
        const ndshard::noc_addr n = a.get_noc_addr(p);
        expect(n.addr == s[3], r.index, "address", p, n.addr, s[3]);
        expect(n.x == s[4] && n.y == s[5], r.index, "core x", p, n.x, s[4]);
        expect(a.is_local_page(p, {s[4], s[5]}), r.index, "is_local_page", p, 0, 1);
        const ndshard::core_coord other{s[4] + 1, s[5]};
        expect(!a.is_local_page(p, other), r.index, "is_local_page elsewhere", p, 1, 0);
        expect(A::is_local_addr(n, {s[4], s[5]}), r.index, "is_local_addr", p, 0, 1);
        const u32 run = a.contiguous_pages(p);
        expect(s[6] == 4096 ? run >= 4096 : run == s[6], r.index, "contiguous_pages", p, run, s[6]);
        // The same page by coordinate (digits in the accessor's rank).
        const std::array<u32, 8> c = digits_of(p, a.rank(), [&](u32 d) { return a.tensor_extent(d); });
        const ndshard::bank_and_offset bc = a.get_bank_and_offset_at(c);
        expect(bc == bo, r.index, "by coordinate", p, bc.page_offset, bo.page_offset);
    }
    if (!r.small) return;
    const u32* list = r.shard_lists;
    for (u32 s = 0; s < r.shards; ++s) {
        const u32 count = list[0];
        if (count != 0) {
            const ndshard::bank_and_offset h = a.shard_bank_and_offset(s);
            const u32* first = sample(r, list[1]);
            expect(h.bank == first[1] && h.page_offset == first[2], r.index, "shard_bank_and_offset", s, h.page_offset,
                   first[2]);
            const std::array<u32, 8> q = digits_of(s, a.rank(), [&](u32 d) { return a.grid_extent(d); });
            expect(a.shard_id_at(q) == s, r.index, "shard_id_at", s, a.shard_id_at(q), s);
            expect(a.is_local_shard(s, {first[4], first[5]}), r.index, "is_local_shard", s, 0, 1);
        }
        check_walk(a, r, a.shard_pages(s).begin(), list + 1, count, "shard_pages");
        list += 1 + count;
    }
    list = r.bank_lists;
    for (u32 b = 0; b < r.banks; ++b) {
        check_walk(a, r, a.local_pages(b).begin(), list + 1, list[0], "local_pages");
        list += 1 + list[0];
    }
    check_walk(a, r, a.pages().begin(), nullptr, 0, "pages");
    for (u32 t = 0; t < 3; ++t) check_walk(a, r, a.pages(t, 3).begin(), nullptr, t, "pages(t, 3)", 3);
}

template <auto CT>
void check_words(const record& r, const u32* rt, u32 size) {
    ndshard::args_status st;
    const ndshard::accessor<CT> a(ndshard::word_span(rt, size), r.base, r.page_size, st);
    expect(st.ok(), r.index, "valid words refused", static_cast<u32>(st.error), st.value, 0);
    if (!st.ok()) return;
    check_accessor(a, r);
    // The same list with its checksum word flipped is refused.
    if (size != 0) {
        std::array<u32, 1024> copy{};
        if (size > copy.size()) return;
        for (u32 i = 0; i < size; ++i) copy[i] = rt[i];
        copy[size - 1] ^= 0x80U;
        ndshard::args_status bad;
        const ndshard::accessor<CT> b(ndshard::word_span(copy.data(), size), r.base, r.page_size, bad);
        expect(bad.error == ndshard::args_error::checksum, r.index, "flipped checksum", 0, static_cast<u32>(bad.error),
               static_cast<u32>(ndshard::args_error::checksum));
    }
}

bool same(const char* a, const char* b) { return rv32::equal(a, b); }

template <auto CT>
void check_bad(const record& r) {
    const u32* p = r.bad;
    for (u32 i = 0; i < r.bad_count; ++i) {
        const u32 n = p[0];
        const u32* w = p + 1;
        const u32 base = w[n], page = w[n + 1], rule = w[n + 2];
        ndshard::args_status st;
        const ndshard::accessor<CT> a(ndshard::word_span(w, n), base, page, st);
        (void)a;
        expect(!st.ok() && same(ndshard::args_status_rule(st.error), device_cases::rules[rule]), r.index,
               "malformed list", i, static_cast<u32>(st.error), rule);
        p += n + 4;
    }
}

using ct_runner = void (*)(const record&);
template <auto CT>
void run_ct(const record& r) {
    check_words<CT>(r, r.ct_rt, r.ct_rt_size);
}
#define DEVICE_TEST_RUNNER(i) &run_ct<&device_cases::ct##i>,
const ct_runner ct_runners[] = {DEVICE_CASES_CT_INSTANCES(DEVICE_TEST_RUNNER)};

u32 hook_calls = 0;
[[noreturn]] void trap_hook(const ndshard::args_status& s) {
    ++hook_calls;
    if (s.error != ndshard::args_error::checksum) {
        rv32::print("FAIL trap hook: status ");
        rv32::print_u32(static_cast<u32>(s.error));
        rv32::print(", want the checksum's\n");
        rv32::exit(1);
    }
    rv32::print("device_test: the trap hook received the refused list's status\n");
    rv32::exit(failures == 0 ? 0 : 1);
}

}  // namespace

extern "C" int device_main(int, char**) {
    const u32* p = device_cases::data;
    const u32* end = device_cases::data + sizeof(device_cases::data) / sizeof(u32);
    u32 cases = 0, ct_cases = 0;
    while (p != end) {
        record r;
        const u32* next = parse(p, r);
        if (next == nullptr) {
            rv32::print("FAIL: malformed case stream\n");
            return 1;
        }
        if (r.runtime_kind == 0xFFFFFFFEU) {
            check_words<&ndshard::runtime_contiguous>(r, r.rt, r.rt_size);
            check_bad<&ndshard::runtime_contiguous>(r);
        } else {
            check_words<&ndshard::runtime_round_robin>(r, r.rt, r.rt_size);
            check_bad<&ndshard::runtime_round_robin>(r);
        }
        if (r.ct_instance != 0xFFFFFFFFU) {
            ct_runners[r.ct_instance](r);
            ++ct_cases;
        }
        ++cases;
        p = next;
    }
    rv32::print("device_test (C++");
    rv32::print_u32(__cplusplus / 100 % 100);
    rv32::print("): ");
    rv32::print_u32(cases);
    rv32::print(" specs (");
    rv32::print_u32(ct_cases);
    rv32::print(" also through one of ");
    rv32::print_u32(device_cases::num_ct_instances);
    rv32::print(" compile-time instances), ");
    rv32::print_u32(device_cases::num_addresses);
    rv32::print(" pages, ");
    rv32::print_u32(device_cases::num_bad_lists);
    rv32::print(" malformed lists, ");
    rv32::print_u32(checks);
    rv32::print(" checks, ");
    rv32::print_u32(failures);
    rv32::print(" failed\n");
    // Last: a refused list without a status goes to the trap hook, which ends the program.
    ndshard::trap_hook = &trap_hook;
    static const u32 bad_words[] = {1, 1, 5, 1, 0, 12345};  // rank 1, 1 bank, [5]/[1], core (0,0), wrong checksum
    const ndshard::accessor<&ndshard::runtime_round_robin> a(bad_words, 0, 16);
    (void)a;
    rv32::print("FAIL: the trap hook was not called for a malformed list\n");
    return 1;
}
