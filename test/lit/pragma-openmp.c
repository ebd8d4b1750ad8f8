// OpenMP composition: '#pragma omp parallel for' then '#pragma memcoro' compiles (the for stays the statement after the OpenMP directive), links and prints the serial loop's result.
// RUN: %memcoro-cc -fopenmp -O2 -Wall -Werror %s -o %t
// RUN: env OMP_NUM_THREADS=2 %t | %FileCheck %s
// RUN: %memcoro-cc -fopenmp -Xclang -disable-llvm-passes -S -emit-llvm -o - %s | %FileCheck %s --check-prefix=IR
// RUN: %memcoro-cc -fno-memcoro -fopenmp -O2 %s -o %t.off
// RUN: env OMP_NUM_THREADS=2 %t.off | %FileCheck %s

#include <memcoro/memcoro.h>
#include <stdio.h>

enum { N = 1 << 15 };

int main(void) {
  long *table = memcoro_remote_alloc(N * sizeof(long));
  unsigned *idx = memcoro_remote_alloc(N * sizeof(unsigned));
  if (!table || !idx)
    return 1;
  for (unsigned i = 0; i < N; i++) {
    table[i] = 3 * (long)i + 1;
    idx[i] = (i * 2654435761u) % N;
  }
  long serial = 0;
  for (int i = 0; i < N; i++)
    serial += table[idx[i]];

  long sum = 0, hits = 0;
#pragma omp parallel for reduction(+ : sum)
#pragma memcoro parallel(8) remote(table, idx)
  for (int i = 0; i < N; i++)
    sum += table[idx[i]];
#pragma omp parallel
  {
#pragma omp for reduction(+ : hits)
#pragma memcoro parallel(4)
    for (int i = 0; i < N; i++) {
      if (table[idx[i]] % 3 != 1)
        continue;
      hits++;
    }
  }
  printf("serial %ld\nopenmp %ld\nhits %ld\n", serial, sum, hits);
  memcoro_remote_free(table);
  memcoro_remote_free(idx);
  return 0;
}
// CHECK: serial [[SUM:[0-9]+]]
// CHECK-NEXT: openmp [[SUM]]
// CHECK-NEXT: hits 32768

// The loop bodies are outlined by OpenMP; the markers go with them.
// IR-DAG: call i32 @llvm.annotation.i32.p0(i32 8,
// IR-DAG: call i32 @llvm.annotation.i32.p0(i32 4,
