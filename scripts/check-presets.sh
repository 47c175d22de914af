#!/usr/bin/env bash
# Usage: scripts/check-presets.sh [preset[:target,target...] ...]
#
# Proves that presets CI does not otherwise build still configure and compile with
# warnings fatal (each preset's own NDSHARD_WERROR). `scripts/test.sh` builds default and
# asan, `scripts/verify.sh --werror` builds release and the fuzzers of `fuzz`; this script
# builds the rest. An entry `preset` builds everything of it, `preset:t1,t2` the targets
# named, `preset:-` nothing (configure only). No tests run. Last line: "presets: N passed, N failed".
#   NDSHARD_CHECK_PRESETS  entries when none are given (space separated)
#   NDSHARD_JOBS           build parallelism (default 2)
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

case "${1:-}" in
  -h|--help) sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

# Each preset here compiles what proves it works, and no more (CI has 90 minutes; the
# asan preset already compiles every target with clang, at -O1 with the sanitizers, and
# the fuzz preset every fuzzer with the same clang):
# clang-release: clang at -O3 on the conformance reference adapter (the accessor, the
#   iterators and the C ABI; the whole preset takes ~25 min on 2 cores).
# clang: the oracle library. coverage: one property with coverage instrumentation (and so
#   the library, oracle and testkit it links). fuzz-fast: one fuzzer at -O2 without
#   sanitizers. rv32im: configured only (the default preset cross-compiles the same device
#   programs, five minutes of CI's ninety).
default_entries="clang-release:ndsc_reference clang:ndshard_oracle coverage:property_bijectivity fuzz-fast:fuzz_spec rv32im:-"
if (($# > 0)); then
  entries=("$@")
else
  read -r -a entries <<<"${NDSHARD_CHECK_PRESETS:-$default_entries}"
fi
jobs=${NDSHARD_JOBS:-2}

known=$(cmake --list-presets=configure 2>/dev/null | sed -n 's/^ *"\([^"]*\)".*/\1/p')
passed=0
failed=()
for entry in "${entries[@]}"; do
  preset=${entry%%:*}
  targets=()
  [[ "$entry" == *:* ]] && IFS=',' read -r -a targets <<<"${entry#*:}"
  if ! grep -qxF "$preset" <<<"$known"; then
    echo "check-presets.sh: '$preset' is not a configure preset of CMakePresets.json" >&2
    failed+=("$preset:unknown"); continue
  fi
  t0=$SECONDS
  echo "=== [$preset] configure"
  if ! cmake --preset "$preset" >/dev/null; then
    failed+=("$preset:configure"); continue
  fi
  if ((${#targets[@]} == 1)) && [[ "${targets[0]}" == - ]]; then
    passed=$((passed + 1))
    echo "=== [$preset] configured (not built) ($((SECONDS - t0)) s)"
    continue
  fi
  if ((${#targets[@]} == 1)) && [[ "${targets[0]}" == fuzzers ]]; then
    # every fuzz target (fuzz_seedgen writes seeds; it is no fuzzer)
    mapfile -t targets < <(cmake --build "build/$preset" --target help | sed -n 's/^\(fuzz_[a-z_]*\): .*/\1/p' |
      grep -vx fuzz_seedgen)
  fi
  echo "=== [$preset] build ${targets[*]:-(all)}"
  args=(--build "build/$preset" -j"$jobs")
  ((${#targets[@]} > 0)) && args+=(--target "${targets[@]}")
  if cmake "${args[@]}"; then
    passed=$((passed + 1))
    echo "=== [$preset] OK ($((SECONDS - t0)) s)"
  else
    failed+=("$preset:build")
  fi
done

echo
if ((${#failed[@]} > 0)); then
  echo "check-presets.sh: failed: ${failed[*]}"
fi
echo "presets: $passed passed, ${#failed[@]} failed"
((${#failed[@]} == 0))
