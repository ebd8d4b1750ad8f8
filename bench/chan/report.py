#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Table 1 from bench/chan/run.sh's CSV files, as Markdown on stdout, and a plot.

    report.py results.csv switch.csv [--png table1.png]

Prints two tables, one per memcoro placement (every party on one executor;
spread over two), each beside the Go run that followed it: medians of the
ns per message, and the median over the repeats of memcoro / Go (below 1:
memcoro is faster). Then every implementation's medians in one long table.
"""
import argparse
import csv
import statistics
from collections import defaultdict

MODES = ["SPSC", "SPMC", "MPSC", "MPMC"]
PARTIES = (1, 10, 32)
# (phase, op, capacity or None for "as many as the messages", label)
OPS = [("unbounded", "send", None, "send, never blocks"),
       ("unbounded", "recv", None, "receive, never blocks"),
       ("blocking", "transfer", 16, "transfer, capacity 16"),
       ("blocking", "transfer", 64, "transfer, capacity 64")]
IMPLS = ["memcoro-1exec", "memcoro-2exec", "go", "mutex"]
PAIRS = [("1exec", "memcoro-1exec", "every party on one executor"),
         ("2exec", "memcoro-2exec", "spread over 2 executors (the default placement)")]


def parties(mode, senders, receivers):
    """The paper's "number of producers/consumers" for a point."""
    return {"SPSC": 1, "SPMC": receivers, "MPSC": senders, "MPMC": senders}[mode]


def load(path):
    """{(repeat, pair, impl, mode, n, phase, op, capacity or None): ns}"""
    rows = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            n = parties(row["mode"], int(row["senders"]), int(row["receivers"]))
            cap = int(row["capacity"]) if row["phase"] == "blocking" else None
            key = (row["repeat"], row["pair"], row["impl"], row["mode"], n, row["phase"],
                   row["op"], cap)
            rows[key] = float(row["ns_per_message"])
    return rows


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
    rows = load(args.results)
    repeats = sorted({k[0] for k in rows}, key=int)

    def series(pair, impl, mode, n, phase, op, cap):
        return [rows[k] for r in repeats
                if (k := (r, pair, impl, mode, n, phase, op, cap)) in rows]

    def median(values):
        return statistics.median(values) if values else None

    print(f"ns per message, medians of {len(repeats)} runs; memcoro / Go = median of the "
          "per-run ratios, each memcoro run against the Go run right after it "
          "(n = producers for MPSC/MPMC, consumers for SPMC).")
    summary = []
    for pair, impl, title in PAIRS:
        print(f"\n**memcoro {title}, beside Go (GOMAXPROCS=2)**\n")
        print("| mode | operation | " + " | ".join(
            f"memcoro n={n} | Go n={n} | memcoro / Go" for n in PARTIES) + " |")
        print("|---|---|" + "---:|" * (3 * len(PARTIES)))
        faster = total = 0
        for mode in MODES:
            for phase, op, cap, label in OPS:
                cells = []
                for n in PARTIES:
                    mine = series(pair, impl, mode, n, phase, op, cap)
                    go = series(pair, "go", mode, n, phase, op, cap)
                    ratios = [m / g for m, g in zip(mine, go) if g > 0]
                    ratio = median(ratios)
                    if ratio is not None:
                        total += 1
                        faster += ratio <= 1
                    cells += [fmt(median(mine)), fmt(median(go)),
                              "-" if ratio is None else f"{ratio:.2f}"]
                if any(c != "-" for c in cells):
                    print(f"| {mode} | {label} | " + " | ".join(cells) + " |")
        summary.append(f"memcoro {title}: at least as fast as Go at {faster} of {total} points.")
    print()
    for line in summary:
        print(line)

    # The same, both placements in one table (the README's): memcoro's median
    # with its ratio to the Go run after it, and Go's median over both runs.
    print("\nBoth placements, ns per message (memcoro / Go):\n")
    print("| mode | operation | " + " | ".join(
        f"1 executor n={n} | 2 executors n={n} | Go n={n}" for n in PARTIES) + " |")
    print("|---|---|" + "---:|" * (3 * len(PARTIES)))
    for mode in MODES:
        for phase, op, cap, label in OPS:
            cells = []
            for n in PARTIES:
                for pair, impl, _ in PAIRS:
                    mine = series(pair, impl, mode, n, phase, op, cap)
                    go = series(pair, "go", mode, n, phase, op, cap)
                    ratio = median([m / g for m, g in zip(mine, go) if g > 0])
                    cells.append("-" if ratio is None else f"{fmt(median(mine))} ({ratio:.2f})")
                cells.append(fmt(median([v for pair, _, _ in PAIRS
                                         for v in series(pair, "go", mode, n, phase, op, cap)])))
            if any(c != "-" for c in cells):
                print(f"| {mode} | {label} | " + " | ".join(cells) + " |")

    print("\nEvery implementation, medians (Go over both of its runs per repeat):\n")
    print("| mode | operation | implementation | " +
          " | ".join(f"n={n}" for n in PARTIES) + " |")
    print("|---|---|---|" + "---:|" * len(PARTIES))
    med = {}
    for impl in IMPLS:
        for mode in MODES:
            for phase, op, cap, label in OPS:
                for n in PARTIES:
                    vals = [v for k, v in rows.items()
                            if k[2:] == (impl, mode, n, phase, op, cap)]
                    med[(impl, mode, n, phase, op, cap)] = median(vals)
    impls = [i for i in IMPLS if any(k[0] == i and v is not None for k, v in med.items())]
    for mode in MODES:
        for phase, op, cap, label in OPS:
            for impl in impls:
                vals = [med[(impl, mode, n, phase, op, cap)] for n in PARTIES]
                if any(v is not None for v in vals):
                    print(f"| {mode} | {label} | {impl} | " +
                          " | ".join(fmt(v) for v in vals) + " |")

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
        fig, axes = plt.subplots(len(OPS), len(MODES), figsize=(14, 11), sharex=True)
        styles = {"memcoro-1exec": ("tab:blue", "o-"), "memcoro-2exec": ("tab:cyan", "o--"),
                  "go": ("tab:green", "s-"), "mutex": ("tab:red", "^:")}
        for r, (phase, op, cap, label) in enumerate(OPS):
            for c, mode in enumerate(MODES):
                ax = axes[r][c]
                for impl in impls:
                    pts = [(n, med[(impl, mode, n, phase, op, cap)]) for n in PARTIES]
                    pts = [(n, v) for n, v in pts if v is not None]
                    if pts:
                        color, style = styles[impl]
                        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=color,
                                label=impl)
                ax.set_xscale("log")
                ax.set_yscale("log")
                ax.set_xticks(list(PARTIES))
                ax.set_xticklabels([str(n) for n in PARTIES])
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
        fig.suptitle("Channel time per message (Sunway paper Table 1 on x86-64): memcoro on 1 "
                     f"and on 2 executors, Go with GOMAXPROCS=2; median of {len(repeats)} runs")
        fig.tight_layout()
        fig.savefig(args.png, dpi=110)
        print(f"\nplot: {args.png}")


if __name__ == "__main__":
    main()
