# cmake/toolchains/rv32im.cmake - kernels for a 32-bit RISC-V data-movement core (rv32im,
# no FPU, no compressed instructions), as the accelerators' stack builds them: clang 14,
# C++17 or C++20, freestanding, no exceptions or RTTI, libc++ 14's headers and picolibc's C
# headers (Debian: clang-14, libc++-14-dev, picolibc-riscv64-unknown-elf); linked by
# riscv64-unknown-elf-gcc with libgcc and no C library (gcc-riscv64-unknown-elf); run
# under qemu-riscv32 (qemu-user). Programs bring their own _start (tests/device/rv32_runtime.hpp).
#
#   cmake -S tests/device/rv32 -B build/rv32 --toolchain cmake/toolchains/rv32im.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

find_program(NDSHARD_RV32_CXX NAMES clang++-14 clang++ REQUIRED)
find_program(NDSHARD_RV32_LINKER NAMES riscv64-unknown-elf-gcc REQUIRED)
set(CMAKE_CXX_COMPILER ${NDSHARD_RV32_CXX})
set(CMAKE_CXX_COMPILER_TARGET riscv32-unknown-elf)

set(NDSHARD_LIBCXX_INCLUDE /usr/lib/llvm-14/include/c++/v1 CACHE PATH "libc++ 14 headers")
set(NDSHARD_PICOLIBC_INCLUDE /usr/lib/picolibc/riscv64-unknown-elf/include CACHE PATH "picolibc C headers")

set(CMAKE_CXX_FLAGS_INIT
  "-march=rv32im -mabi=ilp32 -ffreestanding -fno-exceptions -fno-rtti -nostdinc++ \
-isystem ${NDSHARD_LIBCXX_INCLUDE} -D_LIBCPP_HAS_NO_THREADS -D_LIBCPP_HAS_NO_LIBRARY_ALIGNED_ALLOCATION \
-isystem ${NDSHARD_PICOLIBC_INCLUDE}")
set(CMAKE_CXX_LINK_EXECUTABLE
  "${NDSHARD_RV32_LINKER} -march=rv32im -mabi=ilp32 -nostdlib -static <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES> -lgcc")

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
