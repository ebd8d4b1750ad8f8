/* SPDX-License-Identifier: Apache-2.0 */
/* mcf: 505.mcf's pricing loop (primal_bea_mpp). Walk 40000 far 64-byte arcs
 * (scale 1) in order; for each non-basic one read the potentials of its tail
 * and head, two far 64-byte nodes in random places (2^17 of them), and
 * append the dual-infeasible arcs to the basket in arc order. */
#include "suite.h"

enum { NODES = 1 << 17 };
enum { BASIC = 0, AT_LOWER = 1, AT_UPPER = 2 };
struct node {
  int64_t potential, depth;
  void *pred, *child, *sibling, *basic_arc;
  int64_t orientation, flow;
};
struct arc {
  int64_t cost;
  const struct node __remote *tail, *head;
  int32_t ident, pad;
  int64_t flow, org_cost, nextout, nextin;
};
struct candidate {
  const struct arc __remote *arc;
  int64_t abs_cost;
};
_Static_assert(sizeof(struct node) == 64 && sizeof(struct arc) == 64, "one line each");

static struct node *nodes;
static struct arc *arcs;
static struct candidate *basket;
static uint64_t narcs, expected;

__attribute__((noinline)) uint64_t mcf_loop(const struct arc __remote *a, uint64_t n, struct candidate *out) {
  uint64_t nbasket = 0;
#pragma memcoro parallel(PAR)
  for (uint64_t i = 0; i < n; ++i) {
    const struct arc __remote *arc = &a[i];
    if (arc->ident > BASIC) {
      int64_t red_cost = arc->cost - arc->tail->potential + arc->head->potential;
      if ((red_cost < 0 && arc->ident == AT_LOWER) || (red_cost > 0 && arc->ident == AT_UPPER))
        out[nbasket++] = (struct candidate){arc, red_cost < 0 ? -red_cost : red_cost};
    }
  }
  return nbasket;
}

static uint64_t digest(uint64_t nb) {
  uint64_t h = nb;
  for (uint64_t j = 0; j < nb; ++j)
    h = mix64(h ^ (uint64_t)((const char __remote *)basket[j].arc - (const char __remote *)arcs) ^
              (uint64_t)basket[j].abs_cost << 20);
  return h;
}

static void setup(double scale) {
  uint64_t st = 3, nb = 0;
  narcs = (uint64_t)(40000 * scale);
  nodes = suite_far_alloc(NODES * sizeof *nodes);
  arcs = suite_far_alloc(narcs * sizeof *arcs);
  basket = suite_alloc(narcs * sizeof *basket);
  for (uint64_t v = 0; v < NODES; ++v)
    nodes[v].potential = (int64_t)(splitmix64(&st) % 2000001) - 1000000;
  for (uint64_t i = 0; i < narcs; ++i) {
    struct arc *x = &arcs[i];
    uint64_t r = splitmix64(&st) % 10;
    x->cost = (int64_t)(splitmix64(&st) % 2000001) - 1000000;
    x->tail = (const struct node __remote *)&nodes[splitmix64(&st) % NODES];
    x->head = (const struct node __remote *)&nodes[splitmix64(&st) % NODES];
    x->ident = r == 0 ? BASIC : r < 5 ? AT_LOWER : AT_UPPER;
  }
  expected = 0;
  for (uint64_t i = 0; i < narcs; ++i) {
    const struct arc *x = &arcs[i];
    int64_t red = x->cost - ((const struct node *)x->tail)->potential + ((const struct node *)x->head)->potential;
    if ((x->ident == AT_LOWER && red < 0) || (x->ident == AT_UPPER && red > 0))
      basket[nb++] = (struct candidate){(const struct arc __remote *)x, red < 0 ? -red : red};
  }
  expected = digest(nb);
}
static void reset(void) {}
static uint64_t run(void) { return mcf_loop((const struct arc __remote *)arcs, narcs, basket); }
static const char *check(uint64_t sum) { return sum == expected ? NULL : "the basket differs"; }
const struct suite_kernel suite_mcf = {"mcf", setup, reset, run, digest, check};
