#!/usr/bin/env python3
"""Reads rv32im object code of tests/device/query_paths.cpp: fails when a query path
(a q_* function and everything it calls inside the object) calls a library routine for
division or multiplication (memcpy/memset, which iterators use to copy their state, are
listed but allowed); counts the hardware
divide instructions on query paths (goal: none) and on construction (ctor_*, allowed).

usage: check_query_paths.py OBJDUMP RV32_BUILD_DIR   (its query_paths_Os and _O2 objects)
"""
import glob
import os
import re
import subprocess
import sys

FORBIDDEN = {"__udivdi3", "__umoddi3", "__divdi3", "__moddi3", "__multi3", "__muldi3", "__udivsi3",
             "__umodsi3", "__divsi3", "__modsi3", "__udivmoddi4", "__udivti3", "__umodti3"}
DIVIDES = {"div", "divu", "rem", "remu"}
FUNC = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSN = re.compile(r"^\s*[0-9a-f]+:\s+([a-z.]+)\s")
RELOC = re.compile(r"^\s*[0-9a-f]+:\s+R_RISCV_(CALL|CALL_PLT|JAL)\s+(\S+)")


def parse(objdump, obj):
    out = subprocess.run([objdump, "-d", "-r", "--no-show-raw-insn", obj], check=True, capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = FUNC.match(line)
        if m:
            cur = m.group(1)
            funcs[cur] = {"calls": set(), "divides": 0}
            continue
        if cur is None:
            continue
        r = RELOC.match(line)
        if r:
            funcs[cur]["calls"].add(r.group(2).split("+")[0])
            continue
        i = INSN.match(line)
        if i and i.group(1) in DIVIDES:
            funcs[cur]["divides"] += 1
    return funcs


def reach(funcs, root):
    seen, todo, outside = set(), [root], set()
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        for c in funcs[f]["calls"]:
            if c in funcs:
                todo.append(c)
            else:
                outside.add(c)
    return seen, outside


def main():
    objdump, build = sys.argv[1], sys.argv[2]
    objects = []
    for opt in ("Os", "O2"):
        found = glob.glob(os.path.join(build, "CMakeFiles", f"query_paths_{opt}.dir", "**", "query_paths.cpp.o*"),
                          recursive=True)
        if len(found) != 1:
            print(f"FAIL: expected one query_paths object for -{opt} under {build}, found {found}")
            return 1
        objects += found
    failed = False
    for obj in objects:
        funcs = parse(objdump, obj)
        roots = sorted(f for f in funcs if f.startswith("q_") or f.startswith("ctor_"))
        if not roots:
            print(f"{obj}: no q_*/ctor_* functions found")
            return 1
        query_divides = ctor_divides = 0
        other = set()
        for root in roots:
            seen, outside = reach(funcs, root)
            divides = sum(funcs[f]["divides"] for f in seen)
            bad = outside & FORBIDDEN
            if bad:
                print(f"FAIL {obj}: {root} calls {', '.join(sorted(bad))}")
                failed = True
            other |= outside - FORBIDDEN
            if root.startswith("q_"):
                query_divides += divides
                if divides:
                    print(f"FAIL {obj}: {root} executes through {divides} hardware divide instruction(s)")
                    failed = True
            else:
                ctor_divides += divides
        print(f"{obj}: {len(roots)} functions; hardware divides on query paths: {query_divides}; "
              f"in construction: {ctor_divides}; other calls: {', '.join(sorted(other)) or 'none'}"
              + (" (FAILED)" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
