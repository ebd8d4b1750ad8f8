#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The paper's Fig. 13 from compiled code: dynamic instruction expansion.

Counts, with valgrind --tool=callgrind, the instructions each compiled
kernel of bench/amu/compiled/ executes (the kernel function and everything
it calls), per scheduler, relative to the serial build (-fno-memcoro
-fmemcoro-amu: synchronous far loads). Every build runs the same
iterations, so the ratio of totals is the ratio per iteration. The model's
latency is 0 ns: no poll finds nothing, so what is counted is the work of
the loop, not waiting that depends on the machine.

Two ratios:
  emulated     everything executed, the software AMU included (the build
               that the sweeps measure, request path inlined)
  hardware     the AMU counted as the hardware's: each AMU operation (aload,
               aset, getfin, bafin, wait; far load or store in the serial
               build) is one instruction. Measured on a build that leaves
               the request path as calls (-mllvm -memcoro-amu-inline=false):
               the kernel's own instructions plus one per call.
The paper's figures (CoroAMU, Fig. 13: static 6.70, dynamic 5.98, Full 3.91)
are on real hardware with a hardware AMU; "hardware" is the one to set
beside them. Emulated far memory.

  bench/amu/expansion.py [--build build] [--out bench/results/amu] [--scale 0.05]
"""
import argparse
import collections
import glob
import os
import re
import statistics
import subprocess
import sys

# The paper's nine suite kernels (the mean is over them), then hashprobe;
# each kernel's loop is the function <kernel>_loop.
SUITE = ["chase", "bsearch", "gups", "hj", "is", "stream", "lbm", "mcf", "bfs"]
KERNELS = {k: k + "_loop" for k in SUITE + ["hashprobe"]}
SCHEDULERS = ["static", "dynamic", "bafin"]
PAPER = {"static": 6.70, "dynamic": 5.98, "bafin": 3.91}
# One instruction each on the hardware AMU (or a plain load/store, serial).
AMU_OPS = {"memcoro_amu__cc_aload", "memcoro_amu__cc_aset", "memcoro_amu__cc_getfin", "memcoro_amu__cc_bafin",
           "memcoro_amu__cc_wait", "memcoro_amu__cc_far_load", "memcoro_amu__cc_far_store"}


def parse(path):
    """Per function: self Ir, Ir of its calls, and how often it called what."""
    names, self_ir, call_ir = {}, collections.Counter(), collections.Counter()
    calls = collections.defaultdict(collections.Counter)
    cur = callee = pending = None

    def name(s):
        m = re.match(r"\((\d+)\)(?: (.*))?", s.strip())
        if not m:
            return s.strip()
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names[m.group(1)]

    for line in open(path):
        if line.startswith("fn="):
            cur = name(line[3:])
        elif line.startswith("cfn="):
            callee = name(line[4:])
        elif line.startswith("calls="):
            pending = (callee, int(line[6:].split()[0]))
        elif line[:1] in "0123456789+-*" and line.strip():
            ir = int(line.split()[-1])
            if pending:
                call_ir[cur] += ir
                calls[cur][pending[0]] += pending[1]
                pending = None
            else:
                self_ir[cur] += ir
    return self_ir, call_ir, calls


def profile(binary, out, scale):
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "0", "fixed",
                    str(scale), "all", "1"], check=True, capture_output=True)
    return parse(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="bench/results/amu")
    ap.add_argument("--scale", default="0.05")
    a = ap.parse_args()
    cc = os.path.join(a.build, "bin", "memcoro-cc")
    src = sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "compiled", "*.c")))
    work = os.path.join(a.build, "bench", "amu-expansion")
    os.makedirs(work, exist_ok=True)
    os.makedirs(a.out, exist_ok=True)
    builds = {"serial": ["-fno-memcoro", "-fmemcoro-amu"]}
    for s in SCHEDULERS:
        builds[s] = ["-fmemcoro-amu", f"-fmemcoro-scheduler={s}"]
        builds[s + "-calls"] = builds[s] + ["-mllvm", "-memcoro-amu-inline=false"]
    prof = {}
    # compiled_sweep.py's builds have the same flags: reused when newer than
    # the compiler and every source.
    swept = os.path.join(a.build, "bench", "amu-compiled")
    newest = max(os.path.getmtime(p) for p in src + [os.path.join(a.build, "lib", "MemcoroPasses.so")])
    for b, flags in builds.items():
        exe = os.path.join(work, b)
        old = os.path.join(swept, b)
        if os.path.exists(old) and os.path.getmtime(old) > newest:
            exe = old
        else:
            subprocess.run([cc, "-O3"] + flags + src + ["-o", exe], check=True)
        print(f"expansion: callgrind {b}", file=sys.stderr, flush=True)
        prof[b] = profile(exe, os.path.join(work, b + ".callgrind"), a.scale)

    def emulated(b, fn):
        self_ir, call_ir, _ = prof[b]
        return self_ir[fn] + call_ir[fn]

    def hardware(b, fn):
        self_ir, _, calls = prof[b]
        return self_ir[fn] + sum(n for f, n in calls[fn].items() if f in AMU_OPS)

    rows = ["| kernel | serial instructions (emulated / hardware) | " +
            " | ".join(f"{s} emulated | {s} hardware" for s in SCHEDULERS) + " |",
            "|---|---|" + "---|---|" * len(SCHEDULERS)]
    emu = collections.defaultdict(list)
    hw = collections.defaultdict(list)
    csv = ["kernel,scheduler,serial_emulated,serial_hardware,emulated,hardware"]
    for k, fn in KERNELS.items():
        se, sh = emulated("serial", fn), hardware("serial", fn)
        cells = []
        for s in SCHEDULERS:
            e, h = emulated(s, fn) / se, hardware(s + "-calls", fn) / sh
            emu[s].append(e)
            hw[s].append(h)
            cells.append(f"{e:.2f}x | {h:.2f}x")
            csv.append(f"{k},{s},{se},{sh},{emulated(s, fn)},{hardware(s + '-calls', fn)}")
        rows.append(f"| {k} | {se:,} / {sh:,} | " + " | ".join(cells) + " |")
    n = len(SUITE)
    rows.append("| **suite mean** (nine kernels, no hashprobe) | | " +
                " | ".join(f"{statistics.mean(emu[s][:n]):.2f}x (geomean {statistics.geometric_mean(emu[s][:n]):.2f}x) | "
                           f"{statistics.mean(hw[s][:n]):.2f}x (geomean {statistics.geometric_mean(hw[s][:n]):.2f}x)"
                           for s in SCHEDULERS) + " |")
    rows.append("| **paper** (CoroAMU Fig. 13, hardware AMU) | | " +
                " | ".join(f" | {PAPER[s]:.2f}x" for s in SCHEDULERS) + " |")
    md = ("Dynamic instruction expansion over the serial build, compiled kernels, callgrind, "
          f"model latency 0 ns, scale {a.scale} (emulated far memory):\n\n" + "\n".join(rows) + "\n")
    with open(os.path.join(a.out, "expansion.md"), "w") as f:
        f.write(md)
    with open(os.path.join(a.out, "expansion.csv"), "w") as f:
        f.write("\n".join(csv) + "\n")
    print(md)


if __name__ == "__main__":
    main()
