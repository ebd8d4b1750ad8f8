#!/bin/bash
# Run-time adaptation measured (docs/bench.md, "Run-time adaptation"), on the
# machine as it is: every ratio comes from one process.
#   bench/adapt/run.sh loops            issue 15's update and gather, 256 KiB and 256 MiB tables
#   bench/adapt/run.sh kernels K... S   suite kernels at size S (1M, 256M): serial; fixed N = 8..64
#                                       without adaptation (labels 8 16 32 64); sampled at N = 16, 32
#                                       (labels 17 33); no parallel clause, adapting (label 63)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cc=$root/build/bin/memcoro-cc cxx=$root/build/bin/memcoro-c++
out=$root/build/bench-adapt
mkdir -p "$out"
flags="-O3 -march=x86-64-v3"
case "$1" in
loops)
  $cc $flags -fno-memcoro -DV=serial -c "$root/bench/adapt/loops.c" -o "$out/serial.o"
  $cc $flags -fno-memcoro-adapt -DV=fixed -c "$root/bench/adapt/loops.c" -o "$out/fixed.o"
  $cc $flags -DV=sampled -c "$root/bench/adapt/loops.c" -o "$out/sampled.o"
  $cc $flags -DDEFAULT_N -DV=defaultn -c "$root/bench/adapt/loops.c" -o "$out/defaultn.o"
  $cc -O2 "$root/bench/adapt/compare.c" "$out"/{serial,fixed,sampled,defaultn}.o -o "$out/compare"
  for args in "262144 4000000" "262144 4000000 1000" "268435456 4000000"; do taskset -c 1 "$out/compare" $args; done ;;
kernels)
  shift; size=${@: -1}; set -- "${@:1:$#-1}"
  for k in "$@"; do
    d=$out/$k; mkdir -p "$d"; src=$root/bench/kernels/$k.cpp
    variant() { sed "s|\"../harness.h\"|\"$root/bench/harness.h\"|; s/parallel(MEMCORO_N) */$1/" "$src"; }
    variant "" > "$d/default.cpp"; variant "parallel(16) " > "$d/s16.cpp"; variant "parallel(32) " > "$d/s32.cpp"
    f="$flags -std=c++20 -I$root/include"
    $cxx $f -fno-memcoro -c "$src" -o "$d/base.o"
    for n in 8 16 32 64; do $cxx $f -fno-memcoro-adapt -DMEMCORO_ONLY -DMEMCORO_N=$n -c "$src" -o "$d/m$n.o"; done
    for n in 16 32; do $cxx $f -DMEMCORO_ONLY -DMEMCORO_N=$((n + 1)) -c "$d/s$n.cpp" -o "$d/s$n.o"; done
    $cxx $f -DMEMCORO_ONLY -DMEMCORO_N=63 -c "$d/default.cpp" -o "$d/d.o"
    $cxx $f "$d/base.o" "$d"/m{8,16,32,64}.o "$d"/s{16,32}.o "$d/d.o" -o "$d/$k"
    taskset -c 1 "$d/$k" --bytes "$size" --trials 5 --n 8,16,32,64,17,33,63 --variants serial,memcoro > "$d/$k-$size.txt"
    python3 "$root/bench/adapt/summarize.py" "$d/$k-$size.txt"
  done ;;
*) sed -n '2,8p' "$0"; exit 1 ;;
esac
