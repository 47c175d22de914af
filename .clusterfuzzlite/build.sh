#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: every fuzz target of fuzz/ into $OUT, each with
# its seed corpus (<target>_seed_corpus.zip: corpus/<target>/, regressions included), its
# dictionary (<target>.dict) and its options (<target>.options).
#
# Inputs (set by the infrastructure, or by hand - .clusterfuzzlite/check_build.sh does):
#   CXX, CXXFLAGS       compiler and flags that instrument the code (sanitizers,
#                       -fsanitize=fuzzer-no-link); CC and CFLAGS are unused (C++ only)
#   LIB_FUZZING_ENGINE  what a fuzz target links with, e.g. -fsanitize=fuzzer
#   OUT                 where the fuzzers go
#   SRC                 holds the project as $SRC/ndshard (else: this script's repository)
#   WORK                scratch space for the build (default: a directory under /tmp)
project=${SRC}/ndshard
[[ -f "$project/CMakeLists.txt" ]] || project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${WORK:-/tmp}/ndshard-fuzz-build
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

# Release with empty per-config flags: CXXFLAGS alone decide optimisation and sanitizers.
cmake -S "$project" -B "$build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE= \
  -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DNDSHARD_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DNDSHARD_WERROR=OFF -DBUILD_TESTING=OFF

targets=()
for src in "$project"/fuzz/fuzz_*.cpp "$project"/tools/fuzz/fuzz_*.cpp; do
  t=$(basename "$src" .cpp)
  if cmake --build "$build" --target help | grep -q "^$t:"; then targets+=("$t"); fi
done
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"

for t in "${targets[@]}"; do
  cp "$build/bin/$t" "$OUT/$t"
  rm -f "$OUT/${t}_seed_corpus.zip"
  if [[ -d "$project/corpus/$t" ]] && [[ -n "$(find "$project/corpus/$t" -type f)" ]]; then
    (cd "$project/corpus/$t" && find . -type f | sort | zip -q -@ -j "$OUT/${t}_seed_corpus.zip")
  fi
  options="[libfuzzer]"$'\n'"max_len = 4096"$'\n'"timeout = 25"
  for dict in "$project/fuzz/$t.dict" "$project/tools/fuzz/$t.dict"; do
    if [[ -f "$dict" ]]; then
      cp "$dict" "$OUT/$t.dict"
      options+=$'\n'"dict = $t.dict"
    fi
  done
  printf '%s\n' "$options" >"$OUT/$t.options"
done
# fuzz_conform loads an implementation at run time (NDSHARD_CONFORM_IMPL); without one it
# takes libndsc_reference.so from its own directory.
if [[ " ${targets[*]} " == *" fuzz_conform "* && -f "$build/conformance/libndsc_reference.so" ]]; then
  cp "$build/conformance/libndsc_reference.so" "$OUT/"
fi
echo "build.sh: ${targets[*]} -> $OUT"
