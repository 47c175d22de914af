#!/usr/bin/env python3
"""Runs or checks every command that README.md and docs/*.md show (ctest docs.commands).

A command is shown in a ```sh block (commands, with comments) or a ```console block (`$ `
lines, each followed by the output it prints; a line `...` stands for any lines). Each
command is one of:

- run: `ndshard ...` (also as `build/<preset>/bin/ndshard` or `"$NDSHARD"/build/...`), the
  compilers (`c++`, `g++`, `clang++-14`), `pkg-config`, `cmake -S` and `cmake --install`,
  variable assignments, `export`, `cd` and a program the block itself made (`./my_app`).
  A ```sh block of these runs as one bash script (`set -eo pipefail`) in a scratch folder
  whose HOME holds a clone at $HOME/src/ndshard (its build/<preset>/bin/ndshard is this
  build's program; $NDSHARD points at it) and whose PATH has this build's `ndshard`. A
  block that names build/<preset>/bin runs only in the ctest of that preset: default or
  asan, the two that scripts/test.sh runs. A console block's commands run one by one and
  must print what the page shows. A command that writes a file the repository holds (an
  SVG of docs/gallery/) must write it byte for byte. A fenced block right after
  `<!-- doc-file: NAME -->` is written to the scratch folder as NAME first (my_adapter.cpp,
  my_app.cpp), so the commands that build it build what the page prints.
- checked: the long commands CI runs itself (scripts/test.sh, verify.sh, fuzz.sh, bench.sh,
  coverage.sh, check-presets.sh, format.sh, install-deps.sh) must exist, be executable and
  accept every flag shown (their --help names it), and fuzz.sh's targets and test.sh's and
  check-presets.sh's presets must exist; `cmake --preset/--build/--workflow` and `ctest`
  must name presets of CMakePresets.json, and (in the default preset's build, which has
  every test) targets, labels and tests this build has; `build/<preset>/bin/<program>`
  must be a target. NDSHARD_* and FUZZ_* variables must be read somewhere in the tree.

A block that mixes run and checked commands, a command that is neither, and a command
shown outside such a block (an indented block, another fence) are problems. Inline code
that starts with `ndshard <command>` or `scripts/<name>.sh` must name a command and flags
its --help lists.

Usage: scripts/check-doc-commands.py --ndshard BIN [--preset NAME] [--targets FILE]
                                     [--build DIR] [--keep DIR] [root]
  --ndshard  the build's ndshard program      --preset  the build's preset (default: default)
  --targets  the build's targets, one a line   --build   the build folder (for ctest -N)
  --keep     the scratch folder (default: a temporary one, removed)
Prints one line per problem naming the page, line and command; exits 1 if any.
"""
import argparse
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

LONG_SCRIPTS = {"test.sh", "verify.sh", "fuzz.sh", "bench.sh", "coverage.sh", "check-presets.sh", "format.sh",
                "install-deps.sh"}
RUN_PROGRAMS = {"ndshard", "c++", "g++", "clang++-14", "pkg-config", "export"}
RUN_PRESETS = ("default", "asan")  # the presets scripts/test.sh builds and tests
BLOCK_SECONDS = 600

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("root", nargs="?", default=pathlib.Path(__file__).resolve().parent.parent)
parser.add_argument("--ndshard", required=True)
parser.add_argument("--preset", default="default")
parser.add_argument("--targets")
parser.add_argument("--build")
parser.add_argument("--keep")
args = parser.parse_args()
root = pathlib.Path(args.root).resolve()
ndshard = pathlib.Path(args.ndshard).resolve()
presets_json = json.loads((root / "CMakePresets.json").read_text(encoding="utf-8"))
presets = {kind: {p["name"] for p in presets_json.get(kind, []) if not p.get("hidden")}
           for kind in ("configurePresets", "buildPresets", "testPresets", "workflowPresets")}
preset = args.preset if args.preset in presets["configurePresets"] else "default"
targets = set(pathlib.Path(args.targets).read_text().split()) if args.targets else None
problems = []
counts = {"run": 0, "checked": 0, "skipped": 0}


def problem(where, text):
    problems.append(f"{where}: {text}")


# --- the pages -----------------------------------------------------------------------------
class Block:
    def __init__(self, page, line, info, lines, doc_file):
        self.page, self.line, self.info, self.lines, self.doc_file = page, line, info, lines, doc_file

    @property
    def where(self):
        return f"{self.page}:{self.line}"


