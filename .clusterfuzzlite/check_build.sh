#!/bin/bash
# Proves build.sh works outside the ClusterFuzzLite image, with the OSS-Fuzz variables
# set by hand: builds every fuzz target into a scratch $OUT, then runs each fuzzer over
# its shipped seed corpus (-runs=0: every seed once) with its dictionary.
#   .clusterfuzzlite/check_build.sh [CXX]   (default clang++-14, else clang++)
# NDSHARD_CFLITE_KEEP=1 keeps the scratch directory (build log, $OUT) for a look.
# ctest runs it in the fuzz presets (test fuzz.clusterfuzzlite_build).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cxx=${1:-$(command -v clang++-14 || command -v clang++)}
cc=${cxx/clang++/clang}
scratch=$(mktemp -d /tmp/ndshard-cflite.XXXXXX)
[[ -n "${NDSHARD_CFLITE_KEEP:-}" ]] || trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src" "$scratch/out" "$scratch/work"
ln -s "$root" "$scratch/src/ndshard"

flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize=fuzzer-no-link"
env CC="$cc" CXX="$cxx" CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
  OUT="$scratch/out" SRC="$scratch/src" WORK="$scratch/work" \
  bash "$root/.clusterfuzzlite/build.sh" >"$scratch/build.log" 2>&1 \
  || { tail -n 40 "$scratch/build.log"; echo "check_build: build.sh failed" >&2; exit 1; }

status=0
count=0
for fuzzer in "$scratch"/out/fuzz_*; do
  t=$(basename "$fuzzer")
  [[ -x "$fuzzer" && "$t" != *.* ]] || continue
  count=$((count + 1))
  for f in "$t.options" "${t}_seed_corpus.zip"; do
    [[ -f "$scratch/out/$f" ]] || { echo "check_build: $f missing from \$OUT"; status=1; }
  done
  seeds="$scratch/seeds/$t"
  mkdir -p "$seeds"
  [[ -f "$scratch/out/${t}_seed_corpus.zip" ]] && unzip -q -o "$scratch/out/${t}_seed_corpus.zip" -d "$seeds"
  dict=()
  [[ -f "$scratch/out/$t.dict" ]] && dict=(-dict="$scratch/out/$t.dict")
  if (cd "$scratch/out" && "$fuzzer" "${dict[@]}" -runs=0 -timeout=25 "$seeds") >"$scratch/$t.log" 2>&1; then
    echo "check_build: $t ok ($(find "$seeds" -type f | wc -l) seeds)"
  else
    echo "check_build: $t FAILED"; tail -n 30 "$scratch/$t.log"; status=1
  fi
done
((count > 0)) || { echo "check_build: no fuzzer in \$OUT"; exit 1; }
exit $status
