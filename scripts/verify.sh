#!/usr/bin/env bash
# Usage: scripts/verify.sh [options]
#
# The main verification job: installs missing dependencies, configures a preset (release by
# default) and builds its target `properties`, runs every property executable (ctest label
# `property`) directly with RapidCheck max_success raised, then the fuzzing phase (when
# scripts/fuzz.sh exists),
# and prints a summary table: property, cases run, PASS/FAIL/TIMEOUT, seed, wall seconds.
#
# Options (environment fallback in brackets):
#   --cases N        RapidCheck max_success per property          [NDSHARD_VERIFY_CASES, 20000]
#   --time S         overall time budget for the properties, shared among the executables;
#                    a property cut off is reported as TIMEOUT     [NDSHARD_VERIFY_TIME, none]
#   --seed S         RapidCheck seed (default: random, printed)   [NDSHARD_VERIFY_SEED]
#   --jobs J         property executables run in parallel          [NDSHARD_JOBS, 2]
#   --filter REGEX   only ctest tests property.<n> matching REGEX
#   --preset P       configure/build preset                        [release]
#   --no-build       skip install-deps, configure and build
#   --fuzz-time S    time for the fuzzing phase                    [FUZZ_TIME, 180]
#   --no-fuzz        skip the fuzzing phase
#   --werror         warnings in ndshard's own code fail the build (CI); by default they
#                    are shown and the job goes on                [NDSHARD_WERROR, OFF]
#   --junit FILE     also write the summary as JUnit XML: a testsuite per phase, a testcase
#                    per property (cases run as `assertions`) and per fuzz target
#   --json FILE      also write it as JSON: per property result, cases, seed, wall s; per
#                    fuzz target executions, exec/s, corpus, coverage, crashes
#                    (both by scripts/verify_report.py from the phases' summary tables; a
#                    phase that failed, the build included, is a failure in both)
# An exported RC_PARAMS is passed on, except max_success/seed/verbose_progress/reproduce.
# Exit status: non-zero if any property fails (or crashes), the fuzzing phase fails, or no
# property was found. TIMEOUT alone does not fail the job, but is reported.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"  # $root (the working directory), $here, usage

cases=${NDSHARD_VERIFY_CASES:-20000}
time_budget=${NDSHARD_VERIFY_TIME:-}
seed=${NDSHARD_VERIFY_SEED:-}
jobs=${NDSHARD_JOBS:-2}
filter=""
preset=release
build=1
fuzz=1
fuzz_time=${FUZZ_TIME:-180}
werror=${NDSHARD_WERROR:-OFF}
junit=""
json=""

