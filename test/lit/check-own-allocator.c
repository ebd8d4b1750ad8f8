// The checking build's free and realloc (runtime/check/freed.c) are weak: a
// program with an allocator of its own, or linked -static against libc.a,
// keeps its own and links. They were strong, and both failed to link with
// "multiple definition of 'free'".
// RUN: %memcoro-cc -O2 -fmemcoro-check %s -o %t && %t 1000 | %FileCheck %s
// RUN: %memcoro-cc -O2 -fmemcoro-check -static -DLIBC %s -o %t.static && %t.static 1000 | %FileCheck %s
// CHECK: sum 499500
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LIBC
static char arena[1 << 26];
static size_t top;
void *malloc(size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (top + n + 16 > sizeof arena)
    return 0;
  *(size_t *)(arena + top) = n;
  void *p = arena + top + 16;
  top += n + 16;
  return p;
}
void free(void *p) { (void)p; }
void *calloc(size_t a, size_t b) {
  void *p = malloc(a * b);
  if (p)
    memset(p, 0, a * b);
  return p;
}
void *realloc(void *p, size_t n) {
  void *q = malloc(n);
  if (p && q) {
    size_t o = *(size_t *)((char *)p - 16);
    memcpy(q, p, o < n ? o : n);
  }
  return q;
}
#endif

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  uint32_t *t = malloc(sizeof *t * n), *ix = malloc(sizeof *ix * n);
  for (int i = 0; i < n; i++) {
    t[i] = (uint32_t)i;
    ix[i] = (uint32_t)((i * 40503u) % (uint32_t)n);
  }
  unsigned long s = 0;
#pragma memcoro parallel(4) insist
  for (int i = 0; i < n; i++)
    s += t[ix[i]];
  printf("sum %lu\n", s);
  free(t);
  free(ix);
  return 0;
}
