// Under -fsanitize=undefined the checks of a marked loop's bound split its
// condition from its header: the sanitizer's handlers are told to write only
// their own data (SanitizerHandlers.cpp), so that the bound is read once,
// and the checks of values the loop does not change run once before it
// (split/SanitizerChecks.cpp); the loop interleaves. Without the second,
// the loop would be a `while` loop with an early exit.
// RUN: %memcoro-cc -O2 -fsanitize=undefined -Rpass=memcoro -Rpass-missed=memcoro -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s
// The checks' handlers are no calls of the user's: no remark about them.
// RUN: %memcoro-cc -O2 -fsanitize=undefined -Rpass-analysis=memcoro -c %s -o /dev/null 2>&1 | %FileCheck %s --check-prefix=QUIET
// QUIET-NOT: __ubsan_handle
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
// KEPT: split-sanitizer-checks.c:[[@LINE-5]]:{{[0-9]+}}: remark: marked loop not interleaved, kept in serial order with prefetches ahead: the loop has an early exit

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

// A signed counter's update is checked for overflow: a reduction whose
// iterations add their part to 0. Two checked updates of one total could
// overflow in a part where the serial total does not: serial.
long count(const int *keys, unsigned long n) {
  long hits = 0;
#pragma memcoro
  for (unsigned long i = 0; i < n; i++)
    if (T[keys[i]] > 0)
      hits++;
  return hits;
}
// CHECK: split-sanitizer-checks.c:[[@LINE-3]]:{{[0-9]+}}: remark: the sanitizer's overflow check of a reduction checks each iteration's part: the parts are added up without it, so an overflow of the running total is not reported
// CHECK: split-sanitizer-checks.c:[[@LINE-6]]:{{[0-9]+}}: remark: loop turned into

long twice(const int *keys, unsigned long n) {
  long sum = 0;
#pragma memcoro
  for (unsigned long i = 0; i < n; i++) {
    sum += T[keys[i]];
    sum += keys[i];
  }
  return sum;
}
// CHECK: split-sanitizer-checks.c:[[@LINE-4]]:{{[0-9]+}}: remark: marked loop not interleaved, kept in serial order with prefetches ahead: a value is carried
