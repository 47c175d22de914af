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
#
# While one preset's tests run, the next preset is built beside them at a lower priority
# (nice 10): the tests come first, and the cores they leave idle (a test waiting on one
# compiler, the last long test alone) build the next preset. Its build log is printed
# when its turn comes. NDSHARD_TEST_OVERLAP=0 builds and tests strictly one after another.
#   NDSHARD_TEST_PRESETS  presets when none are given (space or comma separated)
#   NDSHARD_JOBS          parallelism for build and ctest (default 2)
#   NDSHARD_TEST_OVERLAP  1 (default): build the next preset while the tests run; 0: do not
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
overlap=${NDSHARD_TEST_OVERLAP:-1}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "test.sh: NDSHARD_JOBS must be a positive count, not '$jobs'" >&2; exit 2; }
[[ "$overlap" == 0 || "$overlap" == 1 ]] || { echo "test.sh: NDSHARD_TEST_OVERLAP must be 0 or 1, not '$overlap'" >&2; exit 2; }

bash "$root/scripts/install-deps.sh" || { echo "test.sh: installing dependencies failed" >&2; echo "0 passed, 0 failed (install-deps failed)"; exit 1; }

total_passed=0
total_failed=0
failed_steps=()
list=()
for preset in "${presets[@]}"; do [[ -n "$preset" ]] && list+=("$preset"); done

# configure + build of one preset; its exit status says which step failed (1 configure, 2 build).
build_preset() {
  local preset=$1
  echo "=== [$preset] configure"
  cmake --preset "$preset" || return 1
  echo "=== [$preset] build"
  cmake --build --preset "$preset" -j"$jobs" || return 2
}

# Records a build_preset status for `preset`; true when the preset built.
built_ok() {
  case $2 in
    0) return 0 ;;
    1) failed_steps+=("$1:configure") ;;
    *) failed_steps+=("$1:build") ;;
  esac
  return 1
}

bg_pid="" bg_log="" bg_t0=0
for ((i = 0; i < ${#list[@]}; ++i)); do
  preset=${list[i]}
  t0=$SECONDS
  if [[ -n "$bg_pid" ]]; then
    # Built beside the previous preset's tests: wait for it, then show its log.
    wait "$bg_pid"
    rc=$?
    echo "=== [$preset] built beside the tests of ${list[i - 1]} (log follows; $((SECONDS - bg_t0)) s in all)"
    cat "$bg_log"
    rm -f "$bg_log"
    bg_pid=""
    t0=$bg_t0
  else
    build_preset "$preset"
    rc=$?
  fi
  next=$((i + 1))
  if ((rc != 0)); then
    built_ok "$preset" "$rc"
    continue
  fi
  echo "=== [$preset] built ($((SECONDS - t0)) s)"
  if ((overlap == 1 && next < ${#list[@]})); then
    bg_log=$(mktemp)
    bg_t0=$SECONDS
    (nice -n 10 bash -c "$(declare -f build_preset); jobs=$jobs; build_preset '${list[next]}'") >"$bg_log" 2>&1 &
    bg_pid=$!
  fi
  echo "=== [$preset] test"
  t1=$SECONDS
  log=$(mktemp)
  # Every configure preset builds in build/<preset> (CMakePresets.json: binaryDir).
  ctest --preset "$preset" -j"$jobs" --output-on-failure --output-junit "$root/build/$preset/ctest-junit.xml" 2>&1 \
    | tee "$log"
  rc=${PIPESTATUS[0]}
  echo "=== [$preset] tests took $((SECONDS - t1)) s"
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
