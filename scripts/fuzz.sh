#!/usr/bin/env bash
# Usage: scripts/fuzz.sh [target...] [options]
#
# Builds the libFuzzer targets (if needed), fuzzes each one for its budget on every core
# (libFuzzer -fork), merges the inputs that reach new edges into corpus/<target>/
# (-merge=1 -use_counters=0: the committed corpus stays small), keeps every crash as a
# minimised reproducer, and prints per target: executions, exec/s, corpus files
# before/after, coverage (edges, features) and crashes.
#
# Targets: fuzz_spec fuzz_accessor_args fuzz_cli_spec fuzz_kernel (default: all that the
# build has; the fuzz_ prefix may be left out).
# Options (environment fallback in brackets):
#   --time S         seconds per target                              [FUZZ_TIME, 60]
#   --total-time S   seconds for all targets together, split evenly (overrides --time)
#   --preset P       fuzz (ASan+UBSan, default) or fuzz-fast (no sanitizers, -O2)
#   --jobs N         parallel fuzzing processes                      [NDSHARD_JOBS, nproc]
#   --no-merge       leave corpus/ untouched (CI smoke runs)
#   --minimize       after merging, shrink corpus/<target>/ to a minimal set reaching the
#                    same edges (seed-* files and regressions/ are always kept); with
#                    --time 0 only this is done
#   --no-build       use the fuzzers already built
#   --add-regression TARGET FILE
#                    copy FILE (e.g. a crash a ClusterFuzzLite run brought back) into
#                    corpus/TARGET/regressions/ under its own name, then exit; ctest
#                    replays it from then on. Nothing is built or fuzzed.
# Crash reproducers go to build/fuzz-findings/<target>/ (minimised, one per distinct
# message); replay one with: build/<preset>/bin/<target> <file>
# (NDSHARD_FUZZ_VERBOSE=1 also prints what the input decodes to). A fixed defect's
# reproducer belongs in corpus/<target>/regressions/, where ctest replays it forever.
# If $NDSHARD_FUZZ_SUMMARY_FILE is set, the summary table is also written there.
# Exit status: 0 when no target crashed, 1 when one did, 2 for a usage or build error.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# Stack use after return (a destroyed temporary's frame read later) is reported only with
# this on; use after scope is on by default. The caller's own options come last and win.
export ASAN_OPTIONS="detect_stack_use_after_return=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

time_per_target=${FUZZ_TIME:-60}
total_time=""
preset=fuzz
jobs=${NDSHARD_JOBS:-$(nproc 2>/dev/null || echo 2)}
merge=1
minimize=0
build=1
targets=()

