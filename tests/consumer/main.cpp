// Built against an installed ndshard by tests/consumer/CMakeLists.txt.
#include <cstdio>

static_assert(__cplusplus >= 202002L, "ndshard::ndshard must request C++20 (cxx_std_20)");

int main() {
    std::puts("ndshard consumer: OK");
    return 0;
}
