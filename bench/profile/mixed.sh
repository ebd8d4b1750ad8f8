#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The mixed loop of issue 13 (mixed.c: hot 4 KiB, cold 1 GiB by default),
# every build linked into one binary with mixed_main.c and timed side by side
# in one process, round robin, pinned to one core:
#   serial      -fno-memcoro
#   plainP      memcoro                                  (P: 16, 64, or 0 for no clause)
#   useP        memcoro with the profile of a -fmemcoro-profile-generate run
#   pipeP       the same, -mllvm -memcoro-dispatch=pipeline (a pipeline that
#               does not adapt at run time)
#   pfdD        the hand-written prefetch-distance loop, distance D
# Prints each build's plan, then its median ns per iteration and its speed
# over serial; every build must return the serial sum.
#   bench/profile/mixed.sh [BUILD] [COLD_BYTES] [REPS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
cold=${2:-$((1 << 30))}
reps=${3:-9}
cc="$build/bin/memcoro-cc"
out="$build/profile-bench/mixed"
mkdir -p "$out"
iters=4000000
par() { [ "$1" = 0 ] && echo "" || echo "parallel($1)"; }
# The profile: one run of the instrumented build at this size.
"$cc" -O2 -DMIXED=gen "-DPAR=parallel(16)" -fmemcoro-profile-generate="$out/gen.profile" -c "$here/mixed.c" \
  -o "$out/gen.o"
"$cc" -O2 "-DVARIANTS=X(gen)" -c "$here/mixed_main.c" -o "$out/gen_main.o"
"$cc" -O2 "$out/gen_main.o" "$out/gen.o" -o "$out/gen"
rm -f "$out/gen.profile"
taskset -c 1 "$out/gen" 4096 "$cold" "$iters" 1 > /dev/null
objects=() list=""
build_one() { # NAME P FLAGS...
  local name=$1 p=$2
  shift 2
  # Each copy has its own name: the profile's records follow it.
  sed "s/^\(site\|loop\) gen /\1 $name /" "$out/gen.profile" > "$out/$name.profile"
  "$cc" -O2 -Rpass=memcoro -Rpass-missed=memcoro "-DMIXED=$name" "-DPAR=$(par "$p")" "${@/@PROFILE@/$out/$name.profile}" \
    -c "$here/mixed.c" -o "$out/$name.o" 2> "$out/$name.remarks"
  objects+=("$out/$name.o")
  list="$list X($name)"
  printf '%-8s %s\n' "$name" "$(grep -o 'turned into.*point[s]*, [a-z]* dispatch\|left serial: .*' "$out/$name.remarks" \
    | cut -c1-150 || echo serial)"
}
build_one serial 16 -fno-memcoro
for p in 16 64 0; do
  build_one "plain$p" "$p"
  build_one "use$p" "$p" -fmemcoro-profile-use=@PROFILE@
  build_one "pipe$p" "$p" -fmemcoro-profile-use=@PROFILE@ -mllvm -memcoro-dispatch=pipeline
done
"$cc" -O2 "-DVARIANTS=$list" -c "$here/mixed_main.c" -o "$out/main.o"
"$cc" -O2 "$out/main.o" "${objects[@]}" -o "$out/mixed"
taskset -c 1 "$out/mixed" 4096 "$cold" "$iters" "$reps" > "$out/times"
serial=$(awk '$1 == "serial" {print $2}' "$out/times")
echo "| build | ns/iter | speed over serial |"
echo "|---|---|---|"
awk -v s="$serial" 'NF == 2 {printf "| %s | %.2f | %.2fx |\n", $1, $2, s / $2}' "$out/times"
