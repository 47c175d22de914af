#!/usr/bin/env python3
"""Machine-readable summary of a scripts/verify.sh run: JUnit XML and/or JSON.

    scripts/verify_report.py --properties FILE --properties-status N
                             --fuzz FILE --fuzz-status N [--fuzz-skipped]
                             [--elapsed S] [--junit OUT] [--json OUT]

Reads what the two phases already write for verify.sh's printed table, so the table and
the reports cannot disagree:
  --properties  the summary file of scripts/run_properties.py (--summary-file): a header
                line "Property summary (max_success=N, seed=S...)", then a fixed-width table
                whose dashed second line gives the columns (property, executable, cases,
                result, seed, wall s, note)
  --fuzz        the summary of scripts/fuzz.sh ($NDSHARD_FUZZ_SUMMARY_FILE): a line
                "fuzzing (...)", a header line, then one row per target (target executions
                exec/s before after cov features crashes distinct)
and the phases' exit statuses. A phase that exits non-zero counts as failed even when its
table shows no failing row (a crash at exit, a build error): JUnit gets a testcase
"(phase)" with a <failure>, JSON a status "failed".

JUnit: one <testsuite> per phase; a property is a <testcase> (classname = its executable,
assertions = cases run) with <failure> for FAIL and <skipped> for TIMEOUT/SKIP; a fuzz
target is a <testcase> with <failure> when it crashed. Cases, executions and exec/s are
also in each testcase's <system-out>, and all of it in the JSON:
  {"ok": bool, "elapsed_s": S,
   "phases": {"properties": {"status", "exit_status", "max_success", "seed", "tests": [...]},
              "fuzzing": {"status", "exit_status", "targets": [...]}}}
Exit status: 0 when the reports were written, 2 on a usage error.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

PROP_COLUMNS = ("property", "executable", "cases", "result", "seed", "wall s", "note")
FUZZ_COLUMNS = ("target", "executions", "exec/s", "before", "after", "cov", "features", "crashes", "distinct")


def number(text: str) -> int | float | None:
    """'500' -> 500, '1.5' -> 1.5; '-', '?' and '' (not measured) -> None."""
    if re.fullmatch(r"\d+", text):
        return int(text)
    if re.fullmatch(r"\d+\.\d*", text):
        return float(text)
    return None


def read_text(path: Path | None) -> str:
    if path is None or not path.is_file():
        return ""
    return path.read_text(encoding="utf-8", errors="replace")


def parse_properties(text: str) -> dict:
    """The table of run_properties.py: columns from the dashed line under the header."""
    out: dict = {"max_success": None, "seed": None, "tests": []}
    lines = text.splitlines()
    if lines and (m := re.match(r"Property summary \(max_success=(\d+), seed=(\d+)", lines[0])):
        out["max_success"], out["seed"] = int(m.group(1)), m.group(2)
    for i in range(len(lines) - 1):
        if lines[i].split() == ["property", "executable", "cases", "result", "seed", "wall", "s", "note"] \
                and re.fullmatch(r"-+(  -+)*", lines[i + 1]):
            spans = [m.span() for m in re.finditer(r"-+", lines[i + 1])]
            break
    else:
        return out
    rest = lines[i + 2:]
    for n, line in enumerate(rest):
        if not line.strip():
            rest = rest[n:]
            break
        # Every column but the last is padded to its dashes; the note runs to the line's end.
        cells = [line[a:(spans[k + 1][0] if k + 1 < len(spans) else len(line))].strip()
                 for k, (a, _) in enumerate(spans)]
        row = dict(zip(PROP_COLUMNS, cells))
        out["tests"].append({
            "name": row["property"], "executable": row["executable"], "result": row["result"],
            "cases": number(row["cases"]), "seed": row["seed"], "wall_s": number(row["wall s"]),
            "note": row["note"]})
    # Below the table, per executable with a failure: "FAILED in <test> (log: <file>):" and
    # the indented reproduce/replay commands, which go with its failing rows.
    how: dict[str, list[str]] = {}
    current = None
    for line in rest:
        if m := re.match(r"FAILED in (\S+) \(log: (.*)\):$", line):
            current = how.setdefault(m.group(1), [f"log: {m.group(2)}"])
        elif current is not None and line.startswith("  "):
            current.append(line.strip())
        else:
            current = None
    for t in out["tests"]:
        if t["result"] == "FAIL" and t["executable"] in how:
            t["reproduce"] = how[t["executable"]]
    return out


def parse_fuzz(text: str) -> dict:
    out: dict = {"header": None, "targets": []}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.split() == list(FUZZ_COLUMNS):
            out["header"] = lines[i - 1].rstrip(":") if i > 0 else None
            for row in lines[i + 1:]:
                cells = row.split()
                if len(cells) != len(FUZZ_COLUMNS) or not cells[0].startswith("fuzz_"):
                    break
                c = dict(zip(FUZZ_COLUMNS, cells))
                out["targets"].append({
                    "name": c["target"], "executions": number(c["executions"]),
                    "exec_per_s": number(c["exec/s"]), "corpus_before": number(c["before"]),
                    "corpus_after": number(c["after"]), "coverage": number(c["cov"]),
                    "features": number(c["features"]), "crashes": number(c["crashes"]),
                    "distinct_crashes": number(c["distinct"])})
            break
    return out


def phase_status(exit_status: int, failed_rows: int, skipped: bool) -> str:
    if skipped:
        return "skipped"
    return "failed" if exit_status != 0 or failed_rows else "passed"


def build_report(args) -> dict:
    prop_text = read_text(args.properties)
    props = parse_properties(prop_text)
    failed = sum(t["result"] == "FAIL" for t in props["tests"])
    props.update(status=phase_status(args.properties_status, failed, False),
                 exit_status=args.properties_status)
    if not props["tests"]:
        # No table: what the phase said instead (its first line), else that it wrote nothing.
        first = prop_text.strip().splitlines()[:1]
        props["message"] = first[0] if first else "run_properties.py wrote no summary"
        props["status"] = "failed"

    fuzz_text = read_text(args.fuzz)
    fuzz = parse_fuzz(fuzz_text)
    crashed = sum((t["crashes"] or 0) > 0 for t in fuzz["targets"])
    fuzz.update(status=phase_status(args.fuzz_status, crashed, args.fuzz_skipped), exit_status=args.fuzz_status)
    if not fuzz["targets"] and not args.fuzz_skipped:
        first = fuzz_text.strip().splitlines()[:1]
        fuzz["message"] = first[0] if first else "scripts/fuzz.sh wrote no summary"
        fuzz["status"] = "failed"
    elif args.fuzz_skipped:
        fuzz["message"] = fuzz_text.strip() or "skipped"

    return {"ok": props["status"] == "passed" and fuzz["status"] in ("passed", "skipped"),
            "elapsed_s": args.elapsed,
            "phases": {"properties": props, "fuzzing": fuzz}}


def junit(report: dict) -> ET.Element:
    root = ET.Element("testsuites", name="ndshard verify")
    totals = {"tests": 0, "failures": 0, "skipped": 0}

    def suite(name: str) -> ET.Element:
        return ET.SubElement(root, "testsuite", name=name)

    def finish(el: ET.Element, phase: dict, table_failures: int, time_s: float) -> None:
        # A failed phase whose table shows no failure still fails, as a testcase of its own.
        if phase["status"] == "failed" and table_failures == 0:
            case = ET.SubElement(el, "testcase", classname=el.get("name"), name="(phase)")
            msg = phase.get("message") or f"exit status {phase['exit_status']}"
            ET.SubElement(case, "failure", message=msg, type="phase")
        if phase["status"] == "skipped":
            case = ET.SubElement(el, "testcase", classname=el.get("name"), name="(phase)")
            ET.SubElement(case, "skipped", message=phase.get("message", "skipped"))
        cases = el.findall("testcase")
        counts = {"tests": len(cases),
                  "failures": sum(c.find("failure") is not None for c in cases),
                  "skipped": sum(c.find("skipped") is not None for c in cases)}
        for k, v in counts.items():
            el.set(k, str(v))
            totals[k] += v
        el.set("errors", "0")
        el.set("time", f"{time_s:.1f}")

    props = report["phases"]["properties"]
    el = suite("properties")
    fails = 0
    for t in props["tests"]:
        case = ET.SubElement(el, "testcase", classname=t["executable"], name=t["name"],
                             time=f"{t['wall_s'] or 0:.1f}")
        if t["cases"] is not None:
            case.set("assertions", str(t["cases"]))
        if t["result"] == "FAIL":
            fails += 1
            failure = ET.SubElement(case, "failure", type="property",
                                    message=t["note"] or f"falsified after {t['cases']} case(s)")
            failure.text = "\n".join(t.get("reproduce", []))
        elif t["result"] in ("TIMEOUT", "SKIP"):
            ET.SubElement(case, "skipped", message=f"{t['result']}: {t['note']}".rstrip(": "))
        out = ET.SubElement(case, "system-out")
        cases = "-" if t["cases"] is None else t["cases"]  # "-": a plain TEST, no generated cases
        out.text = f"result={t['result']} cases={cases} seed={t['seed']}"
    finish(el, props, fails, sum(t["wall_s"] or 0 for t in props["tests"]))

    fuzz = report["phases"]["fuzzing"]
    el = suite("fuzzing")
    fails = 0
    for t in fuzz["targets"]:
        case = ET.SubElement(el, "testcase", classname="fuzzing", name=t["name"])
        if (t["crashes"] or 0) > 0:
            fails += 1
            ET.SubElement(case, "failure", type="crash",
                          message=f"{t['crashes']} crash(es), {t['distinct_crashes']} distinct")
        out = ET.SubElement(case, "system-out")
        out.text = (f"executions={t['executions']} exec_per_s={t['exec_per_s']} "
                    f"corpus={t['corpus_before']}->{t['corpus_after']} cov={t['coverage']} "
                    f"features={t['features']} crashes={t['crashes']}")
    finish(el, fuzz, fails, 0.0)

    for k, v in totals.items():
        root.set(k, str(v))
    root.set("errors", "0")
    if report["elapsed_s"] is not None:
        root.set("time", str(report["elapsed_s"]))
    return root


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--properties", type=Path, help="run_properties.py's summary file")
    ap.add_argument("--properties-status", type=int, required=True, help="its exit status")
    ap.add_argument("--fuzz", type=Path, help="scripts/fuzz.sh's summary file")
    ap.add_argument("--fuzz-status", type=int, required=True, help="its exit status")
    ap.add_argument("--fuzz-skipped", action="store_true", help="the fuzzing phase did not run")
    ap.add_argument("--elapsed", type=int, default=None, help="wall seconds of the whole run")
    ap.add_argument("--junit", type=Path, help="write JUnit XML here")
    ap.add_argument("--json", type=Path, help="write JSON here")
    args = ap.parse_args()
    if not args.junit and not args.json:
        ap.error("nothing to write: give --junit FILE and/or --json FILE")

    report = build_report(args)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    if args.junit:
        tree = ET.ElementTree(junit(report))
        ET.indent(tree)
        tree.write(args.junit, encoding="utf-8", xml_declaration=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
