// struct_copy: records gathered by struct assignment and memcpy (calls to llvm.memcpy in the IR, 77 bytes: chunks of 16, 8, 4, 1) and an overlapping memmove inside each iteration's own record, interleaved with the serial answer.
#include "common.h"
#include <string.h>
struct record { int64_t key; char name[61]; int64_t val; };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { RECORDS = 1 << 13 };
  struct record *recs = diff_alloc(sizeof *recs * RECORDS);
  int32_t *idx = diff_alloc(sizeof *idx * (n + 1));
  struct record *out = diff_alloc(sizeof *out * (n + 1));
  char(*names)[61] = diff_alloc(sizeof *names * (n + 1));
  for (int i = 0; i < RECORDS; ++i) {
    recs[i].key = (int64_t)diff_rand();
    for (int c = 0; c < 61; ++c) recs[i].name[c] = (char)diff_rand();
    recs[i].val = (int64_t)(diff_rand() % 1000);
  }
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % RECORDS;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    out[i] = recs[idx[i]];
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    memcpy(names[i], recs[idx[i]].name, sizeof names[i]);
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    struct record *r = &out[i];
    memmove(r->name + 3, r->name, 40);
    r->val += recs[idx[i]].val;
  }
  uint64_t h = 0;
  for (int i = 0; i < n; ++i) {
    h = h * 31 + (uint64_t)out[i].key + (uint64_t)out[i].val;
    for (int c = 0; c < 61; ++c) h = h * 7 + (unsigned char)out[i].name[c] + 3u * (unsigned char)names[i][c];
  }
  printf("%llx\n", (unsigned long long)h);
  return 0;
}
