// exits_before_latch: random walks whose length is read at run time (the
// trip count's low bits: 0 to 3); the hash after the loop reads the walks.
// The optimiser copies the latch's test into both ways to it (walk or no
// walk), each leaving to its own copy of the code after the loop: two exits
// before the latch, read as early exits after a store. Under -fopenmp
// (test/diff/CMakeLists.txt) the length is shared by the region and read
// again after each store of a walk; when it is 0 the inner loop is skipped
// and GVN hands on the constant 0 instead of a read, and the value carried
// from one walk to the next was no read of one place ("a value is carried").
#include "common.h"

int main(int argc, char **argv) {
  uint32_t n = 1u << 12, len = argc > 1 ? (uint32_t)atoi(argv[1]) % 4 : 8, nw = n / 2;
  uint32_t *next = malloc((size_t)n * sizeof *next), *walks = malloc((size_t)nw * len * sizeof *walks + 4);
  for (uint32_t u = 0; u < n; u++) next[u] = (u * 2654435761u) % n;
#pragma omp parallel for
#pragma memcoro parallel(N)
  for (uint32_t w = 0; w < nw; w++) {
    uint32_t u = w;
    for (uint32_t s = 0; s < len; s++) {
      walks[(size_t)w * len + s] = u;
      u = next[u];
    }
  }
  uint64_t h = 0;
  for (size_t i = 0; i < (size_t)nw * len; i++) h = h * 31 + walks[i];
  printf("%u %llx\n", len, (unsigned long long)h);
  return 0;
}
