// randomaccess: the HPCC RandomAccess (GUPS) update loop, written the way the
// benchmark writes it: 128 independent random streams advanced in a stack
// array, each step XORed into a table far larger than the cache. The table
// is verified the way HPCC verifies it: the same updates applied again
// (serially) must give back the initial table, with at most 1% errors.
// One pragma line marks the inner stream loop; nothing else is edited.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define POLY 0x0000000000000007ULL
#define PERIOD 1317624576693539401LL

typedef uint64_t u64Int;
typedef int64_t s64Int;

// The n-th value of the stream, by HPCC's polynomial stepping.
static u64Int HPCC_starts(s64Int n) {
  int i, j;
  u64Int m2[64];
  u64Int temp, ran;
  while (n < 0) n += PERIOD;
  while (n > PERIOD) n -= PERIOD;
  if (n == 0) return 0x1;
  temp = 0x1;
  for (i = 0; i < 64; i++) {
    m2[i] = temp;
    temp = (temp << 1) ^ ((s64Int)temp < 0 ? POLY : 0);
    temp = (temp << 1) ^ ((s64Int)temp < 0 ? POLY : 0);
  }
  for (i = 62; i >= 0; i--)
    if ((n >> i) & 1) break;
  ran = 0x2;
  while (i > 0) {
    temp = 0;
    for (j = 0; j < 64; j++)
      if ((ran >> j) & 1) temp ^= m2[j];
    ran = temp;
    i -= 1;
    if ((n >> i) & 1) ran = (ran << 1) ^ ((s64Int)ran < 0 ? POLY : 0);
  }
  return ran;
}

static void RandomAccessUpdate(u64Int TableSize, u64Int *Table) {
  u64Int i;
  u64Int ran[128];
  int j;
  for (j = 0; j < 128; j++) ran[j] = HPCC_starts((4 * TableSize / 128) * j);
  for (i = 0; i < 4 * TableSize / 128; i++) {
#pragma memcoro
    for (j = 0; j < 128; j++) {
      ran[j] = (ran[j] << 1) ^ ((s64Int)ran[j] < 0 ? POLY : 0);
      Table[ran[j] & (TableSize - 1)] ^= ran[j];
    }
  }
}

int main(int argc, char **argv) {
  int logsize = argc > 1 ? atoi(argv[1]) : 26;
  u64Int TableSize = 1ULL << logsize;
  u64Int *Table = malloc(sizeof(u64Int) * TableSize);
  if (!Table) return 2;
  for (u64Int i = 0; i < TableSize; i++) Table[i] = i;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  RandomAccessUpdate(TableSize, Table);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;

  // Verification, as HPCC does it: apply the same updates again.
  u64Int temp = 0x1;
  for (u64Int i = 0; i < 4 * TableSize; i++) {
    temp = (temp << 1) ^ ((s64Int)temp < 0 ? POLY : 0);
    Table[temp & (TableSize - 1)] ^= temp;
  }
  u64Int errors = 0;
  for (u64Int i = 0; i < TableSize; i++)
    if (Table[i] != i) errors++;
  int ok = errors <= 0.01 * TableSize;
  printf("kernel_seconds %.6f\n", seconds);
  printf("updates %llu errors %llu\n", (unsigned long long)(4 * TableSize), (unsigned long long)errors);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  free(Table);
  return ok ? 0 : 1;
}
