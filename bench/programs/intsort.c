// intsort: the NAS Parallel Benchmarks' integer sort (IS), written the way
// NPB writes it: global key arrays, keys the average of four uniform draws
// (a bell-shaped distribution), ranking by a histogram of the keys into a
// table of MAX_KEY counters, a prefix sum, and NPB's full verification (the
// keys placed by their ranks must come out sorted). Sizes are class B by
// default (2^25 keys, 2^21 buckets: an 8 MiB table of counters), class A or
// C with an argument. One pragma line marks the histogram loop.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int INT_TYPE;

static INT_TYPE *key_array, *key_buff1, *key_buff2;
static long NUM_KEYS;
static long MAX_KEY;

static double seed = 314159265.0;
// NPB's linear congruential generator, a = 5^13, modulus 2^46.
static double randlc(double *x) {
  const double a = 1220703125.0, r23 = 1.0 / 8388608.0, t23 = 8388608.0;
  const double r46 = r23 * r23, t46 = t23 * t23;
  double t1 = r23 * a, a1 = (int)t1, a2 = a - t23 * a1;
  t1 = r23 * *x;
  double x1 = (int)t1, x2 = *x - t23 * x1;
  t1 = a1 * x2 + a2 * x1;
  double t2 = (int)(r23 * t1), z = t1 - t23 * t2;
  double t3 = t23 * z + a2 * x2;
  double t4 = (int)(r46 * t3);
  *x = t3 - t46 * t4;
  return r46 * *x;
}

static void create_seq(void) {
  long k = MAX_KEY / 4;
  for (long i = 0; i < NUM_KEYS; i++) {
    double x = randlc(&seed);
    x += randlc(&seed);
    x += randlc(&seed);
    x += randlc(&seed);
    key_array[i] = k * x;
  }
}

static void rank(void) {
  for (long i = 0; i < NUM_KEYS; i++) key_buff2[i] = key_array[i];
  memset(key_buff1, 0, sizeof(INT_TYPE) * MAX_KEY);
#pragma memcoro
  for (long i = 0; i < NUM_KEYS; i++) key_buff1[key_buff2[i]]++;
  for (long i = 0; i < MAX_KEY - 1; i++) key_buff1[i + 1] += key_buff1[i];
}

static int full_verify(void) {
  INT_TYPE *sorted = malloc(sizeof(INT_TYPE) * NUM_KEYS);
  for (long i = NUM_KEYS - 1; i >= 0; i--) sorted[--key_buff1[key_buff2[i]]] = key_buff2[i];
  long wrong = 0;
  for (long i = 1; i < NUM_KEYS; i++)
    if (sorted[i - 1] > sorted[i]) wrong++;
  free(sorted);
  return wrong == 0 && key_buff1[0] == 0;
}

int main(int argc, char **argv) {
  char cls = argc > 1 ? argv[1][0] : 'B';
  int total_keys_log2 = cls == 'S' ? 16 : cls == 'W' ? 20 : cls == 'A' ? 23 : cls == 'C' ? 27 : 25;
  int max_key_log2 = cls == 'S' ? 11 : cls == 'W' ? 16 : cls == 'A' ? 19 : cls == 'C' ? 23 : 21;
  NUM_KEYS = 1L << total_keys_log2;
  MAX_KEY = 1L << max_key_log2;
  key_array = malloc(sizeof(INT_TYPE) * NUM_KEYS);
  key_buff2 = malloc(sizeof(INT_TYPE) * NUM_KEYS);
  key_buff1 = malloc(sizeof(INT_TYPE) * MAX_KEY);
  create_seq();
  struct timespec t0, t1;
  double seconds = 0;
  for (int iteration = 1; iteration <= 10; iteration++) {
    // NPB perturbs two keys per iteration so that no run is the same.
    key_array[iteration] = iteration;
    key_array[iteration + 10] = MAX_KEY - iteration;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rank();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    seconds += (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
  }
  int ok = full_verify();
  printf("kernel_seconds %.6f\n", seconds);
  printf("class %c: %ld keys, %ld buckets\n", cls, NUM_KEYS, MAX_KEY);
  printf("%s\n", ok ? "verified" : "FAILED verification");
  return ok ? 0 : 1;
}
