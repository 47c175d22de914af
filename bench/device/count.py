#!/usr/bin/env python3
"""Counts rv32im instructions (and hardware divides) per operation of bench_device.

For each row, runs `qemu-riscv32 -singlestep -d nochain,exec` on N and on 2N operations
(one "Trace" line per executed instruction), and divides the difference by N, so that
start-up and set-up cancel. Divides are the executed instructions whose address holds a
div/divu/rem/remu in the binary's disassembly.

usage: count.py --qemu QEMU --objdump OBJDUMP --bin LABEL=ELF [--bin LABEL=ELF ...]
                [--goals] [--markdown OUT] [--only REGEX]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def by_rank(label, variant, n, goals, n_rank8=None):
    """One row per rank of goals ({rank: goal at -O2 or None}): label with {} for the rank,
    variant with the rank appended, N operations (n_rank8 at rank 8 when given)."""
    return [(label.format(r), f"{variant}{r}", n_rank8 if r == 8 and n_rank8 else n, goal)
            for r, goal in goals.items()]


NO_GOALS = {1: None, 4: None, 8: None}

# (row label, bench_device variant, N, goal at -O2 or None)
ROWS = [
    ("interleaved, 12 banks", "interleaved", 512, 17),
    *by_rank("ND rank {}, compile-time", "ct", 512, {1: 30, 2: None, 4: 60, 8: 135}, n_rank8=256),
    *by_rank("ND rank {}, runtime", "rt", 512, {1: 55, 2: None, 4: 92, 8: 150}, n_rank8=256),
    *by_rank("pages(), rank {} runtime, per page", "pages", 512, NO_GOALS),
    *by_rank("shard_pages(), rank {} runtime, per page", "shard", 512, NO_GOALS),
    *by_rank("local_pages(), rank {} runtime, per page", "local", 512, NO_GOALS),
    *by_rank("construction from runtime words, rank {}", "construct", 32, {1: 127, 2: None, 4: 226, 8: 358}),
    # ndshard's precomputed words: the geometry made on the host, copied by a trusting accessor
    *by_rank("precomputed words: ND rank {}, runtime", "pre", 512, {1: 55, 4: 92, 8: 150}, n_rank8=256),
    *by_rank("precomputed words: construction, rank {}", "preconstruct", 32, {1: 124, 2: None, 4: 223, 8: 355}),
    # tt-metal's words through ndshard's TensorAccessor (lib/ttmetal); goals: tt-metal's own
    *by_rank("tt-metal words, compile-time: rank {}", "ttct", 512, {1: 46, 4: 88, 8: 194}, n_rank8=256),
    *by_rank("tt-metal words, runtime: rank {}", "ttrt", 512, {1: 80, 4: 134, 8: 218}, n_rank8=256),
    *by_rank("tt-metal words, runtime: construction, rank {}", "ttconstruct", 32, {1: 124, 4: 223, 8: 355}),
]

DIV = re.compile(r"^\s*([0-9a-f]+):\s+(div|divu|rem|remu)\s")
TRACE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


def divide_addresses(objdump, elf):
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", elf], check=True, capture_output=True, text=True).stdout
    return {int(m.group(1), 16) for m in map(DIV.match, out.splitlines()) if m}


def run(qemu, elf, variant, n, divs):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "trace.log")
        r = subprocess.run([qemu, "-singlestep", "-d", "nochain,exec", "-D", log, elf, variant, str(n)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"count.py: {elf} {variant} {n} exited with {r.returncode}: {r.stdout}{r.stderr}")
        instructions = divides = 0
        with open(log) as f:
            for line in f:
                m = TRACE.match(line)
                if m:
                    instructions += 1
                    if int(m.group(1), 16) in divs:
                        divides += 1
        return instructions, divides


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--objdump", required=True)
    ap.add_argument("--bin", action="append", required=True, help="LABEL=ELF, e.g. -Os=build/bench_device_Os")
    ap.add_argument("--markdown")
    ap.add_argument("--only", help="count only the rows whose variant matches this regex")
    args = ap.parse_args()
    bins = [b.split("=", 1) for b in args.bin]
    divs = {label: divide_addresses(args.objdump, elf) for label, elf in bins}
    header = ["variant"]
    for label, _ in bins:
        header += [f"rv32im {label}", "div"]
    header.append("goal -O2")
    rows = []
    for name, variant, n, goal in ROWS:
        if args.only and not re.search(args.only, variant):
            continue
        cells = [name]
        for label, elf in bins:
            i1, d1 = run(args.qemu, elf, variant, n, divs[label])
            i2, d2 = run(args.qemu, elf, variant, 2 * n, divs[label])
            cells += [f"{(i2 - i1) / n:.1f}", f"{(d2 - d1) / n:.2f}".rstrip("0").rstrip(".")]
        cells.append("" if goal is None else f"<= {goal}")
        rows.append(cells)
        print("  " + " | ".join(cells), file=sys.stderr, flush=True)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" + "---:|" * (len(header) - 1)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        os.makedirs(os.path.dirname(os.path.abspath(args.markdown)), exist_ok=True)
        with open(args.markdown, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
