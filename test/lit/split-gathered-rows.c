// Tests that a stream over a row chosen by a loaded index (an embedding bag's
// pooling, `out[d] += table[indices[k] * D + d]`) gets a suspension where the
// row's loop is entered, prefetching the whole row when its length is a known
// constant (64 floats: 256 bytes from any start, 5 lines) and its first two
// lines otherwise, although each of its loads is an affine stream: the loop
// is interleaved instead of left serial by the cost model. A CSR list, whose
// start is an index scaled only by the element's size (consecutive lists
// follow one another), stays on the hardware prefetcher.
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -Rpass-missed=memcoro -mllvm -memcoro-stream-starts=false -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %memcoro-cc -O2 -fno-memcoro-adapt -fno-unroll-loops -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <stdint.h>
#include <string.h>

// PyTorch's and FBGEMM's offsets form, rows of a constant 64 floats.
void bag_sum(const float *table, const int64_t *indices, const int64_t *offsets, int64_t nbags, float *out) {
#pragma memcoro parallel(8)
  for (int64_t b = 0; b < nbags; b++) {
    float *o = out + b * 64;
    memset(o, 0, 64 * sizeof(float));
    for (int64_t k = offsets[b]; k < offsets[b + 1]; k++)
      for (int64_t d = 0; d < 64; d++)
        o[d] += table[indices[k] * 64 + d];
  }
}
// CHECK: remark: loop turned into 8 interleaved coroutines: 1 suspension point
// OFF: remark: marked loop left serial: no access in the loop is worth a suspension
// The row's five lines, prefetched before the yield.
// IR-LABEL: define {{.*}}@bag_sum
// IR: call void @llvm.prefetch.p0(ptr [[ROW:%[^ ]+]], i32 0, i32 3, i32 1)
// IR-NEXT: [[L1:%[^ ]+]] = getelementptr i8, ptr [[ROW]], i64 64
// IR-NEXT: call void @llvm.prefetch.p0(ptr [[L1]], i32 0, i32 3, i32 1)
// IR: getelementptr i8, ptr [[ROW]], i64 256
// IR-NEXT: call void @llvm.prefetch.p0

// Rows whose length is the function's argument, as Caffe2's generic kernel
// takes its block size: the index is scaled by the row's own length.
void bag_sum_block(int64_t block_size, const float *input, const int64_t *indices, const int64_t *offsets,
                   int64_t nbags, float *out) {
#pragma memcoro parallel(8)
  for (int64_t b = 0; b < nbags; b++) {
    float *o = out + b * block_size;
    for (int64_t j = 0; j < block_size; j++)
      o[j] = 0;
    for (int64_t k = offsets[b]; k < offsets[b + 1]; k++)
      for (int64_t j = 0; j < block_size; j++)
        o[j] += input[block_size * indices[k] + j];
  }
}
// CHECK: remark: loop turned into 8 interleaved coroutines: 1 suspension point

// A CSR list of each vertex: the lists follow one another in memory, and
// the loop stays serial by the cost model.
void list_sums(const int64_t *index, const int *neigh, long *out, int n) {
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i) {
    long sum = 0;
    for (int64_t e = index[i]; e < index[i + 1]; ++e)
      sum += neigh[e];
    out[i] = sum;
  }
}
// CHECK: remark: marked loop left serial: no access in the loop is worth a suspension
