// first_writer_wins: if (owner[x] < 0) owner[x] = i after list walks of different lengths (ring), no pragma: the earliest iteration must win, as serially.
#include "common.h"
typedef struct node { struct node *next; uint32_t v; } node;
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { POOL = 1 << 14, TABLE = 1 << 10 };
  node *pool = diff_alloc(sizeof *pool * POOL);
  for (int i = 0; i < POOL; ++i) {
    pool[i].v = diff_rand() % 1000;
    pool[i].next = (i && diff_rand() % 4) ? &pool[i - 1 - diff_rand() % (i < 8 ? i : 8)] : 0;
  }
  uint32_t *start = diff_alloc(sizeof *start * (n + 1));
  for (int i = 0; i < n; ++i) start[i] = diff_rand() % POOL;
  int32_t *owner = diff_alloc(sizeof *owner * TABLE);
  for (int i = 0; i < TABLE; ++i) owner[i] = -1;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    node *p = &pool[start[i]];
    uint32_t k = 0;
    while (p) { k += p->v; p = p->next; }
    if (owner[k % TABLE] < 0)
      owner[k % TABLE] = i;
  }
  printf("%llx\n", (unsigned long long)diff_hash_i32(owner, TABLE));
  return 0;
}
