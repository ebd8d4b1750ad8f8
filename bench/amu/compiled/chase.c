/* SPDX-License-Identifier: Apache-2.0 */
/* chase (the suite's ptrchase): 1024 chains of 128 dependent steps (scale 1)
 * through 2^18 far 64-byte nodes that form one random cycle. */
#include "suite.h"

struct node {
  uint64_t next, value, pad[6];
};
enum { NODES = 1 << 18, CHAINS = 1024 };
static struct node *nodes;
static uint64_t steps, expected;

static uint64_t start_of(uint64_t c) { return mix64(c * 0x51ED270B27ull) % NODES; }

__attribute__((noinline)) uint64_t chase_loop(const struct node __remote *nd, uint64_t chains, uint64_t len) {
  uint64_t sum = 0;
#pragma memcoro parallel(PAR)
  for (uint64_t c = 0; c < chains; ++c) {
    uint64_t at = start_of(c), acc = 0;
    for (uint64_t j = 0; j < len; ++j) {
      acc += nd[at].value;
      at = nd[at].next;
    }
    sum += mix64(c ^ acc);
  }
  return sum;
}

static void setup(double scale) {
  uint64_t st = 42;
  steps = (uint64_t)(128 * scale);
  if (steps < 4)
    steps = 4;
  nodes = suite_far_alloc(NODES * sizeof *nodes);
  uint64_t *order = suite_alloc(NODES * 8);
  for (uint64_t j = 0; j < NODES; ++j)
    order[j] = j;
  for (uint64_t j = NODES - 1; j > 0; --j) {
    uint64_t r = splitmix64(&st) % j, x = order[j];
    order[j] = order[r];
    order[r] = x;
  }
  for (uint64_t j = 0; j < NODES; ++j) {
    nodes[order[j]].next = order[(j + 1) % NODES];
    nodes[order[j]].value = splitmix64(&st);
  }
  /* The chains walked along the cycle's order (order[j] is its j-th node)
   * rather than through next. */
  uint64_t *pos = suite_alloc(NODES * 8);
  for (uint64_t j = 0; j < NODES; ++j)
    pos[order[j]] = j;
  expected = 0;
  for (uint64_t c = 0; c < CHAINS; ++c) {
    uint64_t p = pos[start_of(c)], acc = 0;
    for (uint64_t j = 0; j < steps; ++j)
      acc += nodes[order[(p + j) % NODES]].value;
    expected += mix64(c ^ acc);
  }
  free(order);
  free(pos);
}
static void reset(void) {}
static uint64_t run(void) { return chase_loop((const struct node __remote *)nodes, CHAINS, steps); }
static const char *check(uint64_t sum) { return sum == expected ? NULL : "the sum over chains differs"; }
const struct suite_kernel suite_chase = {"chase", setup, reset, run, NULL, check};
