#!/usr/bin/env bash
# Usage: scripts/test.sh [preset...]
#
# For each preset (default: $NDSHARD_TEST_PRESETS, else "default asan"): configure, build
# (-j2) and run `ctest --preset <p> -j2 --output-on-failure`. Installs missing dependencies
# first (scripts/install-deps.sh). Keeps going after a failure so every preset reports;
# exits non-zero if any step failed. The last line is "N passed, N failed" (ctest tests
# summed over all presets), with the failed configure/build/test steps appended when any.
# Each preset's results are also written as JUnit XML to build/<preset>/ctest-junit.xml
# (ctest --output-junit), for a CI system to read.
#   NDSHARD_TEST_PRESETS  presets when none are given (space or comma separated)
#   NDSHARD_JOBS          parallelism for build and ctest (default 2)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # $root (the working directory), usage
help_exit "$@"

if (($# > 0)); then
  presets=("$@")
else
  # space and/or comma separated
  IFS=$', \t' read -r -a presets <<<"${NDSHARD_TEST_PRESETS:-default asan}"
fi
jobs=${NDSHARD_JOBS:-2}

bash "$root/scripts/install-deps.sh" || { echo "test.sh: installing dependencies failed" >&2; echo "0 passed, 0 failed (install-deps failed)"; exit 1; }

total_passed=0
total_failed=0
failed_steps=()

for preset in "${presets[@]}"; do
  [[ -n "$preset" ]] || continue
  echo "=== [$preset] configure"
  if ! cmake --preset "$preset"; then
    failed_steps+=("$preset:configure"); continue
  fi
  echo "=== [$preset] build"
  if ! cmake --build --preset "$preset" -j"$jobs"; then
    failed_steps+=("$preset:build"); continue
  fi
  echo "=== [$preset] test"
  log=$(mktemp)
  # Every configure preset builds in build/<preset> (CMakePresets.json: binaryDir).
  ctest --preset "$preset" -j"$jobs" --output-on-failure --output-junit "$root/build/$preset/ctest-junit.xml" 2>&1 \
    | tee "$log"
  rc=${PIPESTATUS[0]}
  # ctest summary: "NN% tests passed, F tests failed out of T"
  summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n1)
  rm -f "$log"
  if [[ -n "$summary" ]]; then
    failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$summary")
    total=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$summary")
    total_passed=$((total_passed + total - failed))
    total_failed=$((total_failed + failed))
  fi
  if ((rc != 0)) || [[ -z "$summary" ]]; then
    failed_steps+=("$preset:test")
  fi
done

echo
if ((${#failed_steps[@]} > 0)); then
  echo "test.sh: failed steps: ${failed_steps[*]}"
  echo "$total_passed passed, $total_failed failed (failed steps: ${failed_steps[*]})"
  exit 1
fi
echo "$total_passed passed, $total_failed failed"
((total_failed == 0))
