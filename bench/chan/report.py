#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Table 1 from bench/chan/run.sh's CSV files: medians over the repeats as
Markdown on stdout, and a plot.

    report.py results.csv switch.csv [--png table1.png]
"""
import argparse
import csv
import statistics
from collections import defaultdict

MODES = ["SPSC", "SPMC", "MPSC", "MPMC"]
OPS = [("unbounded", "send", "send, capacity >= messages"),
       ("unbounded", "recv", "receive, capacity >= messages"),
       ("blocking", "transfer", "send+receive at once, capacity 16")]
IMPLS = ["memcoro-1exec", "memcoro-2exec", "go", "mutex"]


def parties(mode, senders, receivers):
    """The paper's "number of producers/consumers" for a point."""
    return {"SPSC": 1, "SPMC": receivers, "MPSC": senders, "MPMC": senders}[mode]


def load(path):
    cells = defaultdict(list)
    with open(path) as f:
        for row in csv.DictReader(f):
            n = parties(row["mode"], int(row["senders"]), int(row["receivers"]))
            key = (row["impl"], row["mode"], n, row["phase"], row["op"])
            cells[key].append(float(row["ns_per_message"]))
    return {k: statistics.median(v) for k, v in cells.items()}, max(len(v) for v in cells.values())


def fmt(v):
    if v is None:
        return "-"
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("switch")
    ap.add_argument("--png")
    args = ap.parse_args()
    med, repeats = load(args.results)
    impls = [i for i in IMPLS if any(k[0] == i for k in med)]

    print(f"Mean time per message in ns, median of {repeats} runs "
          "(n = producers for MPSC/MPMC, consumers for SPMC):\n")
    print("| mode | operation | implementation | n=1 | n=10 | n=32 |")
    print("|---|---|---|---:|---:|---:|")
    for mode in MODES:
        for phase, op, label in OPS:
            for impl in impls:
                vals = [med.get((impl, mode, n, phase, op)) for n in (1, 10, 32)]
                print(f"| {mode} | {label} | {impl} | " + " | ".join(fmt(v) for v in vals) + " |")

    # Where memcoro (either placement) beats Go, point by point.
    wins, total = defaultdict(int), 0
    for (impl, mode, n, phase, op), v in med.items():
        if impl != "go":
            continue
        total += 1
        for mine in ("memcoro-1exec", "memcoro-2exec"):
            m = med.get((mine, mode, n, phase, op))
            if m is not None and m < v:
                wins[mine] += 1
    print()
    for mine in ("memcoro-1exec", "memcoro-2exec"):
        print(f"{mine} faster than Go at {wins[mine]} of {total} points.")

    sw = defaultdict(list)
    with open(args.switch) as f:
        for row in csv.DictReader(f):
            sw[row["what"]].append(float(row["ns"]))
    if sw:
        print("\nContext switch (executor thread CPU time, median of "
              f"{len(sw['context_switch'])} runs): "
              f"{statistics.median(sw['context_switch']):.2f} ns per switch, "
              f"{statistics.median(sw['yield']):.2f} ns per yield (two switches).")

    if args.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter, NullFormatter

        def plain(v, _):
            return f"{v:g}"

        def plain_2_5(v, _):  # label the 2x and 5x minor ticks of each decade
            return f"{v:g}" if f"{v:g}"[0] in "25" else ""
        fig, axes = plt.subplots(len(OPS), len(MODES), figsize=(14, 9), sharex=True)
        styles = {"memcoro-1exec": ("tab:blue", "o-"), "memcoro-2exec": ("tab:cyan", "o--"),
                  "go": ("tab:green", "s-"), "mutex": ("tab:red", "^:")}
        for r, (phase, op, label) in enumerate(OPS):
            for c, mode in enumerate(MODES):
                ax = axes[r][c]
                for impl in impls:
                    pts = [(n, med.get((impl, mode, n, phase, op))) for n in (1, 10, 32)]
                    pts = [(n, v) for n, v in pts if v is not None]
                    if pts:
                        color, style = styles[impl]
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=color,
                                label=impl)
                ax.set_xscale("log")
                ax.set_yscale("log")
                ax.set_xticks([1, 10, 32])
                ax.set_xticklabels(["1", "10", "32"])
                ax.xaxis.set_minor_formatter(NullFormatter())
                ax.yaxis.set_major_formatter(FuncFormatter(plain))
                ax.yaxis.set_minor_formatter(FuncFormatter(plain_2_5))
                ax.grid(True, which="both", alpha=0.3)
                if r == 0:
                    ax.set_title(mode)
                if c == 0:
                    ax.set_ylabel(f"{label}\nns / message")
                if r == len(OPS) - 1:
                    ax.set_xlabel("producers / consumers")
        axes[0][0].legend(fontsize=8)
        fig.suptitle("Channel send/receive time per message (Sunway paper Table 1 on x86-64), "
                     f"median of {repeats} runs")
        fig.tight_layout()
        fig.savefig(args.png, dpi=110)
        print(f"\nplot: {args.png}")


if __name__ == "__main__":
    main()
