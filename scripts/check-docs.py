#!/usr/bin/env python3
"""Keeps the documentation true to the tree (ctest docs.laws_and_links).

1. docs/laws.md names every property file (props/*.cpp) and every fuzz target
   (fuzz/fuzz_*.cpp, tools/fuzz/fuzz_*.cpp), and every props/ or fuzz/ file it names exists.
2. Every relative link in README.md and docs/*.md resolves to a file or folder inside
   the repository (no link leaves it), and no page points a reader to ../shared.

Usage: scripts/check-docs.py [repository root]   (default: this script's parent folder)
Prints one line per problem naming the file, the link or path, and the rule; exits 1 if any.
"""
import pathlib
import re
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

for p in problems:
    print(p)
print(f"check-docs: {len(problems)} problem(s) in {len(pages)} page(s)")
sys.exit(1 if problems else 0)
