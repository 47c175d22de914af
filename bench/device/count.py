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

# (row label, bench_device variant, N, goal at -O2 or None)
ROWS = [
    ("interleaved, 12 banks", "interleaved", 512, 17),
    ("ND rank 1, compile-time", "ct1", 512, 30),
    ("ND rank 2, compile-time", "ct2", 512, None),
    ("ND rank 4, compile-time", "ct4", 512, 60),
    ("ND rank 8, compile-time", "ct8", 256, 135),
    ("ND rank 1, runtime", "rt1", 512, 55),
    ("ND rank 2, runtime", "rt2", 512, None),
    ("ND rank 4, runtime", "rt4", 512, 92),
    ("ND rank 8, runtime", "rt8", 256, 150),
    ("pages(), rank 1 runtime, per page", "pages1", 512, None),
    ("pages(), rank 4 runtime, per page", "pages4", 512, None),
    ("pages(), rank 8 runtime, per page", "pages8", 512, None),
    ("shard_pages(), rank 1 runtime, per page", "shard1", 512, None),
    ("shard_pages(), rank 4 runtime, per page", "shard4", 512, None),
    ("shard_pages(), rank 8 runtime, per page", "shard8", 512, None),
    ("local_pages(), rank 1 runtime, per page", "local1", 512, None),
    ("local_pages(), rank 4 runtime, per page", "local4", 512, None),
    ("local_pages(), rank 8 runtime, per page", "local8", 512, None),
    ("construction from runtime words, rank 1", "construct1", 32, 127),
    ("construction from runtime words, rank 2", "construct2", 32, None),
    ("construction from runtime words, rank 4", "construct4", 32, 226),
    ("construction from runtime words, rank 8", "construct8", 32, 358),
    # ndshard's precomputed words: the geometry made on the host, copied by a trusting accessor
    ("precomputed words: ND rank 1, runtime", "pre1", 512, 55),
    ("precomputed words: ND rank 4, runtime", "pre4", 512, 92),
    ("precomputed words: ND rank 8, runtime", "pre8", 256, 150),
    ("precomputed words: construction, rank 1", "preconstruct1", 32, 124),
    ("precomputed words: construction, rank 2", "preconstruct2", 32, None),
    ("precomputed words: construction, rank 4", "preconstruct4", 32, 223),
    ("precomputed words: construction, rank 8", "preconstruct8", 32, 355),
    # tt-metal's words through ndshard's TensorAccessor (lib/ttmetal); goals: tt-metal's own
    ("tt-metal words, compile-time: rank 1", "ttct1", 512, 46),
    ("tt-metal words, compile-time: rank 4", "ttct4", 512, 88),
    ("tt-metal words, compile-time: rank 8", "ttct8", 256, 194),
    ("tt-metal words, runtime: rank 1", "ttrt1", 512, 80),
    ("tt-metal words, runtime: rank 4", "ttrt4", 512, 134),
    ("tt-metal words, runtime: rank 8", "ttrt8", 256, 218),
    ("tt-metal words, runtime: construction, rank 1", "ttconstruct1", 32, 124),
    ("tt-metal words, runtime: construction, rank 4", "ttconstruct4", 32, 223),
    ("tt-metal words, runtime: construction, rank 8", "ttconstruct8", 32, 355),
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
