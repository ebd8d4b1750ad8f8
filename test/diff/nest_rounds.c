// Marked loops of a constant trip count inside a loop of rounds
// (split/FlattenNest.cpp): the pipeline spans the rounds where the outer loop
// only re-runs the marked one, and drains at each round where it does more.
// The trip count is the number of rounds (0, 1, around N, 1001).
#include "common.h"

enum { TABLE = 1 << 12, STREAMS = 128, FEW = 5 };

static uint64_t step(uint64_t r) { return (r << 1) ^ ((int64_t)r < 0 ? 7 : 0); }

// HPCC RandomAccess: ran[j] is read in phase 0 of round i + 1 and written in
// phase 0 of round i; the table update commutes.
__attribute__((noinline)) static void gups(uint64_t *t, uint64_t *ran, int rounds) {
  for (int i = 0; i < rounds; ++i) {
#pragma memcoro parallel(N) remote(t)
    for (int j = 0; j < STREAMS; ++j) {
      ran[j] = step(ran[j]);
      t[ran[j] & (TABLE - 1)] ^= ran[j];
    }
  }
}

// Fewer streams than N, not a power of two, from a start and by a step: the
// value read in the last phase of round i feeds the next round's first, so
// fewer than FEW iterations may be in flight.
__attribute__((noinline)) static void chained(uint64_t *t, uint64_t *ran, int rounds) {
  for (int i = 0; i < rounds; ++i) {
#pragma memcoro parallel(N) remote(t)
    for (int j = 3; j < 3 + 2 * FEW; j += 2)
      ran[j] = step(ran[j]) + t[ran[j] & (TABLE - 1)];
  }
}

// The round counts its runs in memory the loop may write: the pipeline
// drains at each.
__attribute__((noinline)) static void counted(uint64_t *t, uint64_t *ran, int rounds, uint64_t *runs) {
  for (int i = 0; i < rounds; ++i) {
#pragma memcoro parallel(N) remote(t)
    for (int j = 0; j < STREAMS; ++j) {
      ran[j] = step(ran[j]);
      t[ran[j] & (TABLE - 1)] += ran[j];
    }
    ++*runs;
  }
}

// The marked loop reads a value of the round: it drains at each.
__attribute__((noinline)) static void by_round(uint64_t *t, uint64_t *ran, int rounds) {
  for (int i = 0; i < rounds; ++i) {
#pragma memcoro parallel(N) remote(t)
    for (int j = 0; j < FEW; ++j)
      t[(ran[j] + i) & (TABLE - 1)] ^= ran[j];
  }
}

int main(int argc, char **argv) {
  int rounds = diff_trips(argc, argv);
  uint64_t *t = diff_alloc(sizeof *t * TABLE);
  uint64_t *ran = diff_alloc(sizeof *ran * STREAMS);
  for (int i = 0; i < TABLE; ++i)
    t[i] = i;
  for (int j = 0; j < STREAMS; ++j)
    ran[j] = diff_rand();
  uint64_t runs = 0;
  gups(t, ran, rounds);
  chained(t, ran, rounds);
  counted(t, ran, rounds, &runs);
  by_round(t, ran, rounds);
  printf("%llx %llx %llu\n", (unsigned long long)diff_hash_u64(t, TABLE), (unsigned long long)diff_hash_u64(ran, STREAMS),
         (unsigned long long)runs);
  return 0;
}
