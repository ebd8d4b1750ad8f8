#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The latency sweep over emulated far memory, from one command.

Runs `amu-bench --cost` (the emulator's own cost and timing fidelity), then
the sweep (every kernel and version at each latency and parallelism,
verified against serial), and writes into --out:
  cost.txt            emulator cost per aload+getfin and lateness vs the model
  sweep-<model>.csv   one row per run
  sweep-<model>.md    speedup over serial at the best parallelism, and the MLP
  sweep-<model>.png   the same as a plot
for two models: "fixed" latency, and "bimodal" (10% of requests take 4x the
latency, as over a multi-hop fabric), where dynamic scheduling should pull
ahead of round robin.
Everything is labelled "emulated far memory": these are not measurements
of real far memory.

  bench/amu/sweep.py [--build build] [--out bench/results/amu] [--models fixed,bimodal]
                     [-- amu-bench options]
"""
import argparse
import collections
import csv
import math
import os
import statistics
import subprocess
import sys
import time

LABEL = "emulated far memory"
MODELS = {"fixed": [], "bimodal": ["--jitter", "relative-bimodal:4:0.1"]}
MODEL_TITLES = {"fixed": "fixed latency", "bimodal": "bimodal: 10% of requests take 4x"}
VERSIONS = ["static", "dynamic", "aset", "bafin"]
VERSION_TITLES = {"static": "static (round robin + wait)", "dynamic": "dynamic (getfin)",
                  "aset": "dynamic + aset", "bafin": "dynamic through bafin"}


def run(cmd, **kw):
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, check=True, **kw)


def summarise(rows):
    """median seconds and MLP per (latency, kernel, version, parallel)."""
    runs = collections.defaultdict(list)
    for r in rows:
        if r["verified"] != "yes":
            sys.exit(f"sweep: unverified run in the CSV: {r}")
        runs[(float(r["latency_ns"]), r["kernel"], r["version"], int(r["parallel"]))].append(
            (float(r["seconds"]), float(r["mlp"])))
    med = {k: (statistics.median(t for t, _ in v), statistics.median(m for _, m in v))
           for k, v in runs.items()}
    best = {}  # (lat, kernel, version) -> (speedup, parallel, mlp)
    serial = {(lat, k): t for (lat, k, v, _), (t, _) in med.items() if v == "serial"}
    serial_mlp = {(lat, k): m for (lat, k, v, _), (_, m) in med.items() if v == "serial"}
    for (lat, k, v, n), (t, m) in med.items():
        if v == "serial" or (lat, k) not in serial:
            continue
        s = serial[(lat, k)] / t
        if (lat, k, v) not in best or s > best[(lat, k, v)][0]:
            best[(lat, k, v)] = (s, n, m)
    return best, serial_mlp, med


def table(best, serial_mlp, cost, model):
    lats = sorted({lat for lat, _, _ in best})
    kernels = sorted({k for _, k, _ in best}, key=["gups", "bsearch", "chase", "hashprobe"].index)
    out = [f"Speedup over serial at the best parallelism N ({LABEL}, {MODEL_TITLES[model]}); "
           f"MLP = average requests in flight at that N.", ""]
    out.append("| kernel | version | " + " | ".join(f"{lat:.0f} ns" for lat in lats) + " |")
    out.append("|---|---|" + "---|" * len(lats))
    for k in kernels:
        out.append(f"| {k} | serial MLP | " +
                   " | ".join(f"{serial_mlp.get((lat, k), float('nan')):.2f}" for lat in lats) + " |")
        for v in VERSIONS:
            if not any((lat, k, v) in best for lat in lats):
                continue
            cells = []
            for lat in lats:
                s, n, m = best.get((lat, k, v), (float("nan"), 0, float("nan")))
                cells.append(f"{s:.2f}x (N={n}, MLP {m:.1f})")
            out.append(f"| {k} | {v} | " + " | ".join(cells) + " |")
    # Averages over kernels, as the paper reports them: arithmetic mean of
    # per-kernel speedups; "best dynamic" takes aset where a kernel has it.
    for name, pick in (("static", lambda k, lat: best.get((lat, k, "static"))),
                       ("dynamic", lambda k, lat: best.get((lat, k, "dynamic"))),
                       ("bafin", lambda k, lat: best.get((lat, k, "bafin"))),
                       ("best of dynamic, aset, bafin",
                        lambda k, lat: max((best[(lat, k, v)] for v in ("dynamic", "aset", "bafin")
                                            if (lat, k, v) in best), default=None))):
        cells = []
        for lat in lats:
            vals = [pick(k, lat)[0] for k in kernels if pick(k, lat)]
            geo = math.exp(sum(map(math.log, vals)) / len(vals))
            cells.append(f"{statistics.mean(vals):.2f}x (geomean {geo:.2f}x)")
        out.append(f"| **mean** | {name} | " + " | ".join(cells) + " |")
    out += ["", f"Emulator ({LABEL}), from `amu-bench --cost`:", "", "```", cost.strip(), "```"]
    return "\n".join(out) + "\n"


def plot(best, serial_mlp, med, path, model):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    lats = sorted({lat for lat, _, _ in best})
    kernels = sorted({k for _, k, _ in best}, key=["gups", "bsearch", "chase", "hashprobe"].index)
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    styles = {"static": "--", "dynamic": "-", "aset": ":", "bafin": (0, (5, 1, 1, 1, 1, 1))}
    colors = dict(zip(kernels, ["C0", "C1", "C2", "C3"]))
    for k in kernels:
        for v in VERSIONS:
            pts = [(lat, best[(lat, k, v)]) for lat in lats if (lat, k, v) in best]
            if not pts:
                continue
            axes[0].plot([p[0] for p in pts], [p[1][0] for p in pts], linestyle=styles[v], marker="o",
                         color=colors[k], label=f"{k} {v}")
            axes[1].plot([p[0] for p in pts], [p[1][2] for p in pts], linestyle=styles[v], marker="o",
                         color=colors[k], label=f"{k} {v}")
        axes[1].plot(lats, [serial_mlp.get((lat, k), float("nan")) for lat in lats], "-.",
                     marker="x", color=colors[k], alpha=0.5, label=f"{k} serial")
    axes[0].set_title(f"Speedup over serial at the best N\n({LABEL}, {MODEL_TITLES[model]})")
    axes[0].set_ylabel("speedup over serial (x)")
    axes[1].set_title(f"Average requests in flight (MLP) at the best N\n({LABEL}, {MODEL_TITLES[model]})")
    axes[1].set_ylabel("average MLP")
    for ax in axes[:2]:
        ax.set_xlabel("modelled far-memory latency (ns)")
        ax.set_xticks(lats)
        ax.grid(alpha=0.3)
    # Speedup against N at the highest latency: where the schedulers differ.
    top = lats[-1]
    for k in kernels:
        serial = med.get((top, k, "serial", 1))
        for v in VERSIONS:
            ns = sorted(n for (lat, kk, vv, n) in med if lat == top and kk == k and vv == v)
            if serial and ns:
                axes[2].plot(ns, [serial[0] / med[(top, k, v, n)][0] for n in ns], linestyle=styles[v],
                             marker="o", color=colors[k], label=f"{k} {v}")
    axes[2].set_title(f"Speedup vs coroutines N at {top:.0f} ns\n({LABEL}, {MODEL_TITLES[model]})")
    axes[2].set_xlabel("coroutines N")
    axes[2].set_ylabel("speedup over serial (x)")
    axes[2].set_xscale("log", base=2)
    axes[2].set_yscale("log")
    axes[2].grid(alpha=0.3)
    axes[0].set_yscale("log")
    axes[1].set_yscale("log")
    for ax in axes:
        ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1, 2, 5)))
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda y, _: f"{y:g}"))
        ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axes[0].legend(fontsize=7, ncol=2)
    fig.text(0.5, 0.005, "line style: -- static, - dynamic, : dynamic+aset, -... bafin, -. serial; "
             "one AMU emulated in software on one core (see docs/amu.md)", ha="center", fontsize=8)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="bench/results/amu")
    ap.add_argument("--models", default="fixed,bimodal")
    ap.add_argument("--tables-only", action="store_true", help="redo tables and plots from the CSVs")
    ap.add_argument("bench_args", nargs="*", help="passed to amu-bench (after --)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    cost_path = os.path.join(a.out, "cost.txt")
    models = a.models.split(",")
    if not a.tables_only:
        bench = os.path.join(a.build, "bin", "amu-bench")
        if not os.access(bench, os.X_OK):
            sys.exit(f"sweep: {bench} not found; run `make build` first")
        t0 = time.time()
        cost = run([bench, "--cost"], capture_output=True, text=True).stdout
        with open(cost_path, "w") as f:
            f.write(cost)
        print(cost, file=sys.stderr)
        for m in models:
            run([bench, "--csv", os.path.join(a.out, f"sweep-{m}.csv")] + MODELS[m] + a.bench_args)
        print(f"sweep: {time.time() - t0:.0f} s", file=sys.stderr)
    cost = open(cost_path).read() if os.path.exists(cost_path) else "(no cost.txt)"
    for m in models:
        with open(os.path.join(a.out, f"sweep-{m}.csv")) as f:
            best, serial_mlp, med = summarise(list(csv.DictReader(f)))
        md = table(best, serial_mlp, cost, m)
        with open(os.path.join(a.out, f"sweep-{m}.md"), "w") as f:
            f.write(md)
        plot(best, serial_mlp, med, os.path.join(a.out, f"sweep-{m}.png"), m)
        print(md)
    print(f"sweep: wrote {a.out}/sweep-*.md and sweep-*.png", file=sys.stderr)


if __name__ == "__main__":
    main()
