// memcoro-report reads a build's optimisation records and prints one line per marked loop: transformed with the numbers of memcoro's remark, or serial with the reason.
// RUN: rm -rf %t && mkdir -p %t/obj/sub
// RUN: %memcoro-cc -O2 -Rpass=memcoro -fsave-optimization-record -foptimization-record-passes=memcoro -c %s -o %t/obj/sub/a.o 2> %t/out
// RUN: cd %S && memcoro-report %t/obj >> %t/out
// RUN: %FileCheck %s < %t/out
#include <memcoro/memcoro.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>


// CHECK: remark: loop turned into [[N1:[0-9]+]] interleaved coroutines: [[S1:[0-9]+]] suspension point{{s?}}, [[D1:[a-z]+]] dispatch, [[B1:[0-9]+]] bytes of context per slot
// CHECK: remark: loop turned into [[N2:[0-9]+]] interleaved coroutines (parallelism chosen by memcoro): [[S2:[0-9]+]] suspension point{{s?}}, [[D2:[a-z]+]] dispatch, [[B2:[0-9]+]] bytes of context per slot

// The report, in source order:
// CHECK: report-outcomes.c:[[# @LINE + 3]]: transformed, parallel([[N1]]), [[D1]] dispatch, [[S1]] suspension point{{s?}}, [[B1]] bytes of context{{$}}
uint64_t gather(const uint64_t *data, const uint32_t *idx, size_t n) {
  uint64_t sum = 0;
#pragma memcoro parallel(8) remote(data)
  for (size_t i = 0; i < n; ++i)
    sum += data[idx[i]];
  return sum;
}

// A loop whose order keeps it from being interleaved, kept in it with its
// misses prefetched ahead, and why it was not interleaved.
// CHECK: report-outcomes.c:[[# @LINE + 3]]: transformed, parallel(4), remote(parent), serial order with prefetches ahead: not interleaved: a value is carried from one iteration to the next and is not a reduction
size_t horner(const uint32_t *adj, int *parent, uint32_t *next, size_t n) {
  size_t count = 0;
#pragma memcoro parallel(4) remote(parent)
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = adj[i];
    if (parent[v] < 0) {
      parent[v] = (int)i;
      count = count * 3 + next[v & 7];
    }
  }
  return count;
}

// The reason quotes the callee: YAML's '' inside a quoted string is one quote.
// (The loop's accesses walk the array in order: nothing to prefetch ahead.)
// CHECK: report-outcomes.c:[[# @LINE + 2]]: serial, parallelism chosen by memcoro, remote(data): call to 'rand' uses hidden state of the C library, so each result depends on the calls before it in iteration order: use a reentrant form (rand_r, strtok_r) with state per iteration{{$}}
void calls(uint64_t *data, size_t n) {
#pragma memcoro remote(data)
  for (size_t i = 0; i < n; ++i)
    data[i] += rand();
}

// CHECK: report-outcomes.c:[[# @LINE + 3]]: transformed, parallel([[N2]]), [[D2]] dispatch, [[S2]] suspension point{{s?}}, [[B2]] bytes of context{{$}}
uint64_t chosen(const uint64_t *data, const uint32_t *idx, size_t n) {
  uint64_t sum = 0;
#pragma memcoro remote(data)
  for (size_t i = 0; i < n; ++i)
    sum += data[data[idx[i]] % n]; // a chain: a plain gather would be prefetched in order
  return sum;
}
// CHECK-NEXT: 4 marked loops: 3 transformed, 1 serial
