#!/usr/bin/env python3
"""Run every RapidCheck property executable of a build tree and summarize the results.

Used by scripts/verify.sh; can be run on its own:
    scripts/run_properties.py --build-dir build/release --cases 20000 [--time S] [--seed S]

Discovery: `ctest --show-only=json-v1 -L ^property$` (tests registered by
ndshard_add_property); each executable is run directly, once, with
RC_PARAMS="<user's RC_PARAMS minus overridden keys> max_success=N seed=S verbose_progress=1".
verbose_progress makes RapidCheck print one '.' per passing case ('x' per discard), which
gives an exact case count even for a run cut off by the time budget.

Per property (gtest test) the table shows: cases run, PASS/FAIL/TIMEOUT/SKIP, the RapidCheck
seed of the process and wall seconds. Reproduce a failure with the printed command
(RapidCheck's reproduce= string, or seed + --gtest_filter: RapidCheck derives each property's
seed from the process seed and the test name, so that replays the same cases).

Time budget (--time S): RapidCheck has no time limit, so each executable gets a timeout: the
remaining budget shared among the executables not yet started (times --jobs), never past the
deadline. A property cut off is reported as TIMEOUT with the number of cases it had passed.

Exit status: 0 when nothing failed (TIMEOUT and SKIP are reported but do not fail),
1 when a property failed or crashed, 2 on usage errors or when no property was found.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

RE_RUN = re.compile(r"^\[ RUN      \] (\S+)")
RE_END = re.compile(r"^\[ {2}(FAILED|SKIPPED) {1,2}\] (\S+?)(?:, where .*)? \((\d+) ms\)\s*$|"
                    r"^\[ {7}OK \] (\S+?)(?:, where .*)? \((\d+) ms\)\s*$")
RE_PROGRESS = re.compile(r"^[.x]+$")
RE_FALSIFIED = re.compile(r"Falsifiable after (\d+) tests?")
RE_GAVE_UP = re.compile(r"Gave up after (\d+) tests?")
RE_CONFIG = re.compile(r"Using configuration: (.*)$")
RE_SEED = re.compile(r"(?:^|\s)seed=(\d+)")
RE_REPRODUCE = re.compile(r'RC_PARAMS="(reproduce=[^"]+)"')
OVERRIDDEN_KEYS = ("max_success", "seed", "verbose_progress", "reproduce")


@dataclass
class Row:
    name: str
    result: str = "NOT RUN"
    passed: int = 0
    discarded: int = 0
    falsified_after: int | None = None
    gave_up_after: int | None = None
    wall: float | None = None
    started: float | None = None
    note: str = ""

    def cases(self) -> str:
        if self.result == "PASS" and self.passed == 0 and self.discarded == 0:
            return "-"  # a plain gtest TEST in a property executable
        if self.falsified_after is not None:
            return str(self.falsified_after)
        if self.gave_up_after is not None:
            return str(self.gave_up_after)
        return str(self.passed)


@dataclass
class ExeResult:
    test: str
    exe: str
    log: Path
    rows: list[Row] = field(default_factory=list)
    seed: str = "?"
    reproduce: str | None = None
    exit_code: int | None = None
    timed_out: bool = False
    timeout: float | None = None
    wall: float = 0.0
    error: str = ""


def discover(build_dir: Path, name_filter: str | None) -> list[tuple[str, str]]:
    cmd = ["ctest", "--test-dir", str(build_dir), "--show-only=json-v1", "-L", "^property$"]
    if name_filter:
        cmd += ["-R", name_filter]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    found = []
    for test in json.loads(out).get("tests", []):
        # ndshard_add_property: COMMAND sh cmake/ndshard_rc_env.sh <executable>
        exe = (test.get("command") or [None])[-1]
        if exe:
            found.append((test["name"], exe))
    return found


def rc_params(cases: int, seed: int) -> str:
    user = os.environ.get("RC_PARAMS", "").split()
    kept = [kv for kv in user if kv.split("=", 1)[0] not in OVERRIDDEN_KEYS]
    dropped = [kv for kv in user if kv not in kept]
    if dropped:
        print(f"run_properties: ignoring {' '.join(dropped)} from RC_PARAMS", file=sys.stderr)
    return " ".join(kept + [f"max_success={cases}", f"seed={seed}", "verbose_progress=1"])


def list_tests(exe: str) -> list[str]:
    out = subprocess.run([exe, "--gtest_list_tests"], check=True, capture_output=True,
                         text=True, timeout=120).stdout
    names, suite = [], ""
    for line in out.splitlines():
        if not line.strip() or line.startswith("Running main()"):
            continue
        if not line.startswith(" "):
            suite = line.split()[0]
        else:
            names.append(suite + line.split()[0])
    return names


RUNNING: set[subprocess.Popen] = set()
RUNNING_LOCK = threading.Lock()


def kill_all_and_exit(signum, _frame) -> None:
    """Our children run in their own sessions (so a timeout can kill a whole process group);
    forward an interrupt/termination to them before exiting."""
    with RUNNING_LOCK:
        procs = list(RUNNING)
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    print(f"run_properties: interrupted (signal {signum})", file=sys.stderr, flush=True)
    os._exit(128 + signum)


def kill_group(proc: subprocess.Popen) -> None:
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        if grace is None:
            return
        try:
            proc.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            pass


def run_exe(test: str, exe: str, log: Path, params: str, timeout: float | None) -> ExeResult:
    res = ExeResult(test=test, exe=exe, log=log, timeout=timeout)
    start = time.monotonic()
    try:
        names = list_tests(exe)
    except (OSError, subprocess.SubprocessError) as e:
        res.error = f"cannot list tests: {e}"
        res.rows = [Row(name="(executable)", result="FAIL", note=res.error)]
        return res
    rows = {n: Row(name=n) for n in names}
    res.rows = list(rows.values())

    env = dict(os.environ, RC_PARAMS=params)
    env.pop("NDSHARD_RC_DEFAULT_PARAMS", None)
    current: Row | None = None
    with open(log, "w", encoding="utf-8", errors="replace") as logf:
        logf.write(f"$ RC_PARAMS=\"{params}\" {exe} --gtest_color=no\n")
        proc = subprocess.Popen([exe, "--gtest_color=no"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, env=env, start_new_session=True)
        with RUNNING_LOCK:
            RUNNING.add(proc)
        timer = None
        if timeout is not None:
            def on_timeout() -> None:
                res.timed_out = True
                kill_group(proc)
            timer = threading.Timer(timeout, on_timeout)
            timer.daemon = True
            timer.start()
        assert proc.stdout is not None
        for raw in proc.stdout:
            now = time.monotonic()
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            logf.write(line + "\n")
            if m := RE_RUN.match(line):
                current = rows.setdefault(m.group(1), Row(name=m.group(1)))
                if current not in res.rows:
                    res.rows.append(current)
                current.started = now
                current.result = "RUNNING"
                continue
            if m := RE_END.match(line):
                kind, name, ms = (m.group(1), m.group(2), m.group(3)) if m.group(1) \
                    else ("OK", m.group(4), m.group(5))
                row = rows.setdefault(name, Row(name=name))
                row.result = {"OK": "PASS", "FAILED": "FAIL", "SKIPPED": "SKIP"}[kind]
                row.wall = int(ms) / 1000.0
                current = None
                continue
            if m := RE_CONFIG.search(line):
                if s := RE_SEED.search(m.group(1)):
                    res.seed = s.group(1)
            if m := RE_REPRODUCE.search(line):
                res.reproduce = m.group(1)
            if current is None:
                continue
            if RE_PROGRESS.match(line):
                current.passed += line.count(".")
                current.discarded += line.count("x")
            elif m := RE_FALSIFIED.search(line):
                current.falsified_after = int(m.group(1))
            elif m := RE_GAVE_UP.search(line):
                current.gave_up_after = int(m.group(1))
                current.note = f"gave up: too many discards ({current.discarded})"
        res.exit_code = proc.wait()
        with RUNNING_LOCK:
            RUNNING.discard(proc)
        if timer is not None:
            timer.cancel()
        end = time.monotonic()
        res.wall = end - start

    for row in res.rows:
        if row.result == "RUNNING":
            row.wall = end - (row.started or end)
            if res.timed_out:
                row.result, row.note = "TIMEOUT", f"cut off after {row.wall:.0f} s (partial count)"
            else:
                row.result, row.note = "FAIL", f"crashed (exit {describe_exit(res.exit_code)})"
        elif row.result == "NOT RUN":
            if res.timed_out:
                row.result, row.note = "TIMEOUT", "not started before the time budget ran out"
            else:
                row.result, row.note = "FAIL", f"did not run (exit {describe_exit(res.exit_code)})"
    if not res.rows:
        res.rows.append(Row(name="(no tests)", result="FAIL", note="the executable has no tests"))
    if (res.exit_code not in (0, None) and not res.timed_out
            and not any(r.result == "FAIL" for r in res.rows)):
        res.rows.append(Row(name="(process)", result="FAIL",
                            note=f"exit {describe_exit(res.exit_code)} with no failing test "
                                 "(sanitizer report or crash at exit? see log)"))
    return res


def describe_exit(code: int | None) -> str:
    if code is None:
        return "?"
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return str(code)


def format_table(results: list[ExeResult]) -> str:
    header = ("property", "executable", "cases", "result", "seed", "wall s", "note")
    lines = []
    for res in results:
        for row in res.rows:
            wall = row.wall if row.wall is not None else 0.0
            lines.append((row.name, res.test, row.cases(), row.result, res.seed,
                          f"{wall:.1f}", row.note))
    widths = [max(len(h), *(len(l[i]) for l in lines)) if lines else len(h)
              for i, h in enumerate(header)]
    fmt = lambda cols: "  ".join(c.ljust(w) for c, w in zip(cols, widths)).rstrip()
    out = [fmt(header), fmt(tuple("-" * w for w in widths))]
    out += [fmt(l) for l in lines]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    ap.add_argument("--cases", type=int, default=20000, help="RapidCheck max_success (default 20000)")
    ap.add_argument("--time", type=float, default=None, help="overall time budget in seconds")
    ap.add_argument("--seed", type=int, default=None, help="RapidCheck seed (default: random)")
    ap.add_argument("--jobs", type=int, default=1, help="executables run in parallel (default 1)")
    ap.add_argument("--filter", default=None, help="regex on ctest names (property.<n>)")
    ap.add_argument("--summary-file", type=Path, default=None, help="also write the summary here")
    args = ap.parse_args()
    if args.cases < 1 or args.jobs < 1 or (args.time is not None and args.time <= 0):
        ap.error("--cases, --jobs and --time must be positive")

    try:
        tests = discover(args.build_dir, args.filter)
    except (OSError, subprocess.CalledProcessError, json.JSONDecodeError) as e:
        print(f"run_properties: cannot list tests in {args.build_dir}: {e}", file=sys.stderr)
        return 2
    if not tests:
        msg = f"run_properties: no property tests (ctest label 'property') in {args.build_dir}"
        print(msg, file=sys.stderr)
        if args.summary_file:
            args.summary_file.write_text(msg + "\n")
        return 2

    signal.signal(signal.SIGINT, kill_all_and_exit)
    signal.signal(signal.SIGTERM, kill_all_and_exit)
    seed = args.seed if args.seed is not None else random.getrandbits(63)
    params = rc_params(args.cases, seed)
    log_dir = args.build_dir / "verify-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    budget = f", time budget {args.time:.0f} s" if args.time else ""
    print(f"run_properties: {len(tests)} executable(s), RC_PARAMS=\"{params}\", "
          f"jobs {args.jobs}{budget}; logs in {log_dir}", flush=True)

    deadline = time.monotonic() + args.time if args.time else None
    lock = threading.Lock()
    pending = list(tests)
    results: dict[str, ExeResult] = {}
    done = [0]

    def worker() -> None:
        while True:
            with lock:
                if not pending:
                    return
                test, exe = pending.pop(0)
                timeout = None
                if deadline is not None:
                    left = deadline - time.monotonic()
                    share = left * args.jobs / (len(pending) + 1)
                    timeout = min(left, share)
            log = log_dir / f"{test}.log"
            if timeout is not None and timeout < 1.0:
                res = ExeResult(test=test, exe=exe, log=log, timed_out=True, exit_code=None)
                res.rows = [Row(name=n, result="TIMEOUT", note="not started: time budget used up")
                            for n in safe_list(exe)]
            else:
                res = run_exe(test, exe, log, params, timeout)
            with lock:
                results[test] = res
                done[0] += 1
                counts = {}
                for r in res.rows:
                    counts[r.result] = counts.get(r.result, 0) + 1
                summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
                print(f"[{done[0]}/{len(tests)}] {test}: {summary} ({res.wall:.1f} s)", flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for f in [pool.submit(worker) for _ in range(args.jobs)]:
            f.result()

    ordered = [results[t] for t, _ in tests]
    rows = [r for res in ordered for r in res.rows]
    n_fail = sum(r.result == "FAIL" for r in rows)
    n_timeout = sum(r.result == "TIMEOUT" for r in rows)
    n_pass = sum(r.result == "PASS" for r in rows)
    text = [f"Property summary (max_success={args.cases}, seed={seed}{budget})",
            format_table(ordered), ""]
    for res in ordered:
        failing = [r.name for r in res.rows if r.result == "FAIL"]
        if not failing:
            continue
        text.append(f"FAILED in {res.test} (log: {res.log}):")
        if res.reproduce:
            text.append(f"  reproduce: RC_PARAMS=\"{res.reproduce}\" {res.exe}")
        for name in failing:
            if not name.startswith("("):
                text.append(f"  replay:    RC_PARAMS=\"seed={res.seed} max_success={args.cases}\" "
                            f"{res.exe} --gtest_filter={name}")
    if n_timeout:
        text.append(f"NOTE: {n_timeout} propert{'y' if n_timeout == 1 else 'ies'} hit the time "
                    f"budget before {args.cases} cases (TIMEOUT rows: cases = passed so far).")
    text.append(f"properties: {n_pass} passed, {n_fail} failed, {n_timeout} timed out, "
                f"{len(rows) - n_pass - n_fail - n_timeout} other")
    summary = "\n".join(text)
    if args.summary_file:  # the caller (verify.sh) prints it in its final report
        args.summary_file.write_text(summary + "\n")
    else:
        print("\n" + summary, flush=True)
    return 1 if n_fail else 0


def safe_list(exe: str) -> list[str]:
    try:
        return list_tests(exe) or ["(executable)"]
    except (OSError, subprocess.SubprocessError):
        return ["(executable)"]


if __name__ == "__main__":
    sys.exit(main())
