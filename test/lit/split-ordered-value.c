// `#pragma omp ordered` in a marked loop's body is an ordered region of
// memcoro's, with -fopenmp and without (clang then drops the pragma, and the
// loop must still give the serial answer); elsewhere it is OpenMP's alone, and
// under or around `#pragma memcoro ordered` it is the same region. A value an
// ordered region alone reads and assigns, a local the optimiser keeps in a
// register, is carried in iteration order in one shared scalar; read before the
// region, it keeps the loop serial, and the remark says where.
// RUN: %memcoro-cc -O2 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.ll
// RUN: FileCheck %s --check-prefix=FRONT < %t.ll
// RUN: %opt -passes='memcoro-mark,function(sroa,early-cse,simplifycfg,instcombine,loop-mssa(loop-rotate),loop-simplify,lcssa,print<memcoro-plan>)' -disable-output %t.ll 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: %memcoro-cc -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -Wall -Werror -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %memcoro-cc -fopenmp -O2 -S -emit-llvm -Xclang -disable-llvm-passes %s -o %t.omp.ll
// RUN: %opt -passes=memcoro-mark -S %t.omp.ll | FileCheck %s --check-prefix=OMP
// RUN: %memcoro-cc -fopenmp -fno-memcoro-adapt -fno-memcoro-cost-model -O2 -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OMPREMARK
// RUN: %memcoro-cc -fno-memcoro -fopenmp -Wall -Werror -fsyntax-only %s
// The markers' casts are memcoro's, not the user's.
// RUN: %memcoro-cxx -x c++ -Wall -Wold-style-cast -Werror -fsyntax-only %s
// RUN: %memcoro-cxx -x c++ -fopenmp -Wall -Wold-style-cast -Werror -fsyntax-only %s
#include <stdint.h>

// FRONT: @[[ORD:.*]] = private unnamed_addr constant [16 x i8] c"memcoro.ordered\00"

// FRONT-LABEL: define {{.*}} @omp_hash(
// FRONT:       call i32 @llvm.annotation.i32.p0(i32 0, ptr @[[ORD]]
// PLAN-LABEL:  memcoro-plan: loop {{.*}} in function 'omp_hash'
// PLAN:        value carried in an ordered region: %{{.*}}
// PLAN:        ordered region:
// REMARK:      split-ordered-value.c:[[# @LINE + 13]]:13: remark: ordered region runs in iteration order
// REMARK:      remark: loop turned into 8 interleaved coroutines: {{.*}}1 run in iteration order
// OMP-LABEL:   define {{.*}} @omp_hash.omp_outlined(
// OMP:         call void @__memcoro_ordered()
// OMP-NEXT:    call void @__kmpc_ordered(
// OMPREMARK:   split-ordered-value.c:[[# @LINE + 8]]:13: remark: ordered region runs in iteration order
// OMPREMARK:   remark: loop turned into 8 interleaved coroutines: {{.*}}1 run in iteration order{{.*}} the calls to '__kmpc_ordered', '__kmpc_end_ordered'
uint64_t omp_hash(const uint32_t *t, const uint32_t *idx, int n) {
  uint64_t oh = 0;
#pragma omp parallel for ordered
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i) {
    uint32_t v = t[t[idx[i]] % 4096];
#pragma omp ordered
    oh = oh * 1000003 + v;
  }
  return oh;
}

// A floating-point recurrence and a last index, in a region inside a condition.
// PLAN-LABEL:  memcoro-plan: loop {{.*}} in function 'in_condition'
// PLAN-DAG:    value carried in an ordered region: %{{.*}}
// PLAN-DAG:    value carried in an ordered region: %{{.*}}
// REMARK:      remark: loop turned into 8 interleaved coroutines: {{.*}}1 run in iteration order
double in_condition(const uint32_t *t, const uint32_t *idx, int n, int *last) {
  double acc = 1.0;
  int at = -1;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i) {
    uint32_t v = t[t[idx[i]] % 4096];
    if (v % 3) {
#pragma memcoro ordered
      {
        acc = acc * 0.75 + v % 1000;
        at = i;
      }
    }
  }
  *last = at;
  return acc;
}

// REMARK: split-ordered-value.c:[[# @LINE + 9]]:23: remark: marked loop left serial: a value is carried from one iteration to the next {{.*}}; the loop's ordered region would carry it in iteration order, but it is read at {{.*}}split-ordered-value.c:[[# @LINE + 6]]:9, before the region starts: read it only inside the region
uint64_t read_before(const uint32_t *t, const uint32_t *idx, int n) {
  uint64_t oh = 0;
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i) {
    uint32_t v = t[t[idx[i]] % 4096];
    if (oh & 1)
      v++;
#pragma memcoro ordered
    oh = oh * 1000003 + v;
  }
  return oh;
}

// `omp ordered` around `memcoro ordered` is one region; outside a marked loop
// it is no region of memcoro's, and no error.
// OMPREMARK:   remark: loop turned into 8 interleaved coroutines: {{.*}}1 run in iteration order
uint64_t both(const uint32_t *t, const uint32_t *idx, int n) {
  uint64_t oh = 0;
#pragma omp parallel for ordered
#pragma memcoro parallel(8)
  for (int i = 0; i < n; ++i) {
    uint32_t v = t[t[idx[i]] % 4096];
#pragma omp ordered
#pragma memcoro ordered
    oh = oh * 1000003 + v;
  }
  return oh;
}

// FRONT-LABEL: define {{.*}} @outside(
// FRONT-NOT:   @[[ORD]]
// FRONT:       ret
uint64_t outside(const uint32_t *t, const uint32_t *idx, int n) {
  uint64_t oh = 0;
#pragma omp parallel for ordered
  for (int i = 0; i < n; ++i) {
    uint32_t v = t[t[idx[i]] % 4096];
#pragma omp ordered
    oh = oh * 1000003 + v;
  }
  return oh;
}
