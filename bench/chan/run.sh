#!/usr/bin/env bash
# Reproduces the Sunway channel paper's Table 1 on this machine, one command:
#
#   bench/chan/run.sh [--messages M] [--repeat R]     (defaults: 1000000, 7; ~1 minute)
#
# Builds the C driver (make build) and the Go program, then runs, R times:
# memcoro with every coroutine on 1 executor, then Go; memcoro with the
# coroutines spread round robin over 2 executors (the default placement),
# then Go again (Go channels, GOMAXPROCS = 2 both times). Each memcoro run is
# compared with the Go run right after it, so that machine noise hits both
# alike; the order of the two pairs alternates between repeats. Then a
# mutex + condition-variable queue on plain threads and the context-switch
# benchmark.
# Raw rows go to build/bench-chan/results.csv; report.py prints the tables
# (medians, and the median of the per-repeat ratios memcoro / Go) and draws
# build/bench-chan/table1.png.
set -euo pipefail

messages=1000000
repeat=7
while (($#)); do
  case "$1" in
    --messages) messages="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    *) echo "usage: bench/chan/run.sh [--messages M] [--repeat R]" >&2; exit 2 ;;
  esac
done

root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/build/bench-chan"
go=/usr/local/go/bin/go
[ -x "$go" ] || go="$(command -v go || true)"
[ -n "$go" ] || { echo "run.sh: Go is not installed (expected /usr/local/go/bin/go)" >&2; exit 1; }

make -C "$root" --no-print-directory build >/dev/null
mkdir -p "$out"
(cd "$root/bench/chan/go" && "$go" build -o "$out/chanbench_go" .)

csv="$out/results.csv"
echo "repeat,pair,impl,mode,senders,receivers,capacity,phase,op,ns_per_message,verify" >"$csv"
switch_csv="$out/switch.csv"
echo "repeat,kind,what,ns" >"$switch_csv"
# memcoro on E executors, then Go, as one pair of rows tagged with E.
pair() {
  {
    "$root/build/bin/chan_bench" --executors "$1" --messages "$messages"
    GOMAXPROCS=2 "$out/chanbench_go" -messages "$messages"
  } 2>/dev/null | sed "s/^/$r,${1}exec,/" >>"$csv"
}
for ((r = 1; r <= repeat; r++)); do
  echo "run.sh: repeat $r of $repeat ($messages messages per phase)" >&2
  if ((r % 2)); then pair 1; pair 2; else pair 2; pair 1; fi
  # Every hand-over of the mutex queue is an OS wake-up (microseconds), so
  # it moves fewer messages (the figures are per message either way).
  "$root/build/bin/chan_bench" --impl mutex --messages "$((messages / 20))" 2>/dev/null |
    sed "s/^/$r,-,/" >>"$csv"
  "$root/build/bin/chan_bench" --switch --messages 20000000 | sed "s/^/$r,/" >>"$switch_csv"
done
if grep -q FAIL "$csv"; then
  echo "run.sh: verification FAILED in some rows of $csv" >&2
  exit 1
fi
python3 "$root/bench/chan/report.py" "$csv" "$switch_csv" --png "$out/table1.png"
