#!/usr/bin/env python3
"""ctest scripts.verify_report: scripts/verify_report.py on canned phase results, and the
flags of scripts/verify.sh.

    test_verify_report.py SOURCE_DIR WORK_DIR

The property tables are made by scripts/run_properties.py's own format_table (so the
parser follows the format verify.sh prints), the fuzzing tables in scripts/fuzz.sh's
printf layout; every expected value below is typed in, not read back from the writer.
Each report is parsed with xml.etree and json. Checked:
  1. a passing run: no failure anywhere, cases and fuzz counts carried over;
  2. a failing run: the FAIL property and the crashed fuzz target are <failure>s, the
     TIMEOUT property is <skipped>, JSON says ok=false and which phase failed;
  3. a phase with no table (no property found) and one that exits non-zero with every
     row passing are both failures ("(phase)" testcases);
  4. verify.sh: --junit/--json without FILE, an unknown flag and a FILE in a missing
     directory give one line on stderr and exit 2; a run that stops before the
     properties (--no-build, a build directory that does not exist) still writes both
     reports, with the failure in them.
"""
from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

SOURCE = Path(sys.argv[1])
WORK = Path(sys.argv[2])
sys.path.insert(0, str(SOURCE / "scripts"))
import run_properties as rp  # noqa: E402  (the real table writer)

failures: list[str] = []


def check(ok: bool, what: str) -> None:
    if not ok:
        failures.append(what)
        print(f"FAILED: {what}")


def prop_table(seed: str, results: list[rp.ExeResult], after: str = "") -> str:
    return (f"Property summary (max_success=300, seed={seed})\n" + rp.format_table(results) + "\n\n" + after
            + "properties: ...\n")


def exe(test: str, seed: str, rows: list[rp.Row]) -> rp.ExeResult:
    r = rp.ExeResult(test=test, exe=f"/b/bin/{test.replace('.', '_')}", log=Path("/dev/null"), seed=seed)
    r.rows = rows
    return r


FUZZ_FMT = "%-20s %12s %9s %7s %7s %7s %9s %10s %9s"


def fuzz_table(rows: list[tuple]) -> str:
    lines = ["fuzzing (fuzz, 30s per target, 2 jobs):",
             FUZZ_FMT % ("target", "executions", "exec/s", "before", "after", "cov", "features", "crashes",
                         "distinct")]
    lines += [FUZZ_FMT % r for r in rows]
    lines.append("fuzzing: no crashes")
    return "\n".join(lines) + "\n"


def write_report(name: str, props: str | None, prop_status: int, fuzz: str | None, fuzz_status: int,
                 skipped: bool = False) -> tuple[ET.Element, dict]:
    d = WORK / name
    d.mkdir(parents=True, exist_ok=True)
    args = [sys.executable, str(SOURCE / "scripts/verify_report.py"),
            "--properties-status", str(prop_status), "--fuzz-status", str(fuzz_status),
            "--junit", str(d / "r.xml"), "--json", str(d / "r.json"), "--elapsed", "77"]
    if props is not None:
        (d / "props.txt").write_text(props)
        args += ["--properties", str(d / "props.txt")]
    if fuzz is not None:
        (d / "fuzz.txt").write_text(fuzz)
        args += ["--fuzz", str(d / "fuzz.txt")]
    if skipped:
        args.append("--fuzz-skipped")
    subprocess.run(args, check=True)
    return ET.parse(d / "r.xml").getroot(), json.loads((d / "r.json").read_text())


def case(root: ET.Element, suite: str, name: str) -> ET.Element | None:
    for s in root.findall("testsuite"):
        if s.get("name") == suite:
            for c in s.findall("testcase"):
                if c.get("name") == name:
                    return c
    return None


WORK.mkdir(parents=True, exist_ok=True)

# 1. Passing.
passing = prop_table("42", [
    exe("property.args", "42", [rp.Row("ArgsLaw.round_trip", "PASS", passed=300, wall=1.5),
                                rp.Row("ArgsLaw.fixed_vectors", "PASS", wall=0.1)]),
    exe("property.balance", "42", [rp.Row("Balance.even", "PASS", passed=300, discarded=4, wall=2.0)])])
fuzz_ok = fuzz_table([("fuzz_spec", 123456, 4115, 40, 40, 812, 2001, 0, 0),
                      ("fuzz_kernel", 9000, 300, 12, 12, 1500, 3100, 0, 0)])
x, j = write_report("pass", passing, 0, fuzz_ok, 0)
check(x.tag == "testsuites" and x.get("failures") == "0" and x.get("tests") == "5", "pass: 5 testcases, 0 failures")
check(j["ok"] is True and j["elapsed_s"] == 77, "pass: JSON ok, elapsed 77")
p = j["phases"]["properties"]
check(p["status"] == "passed" and p["max_success"] == 300 and p["seed"] == "42", "pass: properties passed, 300, 42")
check([t["name"] for t in p["tests"]] == ["ArgsLaw.round_trip", "ArgsLaw.fixed_vectors", "Balance.even"],
      "pass: the three properties in order")
check([t["cases"] for t in p["tests"]] == [300, None, 300], "pass: cases 300, '-' (a plain TEST), 300")
check(p["tests"][0]["executable"] == "property.args" and p["tests"][0]["wall_s"] == 1.5, "pass: executable, wall")
c = case(x, "properties", "ArgsLaw.round_trip")
check(c is not None and c.get("assertions") == "300" and c.get("classname") == "property.args",
      "pass: JUnit testcase with assertions=300")
f = j["phases"]["fuzzing"]
check(f["status"] == "passed" and [t["name"] for t in f["targets"]] == ["fuzz_spec", "fuzz_kernel"],
      "pass: two fuzz targets")
