#!/usr/bin/env bash
# Usage: scripts/bench.sh [extra ndshard_bench flags...]
#        scripts/bench.sh --device
#        scripts/bench.sh --kcheck [bench/kcheck/rate.py flags...]
#
# --kcheck: distribution pairs a minute of `ndshard kcheck` for each op, cold (an empty
# kernel cache: every variant compiled) and warm (the same run again), 100 cases each by
# default; prints the markdown table of docs/performance.md (bench/kcheck/rate.py).
#
# --device: rv32im instructions (and hardware divides) per address, per page through each
# iterator and per construction from runtime words, at -Os and -O2 (clang 14), counted
# under qemu-riscv32 (bench/device/count.py: N and 2N operations, the difference / N),
# for the bench specs (bench/bench_specs.hpp); prints the markdown table of docs/performance.md.
# Needs the rv32im toolchain of scripts/install-deps.sh.
#
# The x86 performance table of docs/performance.md, from one command on a fresh clone:
#   1. installs missing dependencies (scripts/install-deps.sh: libbenchmark-dev, valgrind, ...),
#   2. configures and builds the release preset's benchmark targets only,
#   3. runs bench/selfcheck (the accessor against the host layout; a wrong fast path is
#      not worth timing),
#   4. runs the whole suite in ONE ndshard_bench invocation, repetitions randomly
#      interleaved, JSON kept in build/release/bench/bench.json,
#   5. counts instructions per address under valgrind --tool=callgrind (interleaved vs ND
#      static/runtime at ranks 1, 4, 8, and construction at rank 4),
#   6. prints the ratio table with PASS/MISS per target (bench/report.py), also written as
#      markdown to build/release/bench/report.md.
# Environment:
#   NDSHARD_BENCH_REPS      repetitions per benchmark (default 5)
#   NDSHARD_BENCH_MIN_TIME  seconds per repetition (default 0.2)
#   NDSHARD_BENCH_FILTER    --benchmark_filter regex (default: all; the table needs all)
#   NDSHARD_SKIP_CALLGRIND  1: skip step 5
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # $root (the working directory), usage
help_exit "$@"

case "${1:-}" in
  --device)
    bash "$root/scripts/install-deps.sh"
    echo "=== configure + build (rv32im preset: the rv32im programs, cmake/toolchains/rv32im.cmake)" >&2
    cmake --preset rv32im >/dev/null
    cmake --build --preset rv32im >&2
    rv32="$root/build/rv32im/tests/device/rv32"
    objdump=$(command -v riscv64-unknown-elf-objdump || command -v llvm-objdump-14)
    echo "=== rv32im instructions per operation (qemu-riscv32 -singlestep; N and 2N, difference / N)" >&2
    python3 "$root/bench/device/count.py" --qemu qemu-riscv32 --objdump "$objdump" \
      --bin=-Os="$rv32/bench_device_Os" --bin=-O2="$rv32/bench_device_O2" \
      --markdown "$root/build/rv32im/device.md"
    exit 0 ;;
  --kcheck)
    shift
    bash "$root/scripts/install-deps.sh"
    echo "=== configure + build (release preset, the ndshard command)" >&2
    cmake --preset release >/dev/null
    cmake --build --preset release --target ndshard >&2
    echo "=== ndshard kcheck: pairs a minute, cold and warm ($(nproc) cores)" >&2
    python3 "$root/bench/kcheck/rate.py" --ndshard "$root/build/release/bin/ndshard" \
      --markdown "$root/build/release/kcheck-rate.md" "$@"
    exit 0 ;;
esac

reps=${NDSHARD_BENCH_REPS:-5}
min_time=${NDSHARD_BENCH_MIN_TIME:-0.2}
filter=${NDSHARD_BENCH_FILTER:-.}
build="$root/build/release"
out="$build/bench"

bash "$root/scripts/install-deps.sh"

echo "=== configure + build (release preset, benchmark targets)"
cmake --preset release >/dev/null
cmake --build --preset release --target ndshard_bench ndshard_bench_selfcheck ndshard_bench_callgrind
mkdir -p "$out"

echo "=== selfcheck"
"$build/bin/ndshard_bench_selfcheck"

echo "=== benchmarks (${reps} repetitions, randomly interleaved)"
"$build/bin/ndshard_bench" \
  --benchmark_filter="$filter" \
  --benchmark_repetitions="$reps" \
  --benchmark_enable_random_interleaving=true \
  --benchmark_min_time="$min_time" \
  --benchmark_out="$out/bench.json" \
  --benchmark_out_format=json \
  --benchmark_display_aggregates_only=true \
  "$@"

callgrind_args=()
if [[ "${NDSHARD_SKIP_CALLGRIND:-0}" != 1 ]]; then
  echo "=== callgrind (instructions per address)"
  if ! command -v valgrind >/dev/null 2>&1; then
    echo "bench.sh: valgrind is missing (scripts/install-deps.sh installs it)" >&2
    exit 1
  fi
  count=20000
  # Ir / count for one driver run; only the measured loop is collected (see callgrind_driver.cpp).
  per_op() {
    local file="$out/callgrind.$1.$2.out"
    valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$file" \
      "$build/bin/ndshard_bench_callgrind" "$1" "$2" "$3" >/dev/null 2>&1
    awk -v n="$3" '/^(summary|totals):/ { printf "%.2f", $2 / n; exit }' "$file"
  }
  {
    printf '{"interleaved": %s' "$(per_op interleaved 0 $count)"
    for v in static runtime; do
      for r in 1 4 8; do printf ', "%s/%s": %s' "$v" "$r" "$(per_op "$v" "$r" $count)"; done
    done
    printf ', "construct/4": %s}\n' "$(per_op construct 4 2000)"
  } >"$out/callgrind.json"
  callgrind_args=(--callgrind "$out/callgrind.json")
fi

echo "=== targets ($(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores)"
python3 "$root/bench/report.py" "$out/bench.json" "${callgrind_args[@]}" --markdown "$out/report.md"
echo "(JSON: $out/bench.json; markdown: $out/report.md)"
