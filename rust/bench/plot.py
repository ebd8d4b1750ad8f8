#!/usr/bin/env python3
"""Plot the speed-up over serial against the slot count from bench's CSV.

    python3 bench/plot.py results.csv speedup.png

One panel per data size; one line per workload and variant (median over the
repeats). Dashed: the hand-written yardstick; dotted: one miss in flight per slot.
"""
import csv
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def human(size):
    for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} B"


def main(source, target):
    speedups = defaultdict(list)
    with open(source, newline="") as f:
        for row in csv.DictReader(f):
            if row["variant"] in ("hand", "interleave"):
                key = (int(row["bytes"]), row["workload"], row["variant"], int(row["slots"]))
                speedups[key].append(float(row["speedup"]))
    if not speedups:
        sys.exit(f"plot: no hand or interleave rows in {source}")
    sizes = sorted({k[0] for k in speedups})
    fig, axes = plt.subplots(1, len(sizes), figsize=(6 * len(sizes), 4.5), squeeze=False)
    for ax, size in zip(axes[0], sizes):
        lines = sorted({(k[1], k[2]) for k in speedups if k[0] == size})
        workloads = sorted({w for w, _ in lines})
        colours = {w: f"C{i}" for i, w in enumerate(workloads)}
        top = 1
        for workload, variant in lines:
            slots = sorted(k[3] for k in speedups if k[:3] == (size, workload, variant))
            medians = [statistics.median(speedups[(size, workload, variant, s)]) for s in slots]
            top = max(top, max(slots))
            style = "--" if variant == "hand" else "-"
            ax.plot(slots, medians, style, marker="o", markersize=3, color=colours[workload],
                    label=f"{workload} ({'hand-written' if variant == 'hand' else 'memcoro'})")
        ax.axhline(1, color="grey", linewidth=0.8)
        ceiling = ax.get_ylim()[1]
        ideal = [s for s in (1, 2, 4, 8, 16, 32, 64) if s <= min(top, ceiling)]
        ax.plot(ideal, ideal, ":", color="grey", linewidth=0.8, label="one miss in flight per slot")
        ax.set_xscale("log", base=2)
        ax.set_xticks([1, 2, 4, 8, 16, 32, 64])
        ax.set_xticklabels(["1", "2", "4", "8", "16", "32", "64"])
        ax.set_xlabel("slots (tasks in flight)")
        ax.set_ylabel("speed-up over plain serial code")
        ax.set_title(f"data: {human(size)}")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(target, dpi=110)
    print(f"plot: wrote {target}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py results.csv out.png")
    main(sys.argv[1], sys.argv[2])
