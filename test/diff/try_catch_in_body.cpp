// try_catch_in_body: an exception thrown and caught in the same iteration (a validation helper that throws, a try/catch around it in the body, the far load inside the try or before it, catch(...) and a typed catch whose other exceptions would leave the loop) is the iteration's own business, as under OpenMP; the handler runs as any other code of the body. Such loops stayed serial ("the loop contains a call that may throw", or the typed catch's resume path called an early exit); an exception no handler of the body catches still ends the program.
#include "common.h"
#include <stdexcept>
enum { TABLE = 1 << 15 };
static uint64_t T[TABLE];

__attribute__((noinline)) static uint64_t check(uint64_t v) {
  if ((v & 15) == 0)
    throw std::runtime_error("bad record");
  if ((v & 15) == 1)
    throw std::out_of_range("out of range");
  return v * 3;
}

int main(int argc, char **argv) {
  int n = diff_trips(argc, argv);
  int32_t *idx = static_cast<int32_t *>(diff_alloc(sizeof *idx * (n + 1)));
  uint64_t *out = static_cast<uint64_t *>(diff_alloc(sizeof *out * (n + 1)));
  for (int k = 0; k < TABLE; ++k) T[k] = diff_rand();
  for (int i = 0; i < n; ++i) idx[i] = diff_rand() % TABLE;
  uint64_t caught = 0;
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint64_t v = T[idx[i]];
    try {
      v = check(v);
    } catch (...) {
      v = 7;
    }
    out[i] = v;
  }
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    uint64_t v;
    try {
      v = check(T[T[idx[i]] % TABLE] | 2);
    } catch (const std::runtime_error &e) {
      v = 11;
    }
    out[i] += v;
  }
#pragma memcoro parallel(N)
  for (int i = 0; i < n; ++i) {
    try {
      out[i] ^= check(T[idx[i]]);
    } catch (const std::exception &e) {
      caught += e.what()[0];
    }
  }
  uint64_t h = caught;
  for (int i = 0; i < n; ++i) h = h * 31 + out[i];
  printf("%llu\n", (unsigned long long)h);
  return 0;
}
