// Prefetches across rows (split/PrefetchEdges.cpp): a loop the cost model
// keeps serial because the core overlaps its inner loop's loads (CG's product,
// a pull PageRank) prefetches the inner loop's element stream 128 elements
// ahead from its own body; the inner loop stays as written. Rows that do not
// tile one stream stay serial.
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - -fno-memcoro-adapt | %FileCheck %s --check-prefix=IR
// RUN: %memcoro-cc -O2 -g -S -emit-llvm %s -o /dev/null -Rpass=memcoro -Rpass-missed=memcoro 2>&1 | %FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o /dev/null -Rpass=memcoro -mllvm -memcoro-prefetch-elements=32 2>&1 | %FileCheck %s --check-prefix=DIST
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o /dev/null -Rpass=memcoro -Rpass-missed=memcoro -mllvm -memcoro-prefetch-edges=0 2>&1 | %FileCheck %s --check-prefix=OFF
// Under run-time adaptation the switch takes the prefetching loop only when
// it measures faster (MEMCORO_SWITCH_EVEN, 16).
// RUN: %memcoro-cc -O2 -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=SWITCH
#include <stddef.h>
#include <stdint.h>

// IR-LABEL: define {{.*}} @spmv(
// The stream's end, rowstr[n], read once before the loop: the loop reads it
// in its last iteration.
// IR: [[N4:%.*]] = shl nuw nsw i64 {{%.*}}, 2
// IR-NEXT: [[LASTP:%.*]] = getelementptr i8, ptr %0, i64 [[N4]]
// IR-NEXT: [[LAST:%.*]] = load i32, ptr [[LASTP]], align 4
// IR-NEXT: [[END:%.*]] = sext i32 [[LAST]] to i64
// Before each row: the row 128 elements on, up to the stream's end.
// IR: [[START:%.*]] = phi i32
// IR: [[ROWEND:%.*]] = load i32, ptr
// IR: [[S64:%.*]] = sext i32 [[START]] to i64
// IR-NEXT: [[LO:%.*]] = add nsw i64 [[S64]], 128
// IR-NEXT: [[E64:%.*]] = sext i32 [[ROWEND]] to i64
// IR-NEXT: [[AHEAD:%.*]] = add nsw i64 [[E64]], 128
// IR-NEXT: [[HI:%.*]] = tail call i64 @llvm.smin.i64(i64 [[AHEAD]], i64 [[END]])
// IR-NEXT: [[ANY:%.*]] = icmp slt i64 [[LO]], [[HI]]
// IR-NEXT: br i1 [[ANY]], label %[[PF:.*]], label %[[ROW:.*]]
// IR: [[PF]]:
// IR-NEXT: [[K:%.*]] = phi i64 [ [[NEXT:%.*]], %[[PF]] ], [ [[LO]], %{{.*}} ]
// IR-NEXT: [[CP:%.*]] = getelementptr i32, ptr %1, i64 [[K]]
// IR-NEXT: [[C:%.*]] = load i32, ptr [[CP]], align 4
// IR-NEXT: [[CX:%.*]] = sext i32 [[C]] to i64
// IR-NEXT: [[PP:%.*]] = getelementptr double, ptr %3, i64 [[CX]]
// IR-NEXT: tail call void @llvm.prefetch.p0(ptr [[PP]], i32 0, i32 3, i32 1)
// IR-NEXT: [[NEXT]] = add i64 [[K]], 1
// IR-NEXT: [[MORE:%.*]] = icmp slt i64 [[NEXT]], [[HI]]
// IR-NEXT: br i1 [[MORE]], label %[[PF]], label %[[ROW]], !llvm.loop [[NOUNROLL:![0-9]+]]
// The inner loop as written: no prefetch, unrolled as before.
// IR-NOT: llvm.prefetch
// IR: call double @llvm.fmuladd.f64
// IR: call double @llvm.fmuladd.f64
// IR-NOT: llvm.prefetch
// IR-LABEL: {{^}}}
void spmv(const int *rowstr, const int *colidx, const double *a, const double *p, double *q, int n) {
#pragma memcoro
  for (int j = 0; j < n; j++) {
    double sum = 0.0;
    for (int k = rowstr[j]; k < rowstr[j + 1]; k++)
      sum = sum + a[k] * p[colidx[k]];
    q[j] = sum;
  }
}

