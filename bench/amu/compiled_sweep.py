#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The paper's Fig. 12 from compiled code, over emulated far memory.

Builds bench/amu/compiled/ (the paper's nine suite kernels, and hashprobe,
as plain loops over __remote data, parallel(64); lbm parallel(16)) with
memcoro-cc -fmemcoro-amu once per scheduler (static, dynamic, bafin) and
once with -fno-memcoro (the serial build: synchronous far loads), runs each
at every latency for the fixed and bimodal models, checks every answer
against the serial build's (every run also checks itself against a
reference computed without the loop), and writes into --out:
  compiled-sweep.csv   one row per kernel, scheduler, model and latency
  compiled-sweep.md    speedup over the serial build, the average over the
                       nine suite kernels beside the paper's 3.39x / 4.87x
                       at 200 / 800 ns
  compiled-sweep.png   the same as a plot
Everything is labelled "emulated far memory": not a measurement of real far
memory.

  bench/amu/compiled_sweep.py [--build build] [--out bench/results/amu]
                              [--latencies 100,200,400,800,1000] [--models fixed,bimodal]
  bench/amu/compiled_sweep.py --check [--scale 0.02]
      only builds, runs and verifies (ctest amu_compiled_suite): no files
"""
import argparse
import csv
import glob
import math
import os
import statistics
import subprocess
import sys
import time

LABEL = "emulated far memory"
# The paper's nine (its names in brackets where bench/amu's differ), then
# hashprobe, which is not one of them and stays out of the suite average.
SUITE = ["chase", "bsearch", "gups", "hj", "is", "stream", "lbm", "mcf", "bfs"]
PAPER_NAMES = {"chase": "ptrchase", "bsearch": "bs"}
KERNELS = SUITE + ["hashprobe"]
SCHEDULERS = ["static", "dynamic", "bafin"]
TITLES = {"static": "static (round robin + wait)", "dynamic": "dynamic (getfin, CoroAMU-D)",
          "bafin": "bafin (CoroAMU-Full)"}
MODEL_TITLES = {"fixed": "fixed latency", "bimodal": "bimodal: 10% of requests take 4x"}
# The paper's suite average (CoroAMU, Fig. 12) at 200 and 800 ns.
PAPER = {200: 3.39, 800: 4.87}


def sources():
    return sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "compiled", "*.c")))


def build(cc, out):
    os.makedirs(out, exist_ok=True)
    flags = {"serial": ["-fno-memcoro", "-fmemcoro-amu"]}
    flags.update({s: ["-fmemcoro-amu", f"-fmemcoro-scheduler={s}"] for s in SCHEDULERS})
    for v, f in flags.items():
        subprocess.run([cc, "-O3"] + f + sources() + ["-o", os.path.join(out, v)], check=True)


def label(k):
    return f"{k} ({PAPER_NAMES[k]})" if k in PAPER_NAMES else k


def run(binary, latency, model, scale="1", runs="5"):
    """{kernel: (ms, checksum)} from one run of a build of the compiled suite."""
    out = subprocess.run([binary, str(latency), model, scale, "all", runs], check=True, capture_output=True,
                         text=True).stdout
    res = {}
    for line in out.splitlines():
        k, ns, s = line.split()
        res[k] = (float(ns) / 1e6, s)
    return res


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def table(rows, model, lats):
    sp = {(r["kernel"], r["scheduler"], int(r["latency_ns"])): float(r["speedup"]) for r in rows
          if r["model"] == model}
    ser = {(r["kernel"], int(r["latency_ns"])): float(r["serial_ms"]) for r in rows if r["model"] == model}
    head = "| kernel | scheduler | " + " | ".join(f"{l} ns" for l in lats) + " |"
    out = [f"Speedup over the serial build (synchronous far loads), parallel(64) (lbm 16), {LABEL}, "
           f"{MODEL_TITLES[model]}:", "", head, "|---|---|" + "---|" * len(lats)]
    for k in KERNELS:
        out.append(f"| {label(k)} | serial ms | " + " | ".join(f"{ser[(k, l)]:.2f}" for l in lats) + " |")
        for s in SCHEDULERS:
            out.append(f"| {label(k)} | {s} | " + " | ".join(f"{sp[(k, s, l)]:.2f}x" for l in lats) + " |")
    for s in SCHEDULERS:
        cells = [f"{statistics.mean(sp[(k, s, l)] for k in SUITE):.2f}x "
                 f"(geomean {geomean([sp[(k, s, l)] for k in SUITE]):.2f}x)" for l in lats]
        out.append(f"| **suite mean** (nine kernels, no hashprobe) | {s} | " + " | ".join(cells) + " |")
    out.append("| **paper** (CoroAMU, real hardware, 9 kernels) | suite average | " +
               " | ".join(f"{PAPER[l]:.2f}x" if l in PAPER else "" for l in lats) + " |")
    return "\n".join(out) + "\n"


def plot(rows, models, lats, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(models), figsize=(7 * len(models), 4.8), squeeze=False)
    styles = {"static": "--", "dynamic": "-", "bafin": ":"}
    colors = {k: f"C{i}" for i, k in enumerate(KERNELS)}
    for ax, m in zip(axes[0], models):
        sp = {(r["kernel"], r["scheduler"], int(r["latency_ns"])): float(r["speedup"]) for r in rows
              if r["model"] == m}
        for k in SUITE:
            ax.plot(lats, [sp[(k, "dynamic", l)] for l in lats], "-", marker="o", color=colors[k], alpha=0.6,
                    lw=1, label=f"{label(k)} dynamic")
        for s in SCHEDULERS:
            ax.plot(lats, [statistics.mean(sp[(k, s, l)] for k in SUITE) for l in lats], linestyle=styles[s],
                    color="k", lw=2, marker="s", label=f"suite mean {TITLES[s]}")
        ax.plot(list(PAPER), list(PAPER.values()), "r*", ms=14, label="paper's suite average (real hardware)")
        ax.set_title(f"Compiled kernels: speedup over serial far loads\n({LABEL}, {MODEL_TITLES[m]})")
        ax.set_xlabel("modelled far-memory latency (ns)")
        ax.set_ylabel("speedup over the serial build (x)")
        ax.set_yscale("log")
        ax.set_xticks(lats)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6, ncol=2)
    fig.text(0.5, 0.005, "memcoro-cc -fmemcoro-amu, parallel(64); one AMU emulated in software on one core "
             "(see docs/amu.md)", ha="center", fontsize=8)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="bench/results/amu")
    ap.add_argument("--latencies", default="100,200,400,800,1000")
    ap.add_argument("--models", default="fixed,bimodal")
    ap.add_argument("--tables-only", action="store_true", help="redo the table and plot from the CSV")
    ap.add_argument("--check", action="store_true", help="build, run and verify once at --scale; write nothing")
    ap.add_argument("--scale", default=None, help="work per run (default 0.5; 0.02 under --check)")
    ap.add_argument("--runs", default="3", help="runs per measurement, the median is reported")
    a = ap.parse_args()
    if a.check:
        bins = os.path.join(a.build, "bench", "amu-compiled-check")
        build(os.path.join(a.build, "bin", "memcoro-cc"), bins)
        for m in ("bimodal",):
            res = {v: run(os.path.join(bins, v), 150, m, a.scale or "0.02", "1") for v in ["serial"] + SCHEDULERS}
            for k in KERNELS:
                for s in SCHEDULERS:
                    if k not in res[s] or res[s][k][1] != res["serial"][k][1]:
                        sys.exit(f"compiled-sweep: {k} {s} ({m}): answer {res[s].get(k)} differs from the serial "
                                 f"build's {res['serial'].get(k)}")
        print(f"compiled-sweep: {len(KERNELS)} kernels x {len(SCHEDULERS)} schedulers give the serial build's "
              "answers (bimodal latency, so that completions come back out of order)")
        return
    lats = [int(x) for x in a.latencies.split(",")]
    models = a.models.split(",")
    os.makedirs(a.out, exist_ok=True)
    csv_path = os.path.join(a.out, "compiled-sweep.csv")
    if not a.tables_only:
        t0 = time.time()
        bins = os.path.join(a.build, "bench", "amu-compiled")
        build(os.path.join(a.build, "bin", "memcoro-cc"), bins)
        rows = []
        for m in models:
            for l in lats:
                print(f"compiled-sweep: {m} {l} ns", file=sys.stderr, flush=True)
                res = {v: run(os.path.join(bins, v), l, m, a.scale or "0.5", a.runs) for v in ["serial"] + SCHEDULERS}
                for k in KERNELS:
                    ser_ms, ser_sum = res["serial"][k]
                    for s in SCHEDULERS:
                        ms, s_sum = res[s][k]
                        if s_sum != ser_sum:
                            sys.exit(f"compiled-sweep: {k} {s} at {l} ns ({m}): answer {s_sum} differs from "
                                     f"the serial build's {ser_sum}")
                        rows.append({"model": m, "latency_ns": l, "kernel": k, "scheduler": s,
                                     "serial_ms": f"{ser_ms:.4f}", "ms": f"{ms:.4f}",
                                     "speedup": f"{ser_ms / ms:.4f}"})
        with open(csv_path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        print(f"compiled-sweep: {time.time() - t0:.0f} s, every answer verified against the serial build",
              file=sys.stderr)
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    md = "\n".join(table(rows, m, lats) for m in models)
    with open(os.path.join(a.out, "compiled-sweep.md"), "w") as f:
        f.write(md)
    plot(rows, models, lats, os.path.join(a.out, "compiled-sweep.png"))
    print(md)
    print(f"compiled-sweep: wrote {a.out}/compiled-sweep.md and compiled-sweep.png", file=sys.stderr)


if __name__ == "__main__":
    main()
