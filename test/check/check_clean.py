#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check-clean: no false reports from the checking build. Every program in
test/diff and every benchmark kernel in bench/kernels is built with
-fmemcoro-check for N in {1, 3, 16, 64} and run on small inputs; each run must
print no memcoro-check report and exit 0, and the kernels must still verify.

The marked loops of these programs have iterations that do not depend on each
other through memory (test/diff compares each with its serial loop), so a
report here is either a false report of the checker or a loop memcoro
interleaves wrongly."""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

NS = [1, 3, 16, 64]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIFF = os.path.join(ROOT, "test", "diff")
KERNELS = os.path.join(ROOT, "bench", "kernels")
# test/diff programs: trip counts around the widths, and one past a few groups.
TRIPS = ["1", "17", "200"]
# Kernels: the serial function compiled by memcoro (the one binary holds it as
# "serial"; its verifier checks the answer), on the smallest data.
KERNEL_FLAGS = ["-O3", "-march=x86-64-v3", "-std=c++20", "-I" + os.path.join(ROOT, "include")]
KERNEL_ARGS = ["--variants", "serial", "--bytes", "64K", "--ops", "4096", "--trials", "1"]


def header(path, key):
    with open(path) as f:
        for line in f.readlines()[:3]:
            m = re.match(r"//\s*%s:\s*(.*)" % key, line)
            if m:
                return m.group(1).strip()
    return None


def jobs(bindir, tmp):
    """(name, compile command, [run commands]) for every program and N."""
    out = []
    for name in sorted(os.listdir(DIFF)):
        if not name.endswith((".c", ".cpp")):
            continue
        src = os.path.join(DIFF, name)
        driver = os.path.join(bindir, "memcoro-c++" if name.endswith(".cpp") else "memcoro-cc")
        flags = (header(src, "flags") or "").split()
        # Loops whose iterations do share memory, on purpose (a hash-table
        # build): the checking build rightly reports them.
        if (header(src, "check") or "").startswith("conflicts"):
            continue
        also = [os.path.join(DIFF, f) for f in (header(src, "also") or "").split()]
        for n in NS:
            exe = os.path.join(tmp, f"{name}.{n}")
            cmd = [driver, "-O2", "-fmemcoro-check", f"-DN={n}", f"-I{DIFF}", *flags, src, *also, "-o", exe]
            out.append((f"test/diff/{name} N={n}", cmd, [[exe, t] for t in TRIPS]))
    for name in sorted(os.listdir(KERNELS)):
        if not name.endswith(".cpp"):
            continue
        src = os.path.join(KERNELS, name)
        for n in NS:
            exe = os.path.join(tmp, f"{name}.{n}")
            cmd = [os.path.join(bindir, "memcoro-c++"), *KERNEL_FLAGS, "-fmemcoro-check", f"-DMEMCORO_N={n}",
                   src, "-o", exe]
            out.append((f"bench/kernels/{name} N={n}", cmd, [[exe, *KERNEL_ARGS]]))
    return out


def build_and_run(job):
    name, cmd, runs = job
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return f"FAIL: {name}: compiling failed:\n{' '.join(cmd)}\n{r.stderr}"
    for run in runs:
        r = subprocess.run(run, capture_output=True, text=True, timeout=300)
        if r.returncode != 0 or "memcoro-check" in r.stderr or "Verification: FAIL" in r.stdout:
            return (f"FAIL: {name}: `{' '.join(run)}` exited {r.returncode}:\n"
                    f"{r.stderr}{r.stdout[-2000:]}")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="directory holding memcoro-cc and memcoro-c++")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        todo = jobs(args.bin, tmp)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            failures = [f for f in pool.map(build_and_run, todo) if f]
    for f in failures:
        print(f)
    if failures:
        sys.exit(f"check-clean: {len(failures)} of {len(todo)} builds reported or failed")
    print(f"PASS: check-clean: {len(todo)} builds (test/diff and bench/kernels, N in {NS}) "
          "ran with -fmemcoro-check and reported nothing")


if __name__ == "__main__":
    main()
