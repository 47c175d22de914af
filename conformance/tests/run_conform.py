#!/usr/bin/env python3
"""ctest driver of the `conformance` label: runs `ndshard conform --json` on one adapter
and judges the report against what the adapter is (conformance/CMakeLists.txt).

  run_conform.py pass   --ndshard BIN --impl SO --name N [--abi-version V] [run options]
      the implementation must pass: exit 0, no law failed, at least one law passed;
      with --abi-version, the report must show that ABI version; with --passed L1,L2 those
      laws must have passed (not been skipped); with --skipped L1,L2 those laws must have
      been skipped with a reason that names what the implementation does not declare.
  run_conform.py defect --ndshard BIN --impl SO --name N --expectations FILE [run options]
      the defect must be caught: exit 1 (never a signal, also when the module crashes or
      hangs), every law FILE lists for N failed, and each of those counterexamples is
      small (rank <= 3, <= 64 pages) unless FILE says why it cannot be.
  run_conform.py docs --page docs/conformance.md --cxx CXX --include DIR --workdir DIR [pass options]
      extracts the adapter, the fenced block after the page's `<!-- doc-file: my_adapter.cpp -->`,
      exactly as printed, builds it as a shared library with CXX (the page's command), and
      checks it passes.
  run_conform.py summary --expectations FILE --results DIR
      prints the defect table and the catch rate (caught / total) from the results the
      defect tests wrote; fails unless every defect was caught.
      Runs only the laws FILE lists for N (--all-laws: every law).
  run options: --cases N --seed S --timeout-ms MS --results DIR

Exit codes: 0 as expected, 1 not as expected, 77 skipped (ctest SKIP_RETURN_CODE):
`ndshard conform` is not in this build, so nothing could be judged.
"""
import argparse
import json
import os
import subprocess
import sys

SKIP = 77
SMALL_RANK, SMALL_PAGES = 3, 64


def read_expectations(path):
    """name -> {"laws": [...], "small": bool, "why": str}; '#' starts a comment."""
    table = {}
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split(None, 2)
            if len(fields) < 3 or fields[2].split(":", 1)[0] not in ("small", "large"):
                sys.exit(f"{path}:{number}: expected '<defect> <law[,law...]> small|large: <why>'")
            size = fields[2]
            table[fields[0]] = {
                "laws": [law for law in fields[1].split(",") if law],
                "small": size.startswith("small"),
                "why": size.split(":", 1)[1].strip() if ":" in size else "",
            }
    return table