usage() { sed -n '2,29p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
need_value() { [[ $# -ge 2 && -n "$2" ]] || { echo "fuzz.sh: $1 needs a value" >&2; exit 2; }; }

while (($# > 0)); do
  case "$1" in
    --time) need_value "$@"; time_per_target=$2; shift 2 ;;
    --total-time) need_value "$@"; total_time=$2; shift 2 ;;
    --preset) need_value "$@"; preset=$2; shift 2 ;;
    --jobs) need_value "$@"; jobs=$2; shift 2 ;;
    --no-merge) merge=0; shift ;;
    --minimize) minimize=1; shift ;;
    --no-build) build=0; shift ;;
    --add-regression)
      (($# >= 3)) || { echo "fuzz.sh: --add-regression needs a target and a file" >&2; exit 2; }
      add_target=$2; add_file=$3; shift 3 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "fuzz.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    *) t=$1; [[ $t == fuzz_* ]] || t=fuzz_$t; targets+=("$t"); shift ;;
  esac
done
for v in time_per_target jobs; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: ${v//_/-} must be a non-negative integer" >&2; exit 2; }
done
[[ -z "$total_time" || "$total_time" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --total-time must be an integer" >&2; exit 2; }
((jobs >= 1)) || jobs=1
case "$preset" in fuzz|fuzz-fast) ;; *) echo "fuzz.sh: --preset must be fuzz or fuzz-fast" >&2; exit 2 ;; esac

build_dir="$root/build/$preset"
all_targets=()
# Targets live in fuzz/ (the library's) and tools/fuzz/ (the command line's).
for src in "$root"/fuzz/fuzz_*.cpp "$root"/tools/fuzz/fuzz_*.cpp; do
  name=$(basename "$src" .cpp)
  all_targets+=("$name")
done

# --add-regression: one file into corpus/<target>/regressions/, checked, then done.
if [[ -n "${add_target:-}" ]]; then
  t=$add_target
  [[ $t == fuzz_* ]] || t=fuzz_$t
  known=0
  for name in "${all_targets[@]}"; do [[ $name == "$t" ]] && known=1; done
  # (not `printf | grep -q`: under pipefail, grep's early exit can SIGPIPE printf and fail the pipe)
  ((known)) || { echo "fuzz.sh: --add-regression: unknown target '$add_target' (known: ${all_targets[*]})" >&2; exit 2; }
  [[ -f "$add_file" ]] || { echo "fuzz.sh: --add-regression: '$add_file' is not a readable file" >&2; exit 2; }
  [[ -s "$add_file" ]] || { echo "fuzz.sh: --add-regression: '$add_file' is empty (the empty input is always replayed)" >&2; exit 2; }
  dest="$root/corpus/$t/regressions/$(basename -- "$add_file")"
  if [[ -e "$dest" ]]; then
    cmp -s -- "$add_file" "$dest" \
      || { echo "fuzz.sh: --add-regression: $dest exists with other content (rename the file)" >&2; exit 2; }
    echo "fuzz.sh: $dest is already there"
    exit 0
  fi
  mkdir -p "$root/corpus/$t/regressions"
  cp -- "$add_file" "$dest"
  echo "fuzz.sh: added $dest"
  echo "  replay: build/fuzz/bin/$t $dest  (NDSHARD_FUZZ_VERBOSE=1 prints what it decodes to)"
  echo "  ctest replays it in every build (test fuzz.${t#fuzz_}.corpus); commit it with its fix."
  exit 0
fi

explicit=$((${#targets[@]} > 0))
((explicit)) || targets=("${all_targets[@]}")

if ((build)); then
  # Configure every time (cheap when nothing changed): picks up new targets and sources.
  echo "=== fuzz: configure preset '$preset'"
  mkdir -p "$root/build"
  # NDSHARD_WERROR (ON/OFF) overrides the preset: verify.sh turns it off for users.
  cmake --preset "$preset" ${NDSHARD_WERROR:+"-DNDSHARD_WERROR=$NDSHARD_WERROR"} >"$root/build/fuzz-configure-$preset.log" 2>&1 \
    || { tail -n 30 "$root/build/fuzz-configure-$preset.log" >&2; echo "fuzz.sh: configure failed" >&2; exit 2; }
  # Only the targets this build defines (fuzz_cli_spec needs tools/, fuzz_kernel lib/sim).
  known=$(cmake --build "$build_dir" --target help 2>/dev/null | sed -n 's/^\(fuzz_[a-z_]*\): .*/\1/p')
  wanted=()
  for t in "${targets[@]}"; do
    if grep -qx "$t" <<<"$known"; then wanted+=("$t")
    elif ((explicit)); then echo "fuzz.sh: no target $t in $build_dir" >&2; exit 2
    else echo "fuzz.sh: $t is not part of this build; skipped"; fi
  done
  targets=("${wanted[@]}")
  ((${#targets[@]} > 0)) || { echo "fuzz.sh: no fuzz targets to run" >&2; exit 2; }
  echo "=== fuzz: build ${targets[*]} ($preset)"
  cmake --build "$build_dir" --target "${targets[@]}" -j"$jobs" >"$build_dir/fuzz-build.log" 2>&1 \
    || { tail -n 40 "$build_dir/fuzz-build.log" >&2; echo "fuzz.sh: build failed" >&2; exit 2; }
fi

if [[ -n "$total_time" ]]; then
  time_per_target=$((total_time / ${#targets[@]}))
  ((time_per_target >= 5)) || time_per_target=5
fi

count_files() { [[ -d "$1" ]] && find "$1" -type f | wc -l || echo 0; }
# What went wrong, in one line: the finding's check and its detail (ndshard findings), or
# the sanitizer's / libFuzzer's error line.
describe_crash() {
  local text
  text=$(grep -m1 -A2 '=== ndshard fuzz finding ===' "$1" | tail -n 2 | sed 's/^ *//' | paste -sd ' ' -)
  [[ -n "$text" ]] || text=$(grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$1")
  sed -E 's/==[0-9]+==//g' <<<"$text" | cut -c1-300
}
# Crashes with the same description up to numbers count as one.
signature() { describe_crash "$1" | sed -E 's/0x[0-9a-f]+/0x/g; s/[0-9]+/N/g'; }

rows=()
crashed=0
findings_root="$root/build/fuzz-findings"
for t in "${targets[@]}"; do
  bin="$build_dir/bin/$t"
  [[ -x "$bin" ]] || { echo "fuzz.sh: $bin is missing (build it, or drop --no-build)" >&2; exit 2; }
  corpus="$root/corpus/$t"
  mkdir -p "$corpus/regressions"
  work="$build_dir/fuzz-work/$t"
  rm -rf "$work"
  mkdir -p "$work/new" "$work/artifacts"
  dict=()
  for d in "$root/fuzz/$t.dict" "$root/tools/fuzz/$t.dict"; do [[ -f "$d" ]] && dict=(-dict="$d"); done
  before=$(count_files "$corpus")
  log="$work/fuzz.log"
  started=$(date +%s)
  status=0
  : >"$log"
  if ((time_per_target > 0)); then
    echo "=== fuzz: $t for ${time_per_target}s on $jobs jobs ($preset)"
    # Fork mode: jobs processes at a time, new inputs collected in $work/new, crashes kept
    # in $work/artifacts and fuzzing goes on after them.
    "$bin" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$time_per_target" \
      -timeout=20 -rss_limit_mb=2560 -max_len=4096 -len_control=0 -artifact_prefix="$work/artifacts/" "${dict[@]}" \
      "$work/new" "$corpus" >"$log" 2>&1
    status=$?
  fi
  elapsed=$(($(date +%s) - started))
  last=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -n 1)
  execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
  cov=$(sed -E 's/.* cov: ([0-9]+) .*/\1/' <<<"$last")
  ft=$(sed -E 's/.* ft: ([0-9]+) .*/\1/' <<<"$last")
  [[ -n "$last" ]] || { execs=0; cov=?; ft=?; }
  rate=$((elapsed > 0 ? execs / elapsed : execs))
  if ((status != 0)) && [[ -z $(ls -A "$work/artifacts") ]]; then
    echo "fuzz.sh: $t exited with status $status without a reproducer; see $log" >&2
    tail -n 20 "$log" >&2
    crashed=1
  fi

  # Merge: only inputs that reach new edges go into the committed corpus.
  added=0
  if ((merge)) && [[ -n "$(ls -A "$work/new")" ]]; then
    "$bin" -merge=1 -use_counters=0 -timeout=20 -rss_limit_mb=2560 "$corpus" "$work/new" >"$work/merge.log" 2>&1 \
      || echo "fuzz.sh: merge for $t failed; see $work/merge.log" >&2
    added=$(sed -nE 's/.*MERGE-OUTER: ([0-9]+) new files.*/\1/p' "$work/merge.log" | tail -n 1)
    added=${added:-0}
  fi
  if ((minimize)); then
    # The smallest inputs that keep every feature; then drop the other found inputs.
    mkdir -p "$work/minimal"
    "$bin" -merge=1 -use_counters=0 -timeout=20 -rss_limit_mb=2560 "$work/minimal" "$corpus" >"$work/minimize.log" 2>&1 \
      || echo "fuzz.sh: minimising $t failed; see $work/minimize.log" >&2
    if [[ -n "$(ls -A "$work/minimal")" ]]; then
      keep=$(cd "$work/minimal" && sha1sum -- * | cut -d' ' -f1 | sort -u)
      for f in "$corpus"/*; do
        [[ -f "$f" && "$(basename "$f")" != seed-* ]] || continue
        grep -qx "$(sha1sum "$f" | cut -d' ' -f1)" <<<"$keep" || rm -f "$f"
      done
    fi
  fi
  after=$(count_files "$corpus")

  # Crashes: one reproducer per distinct message, minimised.
  crashes=0
  declare -A seen=()
  for a in "$work"/artifacts/*; do
    [[ -f "$a" ]] || continue
    crashes=$((crashes + 1))
    kind=$(basename "$a" | cut -d- -f1)
    "$bin" -timeout=20 -rss_limit_mb=2560 "$a" >"$a.replay" 2>&1
    sig=$(signature "$a.replay")
    [[ -n "$sig" ]] || sig="$kind"
    [[ -n "${seen[$sig]:-}" ]] && continue
    seen[$sig]=1
    min="$work/min-$(basename "$a")"
    if [[ $kind == crash ]]; then
      "$bin" -minimize_crash=1 -max_total_time=15 -timeout=20 -exact_artifact_path="$min" "$a" >"$min.log" 2>&1
    fi
    [[ -s "$min" ]] || cp "$a" "$min"
    mkdir -p "$findings_root/$t"
    keep="$findings_root/$t/$kind-$(sha1sum "$min" | cut -c1-12)"
    cp "$min" "$keep"
    echo "  $t: $kind reproducer $keep"
    echo "      $(describe_crash "$a.replay")"
  done
  distinct=${#seen[@]}
  unset seen
  ((crashes > 0)) && crashed=1
  rows+=("$(printf '%-20s %12s %9s %7s %7s %7s %9s %10s %9s' "$t" "$execs" "$rate" "$before" "$after" \
    "$cov" "$ft" "$crashes" "$distinct")")
  echo "  $t: $execs executions in ${elapsed}s ($rate/s), corpus $before -> $after (+$added merged), cov $cov ft $ft, crashes $crashes"
done

summary=$(
  echo "fuzzing ($preset, ${time_per_target}s per target, $jobs jobs):"
  printf '%-20s %12s %9s %7s %7s %7s %9s %10s %9s\n' target executions exec/s before after cov features crashes distinct
  for r in "${rows[@]}"; do echo "$r"; done
  if ((crashed)); then echo "fuzzing: CRASHES (reproducers in $findings_root)"; else echo "fuzzing: no crashes"; fi
)
echo
echo "$summary"
[[ -n "${NDSHARD_FUZZ_SUMMARY_FILE:-}" ]] && echo "$summary" >"$NDSHARD_FUZZ_SUMMARY_FILE"
exit $((crashed ? 1 : 0))
