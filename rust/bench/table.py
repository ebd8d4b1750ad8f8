#!/usr/bin/env python3
"""Markdown tables from bench's CSV: for each data size, the median speed-up
over plain serial code for every slot count (rows) and workload/variant
(columns), then the median serial ns/step and what Executor::serial() costs.

    python3 bench/table.py results.csv
"""
import csv
import statistics
import sys
from collections import defaultdict


def human(size):
    for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} B"


def main(source):
    speedup = defaultdict(list)
    ns = defaultdict(list)
    with open(source, newline="") as f:
        for row in csv.DictReader(f):
            key = (int(row["bytes"]), row["workload"], row["variant"], int(row["slots"]))
            speedup[key].append(float(row["speedup"]))
            ns[key].append(float(row["ns_per_step"]))
    repeats = max(len(v) for v in speedup.values())
    for size in sorted({k[0] for k in speedup}):
        columns = sorted({(k[1], k[2]) for k in speedup
                          if k[0] == size and k[2] in ("interleave", "hand")},
                         key=lambda c: (["chase", "bsearch", "hash"].index(c[0]), c[1] != "interleave"))
        slots = sorted({k[3] for k in speedup if k[0] == size and k[2] == "interleave"})
        print(f"\n**{human(size)}**: speed-up over plain serial code (median of {repeats})\n")
        names = [f"{w} {'memcoro' if v == 'interleave' else 'hand-written'}" for w, v in columns]
        print("| slots | " + " | ".join(names) + " |")
        print("|---:|" + "---:|" * len(columns))
        for s in slots:
            cells = []
            for w, v in columns:
                values = speedup.get((size, w, v, s))
                cells.append(f"{statistics.median(values):.2f}x" if values else "")
            print(f"| {s} | " + " | ".join(cells) + " |")
        workloads = [w for w in ("chase", "bsearch", "hash") if (size, w, "serial", 1) in ns]
        print("\n| | " + " | ".join(workloads) + " |")
        print("|---|" + "---:|" * len(workloads))
        print("| serial ns/step | " + " | ".join(
            f"{statistics.median(ns[(size, w, 'serial', 1)]):.1f}" for w in workloads) + " |")
        print("| `Executor::serial()` speed-up | " + " | ".join(
            f"{statistics.median(speedup[(size, w, 'exec-serial', 1)]):.2f}x"
            if (size, w, "exec-serial", 1) in speedup else "" for w in workloads) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: table.py results.csv")
    main(sys.argv[1])