COMMAND_LINE = re.compile(r"^(\$ )?(ndshard|(\S*/)?build/[\w-]+/bin/\S+|(\S*/)?scripts/[\w-]+\.sh)(\s|$)")


def read_page(page):
    """The page's fenced blocks, its inline code spans (line, text), and indented commands."""
    rel = page.relative_to(root).as_posix()
    blocks, spans = [], []
    text = page.read_text(encoding="utf-8").splitlines()
    fence, doc_file, previous = None, None, ""
    for n, line in enumerate(text, 1):
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith("```"):
                blocks.append(Block(rel, fence[0], fence[1], fence[3], fence[2]))
                fence = None
            else:
                fence[3].append(line[fence[4]:] if line[:fence[4]].strip() == "" else line.lstrip())
            continue
        if stripped.startswith("```"):
            fence = (n, stripped[3:].strip(), doc_file, [], len(line) - len(line.lstrip()))
            doc_file = None
            continue
        m = re.fullmatch(r"<!--\s*doc-file:\s*(\S+)\s*-->", stripped)
        if m:
            doc_file = m.group(1)
        elif stripped and not stripped.startswith("<!--"):
            doc_file = None
        if line.startswith("    ") and not previous.strip() and COMMAND_LINE.match(stripped):
            problem(f"{rel}:{n}", f"'{stripped}' is an indented block; show commands in a ```sh or ```console "
                                  "block, where they are run or checked")
        previous = line if not line.startswith("    ") else ""
        for span in re.findall(r"`([^`]+)`", line):
            spans.append((n, span))
    return blocks, spans


pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
blocks, spans, doc_files = [], [], {}
for page in pages:
    b, s = read_page(page)
    blocks += b
    spans += [(page.relative_to(root).as_posix(), n, t) for n, t in s]
for block in blocks:
    if block.doc_file:
        if block.doc_file in doc_files:
            problem(block.where, f"doc-file {block.doc_file} is defined twice")
        doc_files[block.doc_file] = "\n".join(block.lines) + "\n"


# --- commands: split, classify -------------------------------------------------------------
def logical_lines(lines):
    """Lines with `\\` continuations joined, each with its 0-based index in the block."""
    out, current, first = [], "", None
    for i, line in enumerate(lines):
        if first is None:
            first = i
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        out.append((first, current + line))
        current, first = "", None
    if current:
        out.append((first, current))
    return out


def simple_commands(line):
    """The simple commands of one shell line: (assigned names, words), redirections and
    command substitutions left out."""
    line = re.sub(r"\$\([^()]*\)", "SUBSTITUTION", line)
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    commands, words = [], []
    tokens = list(lexer)
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t in ("&&", "||", ";", "|", "(", ")", "&"):
            commands.append(words)
            words = []
        elif t in (">", ">>", "<", "2>"):
            i += 1  # and its file
        else:
            words.append(t)
        i += 1
    commands.append(words)
    result = []
    for words in commands:
        names = []
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            names.append(words.pop(0).split("=", 1)[0])
        if words or names:
            result.append((names, words))
    return result


def classify(names, words):
    """run, checked, neutral (cd, an assignment alone), or None (neither)."""
    if not words:
        return "neutral"
    program, rest = words[0], words[1:]
    if program == "cd":
        return "neutral"
    if program in RUN_PROGRAMS or program.startswith("./"):
        return "run"
    if re.search(r"(^|/)build/[\w-]+/bin/ndshard$", program):
        return "run"
    if re.search(r"(^|/)build/[\w-]+/bin/[\w.-]+$", program):
        return "checked"
    if re.search(r"(^|/)scripts/[\w-]+\.sh$", program):
        return "checked"
    if program == "cmake":
        return "run" if ("-S" in rest or "--install" in rest) else "checked"
    if program == "ctest":
        return "checked"
    return None


# --- checked commands ----------------------------------------------------------------------
help_cache = {}


def has_option(script, text, flag):
    """Whether scripts/<script> takes flag: its --help names it (or it is --help itself, and
    the script handles that)."""
    if flag in ("--help", "-h"):
        return flag in (root / "scripts" / script).read_text(encoding="utf-8")
    return re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text) is not None


def script_help(script):
    if script not in help_cache:
        r = subprocess.run(["bash", str(root / "scripts" / script), "--help"], capture_output=True, text=True,
                           cwd=root, timeout=60, env=dict(os.environ, NDSHARD_SKIP_DEPS="1"))
        help_cache[script] = r.stdout + r.stderr if r.returncode == 0 else None
    return help_cache[script]


