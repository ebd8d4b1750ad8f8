#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The cost model's loops against their serial builds, side by side in one
# process per loop (costmodel.h says how). Usage, after `make build`:
#   bench/costmodel/run.sh [repeats]        (default 3; about 1 minute each)
# Needs about 1.1 GiB of free memory (the 1 GiB tables).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(dirname "$here")")
cc=${MEMCORO_CC:-$root/build/bin/memcoro-cc}
out=$root/build/costmodel
mkdir -p "$out"
repeats=${1:-3}

build() { # kernel, extra flags...
  k=$1; shift
  "$cc" -O3 -march=x86-64-v3 "$@" -fno-memcoro -DVARIANT=serial -c "$here/$k.c" -o "$out/$k.serial.o"
  "$cc" -O3 -march=x86-64-v3 "$@" -DVARIANT=memcoro -Rpass=memcoro -Rpass-missed=memcoro \
    -c "$here/$k.c" -o "$out/$k.memcoro.o" 2>"$out/$k.remarks"
  "$cc" -O3 -march=x86-64-v3 "$@" -fno-memcoro-cost-model -DVARIANT=insist -c "$here/$k.c" -o "$out/$k.insist.o"
  "$cc" -O3 -march=x86-64-v3 "$@" -fno-memcoro -DCOSTMODEL_MAIN -c "$here/$k.c" -o "$out/$k.main.o"
  "$cc" "$out/$k.main.o" "$out/$k.serial.o" "$out/$k.memcoro.o" "$out/$k.insist.o" -o "$out/$k"
  sed 's/^/  # /' "$out/$k.remarks"
}
build triad
build mixed
build histogram
build pagerank -ffast-math

cpu=$(($(nproc) - 1))
for r in $(seq "$repeats"); do
  echo "== repeat $r"
  taskset -c "$cpu" "$out/triad" 1M
  taskset -c "$cpu" "$out/triad" 1G 3
  taskset -c "$cpu" "$out/mixed" 1G
  taskset -c "$cpu" "$out/histogram"
  taskset -c "$cpu" "$out/pagerank" 22 3
done