def conform_available(ndshard):
    """True when this build's CLI has the `conform` command."""
    if not ndshard or not os.path.exists(ndshard):
        return False
    try:
        probe = subprocess.run([ndshard, "conform", "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0 and "--impl" in probe.stdout + probe.stderr


def run(args, laws=None):
    command = [args.ndshard, "conform", "--impl", args.impl, "--cases", str(args.cases), "--seed", str(args.seed),
               "--json", "--timeout-ms", str(args.timeout_ms)]
    if laws:
        command += ["--law", "^(" + "|".join(laws) + ")$"]
    print("$ " + " ".join(command), flush=True)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.wall_seconds)
    except subprocess.TimeoutExpired:
        return None, None, f"the runner itself did not finish within {args.wall_seconds} s"
    if done.stderr.strip():
        print(done.stderr.rstrip()[-4000:])
    if done.returncode < 0:
        return done.returncode, None, f"the runner died by signal {-done.returncode} (it must survive the module)"
    text = done.stdout
    start = text.find("{")
    try:
        report = json.loads(text[start:]) if start >= 0 else None
    except json.JSONDecodeError as e:
        return done.returncode, None, f"--json output is not one JSON object ({e}): {text[:500]!r}"
    if not isinstance(report, dict) or not isinstance(report.get("laws"), list):
        return done.returncode, None, f"--json output has no 'laws' list: {text[:500]!r}"
    return done.returncode, report, None


def law_table(report):
    lines = []
    for law in report["laws"]:
        line = f"  {law.get('name', '?'):<26} {law.get('status', '?'):<8} cases={law.get('cases', '?')}"
        ce = law.get("counterexample")
        if law.get("status") == "failed" and isinstance(ce, dict):
            line += f"  rank={ce.get('rank')} pages={ce.get('pages')}"
        if law.get("reason"):
            line += f"  ({law['reason']})"
        lines.append(line)
    return "\n".join(lines)


def counts(report):
    statuses = [law.get("status") for law in report["laws"]]
    return {s: statuses.count(s) for s in ("passed", "failed", "skipped")}


def write_result(args, result):
    if not args.results:
        return
    os.makedirs(args.results, exist_ok=True)
    with open(os.path.join(args.results, args.name + ".json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)


def clear_result(args):
    if args.results:
        try:
            os.remove(os.path.join(args.results, args.name + ".json"))
        except FileNotFoundError:
            pass


def check_pass(args):
    clear_result(args)
    if not conform_available(args.ndshard):
        print(f"SKIP: `ndshard conform` is not available in this build ({args.ndshard})")
        return SKIP
    rc, report, problem = run(args)
    if problem:
        print("FAIL: " + problem)
        return 1
    print(law_table(report))
    n = counts(report)
    print(f"{args.name}: exit {rc}, passed {n['passed']}, failed {n['failed']}, skipped {n['skipped']}")
    errors = []
    if rc != 0:
        errors.append(f"exit code {rc}, expected 0")
    if n["failed"] or any(law.get("status") not in ("passed", "skipped") for law in report["laws"]):
        errors.append("a law did not pass")
    if n["passed"] == 0:
        errors.append("no law passed (everything skipped proves nothing)")
    by_name = {law.get("name"): law for law in report["laws"]}
    for name in filter(None, (args.passed or "").split(",")):
        status = (by_name.get(name) or {}).get("status")
        if status != "passed":
            errors.append(f"law {name} is {status or 'not in the report'}, it must pass")
    for name in filter(None, (args.skipped or "").split(",")):
        law = by_name.get(name) or {}
        if law.get("status") != "skipped" or "does not declare" not in (law.get("reason") or ""):
            errors.append(f"law {name} is {law.get('status') or 'not in the report'} ({law.get('reason')!r}); "
                          "it must be skipped for a query the implementation does not declare")
    if args.abi_version is not None:
        got = (report.get("impl") or {}).get("abi_version")
        if got != args.abi_version:
            errors.append(f"the report shows abi_version {got!r}, expected {args.abi_version}")
    write_result(args, {"name": args.name, "kind": "pass", "exit": rc, "counts": n, "ok": not errors})
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


def check_defect(args):
    clear_result(args)
    expected = read_expectations(args.expectations).get(args.name)
    if expected is None:
        print(f"FAIL: {args.name} has no line in {args.expectations}")
        return 1
    if not conform_available(args.ndshard):
        print(f"SKIP: `ndshard conform` is not available in this build ({args.ndshard})")
        return SKIP
    # Only the laws that must catch the defect (unless --all-laws): a failing law shrinks its
    # counterexample, which is where the time goes, and the other laws prove nothing here.
    rc, report, problem = run(args, None if args.all_laws else expected["laws"])
    if problem:
        print("FAIL: " + problem)
        write_result(args, {"name": args.name, "kind": "defect", "caught": False, "problem": problem})
        return 1
    print(law_table(report))
    laws = {law.get("name"): law for law in report["laws"]}
    failed = sorted(name for name, law in laws.items() if law.get("status") == "failed")
    errors = []
    if rc != 1:
        errors.append(f"exit code {rc}, expected 1")
    sizes = {}
    for name in expected["laws"]:
        law = laws.get(name)
        if law is None:
            errors.append(f"expected law {name} is not in the report")
            continue
        if law.get("status") != "failed":
            errors.append(f"expected law {name} {law.get('status')}, it must fail")
            continue
        ce = law.get("counterexample")
        if not isinstance(ce, dict):
            errors.append(f"law {name} failed without a counterexample")
            continue
        rank, pages = ce.get("rank"), ce.get("pages")
        sizes[name] = {"rank": rank, "pages": pages}
        print(f"{name}: counterexample rank {rank}, {pages} pages\n  spec: {ce.get('spec')}\n"
              f"  query: {ce.get('query')}  expected: {ce.get('expected')}  got: {ce.get('got')}\n"
              f"  replay: {law.get('replay')}")
        small = isinstance(rank, int) and isinstance(pages, int) and rank <= SMALL_RANK and pages <= SMALL_PAGES
        if expected["small"] and not small:
            errors.append(f"law {name}: counterexample rank {rank}, {pages} pages is not small "
                          f"(rank <= {SMALL_RANK}, <= {SMALL_PAGES} pages)")
    caught = not errors
    print(f"{args.name}: {'caught' if caught else 'NOT caught as expected'}; failed laws: {', '.join(failed) or 'none'}")
    write_result(args, {"name": args.name, "kind": "defect", "caught": caught, "exit": rc, "expected": expected["laws"],
                        "failed": failed, "sizes": sizes, "counts": counts(report), "errors": errors})
    for e in errors:
        print("FAIL: " + e)
    return 0 if caught else 1


DOC_FILE_MARKER = "<!-- doc-file: my_adapter.cpp -->"


def build_docs_adapter(args):
    """Writes the page's adapter to workdir/my_adapter.cpp and builds libmy_adapter.so; returns its path."""
    with open(args.page, encoding="utf-8") as f:
        text = f.read()
    if text.count(DOC_FILE_MARKER) != 1:
        raise RuntimeError(f"{args.page} must hold exactly one {DOC_FILE_MARKER}, before the adapter's block")
    lines = text.split(DOC_FILE_MARKER, 1)[1].lstrip("\n").splitlines()
    if not lines or not lines[0].startswith("```"):
        raise RuntimeError(f"{DOC_FILE_MARKER} must be followed by one fenced code block")
    end = next((i for i, line in enumerate(lines[1:], 1) if line.strip() == "```"), None)
    if end is None:
        raise RuntimeError("the adapter's fenced block is not closed")
    os.makedirs(args.workdir, exist_ok=True)
    source = os.path.join(args.workdir, "my_adapter.cpp")
    library = os.path.join(args.workdir, "libmy_adapter.so")
    with open(source, "w", encoding="utf-8") as f:
        f.write("\n".join(lines[1:end]) + "\n")
    print(f"{args.page} adapter: {end - 1} lines -> {source}")
    # The command the page prints, with the host compiler for `c++`.
    command = [args.cxx, "-std=c++17", "-O2", "-shared", "-fPIC", "-I" + os.path.abspath(args.include), source, "-o", library]
    print("$ " + " ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=args.workdir)
    return library


def summary(args):
    expectations = read_expectations(args.expectations)
    caught, rows, missing = 0, [], 0
    for name, expected in expectations.items():
        path = os.path.join(args.results, name + ".json")
        try:
            with open(path, encoding="utf-8") as f:
                result = json.load(f)
        except (OSError, json.JSONDecodeError):
            result = None
            missing += 1
        ok = bool(result and result.get("caught"))
        caught += ok
        if result is None:
            detail = "no result (test skipped or not run)"
        else:
            sizes = result.get("sizes", {})
            detail = "; ".join(f"{law} rank {s['rank']} pages {s['pages']}" for law, s in sizes.items()) or \
                result.get("problem", "")
            if result.get("failed"):
                detail += f"  [failed: {', '.join(result['failed'])}]"
        rows.append(f"  {name:<28} {'caught' if ok else 'MISSED':<7} expect {','.join(expected['laws']):<24} {detail}")
    print("\n".join(rows))
    total = len(expectations)
    print(f"catch rate: {caught}/{total}" + (f" ({100.0 * caught / total:.0f}%)" if total else ""))
    if missing == total:
        print("SKIP: no defect results (is `ndshard conform` in this build?)")
        return SKIP
    return 0 if caught == total else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["pass", "defect", "summary", "docs"])
    parser.add_argument("--ndshard")
    parser.add_argument("--impl")
    parser.add_argument("--name")
    parser.add_argument("--expectations")
    parser.add_argument("--results")
    parser.add_argument("--abi-version", type=int)
    parser.add_argument("--passed", help="pass: comma-separated laws that must have passed (not skipped)")
    parser.add_argument("--skipped", help="pass: comma-separated laws that must be skipped as undeclared")
    parser.add_argument("--page")
    parser.add_argument("--cxx")
    parser.add_argument("--include")
    parser.add_argument("--workdir")
    parser.add_argument("--cases", type=int, default=250)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--timeout-ms", type=int, default=2000)
    parser.add_argument("--wall-seconds", type=int, default=600)
    parser.add_argument("--all-laws", action="store_true", help="defect: run every law, not only the expected ones")
    args = parser.parse_args()
    if args.mode == "summary":
        return summary(args)
    if args.mode == "docs":
        try:
            args.impl = build_docs_adapter(args)
        except (RuntimeError, OSError, subprocess.CalledProcessError) as e:
            print(f"FAIL: {args.page} adapter: {e}")
            return 1
        return check_pass(args)
    if not args.impl or not args.name:
        parser.error("--impl and --name are required")
    return check_pass(args) if args.mode == "pass" else check_defect(args)


if __name__ == "__main__":
    sys.exit(main())
