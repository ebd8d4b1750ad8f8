// Tests KeepLoopMarks.cpp around SimplifyCFG: a `while` body that declares a
// variable and may `break` ends in a switch on the cleanup's destination;
// SimplifyCFG threads it into the blocks before it, and the new latch had no
// loop metadata: memcoro-split never saw the loop, and the end of the
// pipeline said optimisations had removed it. The mark follows the loop's
// header to its new latch, and memcoro-split interleaves the search: LoopRotate
// left the count tested at the header and the match at the latch, and
// split/RotatedSearch.cpp rotates it into the `for` form, the match an early
// exit whose winner's `i` is the one found.
// RUN: %memcoro-cc -O2 -fno-memcoro-cost-model -Rpass=memcoro -Rpass-missed=memcoro -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="removed it"

int big[1 << 20];
unsigned r[100000];

int find(int n, int stop) {
  int i = 0, found = -1;
#pragma memcoro parallel(16)
  while (i < n) {
    int v = big[r[i] & ((1 << 20) - 1)];
    if (v == stop) {
      found = i;
      break;
    }
    i++;
  }
  return found;
}
// CHECK: mark-while-cleanup-switch.c:[[@LINE-10]]:3: remark: loop turned into 16 interleaved coroutines: 1 suspension point, {{.*}}; early exit: the first exiting iteration in iteration order wins
