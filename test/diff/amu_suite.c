// amu_suite: the loop shapes of the compiled AMU suite's kernels over __remote data: a hash join's chain walk (hj), counts of repeating keys (is), sequential streams over three arrays (stream), and a stencil that pulls 19 neighbours into a local array and writes its own record (lbm).
#include "common.h"
#include <memcoro/memcoro.h>
#include <string.h>
struct entry { uint64_t key, payload; uint32_t next, pad[3]; };
int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  enum { ROWS = 1 << 12, LOGB = 10, KEYS = 1 << 10, CELLS = 512, Q = 19, STRIDE = 20 };
  struct entry *ep = diff_alloc(sizeof *ep * ROWS);
  uint32_t *heads = diff_alloc(sizeof *heads << LOGB);
  memset(heads, 0xFF, sizeof *heads << LOGB);
  for (uint32_t r = 0; r < ROWS; ++r) {
    uint64_t key = diff_rand() % (2 * ROWS), b = (key * 0x9e3779b97f4a7c15ull) >> (64 - LOGB);
    ep[r] = (struct entry){key, r, heads[b], {0, 0, 0}};
    heads[b] = r;
  }
  uint64_t *probe = diff_alloc(sizeof *probe * (n + 1));
  for (int i = 0; i < n; ++i) probe[i] = diff_rand() % (2 * ROWS);
  const struct entry __remote *e = (const struct entry __remote *)ep;
  const uint32_t __remote *h = (const uint32_t __remote *)heads;
  uint64_t matches = 0, payload = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i)
    for (uint32_t at = h[(probe[i] * 0x9e3779b97f4a7c15ull) >> (64 - LOGB)]; at != 0xFFFFFFFFu; at = e[at].next)
      if (e[at].key == probe[i]) {
        ++matches;
        payload += e[at].payload;
      }

  uint32_t *countp = diff_alloc(sizeof *countp * KEYS), *keys = diff_alloc(sizeof *keys * (n + 1));
  for (int i = 0; i < n; ++i) keys[i] = (uint32_t)(diff_rand() % 37 + diff_rand() % 37);
  uint32_t __remote *count = (uint32_t __remote *)countp;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) count[keys[i]]++;

  double *ap = diff_alloc(sizeof(double) * (n + 1)), *bp = diff_alloc(sizeof(double) * (n + 1)), *cp = diff_alloc(sizeof(double) * (n + 1));
  for (int i = 0; i < n; ++i) ap[i] = (double)(diff_rand() % 1000) / 7, bp[i] = 2, cp[i] = i % 5;
  double __remote *a = (double __remote *)ap, *b = (double __remote *)bp, *c = (double __remote *)cp;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];

  double *src = diff_alloc(sizeof(double) * CELLS * STRIDE), *dstp = diff_alloc(sizeof(double) * CELLS * STRIDE);
  for (int k = 0; k < CELLS * STRIDE; ++k) src[k] = (double)(diff_rand() % 1000) / 1000;
  int step[Q];
  for (int q = 0; q < Q; ++q) step[q] = (int)(diff_rand() % CELLS);
  const double __remote *from = (const double __remote *)src;
  double __remote *to = (double __remote *)dstp;
  int cells = n < CELLS ? n : CELLS;
#pragma memcoro parallel(N > 16 ? 16 : N)
  for (int cell = 0; cell < cells; ++cell) {
    double f[Q], sum = 0;
    for (int q = 0; q < Q; ++q) f[q] = from[((cell + step[q]) % CELLS) * STRIDE + q];
    for (int q = 0; q < Q; ++q) sum += f[q];
    for (int q = 0; q < Q; ++q) to[cell * STRIDE + q] = f[q] + 0.5 * (sum / Q - f[q]);
  }
  uint64_t hs[3] = {0, 0, 0}, w;
  for (int i = 0; i < n; ++i) memcpy(&w, &ap[i], 8), hs[0] = (hs[0] ^ w) * 1099511628211ull, memcpy(&w, &cp[i], 8), hs[1] = (hs[1] ^ w) * 1099511628211ull;
  printf("%llu %llx %llx %llx %llx %llx\n", (unsigned long long)matches, (unsigned long long)payload,
         (unsigned long long)diff_hash_i32((int32_t *)countp, KEYS), (unsigned long long)hs[0], (unsigned long long)hs[1],
         (unsigned long long)diff_hash_u64((uint64_t *)dstp, CELLS * STRIDE));
  return 0;
}
