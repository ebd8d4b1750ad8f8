#!/usr/bin/env bash
# Primary/scavenger co-scheduling, measured as MSH does (README.md here):
#
#   bench/scavenger/run.sh [BUILD] [--ops N] [--repeat R] [--mib M]   (~30 s)
#
# Builds lookup.c serially and once per bound with -fmemcoro-scavenge=NS,
# links them with main.c into one program (every variant runs in the same
# process, repeat by repeat), writes BUILD/bench-scavenger/results.csv and
# prints the table; report.py draws BUILD/bench-scavenger/scavenger.png.
set -euo pipefail
build=build
if (($#)) && [[ "$1" != --* ]]; then build=$1; shift; fi
src=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$src/../.." && pwd)
build=$(cd "$root" && mkdir -p "$build" && cd "$build" && pwd)
out=$build/bench-scavenger
mkdir -p "$out"
make -C "$root" --no-print-directory BUILD="$build" build >/dev/null
cc=$build/bin/memcoro-cc
objs=("$out/lookup_serial.o")
"$cc" -O3 -fno-memcoro -c "$src/lookup.c" -o "$out/lookup_serial.o"
for ns in 25 50 100 200 400 800 1600; do
  "$cc" -O3 -fmemcoro-scavenge=$ns -DVARIANT=$ns -c "$src/lookup.c" -o "$out/lookup_$ns.o"
  objs+=("$out/lookup_$ns.o")
done
"$cc" -O3 -Wall -Wextra -Werror "$src/main.c" "${objs[@]}" -o "$out/scavenger-bench"
"$out/scavenger-bench" "$@" > "$out/results.csv"
if grep -q FAIL "$out/results.csv"; then
  echo "run.sh: a lookup returned a wrong value (see $out/results.csv)" >&2
  exit 1
fi
python3 "$src/report.py" "$out/results.csv" --png "$out/scavenger.png"
