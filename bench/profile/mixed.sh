#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The mixed loop of issue 13 (mixed.c: hot 4 KiB, cold 1 GiB by default),
# built -fno-memcoro, with memcoro, and with memcoro and the profile of a
# -fmemcoro-profile-generate build's run, for parallel(16) as written and
# parallel(64); the builds run alternately, REPS times, pinned to one core.
# Prints each build's median ns per iteration and its speed over serial.
#   bench/profile/mixed.sh [BUILD] [COLD_BYTES] [REPS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
cold=${2:-$((1 << 30))}
reps=${3:-5}
cc="$build/bin/memcoro-cc"
out="$build/profile-bench/mixed"
mkdir -p "$out"
iters=4000000
for n in 16 64; do
  sed "s/parallel(16)/parallel($n)/" "$here/mixed.c" > "$out/mixed$n.c"
  "$cc" -O2 -fno-memcoro "$out/mixed$n.c" -o "$out/serial$n"
  "$cc" -O2 -Rpass=memcoro "$out/mixed$n.c" -o "$out/plain$n" 2> "$out/plain$n.remarks"
  "$cc" -O2 -fmemcoro-profile-generate="$out/mixed$n.profile" "$out/mixed$n.c" -o "$out/gen$n"
  rm -f "$out/mixed$n.profile"
  taskset -c 1 "$out/gen$n" 4096 "$cold" "$iters" 1 > /dev/null
  "$cc" -O2 -Rpass=memcoro -Rpass-missed=memcoro -fmemcoro-profile-use="$out/mixed$n.profile" "$out/mixed$n.c" \
    -o "$out/use$n" 2> "$out/use$n.remarks"
  echo "parallel($n), plain: $(grep -o 'turned into.*point[s]*' "$out/plain$n.remarks" || echo serial)"
  echo "parallel($n), profile: $(grep -o 'turned into.*point[s]*\|left serial: .*would' "$out/use$n.remarks")"
done
declare -A t
for r in $(seq "$reps"); do
  for n in 16 64; do
    for v in serial plain use; do
      line=$(taskset -c 1 "$out/$v$n" 4096 "$cold" "$iters" 3)
      # Every build must print the serial sum.
      sum=${line%% *}
      [ "${first:=$sum}" = "$sum" ] || { echo "mixed: $v$n printed $sum, not $first" >&2; exit 1; }
      t[$v$n]="${t[$v$n]:-} ${line#*ns_per_iter=}"
    done
  done
done
median() { tr ' ' '\n' <<< "$*" | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| parallel | serial ns/iter | memcoro | memcoro + profile | memcoro / serial | profile / serial | profile / memcoro |"
echo "|---|---|---|---|---|---|---|"
for n in 16 64; do
  s=$(median ${t[serial$n]}); p=$(median ${t[plain$n]}); u=$(median ${t[use$n]})
  awk -v n=$n -v s=$s -v p=$p -v u=$u 'BEGIN { printf "| %d | %.2f | %.2f | %.2f | %.2fx | %.2fx | %.2fx |\n", n, s, p, u, s/p, s/u, p/u }'
done
