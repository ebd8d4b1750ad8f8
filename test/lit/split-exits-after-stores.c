// Caffe2's SparseLengthsSum (issue 17, items 6 and 9): `return false` on a
// bag that overruns the indices and on an index out of range, in a loop that
// clears and sums each bag's output row, with `current` carried across bags.
// The loop stays serial; the remark names both exits and the first store.
// RUN: %memcoro-cc -O2 -g -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

bool sls(int64_t dim, int64_t bags, int64_t nidx, int64_t rows, const float *table, const int64_t *indices,
         const int *lengths, float *out) {
  int64_t current = 0;
#pragma memcoro
  for (int m = 0; m < bags; ++m) {
    memset(out, 0, sizeof(float) * dim);
    if (current + lengths[m] > nidx)
      return false;
    for (int i = 0; i < lengths[m]; ++i) {
      int64_t idx = indices[current];
      if (idx < 0 || idx >= rows)
        return false;
      for (int64_t j = 0; j < dim; ++j)
        out[j] += table[dim * idx + j];
      ++current;
    }
    out += dim;
  }
  return current == nidx;
}
// CHECK: split-exits-after-stores.c:[[@LINE-15]]:5: remark: marked loop not interleaved, kept in serial order with prefetches ahead: the loop has an early exit (break, return or goto out of the loop at {{.*}}split-exits-after-stores.c:[[@LINE-14]]:{{[0-9]+}}, {{.*}}split-exits-after-stores.c:[[@LINE-10]]:{{[0-9]+}}) and writes memory at {{.*}}split-exits-after-stores.c:[[@LINE-15]]:5