need_value() { [[ $# -ge 2 && -n "$2" ]] || { echo "verify.sh: $1 needs a value" >&2; exit 2; }; }
# A report FILE: not a flag (`--junit --json x` would write to "--json"), in a directory that
# exists, relative to where verify.sh was started. Prints the absolute path.
report_path() {
  [[ $# -ge 2 && -n "$2" && "$2" != -* ]] || { echo "verify.sh: $1 needs a FILE argument" >&2; exit 2; }
  local f=$2
  [[ $f == /* ]] || f="$here/$f"
  [[ -d "$(dirname "$f")" ]] || { echo "verify.sh: $1 $2: directory $(dirname "$f") does not exist" >&2; exit 2; }
  echo "$f"
}

while (($# > 0)); do
  case "$1" in
    --cases) need_value "$@"; cases=$2; shift 2 ;;
    --time) need_value "$@"; time_budget=$2; shift 2 ;;
    --seed) need_value "$@"; seed=$2; shift 2 ;;
    --jobs) need_value "$@"; jobs=$2; shift 2 ;;
    --filter) need_value "$@"; filter=$2; shift 2 ;;
    --preset) need_value "$@"; preset=$2; shift 2 ;;
    --fuzz-time) need_value "$@"; fuzz_time=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --no-fuzz) fuzz=0; shift ;;
    --werror) werror=ON; shift ;;
    --junit) junit=$(report_path "$@") || exit 2; shift 2 ;;
    --json) json=$(report_path "$@") || exit 2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "verify.sh: unknown argument '$1' (scripts/verify.sh --help lists the options)" >&2; exit 2 ;;
  esac
done

for v in cases jobs fuzz_time; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || { echo "verify.sh: --${v/_/-} must be a non-negative integer" >&2; exit 2; }
done
[[ -z "$time_budget" || "$time_budget" =~ ^[0-9]+$ ]] || { echo "verify.sh: --time must be an integer (seconds)" >&2; exit 2; }
[[ -z "$seed" || "$seed" =~ ^[0-9]+$ ]] || { echo "verify.sh: --seed must be an integer" >&2; exit 2; }

[[ "$werror" == ON || "$werror" == OFF ]] || { echo "verify.sh: NDSHARD_WERROR must be ON or OFF, not '$werror'" >&2; exit 2; }
# fuzz.sh configures the fuzz preset with the same choice.
export NDSHARD_WERROR=$werror

started=$SECONDS

# The plan, with estimates for a 2-core machine (measured on one, CI's fresh clone: the
# release preset's properties build in about 8 minutes and the fuzz preset's six fuzzers in about 5;
# properties run about 1.5 s per 1,000 cases summed over every property executable, on 2
# jobs, plus a minute for the exhaustive 2^32 divider sweep whatever the case count).
plan() {
  local build_s=0 fuzz_build_s=0 prop_s fuzz_s=0
  if ((build)); then
    if [[ -f "$root/build/$preset/build.ninja" ]]; then build_s=60; else build_s=540; fi
  fi
  prop_s=$(( (cases * 3 / 2 + 999) / 1000 + 70 ))
  [[ -n "$time_budget" ]] && ((prop_s > time_budget)) && prop_s=$time_budget
  if ((fuzz)); then
    if [[ -f "$root/build/fuzz/build.ninja" ]]; then fuzz_build_s=30; else fuzz_build_s=300; fi
    fuzz_s=$fuzz_time
  fi
  echo "=== verify: plan (estimates for 2 cores; werror $werror)"
  ((build)) && printf '  1. build preset %-10s ~%d min\n' "$preset" $(( (build_s + 59) / 60 ))
  printf '  2. properties, %d cases each  ~%d min\n' "$cases" $(( (prop_s + 59) / 60 ))
  ((fuzz)) && printf '  3. fuzzing %d s (+ build)    ~%d min\n' "$fuzz_time" $(( (fuzz_s + fuzz_build_s + 59) / 60 ))
  printf '  total                        ~%d min\n' $(( (build_s + prop_s + fuzz_s + fuzz_build_s + 59) / 60 ))
}
plan

# --junit/--json: the phases' summaries as reports (scripts/verify_report.py).
# Arguments: the properties' summary file and exit status, the fuzzing phase's summary file
# and exit status, and "skipped" when the fuzzing phase did not run.
write_reports() {
  [[ -n "$junit$json" ]] || return 0
  local args=(--properties "$1" --properties-status "$2" --fuzz "$3" --fuzz-status "$4"
              --elapsed $((SECONDS - started)))
  [[ "${5:-}" == skipped ]] && args+=(--fuzz-skipped)
  [[ -n "$junit" ]] && args+=(--junit "$junit")
  [[ -n "$json" ]] && args+=(--json "$json")
  python3 "$root/scripts/verify_report.py" "${args[@]}" || { echo "verify.sh: writing the reports failed" >&2; return 1; }
  [[ -n "$junit" ]] && echo "verify: JUnit XML in $junit"
  [[ -n "$json" ]] && echo "verify: JSON in $json"
  return 0
}
# Before the properties run: stop, with the reason as the properties' failure in the reports.
stop_before_properties() {
  echo "verify.sh: $1" >&2
  local note
  note=$(mktemp)
  echo "verify.sh: $1 (properties not run)" >"$note"
  echo "fuzzing: not run ($1)" >"$note.fuzz"
  write_reports "$note" 1 "$note.fuzz" 0 skipped
  rm -f "$note" "$note.fuzz"
  exit 1
}

if ((build)); then
  bash "$root/scripts/install-deps.sh" || stop_before_properties "installing dependencies failed"
  echo "=== verify: configure + build preset '$preset'"
  cmake --preset "$preset" -DNDSHARD_WERROR="$werror" || stop_before_properties "configure failed"
  # Only what this job runs: the property executables (props/CMakeLists.txt's `properties`).
  cmake --build --preset "$preset" -j"$jobs" --target properties || stop_before_properties "build failed"
fi

# Every configure preset in CMakePresets.json uses binaryDir ${sourceDir}/build/${presetName}.
build_dir="$root/build/$preset"
[[ -d "$build_dir" ]] || stop_before_properties "build directory $build_dir does not exist"

# ---------------------------------------------------------------------------
# Phase 1: properties
# ---------------------------------------------------------------------------
echo "=== verify: properties"
prop_summary="$build_dir/verify-properties.txt"
rm -f "$prop_summary"
prop_args=(--build-dir "$build_dir" --cases "$cases" --jobs "$jobs" --summary-file "$prop_summary")
[[ -n "$time_budget" ]] && prop_args+=(--time "$time_budget")
[[ -n "$seed" ]] && prop_args+=(--seed "$seed")
[[ -n "$filter" ]] && prop_args+=(--filter "$filter")
python3 "$root/scripts/run_properties.py" "${prop_args[@]}"
prop_rc=$?

# ---------------------------------------------------------------------------
# Phase 2: fuzzing.
# fuzz_phase is a no-op unless scripts/fuzz.sh exists; then it runs
#   scripts/fuzz.sh --total-time <FUZZ_TIME, default 180> --no-merge
# i.e. every fuzz target of the `fuzz` preset (ASan+UBSan, built by fuzz.sh when needed)
# for an equal share of the budget on all cores. --no-merge: verification leaves corpus/
# as it is (run scripts/fuzz.sh itself to grow it). scripts/fuzz.sh exits non-zero on a
# crash or error and writes its summary table to $NDSHARD_FUZZ_SUMMARY_FILE, shown in the
# final report (else the last 20 lines of its output are).
# ---------------------------------------------------------------------------
fuzz_rc=0
fuzz_summary=""
fuzz_skipped=""
# fuzz.sh's table, or the reason there is none (what the reports read).
summary_file="$build_dir/verify-fuzz-summary.txt"
rm -f "$summary_file"
fuzz_phase() {
  if ((fuzz == 0)); then
    fuzz_summary="fuzzing: skipped (--no-fuzz)"
  elif [[ ! -f "$root/scripts/fuzz.sh" ]]; then
    fuzz_summary="fuzzing: skipped (scripts/fuzz.sh not present)"
  fi
  if [[ -n "$fuzz_summary" ]]; then
    fuzz_skipped=skipped
    echo "$fuzz_summary" >"$summary_file"
    return 0
  fi
  echo "=== verify: fuzzing (${fuzz_time} s)"
  local log="$build_dir/verify-fuzz.log"
  NDSHARD_FUZZ_SUMMARY_FILE="$summary_file" bash "$root/scripts/fuzz.sh" --total-time "$fuzz_time" --no-merge 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  if [[ -s "$summary_file" ]]; then
    fuzz_summary=$(cat "$summary_file")
  else
    fuzz_summary=$(tail -n 20 "$log")
    echo "fuzzing: scripts/fuzz.sh wrote no summary, exit status $rc (log: $log)" >"$summary_file"
  fi
  fuzz_summary+=$'\n'"fuzzing: exit status $rc (log: $log)"
  return "$rc"
}
fuzz_phase
fuzz_rc=$?

# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------
echo
echo "================================ verify summary ================================"
if [[ -s "$prop_summary" ]]; then
  cat "$prop_summary"
else
  echo "properties: no summary (run_properties.py exit status $prop_rc)"
fi
echo
echo "$fuzz_summary"
echo
write_reports "$prop_summary" "$prop_rc" "$summary_file" "$fuzz_rc" "$fuzz_skipped"
elapsed=$((SECONDS - started))
if ((prop_rc == 0 && fuzz_rc == 0)); then
  echo "verify: OK (${elapsed} s)"
  exit 0
fi
reasons=()
((prop_rc != 0)) && reasons+=("properties (status $prop_rc)")
((fuzz_rc != 0)) && reasons+=("fuzzing (status $fuzz_rc)")
echo "verify: FAILED: ${reasons[*]} (${elapsed} s)"
exit 1