def fuzz_targets():
    return {p.stem for d in ("fuzz", "tools/fuzz") for p in (root / d).glob("fuzz_*.cpp")}


def check_script(where, program, rest):
    script = program.rsplit("/", 1)[-1]
    if script not in LONG_SCRIPTS:
        problem(where, f"{program}: not one of the long commands CI runs itself ({', '.join(sorted(LONG_SCRIPTS))}); "
                       "show a command that can be run, or add it to that list")
        return
    path = root / "scripts" / script
    if not path.is_file() or not os.access(path, os.X_OK):
        problem(where, f"{program}: scripts/{script} is missing or not executable")
        return
    if script == "install-deps.sh":
        if rest:
            problem(where, f"{program}: install-deps.sh takes no arguments, not {' '.join(rest)}")
        return
    text = script_help(script)
    if text is None:
        problem(where, f"{program}: `scripts/{script} --help` failed")
        return
    # --flag VALUE VALUE in the help: how many values each flag takes.
    arity = {}
    for m in re.finditer(r"^[ \t]*(--[\w-]+)((?:[ \t]+[A-Z][A-Z_]*\b)*)", text, re.M):
        arity[m.group(1)] = max(arity.get(m.group(1), 0), len(m.group(2).split()))
    positional, i = [], 0
    while i < len(rest):
        word = rest[i]
        if word.startswith("--"):
            flag = word.split("=", 1)[0]
            if not has_option(script, text, flag):
                problem(where, f"{program}: {flag} is not an option of scripts/{script} (its --help does not name it)")
            i += 1 + (arity.get(flag, 0) if "=" not in word else 0)
        else:
            positional.append(word)
            i += 1
    if script == "fuzz.sh":
        known = fuzz_targets()
        for t in positional:
            if t not in known and "fuzz_" + t not in known:
                problem(where, f"{program}: no fuzz target {t} (fuzz/ and tools/fuzz/ have {', '.join(sorted(known))})")
    elif script in ("test.sh", "check-presets.sh"):
        for p in positional:
            if p.split(":", 1)[0] not in presets["configurePresets"]:
                problem(where, f"{program}: {p.split(':', 1)[0]} is not a configure preset of CMakePresets.json")
    elif positional:
        problem(where, f"{program}: scripts/{script} takes no arguments but options, not {' '.join(positional)}")


def ctest_list(what):
    if not args.build or preset != "default":
        return None
    r = subprocess.run(["ctest", "--test-dir", args.build] + what, capture_output=True, text=True, timeout=120)
    return r.stdout if r.returncode == 0 else None


def check_build_dir(where, program, folder):
    m = re.fullmatch(r"build/([\w-]+)/?", folder)
    if not m or m.group(1) not in presets["configurePresets"]:
        problem(where, f"{program}: {folder} is not build/<configure preset>")


def check_cmake(where, rest):
    kind = "buildPresets" if "--build" in rest else "workflowPresets" if "--workflow" in rest else "configurePresets"
    for i, word in enumerate(rest):
        value = rest[i + 1] if i + 1 < len(rest) else ""
        if word == "--preset" and value not in presets[kind]:
            problem(where, f"cmake: {value} is not one of CMakePresets.json's {kind}")
        if word == "--build" and value and not value.startswith("-"):
            check_build_dir(where, "cmake", value)
        if word == "--target" and targets is not None:
            for t in rest[i + 1:]:
                if t.startswith("-"):
                    break
                if t not in targets:
                    problem(where, f"cmake: --target {t} is not a target of this build")


def check_ctest(where, rest):
    for i, word in enumerate(rest):
        value = rest[i + 1] if i + 1 < len(rest) else ""
        if word == "--preset" and value not in presets["testPresets"]:
            problem(where, f"ctest: {value} is not one of CMakePresets.json's testPresets")
        if word == "--test-dir":
            check_build_dir(where, "ctest", value)
        if word in ("-L", "--label-regex"):
            labels = ctest_list(["--print-labels"])
            if labels is not None and not any(re.search(value, l.strip()) for l in labels.splitlines()[2:]):
                problem(where, f"ctest: -L {value} matches no label of this build")
        if word in ("-R", "--tests-regex"):
            tests = ctest_list(["-N"])
            names = re.findall(r"Test\s+#\d+: (\S+)", tests or "")
            if tests is not None and not any(re.search(value, t) for t in names):
                problem(where, f"ctest: -R {value} matches no test of this build")


