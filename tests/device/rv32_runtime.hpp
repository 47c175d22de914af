// tests/device/rv32_runtime.hpp - the whole "operating system" of a bare rv32im program
// run under qemu-riscv32 (Linux user mode): an entry point, write(2), exit(2), and the
// memory functions a freestanding C++ compiler may call. Include it in ONE translation
// unit that defines `int device_main(int argc, char** argv)`.
#pragma once

#include <stddef.h>
#include <stdint.h>

extern "C" int device_main(int argc, char** argv);

// qemu-user starts us with sp -> argc, argv[0..]. gp must hold __global_pointer$ before
// any code the linker relaxed to gp-relative addressing runs.
asm(R"(
    .section .text._start, "ax"
    .global _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    lw a0, 0(sp)
    addi a1, sp, 4
    andi sp, sp, -16
    call device_main
    li a7, 93
    ecall
)");

namespace rv32 {

inline long syscall3(long n, long a, long b, long c) {
    register long a0 asm("a0") = a;
    register long a1 asm("a1") = b;
    register long a2 asm("a2") = c;
    register long a7 asm("a7") = n;
    asm volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}
inline void write_bytes(const char* s, size_t n) { syscall3(64, 1, reinterpret_cast<long>(s), static_cast<long>(n)); }
inline void print(const char* s) {
    size_t n = 0;
    while (s[n] != 0) ++n;
    write_bytes(s, n);
}
inline void print_u32(uint32_t v) {
    char buf[12];
    int i = 11;
    buf[i] = 0;
    do {
        buf[--i] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    print(buf + i);
}
inline void print_hex(uint32_t v) {
    char buf[11] = {'0', 'x'};
    for (int i = 0; i < 8; ++i) buf[2 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 15];
    buf[10] = 0;
    print(buf);
}
[[noreturn]] inline void exit(int code) {
    syscall3(93, code, 0, 0);
    __builtin_unreachable();
}
inline uint32_t parse_u32(const char* s) {
    uint32_t v = 0;
    while (*s >= '0' && *s <= '9') v = v * 10 + static_cast<uint32_t>(*s++ - '0');
    return v;
}
inline bool equal(const char* a, const char* b) {
    while (*a != 0 && *a == *b) ++a, ++b;
    return *a == *b;
}

}  // namespace rv32

// Byte loops through volatile pointers, so that the compiler does not turn them back
// into calls to themselves.
extern "C" {
// Word at a time when both ends are aligned, as a C library's would be.
[[gnu::used]] void* memset(void* d, int c, size_t n) {
    volatile unsigned char* p = static_cast<unsigned char*>(d);
    if (((reinterpret_cast<uintptr_t>(d) | n) & 3) == 0) {
        const uint32_t w = 0x01010101U * static_cast<unsigned char>(c);
        volatile uint32_t* q = reinterpret_cast<volatile uint32_t*>(d);
        for (n /= 4; n != 0; --n) *q++ = w;
        return d;
    }
    while (n-- != 0) *p++ = static_cast<unsigned char>(c);
    return d;
}
[[gnu::used]] void* memcpy(void* d, const void* s, size_t n) {
    if (((reinterpret_cast<uintptr_t>(d) | reinterpret_cast<uintptr_t>(s) | n) & 3) == 0) {
        volatile uint32_t* p = static_cast<uint32_t*>(d);
        const volatile uint32_t* q = static_cast<const uint32_t*>(s);
        for (n /= 4; n != 0; --n) *p++ = *q++;
        return d;
    }
    volatile unsigned char* p = static_cast<unsigned char*>(d);
    const volatile unsigned char* q = static_cast<const unsigned char*>(s);
    while (n-- != 0) *p++ = *q++;
    return d;
}
[[gnu::used]] void* memmove(void* d, const void* s, size_t n) {
    volatile unsigned char* p = static_cast<unsigned char*>(d);
    const volatile unsigned char* q = static_cast<const unsigned char*>(s);
    if (p < q) {
        while (n-- != 0) *p++ = *q++;
    } else {
        while (n-- != 0) p[n] = q[n];
    }
    return d;
}
[[gnu::used]] int memcmp(const void* a, const void* b, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(a);
    const unsigned char* q = static_cast<const unsigned char*>(b);
    for (; n != 0; --n, ++p, ++q)
        if (*p != *q) return *p < *q ? -1 : 1;
    return 0;
}
}
