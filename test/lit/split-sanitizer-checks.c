// Under -fsanitize=undefined the checks of a marked loop's bound split its
// condition from its header: the sanitizer's handlers are told to write only
// their own data (SanitizerHandlers.cpp), so that the bound is read once,
// and the checks of values the loop does not change run once before it
// (split/SanitizerChecks.cpp); the loop interleaves. Without the second,
// the loop would be a `while` loop with an early exit.
// RUN: %memcoro-cc -O2 -fsanitize=undefined -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %memcoro-cc -O2 -fsanitize=undefined -mllvm -memcoro-hoist-sanitizer-checks=false -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=KEPT

int first, last;
extern long *T;

struct rel {
  const int *keys;
  unsigned long num;
};

void scale(const int *idx, long *out) {
#pragma memcoro
  for (int j = 0; j < last - first + 1; j++)
    out[j] = T[idx[j]] * 3 + j;
}
// CHECK: split-sanitizer-checks.c:[[@LINE-3]]:{{[0-9]+}}: remark: sanitizer checks of values the loop does not change run once before the loop (2), as they give the same answer in every iteration
// CHECK: split-sanitizer-checks.c:[[@LINE-4]]:{{[0-9]+}}: remark: loop turned into
// KEPT: split-sanitizer-checks.c:[[@LINE-5]]:{{[0-9]+}}: remark: marked loop left serial: the loop has an early exit

unsigned long probe(const struct rel *r) {
  unsigned long sum = 0;
#pragma memcoro
  for (unsigned long i = 0; i < r->num; i++)
    sum += (unsigned long)T[r->keys[i]];
  return sum;
}
// CHECK: split-sanitizer-checks.c:[[@LINE-4]]:{{[0-9]+}}: remark: sanitizer checks of values the loop does not change run once before the loop (2)
// CHECK: split-sanitizer-checks.c:[[@LINE-5]]:{{[0-9]+}}: remark: loop turned into
// KEPT: split-sanitizer-checks.c:[[@LINE-6]]:{{[0-9]+}}: remark: marked loop left serial
