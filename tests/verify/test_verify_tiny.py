#!/usr/bin/env python3
"""ctest scripts.verify_tiny: scripts/verify.sh end to end on one real property, fast.

    test_verify_tiny.py SOURCE_DIR BUILD_NAME WORK_DIR

Runs `verify.sh --no-build --no-fuzz --preset BUILD_NAME --filter ^property\\.interleaved$
--cases 20 --junit ... --json ...` on the build tree SOURCE_DIR/build/BUILD_NAME (the one
ctest runs in, already built) and checks: exit 0; the printed summary table is still there;
the JUnit XML (xml.etree) has the properties of property_interleaved, none failed, none
with more than 20 cases and at least one with exactly 20 (RapidCheck ran them); the JSON
(json) agrees and reports the fuzzing phase as skipped.
"""
from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

source, build_name, work = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
work.mkdir(parents=True, exist_ok=True)
xml_out, json_out = work / "tiny.xml", work / "tiny.json"
for f in (xml_out, json_out):
    f.unlink(missing_ok=True)

r = subprocess.run(["bash", str(source / "scripts/verify.sh"), "--no-build", "--no-fuzz", "--preset", build_name,
                    "--filter", r"^property\.interleaved$", "--cases", "20", "--jobs", "1", "--seed", "12345",
                    "--junit", str(xml_out), "--json", str(json_out)],
                   capture_output=True, text=True, cwd=work, timeout=600)
print(r.stdout[-3000:])
print(r.stderr[-2000:], file=sys.stderr)
problems = []
if r.returncode != 0:
    problems.append(f"verify.sh exited {r.returncode}")
if "verify summary" not in r.stdout or "Property summary (max_success=20, seed=12345)" not in r.stdout:
    problems.append("the printed summary table is missing")
try:
    root = ET.parse(xml_out).getroot()
    report = json.loads(json_out.read_text())
except (OSError, ET.ParseError, json.JSONDecodeError) as e:
    problems.append(f"reports not readable: {e}")
else:
    cases = [c for s in root.findall("testsuite") if s.get("name") == "properties" for c in s.findall("testcase")]
    counts = [int(c.get("assertions")) for c in cases if c.get("assertions")]
    if not cases or any(c.get("classname") != "property.interleaved" for c in cases):
        problems.append(f"JUnit: expected the testcases of property.interleaved, got {[c.get('classname') for c in cases]}")
    if root.get("failures") != "0" or any(c.find("failure") is not None for c in cases):
        problems.append("JUnit: a failure in a passing run")
    if not counts or max(counts) != 20:
        problems.append(f"JUnit: cases per property should reach 20 and not exceed it, got {counts}")
    props = report["phases"]["properties"]
    if report["ok"] is not True or props["status"] != "passed" or props["max_success"] != 20 or props["seed"] != "12345":
        problems.append(f"JSON: expected ok, passed, 20 cases, seed 12345; got {props.get('status')}")
    if [t["name"] for t in props["tests"]] != [c.get("name") for c in cases]:
        problems.append("JSON and JUnit list different properties")
    if report["phases"]["fuzzing"]["status"] != "skipped":
        problems.append("JSON: --no-fuzz should be a skipped fuzzing phase")
for p in problems:
    print(f"FAILED: {p}")
sys.exit(1 if problems else 0)
