#!/usr/bin/env python3
# Ratios of bench/adapt/run.sh kernels output: each variant against serial, and the adapting
# default-N build (label 63) against the best fixed N.
import re, sys, statistics, collections
# labels: 8/16/32/64 fixed N without adaptation; 17/33 sampled at N=16/32; 63 default (sampled + N at run time)
NAMES = {8: "N8", 16: "N16", 32: "N32", 64: "N64", 17: "samp16", 33: "samp32", 63: "default"}
for path in sys.argv[1:]:
    t = collections.defaultdict(list)
    kern = None
    for line in open(path):
        m = re.match(r"RESULT kernel=(\S+) variant=(\S+) n=(\d+) .*ns_per_op=([\d.]+) verify=(\S+)", line)
        if m:
            kern = m[1]
            t[(m[2], int(m[3]))].append(float(m[4]))
            if m[5] != "PASS": print("VERIFY FAIL", line)
    if not t: continue
    s = statistics.median(t[("serial", 0)])
    row = {NAMES[n]: statistics.median(v) for (var, n), v in t.items() if var == "memcoro"}
    fixed = {k: v for k, v in row.items() if k.startswith("N")}
    best = min(fixed, key=fixed.get)
    bestall = min(row, key=row.get)
    d = row.get("default")
    print(f"{path.split('/')[-1]:24s} serial {s:7.3f} ns/op | " + " ".join(f"{k} {s/v:5.2f}x" for k, v in sorted(row.items())) +
          f" | best fixed {best}; default/best-fixed {fixed[best]/d:5.3f}, default/best-any {row[bestall]/d:5.3f}, default/serial {s/d:5.3f}")
