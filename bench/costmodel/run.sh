#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The cost model's loops against their serial builds, side by side in one
# process per loop (costmodel.h says how). Usage, after `make build`:
#   bench/costmodel/run.sh [repeats]        (default 3; about 1 minute each)
# Needs about 1.1 GiB of free memory (the 1 GiB tables; edges_pr at 2^24 rows 1 GiB).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(dirname "$here")")
cc=${MEMCORO_CC:-$root/build/bin/memcoro-cc}
out=$root/build/costmodel
mkdir -p "$out"
repeats=${1:-3}

build() { # binary, kernel, extra flags...
  b=$1 k=$2; shift 2
  "$cc" -O3 -march=x86-64-v3 "$@" -fno-memcoro -DVARIANT=serial -c "$here/$k.c" -o "$out/$b.serial.o"
  "$cc" -O3 -march=x86-64-v3 "$@" -DVARIANT=memcoro -Rpass=memcoro -Rpass-missed=memcoro \
    -c "$here/$k.c" -o "$out/$b.memcoro.o" 2>"$out/$b.remarks"
  "$cc" -O3 -march=x86-64-v3 "$@" -fno-memcoro-cost-model -DVARIANT=insist -c "$here/$k.c" -o "$out/$b.insist.o"
  "$cc" -O3 -march=x86-64-v3 "$@" -fno-memcoro -DCOSTMODEL_MAIN -c "$here/$k.c" -o "$out/$b.main.o"
  "$cc" "$out/$b.main.o" "$out/$b.serial.o" "$out/$b.memcoro.o" "$out/$b.insist.o" -o "$out/$b"
  grep -o 'remark: .*' "$out/$b.remarks" | sed "s/^/  # $b: /"
}
build triad triad
build mixed16 mixed -DCM_N=16
build mixed64 mixed -DCM_N=64
build histogram histogram
build pagerank pagerank -ffast-math
# CSR row walks (edges.c): NPB CG's product, and GAP's pull PageRank sum with
# float scores and int64 offsets; hand prefetches beside them.
build edges_cg edges -DEDGES_WEIGHTED
build edges_pr edges -DOFF=int64_t -DSCORE=float

cpu=$(($(nproc) - 1))
for r in $(seq "$repeats"); do
  echo "== repeat $r"
  taskset -c "$cpu" "$out/triad" 1M
  taskset -c "$cpu" "$out/triad" 1G 3
  taskset -c "$cpu" "$out/mixed16" 1G
  taskset -c "$cpu" "$out/mixed64" 1G
  taskset -c "$cpu" "$out/histogram"
  taskset -c "$cpu" "$out/pagerank" 22 3
  taskset -c "$cpu" "$out/edges_cg" 16 7
  taskset -c "$cpu" "$out/edges_cg" 23 7
  taskset -c "$cpu" "$out/edges_pr" 18 16
  taskset -c "$cpu" "$out/edges_pr" 24 8
done
