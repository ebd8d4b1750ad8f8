#!/usr/bin/env python3
"""Differential test: one program built with memcoro and with -fno-memcoro, for
several parallelisms N, run for trip counts around N; outputs must be identical.

A program's first lines may say `// expect: serial` (the marked loop must be
left serial), `// flags: ...` (extra compiler flags) or `// also: f.c ...`
(further translation units, relative to the program, built and linked the
same way). Otherwise the memcoro
build must report that it transformed every marked loop, so that a test never
passes by comparing the serial loop with itself.

The programs' tables are small, so that every answer is quick to check, and
memcoro's cost model would rightly keep most of their loops serial (the data
stays in the cache): the memcoro build insists (-fno-memcoro-cost-model), so
that they test the transformation, unless the program says `// cost-model: on`
(the programs about the cost model's own decisions).

The memcoro build does not adapt at run time (-fno-memcoro-adapt), so that
every trip count runs the interleaved loop. With --adapt serial|interleaved it
does, with that decision forced after its samples, for trip counts around the
adaptation's thresholds (runtime/adapt/adapt.h): windows run serially and
interleaved within one execution of the loop, and the answer must not show it."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

PARALLELISMS = [1, 2, 3, 7, 16, 64]
ADAPT_PARALLELISMS = [2, 16, 64]
# runtime/adapt/adapt.h and -memcoro-adapt-min-trips.
ADAPT_MIN_TRIPS, ADAPT_SAMPLE, ADAPT_TRIAL = 16, 256, 1024


def trip_counts(n):
    return sorted({0, 1, max(n - 1, 0), n, n + 1, 1001})


def adapt_trip_counts(n):
    """Around the unmeasured bypass, the end of the serial sample, the end of
    the first interleaved trial (the decision), and a run of several windows."""
    decided = ADAPT_SAMPLE + max(ADAPT_TRIAL, 64 * n)
    return sorted({0, 1, ADAPT_MIN_TRIPS - 1, ADAPT_MIN_TRIPS, ADAPT_MIN_TRIPS + 1, ADAPT_SAMPLE - 1,
                   ADAPT_SAMPLE, ADAPT_SAMPLE + 1, decided - 1, decided, decided + 1, 40000})


def header(path, key):
    with open(path) as f:
        for line in f.readlines()[:3]:
            m = re.match(r"//\s*%s:\s*(.*)" % key, line)
            if m:
                return m.group(1).strip()
    return None


def also_sources(src):
    return [os.path.join(os.path.dirname(src), f) for f in (header(src, "also") or "").split()]


def compile_program(driver, src, out, n, memcoro, opt_flags):
    flags = (header(src, "flags") or "").split()
    cmd = [driver, *opt_flags, f"-DN={n}", "-Rpass=memcoro", "-Rpass-missed=memcoro",
           f"-I{os.path.dirname(src)}", *flags, src, *also_sources(src), "-o", out]
    if not memcoro:
        cmd.insert(1, "-fno-memcoro")
    elif header(src, "cost-model") != "on":
        cmd.insert(1, "-fno-memcoro-cost-model")
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"FAIL: compiling {os.path.basename(src)} (N={n}):\n{' '.join(cmd)}\n{res.stderr}")
    return res.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bin", required=True, help="directory holding memcoro-cc and memcoro-c++")
    ap.add_argument("--flags", default="-O2", help="optimisation flags for both builds (default -O2)")
    ap.add_argument("--adapt", choices=["serial", "interleaved"],
                    help="adapt at run time, forcing this decision after the samples")
    ap.add_argument("program")
    args = ap.parse_args()
    src = os.path.abspath(args.program)
    name = os.path.basename(src)
    driver = os.path.join(args.bin, "memcoro-c++" if src.endswith(".cpp") else "memcoro-cc")
    expect_serial = header(src, "expect") == "serial"
    compared = 0
    with tempfile.TemporaryDirectory() as tmp:
        adapt_flags = (["-mllvm", f"-memcoro-adapt-force={args.adapt}"] if args.adapt
                       else ["-fno-memcoro-adapt"])
        for n in ADAPT_PARALLELISMS if args.adapt else PARALLELISMS:
            serial, coro = os.path.join(tmp, f"serial{n}"), os.path.join(tmp, f"memcoro{n}")
            opt_flags = args.flags.split()
            compile_program(driver, src, serial, n, memcoro=False, opt_flags=opt_flags)
            remarks = compile_program(driver, src, coro, n, memcoro=True, opt_flags=opt_flags + adapt_flags)
            transformed = "turned into" in remarks
            left_serial = "left serial" in remarks
            if expect_serial and (transformed or not left_serial):
                sys.exit(f"FAIL: {name} (N={n}) should be left serial with a remark:\n{remarks}")
            # A copy of the loop lost on the way (inlined twice, one copy's
            # mark dropped) is as serial as one the pass refused.
            if not expect_serial and (not transformed or left_serial or "not transformed" in remarks):
                sys.exit(f"FAIL: {name} (N={n}) was not transformed:\n{remarks}")
            # Every transformed loop must adapt, not just one of the program's.
            if args.adapt and not expect_serial and remarks.count("adapts at run time") < remarks.count("turned into"):
                sys.exit(f"FAIL: {name} (N={n}) does not adapt at run time:\n{remarks}")
            for trips in adapt_trip_counts(n) if args.adapt else trip_counts(n):
                outs = [subprocess.run([exe, str(trips)], capture_output=True, text=True, timeout=60)
                        for exe in (serial, coro)]
                for o in outs:
                    if o.returncode != 0:
                        sys.exit(f"FAIL: {name} (N={n}, trips={trips}) exited {o.returncode}:\n{o.stderr}")
                if outs[0].stdout != outs[1].stdout:
                    sys.exit(f"FAIL: {name} (N={n}, trips={trips}): serial printed {outs[0].stdout!r}, "
                             f"memcoro printed {outs[1].stdout!r}")
                compared += 1
    print(f"PASS: {name}: {compared} runs identical to the serial loop "
          f"(N in {ADAPT_PARALLELISMS if args.adapt else PARALLELISMS}, "
          f"{'left serial' if expect_serial else 'transformed'}"
          f"{', adapting, ' + args.adapt + ' forced' if args.adapt else ''})")


if __name__ == "__main__":
    main()
