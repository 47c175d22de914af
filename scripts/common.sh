# scripts/common.sh - sourced by scripts/test.sh, bench.sh and verify.sh, never run:
#   source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# It sets
#   here    the directory the script was started from (where a user's relative path points)
#   script  the calling script's absolute path
#   root    the repository root, which becomes the working directory
# and defines
#   usage         prints the caller's header comment (line 2 up to the first line that is
#                 not a comment, each without its "# "): the script documents itself once
#   help_exit ARGS  usage and exit 0 when the first argument is -h or --help
here=$PWD
script=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)/$(basename "${BASH_SOURCE[1]}")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 1

usage() { awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$script"; }
help_exit() {
  case "${1:-}" in
    -h | --help) usage; exit 0 ;;
  esac
}
