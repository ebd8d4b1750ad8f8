// csr: the CSR construction of the Graph500 reference code (its OpenMP
// kernel 1), written the way that code writes it: an edge list of packed
// int64 pairs, every vertex's degree counted with atomic increments into
// xoff, a prefix sum, then every edge scattered into both endpoints' lists
// through an atomic fetch-and-add on the list's end offset; the lists are
// then sorted and duplicates dropped. Verified against the edge list itself:
// every packed list strictly increasing, both directions of every kept edge
// found in it, and every entry of it one of them. Kernel time is the degree
// count, the prefix sum and the scatter. One pragma line marks the
// degree-count loop and one the scatter loop; nothing else is edited.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#define OMP(x) _Pragma(x)
#else
#define OMP(x)
#endif

struct packed_edge {
  int64_t v0;
  int64_t v1;
};

static inline int64_t get_v0_from_edge(const struct packed_edge *p) { return p->v0; }
static inline int64_t get_v1_from_edge(const struct packed_edge *p) { return p->v1; }

static int64_t nv;
static int64_t *xoff; // two entries per vertex: start offset, end offset
static int64_t *xadj;
static int64_t *xadjstore;
#define XOFF(k) (xoff[2 * (k)])
#define XENDOFF(k) (xoff[1 + 2 * (k)])

static int64_t int64_fetch_add(int64_t *p, int64_t incr) { return __sync_fetch_and_add(p, incr); }

static int64_t prefix_sum(void) {
  int64_t acc = 0;
  for (int64_t k = 0; k < nv; ++k) {
    int64_t tmp = XOFF(k);
    XOFF(k) = acc;
    acc += tmp;
  }
  XOFF(nv) = acc;
  return acc;
}

static void setup_deg_off(const struct packed_edge *restrict IJ, int64_t nedge) {
  OMP("omp parallel for")
  for (int64_t k = 0; k < 2 * nv + 2; ++k)
    xoff[k] = 0;
  OMP("omp parallel for")
#pragma memcoro
  for (int64_t k = 0; k < nedge; ++k) {
    int64_t i = get_v0_from_edge(&IJ[k]);
    int64_t j = get_v1_from_edge(&IJ[k]);
    if (i != j) { // self-edges are dropped
      if (i >= 0)
        OMP("omp atomic")
        ++XOFF(i);
      if (j >= 0)
        OMP("omp atomic")
        ++XOFF(j);
    }
  }
  int64_t accum = prefix_sum();
  xadjstore = malloc((accum + 2) * sizeof(*xadjstore));
  xadj = &xadjstore[2]; // two spare slots, as the reference keeps
  OMP("omp parallel for")
  for (int64_t k = 0; k < nv; ++k)
    XENDOFF(k) = XOFF(k);
}

static void scatter_edge(const int64_t i, const int64_t j) {
  int64_t where = int64_fetch_add(&XENDOFF(i), 1);
  xadj[where] = j;
}

static void gather_edges(const struct packed_edge *restrict IJ, int64_t nedge) {
  OMP("omp parallel for")
#pragma memcoro
  for (int64_t k = 0; k < nedge; ++k) {
    int64_t i = get_v0_from_edge(&IJ[k]);
    int64_t j = get_v1_from_edge(&IJ[k]);
    if (i >= 0 && j >= 0 && i != j) {
      scatter_edge(i, j);
      scatter_edge(j, i);
    }
  }
}

static int i64cmp(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

// Each list sorted, duplicates dropped; XENDOFF becomes the packed end.
static void pack_edges(void) {
  OMP("omp parallel for schedule(dynamic, 1024)")
  for (int64_t v = 0; v < nv; ++v) {
    int64_t *list = &xadj[XOFF(v)], len = XENDOFF(v) - XOFF(v), kept = 0;
    qsort(list, len, sizeof(*list), i64cmp);
    for (int64_t k = 0; k < len; ++k)
      if (kept == 0 || list[kept - 1] != list[k])
        list[kept++] = list[k];
    XENDOFF(v) = XOFF(v) + kept;
  }
}

// Where w sits in v's sorted list, or -1.
static int64_t find_in_list(int64_t v, int64_t w) {
  int64_t lo = XOFF(v), hi = XENDOFF(v);
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (xadj[mid] < w)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < XENDOFF(v) && xadj[lo] == w ? lo : -1;
}

// Every list strictly increasing, both directions of every kept edge listed,
// and every list entry one of them.
static int verify(const struct packed_edge *IJ, int64_t nedge) {
  for (int64_t v = 0; v < nv; ++v)
    for (int64_t k = XOFF(v) + 1; k < XENDOFF(v); ++k)
      if (xadj[k - 1] >= xadj[k])
        return 0;
  unsigned char *hit = calloc(XOFF(nv) + 1, 1);
  int ok = 1;
  for (int64_t k = 0; k < nedge && ok; ++k) {
    int64_t i = IJ[k].v0, j = IJ[k].v1;
    if (i < 0 || j < 0 || i == j)
      continue;
    int64_t a = find_in_list(i, j), b = find_in_list(j, i);
    ok = a >= 0 && b >= 0;
    if (ok)
      hit[a] = hit[b] = 1;
  }
  for (int64_t v = 0; v < nv && ok; ++v)
    for (int64_t k = XOFF(v); k < XENDOFF(v); ++k)
      ok = ok && hit[k];
  free(hit);
  return ok;
}

int main(int argc, char **argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  int edgefactor = argc > 2 ? atoi(argv[2]) : 4;
  nv = (int64_t)1 << scale;
  int64_t nedge = nv * edgefactor;
  struct packed_edge *IJ = malloc(nedge * sizeof(*IJ));
  uint64_t s = 0x2545F4914F6CDD1Dull;
  for (int64_t k = 0; k < nedge; ++k) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    IJ[k].v0 = (int64_t)(s & (nv - 1));
    IJ[k].v1 = (int64_t)((s >> 32) & (nv - 1));
    // A few edges the generator marks as dropped, as the reference's may be.
    if ((s >> 20 & 1023) == 0)
      IJ[k].v1 = -1;
  }
  xoff = malloc((2 * nv + 2) * sizeof(*xoff));

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  setup_deg_off(IJ, nedge);
  gather_edges(IJ, nedge);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  pack_edges();
  int ok = verify(IJ, nedge);
  printf("kernel_seconds %.6f\n", seconds);
  printf("scale %d, %lld edges, %lld list entries\n", scale, (long long)nedge, (long long)XOFF(nv));
  printf("%s\n", ok ? "verified" : "FAILED verification");
  free(xadjstore);
  free(xoff);
  free(IJ);
  return ok ? 0 : 1;
}
