#!/usr/bin/env python3
"""bench/report.py - the ratio table of docs/performance.md from one ndshard_bench run.

    report.py BENCH_JSON [--callgrind CALLGRIND_JSON] [--markdown OUT_MD]

BENCH_JSON is Google Benchmark's --benchmark_out (JSON) of one ndshard_bench invocation
with repetitions. For every benchmark the cost per page is the median over repetitions of
1 / items_per_second (per-repetition entries, not the aggregates), so every ratio below
compares medians measured in the same run. CALLGRIND_JSON (from scripts/bench.sh) adds the
deterministic instructions-per-address table. Prints the tables; exit status 0 even with
a MISS (the table reports it), 2 when a benchmark the table needs is missing.
"""
import argparse
import json
import statistics
import sys

SIZEOF_PAGE_RUN = 24  # three uint64_t: device_offset, first_page, count


def load_costs(path):
    """name -> (median ns per item, repetitions, counters of the first repetition)."""
    with open(path) as f:
        data = json.load(f)
    per_name = {}
    counters = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        ips = b.get("items_per_second")
        if not ips:
            continue
        name = b.get("run_name", b["name"])
        per_name.setdefault(name, []).append(1e9 / ips)
        counters.setdefault(name, {k: v for k, v in b.items() if isinstance(v, (int, float))})
    return {n: (statistics.median(v), len(v), counters[n]) for n, v in per_name.items()}, data.get("context", {})


