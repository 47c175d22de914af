#!/usr/bin/env python3
"""Distribution pairs a minute of `ndshard kcheck`, cold and warm, for each op.

Cold: a new, empty kernel cache, so every kernel variant the cases need is compiled
(what a first run costs). Warm: the same command again on that cache (what every later
run costs). A pair is one drawn case: an input and an output distribution run through the
op's program and checked. Prints a markdown table; exits 1 when a run fails or its JSON
does not parse, so a wrong kernel is never timed as a fast one.

Usage: rate.py --ndshard PATH [--cases N] [--seed S] [--op OP ...] [--markdown FILE]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

DEFAULT_OPS = ["copy", "copy_shards", "permute:1,0", "reduce:0"]


def run(ndshard, op, cases, seed, cache):
    cmd = [ndshard, "kcheck", op, "--cases", str(cases), "--seed", str(seed), "--cache", cache, "--json"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - t0
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.exit(f"rate.py: `{' '.join(cmd)}` printed no JSON (exit {p.returncode}): {p.stderr.strip()[:400]}")
    if p.returncode != 0 or report.get("cases_failed", 1) != 0:
        sys.exit(f"rate.py: `{' '.join(cmd)}` failed (exit {p.returncode}, "
                 f"{report.get('cases_failed')} failed cases); a failing op is not timed")
    return seconds, report["cases_run"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ndshard", required=True, help="the ndshard executable")
    ap.add_argument("--cases", type=int, default=100, help="cases a run draws (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--op", action="append", help=f"an op (repeatable; default {' '.join(DEFAULT_OPS)})")
    ap.add_argument("--markdown", help="also write the table here")
    a = ap.parse_args()
    if a.cases < 1:
        ap.error(f"--cases must be at least 1, not {a.cases}")
    rows = ["| op | cases | cold s | cold pairs/min | warm s | warm pairs/min |",
            "|---|---:|---:|---:|---:|---:|"]
    for op in a.op or DEFAULT_OPS:
        cache = tempfile.mkdtemp(prefix="ndshard-kcheck-bench-")
        try:
            cold, n = run(a.ndshard, op, a.cases, a.seed, cache)
            warm, _ = run(a.ndshard, op, a.cases, a.seed, cache)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        rows.append(f"| {op} | {n} | {cold:.1f} | {60 * n / cold:,.0f} | {warm:.2f} | {60 * n / warm:,.0f} |")
        print(rows[-1], flush=True)
    table = "\n".join(rows) + "\n"
    print(f"\n{os.cpu_count()} cores; cold: an empty kernel cache; warm: the same run again\n")
    print(table)
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(table)


if __name__ == "__main__":
    main()
