// expect: serial
// counter_through_call: the loop's counter, or a chunked iterator's position, lives in memory and is advanced by a call too large to inline (`while (i < n) { ...; inc(&i); }`, `adv(&it)`). GVN reads it again after the call and hands it to the next iteration through a header phi; the rewrite for a vector's storage re-read after its growth (FreedReloads.cpp) took the call, which writes after every read, as covered by the pragma's promise and replaced the phi by the value entering the loop: the loop, left serial, ran every iteration with i = 0. A write given the place itself is the loop's own step: no such rewrite, and the answer is the serial loop's.
#include "common.h"

unsigned t[4096];
unsigned idx[2048];

__attribute__((noinline)) void inc(long *p) { ++*p; }

struct cursor {
  int chunk, pos;
};
__attribute__((noinline)) void adv(struct cursor *c) {
  if (++c->pos == 16) {
    c->pos = 0;
    c->chunk++;
  }
}

__attribute__((noinline)) static unsigned long walk(long n, unsigned *out) {
  long i = 0;
  unsigned long s = 0;
#pragma memcoro parallel(N)
  while (i < n) {
    out[i] = t[idx[i]];
    s += out[i];
    inc(&i);
  }
  return s;
}

__attribute__((noinline)) static unsigned long walk_cursor(int n) {
  struct cursor c = {0, 0};
  unsigned long s = 0;
#pragma memcoro parallel(N)
  while (c.chunk * 16 + c.pos < n) {
    s += t[idx[c.chunk * 16 + c.pos] & 4095];
    adv(&c);
  }
  return s;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  if (n > 2048) n = 2048;
  for (int k = 0; k < 4096; k++) t[k] = (unsigned)diff_rand();
  for (int k = 0; k < 2048; k++) idx[k] = (unsigned)(diff_rand() % 4096);
  unsigned *out = diff_alloc(sizeof *out * (n + 1));
  unsigned long a = walk(n, out), b = walk_cursor(n);
  uint64_t h = 0;
  for (int i = 0; i < n; i++) h = h * 31 + out[i];
  printf("%lu %lu %llx\n", a, b, (unsigned long long)h);
  return 0;
}
