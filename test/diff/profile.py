#!/usr/bin/env python3
"""Differential test of profile-guided builds: each program is built with
-fmemcoro-profile-generate, run once to write its profile, then built with
-fmemcoro-profile-use for several parallelisms and run for trip counts around
N; every output must equal the -fno-memcoro build's. The instrumented build
itself must print the serial answer too.

Which candidates a measured profile keeps depends on the machine's caches, so
besides the profile as measured each program is also built with profiles made
from it that decide every way: all candidates missing (memcoro's static plan),
every other one missing (a plan mixing suspension points and plain loads),
none missing (the loop stays serial). The remarks must show the decisions,
so that no case passes by comparing the serial loop with itself."""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the differential runner's helpers)

PARALLELISMS = [1, 3, 16]


def rewrite(profile, miss):
    """The profile with each site's miss fraction set by miss(k) for the k-th site."""
    out, k = [], 0
    for line in profile.splitlines():
        f = line.split()
        if f and f[0] == "loop":
            continue  # the loop's own time would let overlap decide, not the sites
        if f and f[0] == "site":
            hit = not miss(k)
            f[6:11] = ["1000", "1000", "0.0000" if hit else "0.9500", "1.0" if hit else "150.0",
                       "0.0" if hit else "157.0"]
            k += 1
            line = " ".join(f)
        out.append(line)
    return "\n".join(out) + "\n", k


def outputs(exe, trips):
    res = subprocess.run([exe, str(trips)], capture_output=True, text=True, timeout=60)
    if res.returncode != 0:
        sys.exit(f"FAIL: {exe} {trips} exited {res.returncode}:\n{res.stderr}")
    return res.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bin", required=True, help="directory holding memcoro-cc and memcoro-c++")
    ap.add_argument("programs", nargs="+")
    args = ap.parse_args()
    compared = 0
    for program in args.programs:
        src = os.path.abspath(program)
        name = os.path.basename(src)
        driver = os.path.join(args.bin, "memcoro-c++" if src.endswith(".cpp") else "memcoro-cc")
        with tempfile.TemporaryDirectory() as tmp:
            measured = os.path.join(tmp, "measured.profile")
            gen, serial = os.path.join(tmp, "gen"), os.path.join(tmp, "serial")
            run.compile_program(driver, src, serial, 16, memcoro=False, opt_flags=["-O2"])
            remarks = run.compile_program(driver, src, gen, 16, memcoro=True,
                                          opt_flags=["-O2", f"-fmemcoro-profile-generate={measured}"])
            if "loop instrumented for -fmemcoro-profile-generate" not in remarks:
                sys.exit(f"FAIL: {name}: no loop instrumented:\n{remarks}")
            for trips in (0, 1001):
                if outputs(gen, trips) != outputs(serial, trips):
                    sys.exit(f"FAIL: {name}: the instrumented build's answer differs at trips={trips}")
            if not os.path.exists(measured):
                sys.exit(f"FAIL: {name}: the instrumented run wrote no profile")
            text = open(measured).read()
            variants = [("measured", text, 0, None)]
            for label, miss, expect in (("all-miss", lambda k: True, "transformed"),
                                        ("every-other", lambda k: k % 2 == 0, "mixed"),
                                        ("none-miss", lambda k: False, "serial")):
                variants.append((label, *rewrite(text, miss), expect))
            for label, content, sites, expect in variants:
                path = os.path.join(tmp, label + ".profile")
                with open(path, "w") as f:
                    f.write(content)
                for n in PARALLELISMS:
                    serial_n, use = os.path.join(tmp, f"serial{n}"), os.path.join(tmp, f"use-{label}{n}")
                    run.compile_program(driver, src, serial_n, n, memcoro=False, opt_flags=["-O2"])
                    remarks = run.compile_program(driver, src, use, n, memcoro=True,
                                                  opt_flags=["-O2", f"-fmemcoro-profile-use={path}"])
                    if "warning:" in remarks:
                        sys.exit(f"FAIL: {name} ({label}): the profile of its own build gave a warning:\n{remarks}")
                    kept, dropped = "suspension point kept" in remarks, "not a suspension point" in remarks
                    transformed = "turned into" in remarks
                    ok = {"transformed": kept and not dropped and transformed,
                          "mixed": transformed and (dropped or sites < 2),
                          "serial": dropped and not kept and not transformed,
                          None: True}[expect]
                    if not ok:
                        sys.exit(f"FAIL: {name} ({label}, N={n}): expected a {expect} plan:\n{remarks}")
                    for trips in run.trip_counts(n):
                        a, b = outputs(serial_n, trips), outputs(use, trips)
                        if a != b:
                            sys.exit(f"FAIL: {name} ({label} profile, N={n}, trips={trips}): serial printed "
                                     f"{a!r}, the profile-guided build {b!r}")
                        compared += 1
        print(f"PASS: {name}: instrumented and profile-guided builds keep the serial answer")
    print(f"PASS: {compared} profile-guided runs identical to the serial loop")


if __name__ == "__main__":
    main()