check(f["targets"][0]["executions"] == 123456 and f["targets"][0]["exec_per_s"] == 4115
      and f["targets"][0]["crashes"] == 0 and f["targets"][1]["coverage"] == 1500, "pass: fuzz numbers")
c = case(x, "fuzzing", "fuzz_kernel")
check(c is not None and c.find("failure") is None and "executions=9000" in (c.findtext("system-out") or ""),
      "pass: fuzz_kernel testcase, executions in system-out")

# 2. Failing: a falsified property, a TIMEOUT, a crashed fuzz target.
failing = prop_table("7", [
    exe("property.balance", "7", [
        rp.Row("Balance.even", "FAIL", passed=16, falsified_after=17, wall=0.4),
        rp.Row("Balance.slow", "TIMEOUT", passed=120, wall=30.0, note="cut off after 30 s (partial count)")]),
    exe("property.args", "7", [rp.Row("ArgsLaw.round_trip", "PASS", passed=300, wall=1.0)])],
    after="FAILED in property.balance (log: /b/verify-logs/property.balance.log):\n"
          "  reproduce: RC_PARAMS=\"reproduce=AbC\" /b/bin/property_balance\n")
fuzz_crash = fuzz_table([("fuzz_spec", 5000, 166, 40, 40, 800, 1990, 3, 1),
                         ("fuzz_kernel", 9000, 300, 12, 12, 1500, 3100, 0, 0)])
x, j = write_report("fail", failing, 1, fuzz_crash, 1)
check(j["ok"] is False and j["phases"]["properties"]["status"] == "failed"
      and j["phases"]["fuzzing"]["status"] == "failed", "fail: JSON not ok, both phases failed")
check(x.get("failures") == "2" and x.get("skipped") == "1", "fail: 2 failures, 1 skipped in <testsuites>")
c = case(x, "properties", "Balance.even")
check(c is not None and c.find("failure") is not None and c.get("assertions") == "17",
      "fail: Balance.even is a failure after 17 cases")
check(c is not None and "reproduce=AbC" in (c.findtext("failure") or "")
      and "property.balance.log" in (c.findtext("failure") or ""), "fail: the failure carries log and reproduce")
c = case(x, "properties", "Balance.slow")
check(c is not None and c.find("skipped") is not None and c.find("failure") is None, "fail: TIMEOUT is skipped")
c = case(x, "properties", "ArgsLaw.round_trip")
check(c is not None and c.find("failure") is None, "fail: the passing property stays passed")
c = case(x, "fuzzing", "fuzz_spec")
check(c is not None and c.find("failure") is not None and "3 crash" in c.find("failure").get("message", ""),
      "fail: fuzz_spec's 3 crashes are a failure")
check(case(x, "properties", "(phase)") is None, "fail: no extra (phase) case when a row already fails")
check([t["distinct_crashes"] for t in j["phases"]["fuzzing"]["targets"]] == [1, 0], "fail: distinct crashes")

# 3. No table at all; and a non-zero exit with every row passing.
x, j = write_report("notable", "run_properties: no property tests (ctest label 'property') in /b\n", 2,
                    "fuzzing: skipped (--no-fuzz)\n", 0, skipped=True)
c = case(x, "properties", "(phase)")
check(c is not None and c.find("failure") is not None and "no property tests" in c.find("failure").get("message"),
      "notable: the properties phase is a failure with its message")
check(j["ok"] is False and j["phases"]["fuzzing"]["status"] == "skipped", "notable: not ok, fuzzing skipped")
x, j = write_report("exitonly", passing, 1, fuzz_ok, 0)
c = case(x, "properties", "(phase)")
check(c is not None and c.find("failure") is not None and j["ok"] is False,
      "exitonly: status 1 with every row passing is a failure")
x, j = write_report("nofile", None, 1, None, 2)
check(j["phases"]["properties"]["status"] == "failed" and j["phases"]["fuzzing"]["status"] == "failed"
      and x.get("failures") == "2", "nofile: both phases without a summary are failures")

# 4. verify.sh's flags, and a run that stops before the properties.
verify = SOURCE / "scripts/verify.sh"
for args in (["--junit"], ["--json"], ["--junit", "--json", "x.json"], ["--no-such-flag"],
             ["--json", str(WORK / "missing-dir/r.json")]):
    r = subprocess.run(["bash", str(verify), *args], capture_output=True, text=True, cwd=WORK)
    check(r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1,
          f"verify.sh {' '.join(args)}: exit 2 and one line on stderr (got {r.returncode}: {r.stderr!r})")
r = subprocess.run(["bash", str(verify), "--no-build", "--no-fuzz", "--preset", "no-such-build-dir-xyz",
                    "--junit", "stop.xml", "--json", "stop.json"], capture_output=True, text=True, cwd=WORK)
check(r.returncode == 1, f"verify.sh stopping before the properties exits 1 (got {r.returncode})")
if (WORK / "stop.xml").is_file() and (WORK / "stop.json").is_file():
    x = ET.parse(WORK / "stop.xml").getroot()
    j = json.loads((WORK / "stop.json").read_text())
    c = case(x, "properties", "(phase)")
    check(c is not None and "does not exist" in c.find("failure").get("message", ""),
          "stop: the reports name the missing build directory as the properties' failure")
    check(j["ok"] is False, "stop: JSON not ok")
else:
    check(False, "stop: verify.sh wrote stop.xml and stop.json relative to where it was started")

print(f"verify_report: {len(failures)} failed check(s)" if failures else "verify_report: all checks passed")
sys.exit(1 if failures else 0)
