#!/usr/bin/env python3
"""Checks the continuous-fuzzing files against each other (ctest fuzz.clusterfuzzlite_workflows).

- .clusterfuzzlite/project.yaml carries what ClusterFuzzLite and OSS-Fuzz read: language
  c++, libFuzzer, sanitizers address and undefined, main_repo, homepage, primary_contact.
- .github/workflows/cflite_pr.yml fuzzes pull requests in code-change mode and
  .github/workflows/cflite_batch.yml runs daily in batch mode, then prune and coverage,
  each through google/clusterfuzzlite/actions/{build_fuzzers,run_fuzzers}@v1; the PR and
  batch jobs run every sanitizer project.yaml names (build.sh builds every fuzz target,
  so each target is fuzzed under each of them).
- every fuzz target (fuzz/fuzz_*.cpp, tools/fuzz/fuzz_*.cpp) whose input has tokens has a
  dictionary next to it; the targets that read only byte_entropy choices are listed here.
Prints one line per problem and exits 1; exits 0 with a summary otherwise.
Usage: check_workflows.py [repository root]   (default: this script's repository)
"""
import pathlib
import sys

try:
    import yaml
except ImportError:  # the check still runs, on the structure it can see without a parser
    yaml = None

# Targets whose input is only byte_entropy choices (no tokens, so no dictionary).
TOKEN_FREE = {"fuzz_kernel", "fuzz_conform"}
WANT_SANITIZERS = {"address", "undefined"}
BUILD = "google/clusterfuzzlite/actions/build_fuzzers@v1"
RUN = "google/clusterfuzzlite/actions/run_fuzzers@v1"

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
problems = []


def load(rel):
    path = root / rel
    if not path.is_file():
        problems.append(f"{rel}: missing")
        return None
    text = path.read_text()
    if yaml is None:
        return text
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        problems.append(f"{rel}: not valid YAML: {str(e).splitlines()[0]}")
        return None


def steps_of(workflow):
    """(job name, job, step) for every step of every job."""
    for name, job in (workflow.get("jobs") or {}).items():
        for step in job.get("steps") or []:
            yield name, job, step


def job_sanitizers(job, step):
    """The sanitizers a run step fuzzes with: a literal, or the job's matrix values."""
    value = str((step.get("with") or {}).get("sanitizer", "address"))
    if "matrix.sanitizer" in value:
        return set(((job.get("strategy") or {}).get("matrix") or {}).get("sanitizer") or [])
    return {value}


def check_workflow(rel, trigger, modes):
    wf = load(rel)
    if wf is None:
        return
    if yaml is None:  # text-only: the trigger, the actions and the modes are named
        for needle in [trigger, BUILD, RUN] + [f"mode: '{m}'" for m in modes]:
            if needle not in wf:
                problems.append(f"{rel}: does not mention {needle}")
        for s in sorted(WANT_SANITIZERS):
            if f"- {s}" not in wf:
                problems.append(f"{rel}: sanitizer {s} is not in a matrix")
        return
    # YAML 1.1 reads the key `on` as True.
    triggers = wf.get("on", wf.get(True)) or {}
    if trigger not in triggers:
        problems.append(f"{rel}: not triggered by {trigger} (triggers: {sorted(map(str, triggers))})")
    builds = [(n, j, s) for n, j, s in steps_of(wf) if s.get("uses") == BUILD]
    runs = [(n, j, s) for n, j, s in steps_of(wf) if s.get("uses") == RUN]
    if not builds or not runs:
        problems.append(f"{rel}: needs steps using {BUILD} and {RUN}")
    for n, j, s in builds:
        lang = (s.get("with") or {}).get("language")
        if lang != "c++":
            problems.append(f"{rel}: job {n} builds with language {lang!r}, not 'c++'")
    found = {}
    for n, j, s in runs:
        w = s.get("with") or {}
        mode = w.get("mode")
        found.setdefault(mode, set()).update(job_sanitizers(j, s))
        if not str(w.get("fuzz-seconds", "")).isdigit():
            problems.append(f"{rel}: job {n} has no whole-number fuzz-seconds")
    for m in modes:
        if m not in found:
            problems.append(f"{rel}: no run_fuzzers step in mode {m!r} (modes: {sorted(map(str, found))})")
    fuzzing_mode = modes[0]
    missing = WANT_SANITIZERS - found.get(fuzzing_mode, set())
    if missing:
        problems.append(f"{rel}: mode {fuzzing_mode!r} does not run sanitizer(s) {sorted(missing)}")


project = load(".clusterfuzzlite/project.yaml")
if project is not None and yaml is not None:
    for key in ("main_repo", "homepage", "primary_contact"):
        if not project.get(key):
            problems.append(f".clusterfuzzlite/project.yaml: no {key} (OSS-Fuzz needs it)")
    if project.get("language") != "c++":
        problems.append(f".clusterfuzzlite/project.yaml: language {project.get('language')!r}, not 'c++'")
    if set(project.get("sanitizers") or []) != WANT_SANITIZERS:
        problems.append(f".clusterfuzzlite/project.yaml: sanitizers {project.get('sanitizers')}, "
                        f"want {sorted(WANT_SANITIZERS)}")
    if "libfuzzer" not in (project.get("fuzzing_engines") or []):
        problems.append(".clusterfuzzlite/project.yaml: fuzzing_engines does not list libfuzzer")
elif project is not None:
    for needle in ("main_repo:", "homepage:", "primary_contact:", "language: c++", "- address", "- undefined"):
        if needle not in project:
            problems.append(f".clusterfuzzlite/project.yaml: does not contain {needle!r}")

check_workflow(".github/workflows/cflite_pr.yml", "pull_request", ["code-change"])
check_workflow(".github/workflows/cflite_batch.yml", "schedule", ["batch", "prune", "coverage"])

targets = sorted(p for d in ("fuzz", "tools/fuzz") for p in (root / d).glob("fuzz_*.cpp"))
if not targets:
    problems.append("no fuzz targets found under fuzz/ and tools/fuzz/")
for src in targets:
    if src.stem not in TOKEN_FREE and not src.with_suffix(".dict").is_file():
        problems.append(f"{src.relative_to(root)}: its input has tokens but {src.stem}.dict is missing")

if problems:
    for p in problems:
        print(f"check_workflows: {p}")
    sys.exit(1)
print(f"check_workflows: {len(targets)} targets ({', '.join(t.stem for t in targets)}), each fuzzed under "
      f"{' and '.join(sorted(WANT_SANITIZERS))} on pull requests and daily; "
      f"{'parsed with PyYAML' if yaml else 'text checks only (no PyYAML)'}")