class Table:
    def __init__(self):
        self.rows = []

    def add(self, check, value, target, ok, note=""):
        self.rows.append((check, value, target, ok, note))

    def render(self, markdown=False):
        head = ("check", "measured", "target", "result", "")
        cells = [head] + [(c, v, t, "-" if ok is None else ("PASS" if ok else "MISS"), n) for c, v, t, ok, n in self.rows]
        if markdown:
            out = ["| " + " | ".join(head[:4]) + " |", "|" + "---|" * 4]
            out += ["| " + " | ".join(r[:4]) + " |" for r in cells[1:]]
            return "\n".join(out)
        widths = [max(len(r[i]) for r in cells) for i in range(5)]
        lines = []
        for i, r in enumerate(cells):
            lines.append("  ".join(r[k].ljust(widths[k]) for k in range(5)).rstrip())
            if i == 0:
                lines.append("  ".join("-" * w for w in widths[:4]))
        return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench_json")
    ap.add_argument("--callgrind")
    ap.add_argument("--markdown")
    args = ap.parse_args()

    costs, context = load_costs(args.bench_json)

    def cost(name):
        if name not in costs:
            print(f"report: {name} is missing from {args.bench_json}", file=sys.stderr)
            sys.exit(2)
        return costs[name][0]

    t = Table()
    base = cost("BM_interleaved_addr/rand")
    for r in range(1, 9):
        ratio = cost(f"BM_nd_addr/static/rank:{r}/rand") / base
        if r <= 4:
            t.add(f"static rank {r} / interleaved (rand)", f"{ratio:.2f}x", "<= 1.5x", ratio <= 1.5)
        elif r == 8:
            t.add(f"static rank {r} / interleaved (rand)", f"{ratio:.2f}x", "<= 3x", ratio <= 3.0)
        else:
            t.add(f"static rank {r} / interleaved (rand)", f"{ratio:.2f}x", "(none)", None)
    for r in range(1, 9):
        ratio = cost(f"BM_nd_addr/runtime/rank:{r}/rand") / cost(f"BM_nd_addr/static/rank:{r}/rand")
        t.add(f"runtime / static, rank {r} (rand)", f"{ratio:.2f}x", "<= 1.25x", ratio <= 1.25)
    for kind in ("shard", "core_local", "all"):
        ratio = cost(f"BM_nd_iter/{kind}") / base
        t.add(f"iterator {kind} / interleaved rand", f"{ratio:.2f}x", "<= 1.0x", ratio <= 1.0)
    ratio = cost("BM_nd_construct/runtime/rank:4") / cost("BM_nd_addr/runtime/rank:4/rand")
    t.add("construct runtime rank 4 / one address", f"{ratio:.2f}x", "<= 4x", ratio <= 4.0)
    speed = cost("BM_host_mapping/pages") / cost("BM_host_mapping/runs")
    t.add("host mapping runs vs per-page table", f"{speed:.0f}x faster", ">= 20x", speed >= 20)
    runs_c = costs["BM_host_mapping/runs"][2]
    pages_c = costs["BM_host_mapping/pages"][2]
    runs, peak_runs, peak_pages = runs_c.get("runs", 0), runs_c.get("peak_bytes", 0), pages_c.get("peak_bytes", 0)
    per_run = peak_runs / runs if runs else float("inf")
    t.add("host mapping runs: peak bytes per run", f"{per_run:.1f} B (runs {runs:.0f})",
          f"<= {4 * SIZEOF_PAGE_RUN} B (4 x sizeof)", per_run <= 4 * SIZEOF_PAGE_RUN)

    print(t.render())
    print()
    print("cost per page (median ns):")
    for name in ("BM_interleaved_addr/seq", "BM_interleaved_addr/rand", "BM_interleaved_iter"):
        print(f"  {name:40s} {cost(name):8.3f}")
    for r in range(1, 9):
        s, rt = cost(f"BM_nd_addr/static/rank:{r}/rand"), cost(f"BM_nd_addr/runtime/rank:{r}/rand")
        cs, cr = cost(f"BM_nd_construct/static/rank:{r}"), cost(f"BM_nd_construct/runtime/rank:{r}")
        print(f"  rank {r}: static {s:6.3f}  runtime {rt:6.3f}   construct: static {cs:7.3f}  runtime {cr:7.3f}")
    for kind in ("shard", "core_local", "all"):
        print(f"  {'BM_nd_iter/' + kind:40s} {cost('BM_nd_iter/' + kind):8.3f}")
    print(f"  host mapping: per-page table {cost('BM_host_mapping/pages') * pages_c.get('pages', 0) / 1e6:.0f} ms,"
          f" peak {peak_pages / 2**20:.0f} MiB;  runs {cost('BM_host_mapping/runs') * runs_c.get('pages', 0) / 1e6:.1f} ms,"
          f" peak {peak_runs / 2**20:.1f} MiB for {runs:.0f} runs of {runs_c.get('pages', 0):.0f} pages")
    if "BM_oracle_addr" in costs:
        print(f"  {'BM_oracle_addr':40s} {cost('BM_oracle_addr'):8.1f}  ({cost('BM_oracle_addr') / base:.0f}x interleaved)")
    reps = sorted({v[1] for v in costs.values()})
    print(f"  (medians of {'/'.join(map(str, reps))} repetitions; "
          f"{context.get('host_name', '?')}, {context.get('num_cpus', '?')} cpus, "
          f"{context.get('mhz_per_cpu', '?')} MHz)")

    cg_md = ""
    if args.callgrind:
        with open(args.callgrind) as f:
            cg = json.load(f)
        inter = cg.get("interleaved")
        print()
        print("callgrind, instructions per address (deterministic):")
        lines = ["| variant | rank 1 | rank 4 | rank 8 |", "|---|---|---|---|"]
        print(f"  interleaved          {inter:6.1f}")
        for v in ("static", "runtime"):
            vals = [cg.get(f"{v}/{r}") for r in (1, 4, 8)]
            txt = "  ".join(f"{x:6.1f} ({x / inter:.2f}x)" for x in vals)
            print(f"  ND {v:8s} r1/r4/r8  {txt}")
            lines.append(f"| ND {v} | " + " | ".join(f"{x:.0f} ({x / inter:.2f}x)" for x in vals) + " |")
        if "construct/4" in cg:
            print(f"  construct runtime rank 4: {cg['construct/4']:.0f} instructions "
                  f"({cg['construct/4'] / cg['runtime/4']:.1f} runtime rank 4 addresses)")
        cg_md = (f"Instructions per address under callgrind (interleaved: {inter:.0f}):\n\n" + "\n".join(lines) + "\n")
        if "construct/4" in cg:
            cg_md += (f"\nConstruction from runtime words at rank 4: {cg['construct/4']:.0f} instructions "
                      f"({cg['construct/4'] / cg['runtime/4']:.1f} runtime rank 4 addresses).\n")

    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(t.render(markdown=True) + "\n\n" + cg_md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