def check_variables(where, names):
    for name in names:
        if not re.match(r"^(NDSHARD|FUZZ)_", name):
            continue
        r = subprocess.run(["git", "-C", str(root), "grep", "-q", "-w", name, "--", ":!*.md"], capture_output=True)
        if r.returncode == 1:
            problem(where, f"{name}: no file of the tree reads this variable")


def check_command(where, names, words):
    check_variables(where, names)
    if not words:
        return
    program, rest = words[0], words[1:]
    if program == "cmake":
        check_cmake(where, rest)
    elif program == "ctest":
        check_ctest(where, rest)
    elif re.search(r"(^|/)scripts/[\w-]+\.sh$", program):
        check_script(where, program, rest)
    else:
        m = re.search(r"(^|/)build/([\w-]+)/bin/([\w.-]+)$", program)
        check_build_dir(where, program, f"build/{m.group(2)}")
        if targets is not None and m.group(3) not in targets:
            problem(where, f"{program}: {m.group(3)} is not a target of this build")


# --- run commands --------------------------------------------------------------------------
scratch_root = pathlib.Path(args.keep) if args.keep else pathlib.Path(tempfile.mkdtemp(prefix="ndshard-doc-commands-"))


def scratch(page):
    """A scratch folder for one page: work/ (the current folder, with the doc files), home/
    (HOME, with the clone at src/ndshard) and bin/ (this build's ndshard on PATH)."""
    base = scratch_root / page.replace("/", "_")
    if base.exists():
        shutil.rmtree(base)
    work, home, bin_dir = base / "work", base / "home", base / "bin"
    clone = home / "src" / "ndshard"
    for d in (work, clone / "build" / preset / "bin", bin_dir):
        d.mkdir(parents=True)
    for entry in root.iterdir():
        if entry.name != "build":
            (clone / entry.name).symlink_to(entry)
    (clone / "build" / preset / "bin" / "ndshard").symlink_to(ndshard)
    (bin_dir / "ndshard").symlink_to(ndshard)
    for name, text in doc_files.items():
        (work / name).write_text(text, encoding="utf-8")
    env = dict(os.environ, HOME=str(home), NDSHARD=str(clone), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    for key in ("RC_PARAMS", "PKG_CONFIG_PATH", "LD_PRELOAD", "NDSHARD_CONFORM_IMPL"):
        env.pop(key, None)
    return work, env


def written_files(text):
    """Files the commands redirect their output to."""
    return re.findall(r"(?<![0-9&])>\s*([\w./-]+)", re.sub(r"#.*", "", text))


def compare_written(where, work, text):
    for name in written_files(text):
        ours = root / name
        if ours.is_file():
            made = work / name
            if not made.is_file() or made.read_bytes() != ours.read_bytes():
                problem(where, f"{name}: the command shown no longer makes the file the repository holds; run it "
                               "again from the repository root and commit the result")


def run_script(where, work, env, text):
    for name in written_files(text):
        (work / name).parent.mkdir(parents=True, exist_ok=True)
    try:
        r = subprocess.run(["bash", "-c", "set -eo pipefail\n" + text], cwd=work, env=env, capture_output=True,
                           text=True, timeout=BLOCK_SECONDS)
    except subprocess.TimeoutExpired:
        problem(where, f"did not finish in {BLOCK_SECONDS} s")
        return None
    if r.returncode != 0:
        tail = "\n    ".join((r.stdout + r.stderr).splitlines()[-25:])
        problem(where, f"exit status {r.returncode}:\n    {tail}")
        return None
    compare_written(where, work, text)
    return r.stdout


def block_preset(block):
    named = set(re.findall(r"(?:^|/)build/([\w-]+)/bin/", "\n".join(block.lines), re.M))
    for p in named - set(RUN_PRESETS):
        problem(block.where, f"runs build/{p}/bin: a command that is run may only use the default or asan build "
                             "(scripts/test.sh runs those two; the others never run this check)")
    if len(named) > 1:
        problem(block.where, f"uses the builds of several presets ({', '.join(sorted(named))}); split the block")
    return next(iter(named), None)


def console_commands(block):
    """(index, command, expected lines) for each `$ ` line of a console block."""
    out, current = [], None
    for i, line in enumerate(block.lines):
        if line.startswith("$ "):
            current = (i, line[2:], [])
            out.append(current)
        elif current is None:
            problem(f"{block.page}:{block.line + 1 + i}", "a console block starts with a `$ ` command")
        else:
            current[2].append(line.rstrip())
    return out


def output_matches(expected, actual):
    """expected lines, where `...` stands for any lines, against actual lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(output_matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and output_matches(expected[1:], actual[1:])


# --- the pages' commands -------------------------------------------------------------------
envs = {}
for block in blocks:
    commands = []  # (index in block, names, words, kind)
    if block.info == "console":
        parsed = console_commands(block)
        for i, text, _ in parsed:
            commands += [(i, n, w, classify(n, w)) for n, w in simple_commands(text)]
    elif block.info == "sh":
        for i, line in logical_lines(block.lines):
            commands += [(i, n, w, classify(n, w)) for n, w in simple_commands(line)]
    else:
        for i, line in enumerate(block.lines):
            if COMMAND_LINE.match(line.strip()):
                problem(f"{block.page}:{block.line + 1 + i}", f"'{line.strip()}' is in a ```{block.info} block; show "
                                                              "commands in a ```sh or ```console block")
        continue
    kinds = {k for *_, k in commands} - {"neutral"}
    for i, names, words, kind in commands:
        if kind is None:
            problem(f"{block.page}:{block.line + 1 + i}", f"'{' '.join(words)}' is neither run nor checked by this "
                                                          "test; show a command it knows, or teach it this one")
    if None in kinds:
        continue
    if kinds == {"run", "checked"}:
        problem(block.where, "mixes commands that are run with commands that are only checked; split the block")
        continue
    if "checked" in kinds or not kinds:
        if block.info == "console":
            problem(block.where, "a console block shows commands that are run, with their output")
        for i, names, words, kind in commands:
            check_command(f"{block.page}:{block.line + 1 + i}", names, words if kind == "checked" else [])
        counts["checked"] += sum(1 for *_, k in commands if k == "checked")
        continue
    # commands that run
    wanted = block_preset(block)
    n_run = sum(1 for *_, k in commands if k == "run")
    if wanted and wanted != preset:
        print(f"{block.where}: skipped here: runs in the {wanted} preset's docs.commands")
        counts["skipped"] += n_run
        continue
    if block.page not in envs:
        envs[block.page] = scratch(block.page)
    work, env = envs[block.page]
    if block.info == "sh":
        run_script(block.where, work, env, "\n".join(block.lines) + "\n")
    else:
        for i, text, expected in console_commands(block):
            where = f"{block.page}:{block.line + 1 + i}"
            out = run_script(where, work, env, text + "\n")
            if out is not None and not output_matches(expected, out.rstrip("\n").split("\n") if out else []):
                shown = "\n    ".join(out.splitlines()[:40])
                problem(where, f"'{text}' printed other lines than the page shows:\n    {shown}")
    counts["run"] += n_run


# --- inline code: `ndshard <command> --flag`, `scripts/<name>.sh --flag` ------------------
ndshard_help = {}


def ndshard_options(command):
    if command not in ndshard_help:
        r = subprocess.run([str(ndshard)] + ([command] if command else []) + ["--help"], capture_output=True,
                           text=True, timeout=60)
        ndshard_help[command] = r.stdout if r.returncode == 0 else None
    return ndshard_help[command]


for page, n, span in spans:
    where = f"{page}:{n}"
    words = span.split()
    flags = re.findall(r"(?<![\w-])(--[a-z][\w-]*)", span)
    if words[0] == "ndshard" and len(words) > 1:
        command = words[1] if re.fullmatch(r"[a-z]+", words[1]) else ""
        if not command and not words[1].startswith("-"):
            continue  # `ndshard COMMAND: ...`, a message's shape
        text = ndshard_options(command)
        if text is None:
            problem(where, f"`{span}`: `ndshard {command} --help` fails; is {command} a command?")
            continue
        for flag in flags:
            if not re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text):
                problem(where, f"`{span}`: ndshard {command} has no option {flag}")
    m = re.fullmatch(r"(?:scripts/)?([\w-]+\.sh)", words[0])
    if m and m.group(1) in LONG_SCRIPTS and flags:
        text = script_help(m.group(1)) if (root / "scripts" / m.group(1)).is_file() else None
        if text is None:
            problem(where, f"`{span}`: scripts/{m.group(1)} is missing or its --help fails")
            continue
        for flag in flags:
            if not has_option(m.group(1), text, flag):
                problem(where, f"`{span}`: scripts/{m.group(1)} has no option {flag}")

if not args.keep:
    shutil.rmtree(scratch_root, ignore_errors=True)
for p in problems:
    print(p)
print(f"check-doc-commands: {counts['run']} command(s) run, {counts['checked']} checked, {counts['skipped']} "
      f"left to the other preset, {len(problems)} problem(s) in {len(pages)} page(s)")
sys.exit(1 if problems else 0)
