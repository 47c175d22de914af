#!/usr/bin/env bash
# Usage: scripts/format.sh [--check]
#
# Formats every tracked C and C++ file with clang-format-14 and the repository's
# .clang-format (lib/oracle has its own: the oracle keeps its 2-space hand). --check
# changes nothing and fails, naming each file and line, when a file is not formatted (CI
# runs it). Not formatted: conformance/adapters/abi_v1/, frozen as ABI version 1 shipped.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

check=0
case "${1:-}" in
  "") ;;
  --check) check=1 ;;
  -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "format.sh: unknown argument '$1' (expected --check or nothing)" >&2; exit 2 ;;
esac

fmt=$(command -v clang-format-14 || true)
if [[ -z "$fmt" ]]; then
  echo "format.sh: clang-format-14 is missing (scripts/install-deps.sh installs it)" >&2
  exit 2
fi

mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.c' | grep -v '^conformance/adapters/abi_v1/')
if ((check)); then
  if "$fmt" --dry-run --Werror "${files[@]}"; then
    echo "format.sh: ${#files[@]} files formatted"
  else
    echo "format.sh: files above are not formatted; run scripts/format.sh" >&2
    exit 1
  fi
else
  "$fmt" -i "${files[@]}"
  echo "format.sh: formatted ${#files[@]} files"
fi
