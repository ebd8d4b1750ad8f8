#!/usr/bin/env bash
# Compiled AMU kernels (bench/amu/compiled/) against the hand-written ones
# (amu-bench) on the same emulator: emulated far memory. Builds the compiled
# suite with -fno-memcoro -fmemcoro-amu (serial) and -fmemcoro-amu with each
# scheduler, runs the four kernels amu-bench also has hand-written at the
# given latencies, and prints one table.
#   bench/amu/compiled.sh [BUILD] [LATENCIES] [fixed|bimodal]
set -euo pipefail
build=${1:-build}; lat=${2:-200,800}; model=${3:-fixed}
src=$(cd "$(dirname "$0")" && pwd)
out=$build/bench/amu-compiled; mkdir -p "$out"
cc=$build/bin/memcoro-cc
"$cc" -O3 -fno-memcoro -fmemcoro-amu "$src"/compiled/*.c -o "$out/serial"
for s in static dynamic bafin; do
  "$cc" -O3 -fmemcoro-amu -fmemcoro-scheduler=$s "$src"/compiled/*.c -o "$out/$s"
done
kernels=gups,bsearch,chase,hashprobe
jit=""; [ "$model" = bimodal ] && jit="--jitter relative-bimodal:4:0.1"
echo "| kernel | latency ns | hand serial ms | hand dynamic ms (N=64) | compiled serial ms | compiled static | compiled dynamic | compiled bafin | compiled dynamic / hand dynamic |"
echo "|---|---|---|---|---|---|---|---|---|"
for l in ${lat//,/ }; do
  "$build/bin/amu-bench" --latency "$l" --parallel 64 --versions serial,dynamic --trials 5 $jit --csv "$out/hand-$l.csv" >/dev/null
  for v in serial static dynamic bafin; do "$out/$v" "$l" "$model" 1 $kernels > "$out/$v-$l.txt"; done
  python3 - "$out" "$l" <<'PY'
import csv, statistics, sys
out, l = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(f"{out}/hand-{l}.csv")))
def hand(k, v):
    ts = [float(r["seconds"]) for r in rows if r["kernel"] == k and r["version"] == v]
    return statistics.median(ts) * 1e3
comp = {}
for v in ("serial", "static", "dynamic", "bafin"):
    for line in open(f"{out}/{v}-{l}.txt"):
        k, ns, sum_ = line.split()
        comp[(k, v)] = (float(ns) / 1e6, sum_)
for k in ("gups", "bsearch", "chase", "hashprobe"):
    ok = all(comp[(k, v)][1] == comp[(k, "serial")][1] for v in ("static", "dynamic", "bafin"))
    if not ok:
        sys.exit(f"{k}: a compiled scheduler's answer differs from the serial build's")
    s = comp[(k, "serial")][0]
    cells = [f"{comp[(k, v)][0]:.2f} ({s / comp[(k, v)][0]:.2f}x)" for v in ("static", "dynamic", "bafin")]
    hs, hd = hand(k, "serial"), hand(k, "dynamic")
    print(f"| {k} | {l} | {hs:.2f} | {hd:.2f} ({hs / hd:.2f}x) | {s:.2f} | " + " | ".join(cells) +
          f" | {comp[(k, 'dynamic')][0] / hd:.2f} |")
PY
done
