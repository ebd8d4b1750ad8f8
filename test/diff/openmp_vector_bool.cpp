// openmp_vector_bool: a bottom-up step writes `next[u] = found` into a std::vector<bool> under `omp parallel for`. The bit's word is read on the path that sets it and on the one that clears it, and written once through a phi of the two addresses: the plan did not see that the store writes back the word just read, took the store for another far access and yielded between the read and the write, so another iteration's bit in the same word was lost (thousands of wrong bits on one thread). The store needs no suspension: the iteration read its word just before, through the same pointer, so the read-modify-write stays whole.
// check: conflicts (the bits of one std::vector<bool> word are shared by 64 consecutive iterations: a race under OpenMP too, whose answer memcoro keeps because each word's read-modify-write stays whole)
// flags: -fopenmp
#include <cstdint>
#include <vector>
#include "common.h"

__attribute__((noinline)) static void step(int n, const int64_t *off, const int *adj, const std::vector<bool> &front,
                                           std::vector<bool> &next) {
#pragma omp parallel for schedule(dynamic, 1024)
#pragma memcoro parallel(N)
  for (int u = 0; u < n; u++) {
    bool found = false;
    for (int64_t e = off[u]; e < off[u + 1]; e++)
      if (front[adj[e]]) {
        found = true;
        break;
      }
    next[u] = found;
  }
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  std::vector<int64_t> off(n + 1);
  for (int v = 0; v < n; v++) off[v + 1] = off[v] + (int64_t)(diff_rand() % 8);
  std::vector<int> adj(off[n] + 1);
  for (int &a : adj) a = (int)(diff_rand() % (n + 1));
  std::vector<bool> front(n + 1), next(n + 1, true);
  for (int v = 0; v <= n; v++) front[v] = diff_rand() % 10 == 0;
  step(n, off.data(), adj.data(), front, next);
  uint64_t h = 0;
  for (int v = 0; v <= n; v++) h = h * 3 + next[v];
  printf("%llx\n", (unsigned long long)h);
  return 0;
}
