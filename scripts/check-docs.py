#!/usr/bin/env python3
"""Keeps the documentation true to the tree (ctest docs.laws_and_links).

1. docs/laws.md names every property file (props/*.cpp) and every fuzz target
   (fuzz/fuzz_*.cpp, tools/fuzz/fuzz_*.cpp), and every props/ or fuzz/ file it names exists.
2. Every relative link in README.md and docs/*.md resolves to a file or folder inside
   the repository (no link leaves it), and no page points a reader to ../shared.
3. docs/layout.md lists every folder, every public header and every page of docs/, and
   everything it lists exists. A folder is every folder that holds a file of the repository (tracked by git,
   or new and not ignored), and every top-level folder; a public header is
   lib/include/ndshard/*.hpp, *.h and detail/*.hpp, and every header under an internal
   library's include/ (lib/*/include/, tools/*/include/). An entry is a list item that
   starts with a link to the folder (target ending in '/') or header, followed by what
   lives there: `- [lib/sim/](../lib/sim/) the simulated device ...`. A missing entry is
   printed as the line to paste, with its description left to write.
4. README.md links every page of docs/, so that no page is out of a reader's reach.

The commands the pages show are run or checked by scripts/check-doc-commands.py (ctest
docs.commands), which needs a build.

Usage: scripts/check-docs.py [repository root]   (default: this script's parent folder)
Prints one line per problem naming the file, the link or path, and the rule; exits 1 if any.
"""
import os
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent).resolve()
problems = []

# 1. the law table
laws_md = root / "docs" / "laws.md"
if not laws_md.is_file():
    problems.append(f"docs/laws.md: missing (it must list every property file and fuzz target)")
else:
    text = laws_md.read_text(encoding="utf-8")
    named = set(re.findall(r"(?<![A-Za-z0-9_/])((?:props|fuzz|tools/fuzz)/[A-Za-z0-9_]+\.cpp)\b", text))
    present = {p.relative_to(root).as_posix() for p in (root / "props").glob("*.cpp")}
    present |= {p.relative_to(root).as_posix() for p in (root / "fuzz").glob("fuzz_*.cpp")}
    present |= {p.relative_to(root).as_posix() for p in (root / "tools" / "fuzz").glob("fuzz_*.cpp")}
    for path in sorted(present - named):
        problems.append(f"docs/laws.md: {path} exists but the law table does not name it")
    for path in sorted(named - present):
        problems.append(f"docs/laws.md: names {path}, which does not exist")

# 2. links in README.md and docs/*.md
link = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
pages = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
for page in pages:
    if not page.is_file():
        continue
    rel = page.relative_to(root).as_posix()
    in_code = False
    for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        if "../shared" in line:
            problems.append(f"{rel}:{n}: mentions ../shared, which a user of the repository does not have")
        for target in link.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # http:, mailto:, in-page anchors
            path = target.split("#", 1)[0]
            resolved = (page.parent / path).resolve()
            if root not in resolved.parents and resolved != root:
                problems.append(f"{rel}:{n}: link '{target}' leaves the repository")
            elif not resolved.exists():
                problems.append(f"{rel}:{n}: link '{target}' does not resolve ({resolved.relative_to(root)} is missing)")


# 3. the layout: one line per folder and per public header
def repository_files():
    """Files of the repository as paths relative to root: git's tracked and new-but-not-ignored
    ones (so a header is noticed before it is committed); without git, every file outside
    build trees and hidden caches."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, check=True).stdout
        return {f for f in out.decode("utf-8").split("\0") if f and (root / f).is_file()}
    except (OSError, subprocess.CalledProcessError):
        files = set()
        for folder, dirs, names in os.walk(root):
            rel = pathlib.Path(folder).relative_to(root)
            dirs[:] = [d for d in dirs if not (rel == pathlib.Path(".") and (d.startswith("build") or d == "out"))
                       and d not in (".git", ".cache", "__pycache__")]
            files |= {(rel / n).as_posix() for n in names}
        return files


layout_md = root / "docs" / "layout.md"
files = repository_files()
folders = {pathlib.PurePosixPath(f).parent.as_posix() for f in files} - {"."}
folders |= {f.split("/", 1)[0] for f in folders}
public_headers = {f for f in files if re.fullmatch(r"lib/include/ndshard/(detail/)?[^/]+\.(hpp|h)", f)
                  or re.fullmatch(r"(lib|tools)/[^/]+/include/.+\.(hpp|h)", f)}
doc_pages = {p.relative_to(root).as_posix() for p in (root / "docs").glob("*.md")}
required = {f + "/" for f in folders} | public_headers | doc_pages
if not layout_md.is_file():
    problems.append("docs/layout.md: missing (it must list every folder and public header)")
else:
    listed = {}
    entry = re.compile(r"^\s*[-*] \[[^\]]*\]\(([^)\s#]+)\)(.*)$")
    for n, line in enumerate(layout_md.read_text(encoding="utf-8").splitlines(), 1):
        m = entry.match(line)
        if not m:
            continue
        target, what = m.group(1), m.group(2).strip(" -:\u2014")
        resolved = (layout_md.parent / target).resolve()
        if root not in resolved.parents:
            continue  # leaves the repository: rule 2 reports it
        path = resolved.relative_to(root).as_posix() + ("/" if target.endswith("/") else "")
        listed[path] = n
        if target.endswith("/") != resolved.is_dir() or not resolved.exists():
            kind = "folder" if target.endswith("/") else "file"
            problems.append(f"docs/layout.md:{n}: lists {path}, which is not an existing {kind}")
        elif len(what.split()) < 3:
            problems.append(f"docs/layout.md:{n}: {path} needs a few words on what lives there")
    for path in sorted(required - set(listed)):
        target = os.path.relpath(root / path, layout_md.parent).replace(os.sep, "/") + ("/" if path.endswith("/") else "")
        problems.append(f"docs/layout.md: {path} exists but is not listed; add: - [{path}]({target}) <what lives there>")

# 4. every page of docs/ is linked from the README
readme = root / "README.md"
if readme.is_file():
    linked = {(root / target.split("#", 1)[0]).resolve() for target in link.findall(readme.read_text(encoding="utf-8"))}
    for page in sorted(doc_pages):
        if (root / page).resolve() not in linked:
            problems.append(f"README.md: does not link {page}; every page of docs/ is reached from the README")

for p in problems:
    print(p)
print(f"check-docs: {len(problems)} problem(s) in {len(pages)} page(s)")
sys.exit(1 if problems else 0)
