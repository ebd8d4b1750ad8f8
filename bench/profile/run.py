#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Profile-guided builds of the suite's kernels against plain memcoro builds.

For each kernel of bench/kernels and each size: a -fmemcoro-profile-generate
build of the kernel's marked loop runs once at that size and writes the
kernel's profile; the loop is then built with -fmemcoro-profile-use of that
profile for each N. Two binaries per kernel and size, the same harness and
serial variant in both: plain memcoro objects, and profile-guided ones. They
run alternately, `--reps` times, each run timing serial and memcoro side by
side in one process (verified), so that each memcoro time is taken relative
to the serial loop of its own run. The table gives, per kernel, size and N,
the medians of memcoro / serial speed for both builds, their ratio, and the
ratio of the two builds' median memcoro times (profile over plain: 1.00 = the
same, above 1 = the profile made it faster). The last is the one to read
where the serial loop itself is noisy (ptrchase at 1 MiB: 6.6-9.8 ns between
trials on the shared machine), since the runs alternate.

  bench/profile/run.py                          9 kernels, 1M and 1G, N = 16, 64
  bench/profile/run.py --kernels hj,gups --sizes 1M --reps 5
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CXXFLAGS = ["-O3", "-march=x86-64-v3", "-std=c++20", "-Wall", "-Wextra", "-Werror"]
RESULT = re.compile(r"RESULT kernel=\S+ variant=(\S+) n=(\d+) .*ns_per_op=([0-9.]+) verify=PASS")


def sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(" ".join(cmd) + "\n" + r.stdout + r.stderr)
    return r.stdout + r.stderr


def bench(exe, size, ns, cpu, extra=()):
    out = sh(["taskset", "-c", str(cpu), exe, "--bytes", size, "--n", ",".join(map(str, ns)),
              "--trials", "1", *extra])
    if "Verification: PASS" not in out:
        sys.exit(f"{exe} --bytes {size}: verification failed\n{out}")
    return {(v, int(n)): float(t) for v, n, t in RESULT.findall(out)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--kernels", default=",".join(sorted(f[:-4] for f in os.listdir(os.path.join(ROOT, "bench", "kernels")))))
    ap.add_argument("--sizes", default="1M,1G")
    ap.add_argument("--n", default="16,64")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--cpu", type=int, default=1)
    args = ap.parse_args()
    cxx = os.path.join(args.build, "bin", "memcoro-c++")
    out = os.path.join(args.build, "profile-bench")
    os.makedirs(out, exist_ok=True)
    ns = [int(n) for n in args.n.split(",")]
    print("| kernel | size | N | plain: memcoro / serial speed | profile-guided | profile / plain | profile / plain, "
          "memcoro time | profile's plan |")
    print("|---|---|---|---|---|---|---|---|")
    for k in args.kernels.split(","):
        src = os.path.join(ROOT, "bench", "kernels", k + ".cpp")
        obj = lambda name: os.path.join(out, f"{k}-{name}.o")
        sh([cxx, *CXXFLAGS, "-fno-memcoro", "-c", src, "-o", obj("main")])
        for n in ns:
            sh([cxx, *CXXFLAGS, "-DMEMCORO_ONLY", f"-DMEMCORO_N={n}", "-c", src, "-o", obj(f"plain{n}")])
        plain = os.path.join(out, f"{k}-plain")
        sh([cxx, *CXXFLAGS, obj("main")] + [obj(f"plain{n}") for n in ns] + ["-o", plain])
        for size in args.sizes.split(","):
            profile = os.path.join(out, f"{k}-{size}.profile")
            sh([cxx, *CXXFLAGS, "-DMEMCORO_ONLY", "-DMEMCORO_N=16", f"-fmemcoro-profile-generate={profile}",
                "-c", src, "-o", obj("gen")])
            gen = os.path.join(out, f"{k}-gen")
            sh([cxx, *CXXFLAGS, obj("main"), obj("gen"), "-o", gen])
            bench(gen, size, [16], args.cpu, ["--variants", "memcoro"])
            plans = {}
            for n in ns:
                remarks = sh([cxx, *CXXFLAGS, "-DMEMCORO_ONLY", f"-DMEMCORO_N={n}", "-Rpass=memcoro",
                              "-Rpass-missed=memcoro", f"-fmemcoro-profile-use={profile}", "-c", src, "-o",
                              obj(f"use{n}")])
                kept = remarks.count("suspension point kept")
                dropped = remarks.count("not a suspension point")
                raised = re.search(r"coroutines would not clearly exceed: (\d+) coroutines instead|"
                                   r"\) would not clearly exceed: (\d+) coroutines instead", remarks)
                plans[n] = (f"{kept} kept, {dropped} dropped" + (", serial" if "left serial" in remarks else "")
                            + (f", N = {raised.group(1) or raised.group(2)}" if raised else ""))
            guided = os.path.join(out, f"{k}-use-{size}")
            sh([cxx, *CXXFLAGS, obj("main")] + [obj(f"use{n}") for n in ns] + ["-o", guided])
            speed = {"plain": {n: [] for n in ns}, "guided": {n: [] for n in ns}}
            time = {"plain": {n: [] for n in ns}, "guided": {n: [] for n in ns}}
            for _ in range(args.reps):
                for label, exe in (("plain", plain), ("guided", guided)):
                    r = bench(exe, size, ns, args.cpu, ["--variants", "serial,memcoro"])
                    for n in ns:
                        speed[label][n].append(r[("serial", 0)] / r[("memcoro", n)])
                        time[label][n].append(r[("memcoro", n)])
            for n in ns:
                p, g = statistics.median(speed["plain"][n]), statistics.median(speed["guided"][n])
                t = statistics.median(time["plain"][n]) / statistics.median(time["guided"][n])
                print(f"| {k} | {size} | {n} | {p:.2f}x | {g:.2f}x | {g / p:.2f} | {t:.2f} | {plans[n]} |", flush=True)


if __name__ == "__main__":
    main()
