// bottom_up_step: GAP's bottom-up BFS step as bfs.cc writes it: every vertex without a parent looks through its neighbours for the first one in the frontier bitmap, takes it as its parent (`if (parent[u] < 0) ... parent[u] = v`, the loop's own element, tested and written by no other iteration: no claim to order), counts itself awake and sets its bit in the next bitmap with a plain `|=` of a word 64 neighbouring iterations share. Several steps, the bitmaps swapped between them; the parents, the count and the bitmaps equal the serial loop's.
#include "common.h"

enum { DEGREE = 6 };

static int64_t bottom_up_step(int64_t n, const int64_t *index, const int32_t *neighs, int32_t *parent,
                              const uint64_t *front, uint64_t *next) {
  int64_t awake_count = 0;
  for (int64_t w = 0; w < (n + 63) / 64; ++w) next[w] = 0;
#pragma memcoro parallel(N)
  for (int32_t u = 0; u < n; u++) {
    if (parent[u] < 0) {
      for (int64_t e = index[u]; e < index[u + 1]; e++) {
        int32_t v = neighs[e];
        if ((front[v >> 6] >> (v & 63)) & 1) {
          parent[u] = v;
          awake_count++;
          next[u >> 6] |= (uint64_t)1 << (u & 63);
          break;
        }
      }
    }
  }
  return awake_count;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int64_t *index = diff_alloc(sizeof(int64_t) * (n + 1));
  int32_t *neighs = diff_alloc(sizeof(int32_t) * ((int64_t)n * DEGREE + 1));
  for (int u = 0; u < n; ++u) {
    int degree = (int)(diff_rand() % (2 * DEGREE));
    index[u + 1] = index[u] + (degree < DEGREE ? degree : DEGREE);
    for (int64_t e = index[u]; e < index[u + 1]; ++e) neighs[e] = (int32_t)(diff_rand() % n);
  }
  int32_t *parent = diff_alloc(sizeof(int32_t) * (n + 1));
  uint64_t *front = diff_alloc(sizeof(uint64_t) * ((n + 63) / 64 + 1));
  uint64_t *next = diff_alloc(sizeof(uint64_t) * ((n + 63) / 64 + 1));
  for (int u = 0; u < n; ++u) parent[u] = -1;
  for (int u = 0; u < n; u += 7) {
    parent[u] = u;
    front[u >> 6] |= (uint64_t)1 << (u & 63);
  }
  for (int step = 0; step < 4; ++step) {
    int64_t awake = bottom_up_step(n, index, neighs, parent, front, next);
    uint64_t *swap = front;
    front = next;
    next = swap;
    printf("step %d: %lld awake, bitmap %llx\n", step, (long long)awake,
           (unsigned long long)diff_hash_u64(front, (n + 63) / 64));
  }
  printf("%llx\n", (unsigned long long)diff_hash_u64((const uint64_t *)parent, n / 2));
  return 0;
}
