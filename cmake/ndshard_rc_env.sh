#!/bin/sh
# Usage: sh ndshard_rc_env.sh <executable> [args...]
#
# Runs <executable> with RapidCheck defaults from NDSHARD_RC_DEFAULT_PARAMS (set by ctest, see
# cmake/ndshard_testing.cmake) merged into RC_PARAMS. Every key=value of the defaults is added
# only when the user's RC_PARAMS does not already contain that key, so an exported
# RC_PARAMS (e.g. "seed=42" or "reproduce=...") is never overridden.
set -f # the defaults are split on whitespace below; no globbing

if [ "$#" -lt 1 ]; then
  echo "usage: $0 <executable> [args...]" >&2
  exit 2
fi

params=${RC_PARAMS-}
for kv in ${NDSHARD_RC_DEFAULT_PARAMS-}; do
  key=${kv%%=*}
  case " $params " in
    *" $key="*) ;; # the user set this key: keep it
    *) params="${params:+$params }$kv" ;;
  esac
done
unset NDSHARD_RC_DEFAULT_PARAMS

if [ -n "$params" ]; then
  RC_PARAMS=$params
  export RC_PARAMS
fi
exec "$@"