// A pointer range, as GAP's neighbourhoods: the stream's last element must
// end by its end (3 bytes before it), and the row is compared unsigned.
// IR-LABEL: define {{.*}} @pull(
// IR: [[PEND:%.*]] = getelementptr i32, ptr {{%.*}}, i64 {{%.*}}
// IR-NEXT: [[PLAST:%.*]] = getelementptr i8, ptr [[PEND]], i64 -3
// IR: icmp ult ptr {{%.*}}, [[PLAST]]
// IR: call void @llvm.prefetch.p0(
// IR-NOT: llvm.prefetch
// IR-LABEL: {{^}}}
struct graph {
  int64_t *index;
  int32_t *neighs;
};

void pull(const struct graph *g, const float *contrib, float *scores, int64_t n) {
#pragma memcoro
  for (int64_t u = 0; u < n; u++) {
    float total = 0;
    for (const int32_t *v = g->neighs + g->index[u]; v != g->neighs + g->index[u + 1]; v++)
      total += contrib[*v];
    scores[u] = 0.15f + 0.85f * total;
  }
}

// The inner loop's guard in the outer loop's header, which carries the row's
// start over: the prefetch loop goes there, after the start and end. A
// 64-bit start that wrapped past the distance would be below its row.
// IR-LABEL: define {{.*}} @pull64(
// IR: [[ROW64:%.*]] = phi i64
// IR: [[AHEAD64:%.*]] = add i64 [[ROW64]], 128
// IR-NEXT: [[LO64:%.*]] = tail call i64 @llvm.smax.i64(i64 [[AHEAD64]], i64 [[ROW64]])
// IR: [[ANY64:%.*]] = icmp slt i64 [[LO64]], {{%.*}}
// IR-NEXT: br i1 [[ANY64]]
// IR: call void @llvm.prefetch.p0(
// IR-LABEL: {{^}}}
void pull64(const int64_t *off, const int32_t *col, const float *x, float *y, long n) {
#pragma memcoro
  for (long u = 0; u < n; u++) {
    float s = 0;
    for (int64_t k = off[u]; k < off[u + 1]; k++)
      s += x[col[k]];
    y[u] = s;
  }
}

// The rows do not tile one stream (a row's end is not the next row's start):
// the elements between them may not be the loop's to read.
// IR-LABEL: define {{.*}} @ranges(
// IR-NOT: llvm.prefetch
// IR-LABEL: {{^}}}
void ranges(const uint32_t *begin, const uint32_t *end, const uint32_t *col, const double *x, double *y, size_t n) {
#pragma memcoro
  for (size_t u = 0; u < n; u++) {
    double s = 0;
    for (uint32_t e = begin[u]; e < end[u]; e++)
      s += x[col[e]];
    y[u] = s;
  }
}

// The loop writes the column stream: an element ahead may not hold the
// value the loop will read.
// IR-LABEL: define {{.*}} @rewrites(
// IR-NOT: llvm.prefetch
// IR-LABEL: {{^}}}
void rewrites(const int64_t *rowptr, uint32_t *col, const double *x, double *y, size_t n) {
#pragma memcoro
  for (size_t u = 0; u < n; u++) {
    double s = 0;
    for (int64_t e = rowptr[u]; e < rowptr[u + 1]; e++) {
      s += x[col[e]];
      col[e] = (uint32_t)u;
    }
    y[u] = s;
  }
}

// IR: [[NOUNROLL]] = distinct !{[[NOUNROLL]], [[DISABLE:![0-9]+]]}
// IR: [[DISABLE]] = !{!"llvm.loop.unroll.disable"}

// REMARK: split-prefetch-edges.c:51:3: remark: loop turned into a prefetching loop in serial order: the load of 'p[...]' at {{.*}}split-prefetch-edges.c:54:26 of the inner loop prefetched 128 elements ahead along the stream its rows walk, from the loop's body (the inner loop kept as written); the processor already overlaps the inner loop's independent loads, and the prefetches add what lies beyond its reorder window
// REMARK: split-prefetch-edges.c:51:3: remark: loop adapts at run time
// REMARK: remark: loop turned into a prefetching loop in serial order: the load of 'contrib[...]' at {{.*}}split-prefetch-edges.c:78:16 of the inner loop prefetched 128 elements ahead
// REMARK: remark: loop turned into a prefetching loop in serial order: the load of 'x[...]'
// REMARK: remark: marked loop left serial: no access in the loop is worth a suspension
// REMARK: remark: marked loop left serial: no access in the loop is worth a suspension
// DIST: prefetched 32 elements ahead
// DIST: prefetched 32 elements ahead
// DIST: prefetched 32 elements ahead
// OFF-NOT: prefetching loop
// OFF: remark: marked loop left serial
// OFF-NOT: prefetching loop
// SWITCH: call i64 @__memcoro_switch_begin(ptr {{.*}}, i32 16)
