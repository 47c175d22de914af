#!/usr/bin/env bash
# Tests of the fuzzing tooling (ctest label fuzz), each in a scratch copy of the files it needs:
#   test_tooling.sh workflows        check_workflows.py passes on the repository and fails
#                                    on copies with a sanitizer or a mode taken out
#   test_tooling.sh add-regression   scripts/fuzz.sh --add-regression copies a file into
#                                    corpus/<target>/regressions/ and refuses an unknown
#                                    target or a missing file with a one-line error
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A copy of the files the checks read (never the working tree itself).
copy_repo() {
  mkdir -p "$1/.github" "$1/fuzz" "$1/tools/fuzz" "$1/scripts" "$1/corpus"
  cp -r "$root/.clusterfuzzlite" "$1/"
  cp -r "$root/.github/workflows" "$1/.github/"
  cp "$root"/fuzz/fuzz_*.cpp "$root"/fuzz/*.dict "$1/fuzz/"
  cp "$root"/tools/fuzz/fuzz_*.cpp "$root"/tools/fuzz/*.dict "$1/tools/fuzz/" 2>/dev/null
  cp "$root/scripts/fuzz.sh" "$1/scripts/"
}

# expect_refusal NAME EXPECTED-TEXT COMMAND...: exit status 2 and one line on stderr naming the problem.
expect_refusal() {
  local name=$1 text=$2
  shift 2
  "$@" >"$scratch/out" 2>"$scratch/err"
  local status=$?
  ((status == 2)) || fail "$name: exit status $status, expected 2"
  [[ $(wc -l <"$scratch/err") -eq 1 ]] || fail "$name: expected one line on stderr, got: $(cat "$scratch/err")"
  grep -qF -- "$text" "$scratch/err" || fail "$name: the error does not say '$text': $(cat "$scratch/err")"
}

case "${1:-}" in
  workflows)
    python3 "$root/.clusterfuzzlite/check_workflows.py" "$root" || fail "check_workflows.py rejects the repository"
    # Each damage must be caught (the check can fail).
    for damage in "pr:- undefined" "batch:mode: 'prune'" "batch:mode: 'coverage'" "project:- address" "project:main_repo" \
      "dict:fuzz_spec.dict"; do
      copy=$scratch/copy-${damage%%:*}-$RANDOM
      copy_repo "$copy"
      what=${damage#*:}
      case ${damage%%:*} in
        pr) grep -vF -- "$what" "$root/.github/workflows/cflite_pr.yml" >"$copy/.github/workflows/cflite_pr.yml" ;;
        batch) grep -vF -- "$what" "$root/.github/workflows/cflite_batch.yml" >"$copy/.github/workflows/cflite_batch.yml" ;;
        project) grep -vF -- "$what" "$root/.clusterfuzzlite/project.yaml" >"$copy/.clusterfuzzlite/project.yaml" ;;
        dict) rm -f "$copy/fuzz/$what" ;;
      esac
      if python3 "$copy/.clusterfuzzlite/check_workflows.py" "$copy" >"$scratch/out" 2>&1; then
        fail "check_workflows.py accepts a copy without '$what' (${damage%%:*})"
      else
        echo "caught: without '$what' (${damage%%:*}): $(head -n 1 "$scratch/out")"
      fi
    done
    ;;
  add-regression)
    copy=$scratch/repo
    copy_repo "$copy"
    mkdir -p "$copy/corpus/fuzz_spec"
    printf 'crash\x00bytes\xff' >"$scratch/crash-0123abcd"
    "$copy/scripts/fuzz.sh" --add-regression spec "$scratch/crash-0123abcd" >"$scratch/out" 2>&1 \
      || fail "--add-regression spec FILE fails: $(cat "$scratch/out")"
    cmp -s "$scratch/crash-0123abcd" "$copy/corpus/fuzz_spec/regressions/crash-0123abcd" \
      || fail "the file is not in corpus/fuzz_spec/regressions/ with the same bytes"
    # The same file again is fine; other bytes under the same name are refused.
    "$copy/scripts/fuzz.sh" --add-regression fuzz_spec "$scratch/crash-0123abcd" >"$scratch/out" 2>&1 \
      || fail "adding the same file twice fails: $(cat "$scratch/out")"
    mkdir -p "$scratch/other" && printf 'other' >"$scratch/other/crash-0123abcd"
    expect_refusal "same name, other bytes" "exists with other content" \
      "$copy/scripts/fuzz.sh" --add-regression spec "$scratch/other/crash-0123abcd"
    expect_refusal "unknown target" "unknown target 'nosuch'" \
      "$copy/scripts/fuzz.sh" --add-regression nosuch "$scratch/crash-0123abcd"
    expect_refusal "missing file" "is not a readable file" \
      "$copy/scripts/fuzz.sh" --add-regression spec "$scratch/no-such-file"
    expect_refusal "no file given" "needs a target and a file" "$copy/scripts/fuzz.sh" --add-regression spec
    [[ $(find "$copy/corpus" -type f | wc -l) -eq 1 ]] || fail "a refused call left files in corpus/: $(find "$copy/corpus" -type f)"
    ;;
  *)
    echo "usage: test_tooling.sh workflows|add-regression" >&2
    exit 2
    ;;
esac
((failures == 0)) && echo "test_tooling.sh ${1}: ok"
exit $((failures > 0))
