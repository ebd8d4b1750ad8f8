#!/usr/bin/env python3
"""Tables and plot of bench/scavenger results (run.sh writes the CSV).

For each set of scavengers and each bound: the primary's P50 and P95 latency per
request and their increase over the serial build running alone, and the
scavengers' throughput during the primary's run as a fraction of each running
alone. Ratios are taken within one repeat (same process, adjacent runs), then
the median over the repeats is printed."""
import argparse
import csv
import statistics
from collections import defaultdict

SETS = ["scan", "chase", "scan+chase"]


def load(path):
    rows = list(csv.DictReader(open(path)))
    alone = {}
    for r in rows:
        rep = r["repeat"]
        if r["scavengers"] == "none":
            alone[(rep, r["bound_ns"])] = (float(r["p50_ns"]), float(r["p95_ns"]))
        elif r["scavengers"] == "scan-alone":
            alone[(rep, "scan")] = float(r["scan_per_s"])
        elif r["scavengers"] == "chase-alone":
            alone[(rep, "chase")] = float(r["chase_per_s"])
    return rows, alone


def summarise(rows, alone):
    cells = defaultdict(lambda: defaultdict(list))
    for r in rows:
        s, rep = r["scavengers"], r["repeat"]
        if s not in SETS and s != "none":
            continue
        p50, p95 = float(r["p50_ns"]), float(r["p95_ns"])
        base50, base95 = alone[(rep, "serial")]
        c = cells[(s, r["bound_ns"])]
        c["p50"].append(p50)
        c["p95"].append(p95)
        c["up50"].append(p50 / base50 - 1)
        c["up95"].append(p95 / base95 - 1)
        c["scan"].append(float(r["scan_per_s"]) / alone[(rep, "scan")])
        c["chase"].append(float(r["chase_per_s"]) / alone[(rep, "chase")])
    return {k: {m: statistics.median(v) for m, v in c.items()} for k, c in cells.items()}


def bounds_of(rows):
    seen = []
    for r in rows:
        if r["scavengers"] in SETS and r["bound_ns"] not in seen:
            seen.append(r["bound_ns"])
    return seen


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("csv")
    ap.add_argument("--png", help="write the plot here")
    args = ap.parse_args()
    rows, alone = load(args.csv)
    med = summarise(rows, alone)
    bounds = bounds_of(rows)
    reps = len({r["repeat"] for r in rows})
    scan_alone = statistics.median(v for k, v in alone.items() if k[1] == "scan")
    chase_alone = statistics.median(v for k, v in alone.items() if k[1] == "chase")
    print(f"Medians over {reps} repeats. Alone: scan {scan_alone / 1e6:.0f} M elements/s, "
          f"chase {chase_alone / 1e6:.2f} M lookups/s (CPU time of the thread).\n")
    print("| scavengers | bound ns | primary P50 ns | P95 ns | P50 increase | P95 increase "
          "| scan harvested | chase harvested |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for b, label in (("serial", "none (serial build)"), ("no-scavengers", "none (scavenger build)")):
        m = med[("none", b)]
        print(f"| {label} | - | {m['p50']:.0f} | {m['p95']:.0f} | {m['up50']:+.0%} | {m['up95']:+.0%} | - | - |")
    for s in SETS:
        for b in bounds:
            m = med[(s, b)]
            scan = f"{m['scan']:.0%}" if "scan" in s else "-"
            chase = f"{m['chase']:.0%}" if "chase" in s else "-"
            print(f"| {s} | {b} | {m['p50']:.0f} | {m['p95']:.0f} | {m['up50']:+.0%} | {m['up95']:+.0%} "
                  f"| {scan} | {chase} |")
    if not args.png:
        return
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [int(b) for b in bounds]
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(15, 4.4))
    colours = {"scan": "tab:blue", "chase": "tab:orange", "scan+chase": "tab:green"}
    for s in SETS:
        c = colours[s]
        ax1.plot(xs, [med[(s, b)]["up50"] * 100 for b in bounds], "o-", color=c, label=f"{s}: P50")
        ax1.plot(xs, [med[(s, b)]["up95"] * 100 for b in bounds], "s--", color=c, label=f"{s}: P95")
        harvest = [(med[(s, b)]["scan"] if "scan" in s else 0) + (med[(s, b)]["chase"] if "chase" in s else 0)
                   for b in bounds]
        ax2.plot(xs, [h * 100 for h in harvest], "o-", color=c, label=s)
        ax3.plot([med[(s, b)]["up95"] * 100 for b in bounds], [h * 100 for h in harvest], "o-", color=c, label=s)
        for b, x, h in zip(bounds, [med[(s, b)]["up95"] * 100 for b in bounds], harvest):
            ax3.annotate(b, (x, h * 100), fontsize=7, xytext=(3, 3), textcoords="offset points")
    for ax in (ax1, ax2):
        ax.set_xscale("log")
        ax.set_xlabel("bound on a handed-over stall (ns, -fmemcoro-scavenge=NS)")
        ax.set_xticks(xs)
        ax.set_xticklabels(bounds)
    ax1.set_ylabel("primary latency increase over serial alone (%)")
    ax1.set_yscale("symlog", linthresh=100)
    ax2.set_ylabel("scavenger throughput harvested (% of running alone)")
    ax3.set_xscale("symlog", linthresh=100)
    ax3.set_xlabel("primary P95 latency increase (%)")
    ax3.set_ylabel("scavenger throughput harvested (%)")
    ax1.legend(fontsize=7, ncol=2)
    ax2.legend(fontsize=8)
    ax3.legend(fontsize=8)
    ax1.set_title("primary: lookup service, per request")
    ax2.set_title("scavengers: sum of fractions of alone")
    ax3.set_title("trade-off (labels: bound in ns)")
    fig.tight_layout()
    fig.savefig(args.png, dpi=110)
    print(f"\nplot: {args.png}")


if __name__ == "__main__":
    main()
