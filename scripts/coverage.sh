#!/usr/bin/env bash
# Usage: scripts/coverage.sh [options]
#
# Line and branch coverage of lib/ (core headers, oracle, testkit, simulator) from the
# property suite plus the replay of every fuzz corpus, with clang source-based coverage:
# configures and builds preset `coverage` (clang, -fprofile-instr-generate
# -fcoverage-mapping; the fuzz targets get the plain replay main there), runs the ctest
# labels `property` and `corpus`, merges the profiles (llvm-profdata) and prints a table
# per file and per part of lib/ (llvm-cov export).
#
# Options:
#   --cases N     RapidCheck max_success per property   [NDSHARD_COVERAGE_CASES, 200]
#   --jobs J      build and ctest parallelism            [NDSHARD_JOBS, 2]
#   --no-build    use the build/coverage tree as it is
#   --no-run      only report on the profiles already in build/coverage/profraw
# Also writes build/coverage/coverage-summary.txt and an HTML report in build/coverage/html.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
cases=${NDSHARD_COVERAGE_CASES:-200}
jobs=${NDSHARD_JOBS:-2}
build=1
run=1
while (($# > 0)); do
  case "$1" in
    --cases) cases=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --no-run) run=0; shift ;;
    -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "coverage.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

build_dir="$root/build/coverage"
profdata=$(command -v llvm-profdata-14 || command -v llvm-profdata) || { echo "coverage.sh: llvm-profdata not found" >&2; exit 2; }
llvm_cov=$(command -v llvm-cov-14 || command -v llvm-cov) || { echo "coverage.sh: llvm-cov not found" >&2; exit 2; }

if ((build)); then
  echo "=== coverage: configure + build"
  cmake --preset coverage >/dev/null || { echo "coverage.sh: configure failed" >&2; exit 2; }
  # Only what the two labels run: property executables and fuzz targets.
  wanted=$(cmake --build "$build_dir" --target help | sed -nE 's/^((property|fuzz)_[A-Za-z0-9_]+): .*/\1/p' | sort -u)
  # shellcheck disable=SC2086
  cmake --build "$build_dir" -j"$jobs" --target $wanted >"$build_dir/coverage-build.log" 2>&1 \
    || { tail -n 40 "$build_dir/coverage-build.log" >&2; echo "coverage.sh: build failed" >&2; exit 2; }
fi

if ((run)); then
  echo "=== coverage: properties (max_success=$cases) + corpus replay"
  rm -rf "$build_dir/profraw"
  RC_PARAMS="max_success=$cases" ctest --test-dir "$build_dir" -L 'property|corpus' -j"$jobs" --output-on-failure \
    >"$build_dir/coverage-ctest.log" 2>&1
  grep -E 'tests passed|tests failed' "$build_dir/coverage-ctest.log" | tail -n 1
fi

shopt -s nullglob
raw=("$build_dir"/profraw/*.profraw)
((${#raw[@]} > 0)) || { echo "coverage.sh: no profiles in $build_dir/profraw" >&2; exit 2; }
"$profdata" merge -sparse "${raw[@]}" -o "$build_dir/coverage.profdata" || exit 2

objects=()
for exe in "$build_dir"/bin/property_* "$build_dir"/bin/fuzz_*; do
  [[ -x "$exe" && "$(basename "$exe")" != fuzz_seedgen ]] && objects+=(-object "$exe")
done
((${#objects[@]} > 0)) || { echo "coverage.sh: no instrumented executables" >&2; exit 2; }
sources=("$root/lib/include" "$root/lib/oracle" "$root/lib/testkit" "$root/lib/sim")

"$llvm_cov" export -summary-only -instr-profile "$build_dir/coverage.profdata" "${objects[@]:1}" "${sources[@]}" \
  >"$build_dir/coverage.json" || exit 2
"$llvm_cov" show -format=html -output-dir="$build_dir/html" -instr-profile "$build_dir/coverage.profdata" \
  "${objects[@]:1}" "${sources[@]}" >/dev/null 2>&1 || true

python3 - "$build_dir/coverage.json" "$root" >"$build_dir/coverage-summary.txt" <<'EOF'
import json, os, sys
data = json.load(open(sys.argv[1]))
root = sys.argv[2].rstrip('/') + '/'
files = data['data'][0]['files']
parts = [('core headers', 'lib/include/'), ('oracle', 'lib/oracle/'), ('testkit', 'lib/testkit/'), ('sim', 'lib/sim/')]
def pct(c, n): return 100.0 * c / n if n else 100.0
rows, totals = [], {p: [0, 0, 0, 0] for p, _ in parts}
for f in files:
    name = f['filename'][len(root):] if f['filename'].startswith(root) else f['filename']
    if '/test/' in name: continue
    s = f['summary']
    l, b = s['lines'], s['branches']
    rows.append((name, l['covered'], l['count'], b['covered'], b['count']))
    for p, prefix in parts:
        if name.startswith(prefix):
            t = totals[p]; t[0] += l['covered']; t[1] += l['count']; t[2] += b['covered']; t[3] += b['count']
fmt = '%-52s %7s %7s %7s   %7s %7s %7s'
print(fmt % ('file', 'lines', 'covered', 'line%', 'branch', 'covered', 'br%'))
for name, lc, ln, bc, bn in sorted(rows):
    print(fmt % (name, ln, lc, '%.1f' % pct(lc, ln), bn, bc, '%.1f' % pct(bc, bn)))
print()
all_ = [0, 0, 0, 0]
for p, _ in parts:
    t = totals[p]
    if t[1] == 0: continue
    print(fmt % ('TOTAL ' + p, t[1], t[0], '%.1f' % pct(t[0], t[1]), t[3], t[2], '%.1f' % pct(t[2], t[3])))
    all_ = [a + x for a, x in zip(all_, t)]
print(fmt % ('TOTAL lib/', all_[1], all_[0], '%.1f' % pct(all_[0], all_[1]), all_[3], all_[2], '%.1f' % pct(all_[2], all_[3])))
EOF
cat "$build_dir/coverage-summary.txt"
echo "(HTML: $build_dir/html/index.html)"
