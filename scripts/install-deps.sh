#!/usr/bin/env bash
# Installs the Debian packages ndshard needs to build and test, only those missing.
# Idempotent; a fast no-op (one dpkg-query call) when everything is present.
# Set NDSHARD_SKIP_DEPS=1 to skip entirely (e.g. on a prepared offline machine).
set -euo pipefail

if [[ "${NDSHARD_SKIP_DEPS:-0}" == 1 ]]; then
  echo "install-deps: skipped (NDSHARD_SKIP_DEPS=1)"
  exit 0
fi

packages=(
  cmake ninja-build g++
  clang llvm llvm-14 libclang-rt-14-dev lld
  libgtest-dev libbenchmark-dev librapidcheck-dev
  libboost-dev libcli11-dev nlohmann-json3-dev libdivide-dev
  valgrind python3 git clang-format-14
  # the device build (tests/device, scripts/bench.sh --device): clang for rv32im with
  # libc++'s headers and picolibc's C headers, GNU ld + libgcc for rv32, qemu-riscv32
  libc++-14-dev picolibc-riscv64-unknown-elf gcc-riscv64-unknown-elf qemu-user
)

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: this script needs a Debian/Ubuntu system (dpkg-query, apt-get)" >&2
  exit 1
fi

# Packages reported as fully installed; anything else (unknown, half-installed, removed) is missing.
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null \
  | awk '$2 == "installed" { print $1 }' || true)
missing=()
for pkg in "${packages[@]}"; do
  if ! grep -qxF "$pkg" <<<"$installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=()
if [[ "$(id -u)" -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps: not root and sudo is unavailable; missing: ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
