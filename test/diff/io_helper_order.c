// io_helper_order: a helper of the same file that prints (`say(i, s)`, not inlined) after a walk that suspends: its output comes in the serial loop's order, as a printf in the body does. The call ran in place, unordered ("under the loop's contract"), and the lines came out of order.
#include "common.h"
enum { TABLE = 1 << 15 };
static int32_t next_of[TABLE], val[TABLE];
__attribute__((noinline)) static void say(int i, long s) { printf("%d=%ld\n", i, s); }
__attribute__((noinline)) static void log_line(int i, long s) {
  if (s % 3 == 0)
    say(i, s);
}
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *head = diff_alloc(sizeof *head * (n + 1));
  for (int k = 0; k < TABLE; ++k) {
    next_of[k] = diff_rand() % 5 == 0 ? -1 : (int32_t)(diff_rand() % TABLE);
    val[k] = (int32_t)(diff_rand() % 100);
  }
  for (int i = 0; i < n; ++i) head[i] = diff_rand() % TABLE;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    long s = 0;
    for (int e = head[i]; e >= 0 && s < 1000; e = next_of[e])
      s += val[e];
    log_line(i, s);
  }
  return 0;
}
