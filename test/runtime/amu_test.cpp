// SPDX-License-Identifier: Apache-2.0
// Fidelity and interface tests for the software AMU. Timing assertions are
// one-sided: a completion earlier than the model is a bug (and exact to
// check); lateness on a loaded machine is only bounded very loosely.
#include "memcoro/amu.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

// Generous: a preempted test can be late by a scheduler tick or more, and
// sanitizers slow every step; lateness is reported by the benchmark instead.
constexpr double kLatenessBoundNs = 50e6;

struct Amu {
  explicit Amu(memcoro_amu_model m) : amu(memcoro_amu_create(&m)) {}
  ~Amu() { memcoro_amu_destroy(amu); }
  memcoro_amu *amu;
};

struct Far {
  explicit Far(size_t n) : bytes(n), p(static_cast<unsigned char *>(memcoro_far_alloc(n))) {
    for (size_t i = 0; i < n; ++i)
      p[i] = static_cast<unsigned char>(i * 131 + 7);
  }
  ~Far() { memcoro_far_free(p); }
  size_t bytes;
  unsigned char *p;
};

memcoro_amu_model fixed(double ns) {
  memcoro_amu_model m{};
  m.latency_ns = ns;
  return m;
}

int32_t spin_getfin(memcoro_amu *amu) {
  for (;;) {
    int32_t id = memcoro_amu_getfin(amu);
    if (id != MEMCORO_AMU_NONE)
      return id;
  }
}

TEST(Amu, ClockIsCalibrated) {
  const struct memcoro_amu_clock *c = memcoro_amu_clock_info();
  EXPECT_GT(c->ticks_per_ns, 0.01);
  EXPECT_LT(c->ticks_per_ns, 100.0);
  EXPECT_GE(memcoro_amu_ns_to_ticks(1000.0), static_cast<uint64_t>(1000.0 * c->ticks_per_ns));
  std::printf("TSC: %.4f ticks/ns, invariant (constant_tsc+nonstop_tsc): %s, rdtsc: %s\n",
              c->ticks_per_ns, c->invariant_tsc ? "yes" : "no", c->uses_tsc ? "yes" : "no");
}

TEST(Amu, LoadsArriveNoEarlierThanModelAndNotBeforeTheirId) {
  constexpr double L = 2000;
  Amu a(fixed(L));
  ASSERT_NE(a.amu, nullptr);
  Far far(1 << 20);
  constexpr int N = 64;
  std::vector<std::vector<unsigned char>> dst(N);
  std::vector<uint64_t> issued(N), late(N);
  std::vector<size_t> off(N), len(N);
  std::vector<bool> done(N);
  for (int i = 0; i < N; ++i) {
    len[i] = 1 + (i * 977) % MEMCORO_AMU_MAX_BYTES;
    off[i] = static_cast<size_t>(i) * 8192 + (i * 13) % 64;
    dst[i].assign(len[i], 0xEE);
    issued[i] = memcoro_amu_now();
    ASSERT_EQ(memcoro_amu_aload(a.amu, i, dst[i].data(), far.p + off[i], len[i]), MEMCORO_AMU_OK);
  }
  const uint64_t model = memcoro_amu_ns_to_ticks(L);
  for (int n = 0; n < N; ++n) {
    int32_t id = spin_getfin(a.amu);
    uint64_t t = memcoro_amu_now();
    ASSERT_GE(id, 0);
    ASSERT_LT(id, N);
    ASSERT_FALSE(done[id]) << "id " << id << " returned twice";
    done[id] = true;
    ASSERT_GE(t - issued[id], model) << "id " << id << " completed before the modelled latency";
    late[n] = t - issued[id] - model;
    EXPECT_EQ(std::memcmp(dst[id].data(), far.p + off[id], len[id]), 0) << "id " << id;
    for (int j = 0; j < N; ++j)
      if (!done[j])
        ASSERT_EQ(dst[j][0], 0xEE) << "id " << j << " data visible before its id was returned";
  }
  EXPECT_EQ(memcoro_amu_getfin(a.amu), MEMCORO_AMU_NONE);
  std::sort(late.begin(), late.end());
  EXPECT_LT(memcoro_amu_ticks_to_ns(late[N / 2]), kLatenessBoundNs);
  std::printf("lateness over the model: min %.0f, median %.0f, max %.0f ns\n",
              memcoro_amu_ticks_to_ns(late[0]), memcoro_amu_ticks_to_ns(late[N / 2]),
              memcoro_amu_ticks_to_ns(late[N - 1]));
}

TEST(Amu, StoreReachesFarMemoryOnlyWhenItsIdReturns) {
  constexpr double L = 3000;
  Amu a(fixed(L));
  Far far(1 << 16);
  std::vector<unsigned char> src(4096, 0x5A), before(far.p + 100, far.p + 100 + 4096);
  uint64_t t0 = memcoro_amu_now();
  ASSERT_EQ(memcoro_amu_astore(a.amu, 9, far.p + 100, src.data(), src.size()), MEMCORO_AMU_OK);
  int32_t id;
  while ((id = memcoro_amu_getfin(a.amu)) == MEMCORO_AMU_NONE)
    ASSERT_EQ(std::memcmp(far.p + 100, before.data(), 4096), 0);
  EXPECT_GE(memcoro_amu_now() - t0, memcoro_amu_ns_to_ticks(L));
  EXPECT_EQ(id, 9);
  EXPECT_EQ(std::memcmp(far.p + 100, src.data(), 4096), 0);
}

TEST(Amu, UniformJitterStaysInRangeWithTheModelledMean) {
  memcoro_amu_model m = fixed(4000);
  m.jitter = MEMCORO_AMU_UNIFORM;
  m.jitter_ns = 2000;
  m.seed = 42;
  Amu a(m);
  Far far(1 << 16);
  uint64_t dst[64];
  std::vector<uint64_t> issued(64);
  const uint64_t lo = memcoro_amu_ns_to_ticks(2000);
  bool out_of_order = false;
  int32_t last = -1;
  for (int round = 0; round < 8; ++round) {
    for (int i = 0; i < 64; ++i) {
      issued[i] = memcoro_amu_now();
      ASSERT_EQ(memcoro_amu_aload(a.amu, i, &dst[i], far.p + 64 * i, 8), MEMCORO_AMU_OK);
    }
    last = -1;
    for (int i = 0; i < 64; ++i) {
      int32_t id = spin_getfin(a.amu);
      ASSERT_GE(memcoro_amu_now() - issued[id], lo);
      out_of_order |= id < last;
      last = id;
    }
  }
  EXPECT_TRUE(out_of_order) << "jitter should reorder completions";
  memcoro_amu_stats s = memcoro_amu_get_stats(a.amu);
  ASSERT_EQ(s.requests, 512u);
  // The modelled latencies themselves (not the observed ones) have mean 4000:
  // standard error 2000/sqrt(3*512) = 51 ns, so 300 ns is six of them.
  double mean = memcoro_amu_ticks_to_ns(s.in_flight_ticks) / 512;
  EXPECT_NEAR(mean, 4000, 300);
}

TEST(Amu, BimodalJitterHitsTheSlowModeAtTheGivenRate) {
  memcoro_amu_model m = fixed(1000);
  m.jitter = MEMCORO_AMU_BIMODAL;
  m.slow_ns = 11000;
  m.slow_fraction = 0.25;
  m.seed = 7;
  Amu a(m);
  Far far(1 << 16);
  uint64_t dst;
  for (int i = 0; i < 400; ++i) {
    ASSERT_EQ(memcoro_amu_aload(a.amu, 0, &dst, far.p + 64 * (i % 512), 8), MEMCORO_AMU_OK);
    spin_getfin(a.amu);
  }
  memcoro_amu_stats s = memcoro_amu_get_stats(a.amu);
  // mean = 1000 + 0.25 * 10000 = 3500; binomial sd of the slow count is
  // sqrt(400 * .25 * .75) = 8.7 of 100, i.e. 217 ns on the mean.
  EXPECT_NEAR(memcoro_amu_ticks_to_ns(s.in_flight_ticks) / 400, 3500, 1100);
}

TEST(Amu, BandwidthLimitHoldsUnderLoad) {
  memcoro_amu_model m = fixed(0);
  m.bytes_per_ns = 1.0;
  Amu a(m);
  Far far(1 << 20);
  std::vector<unsigned char> dst(32 * 4096);
  uint64_t t0 = memcoro_amu_now();
  for (int i = 0; i < 32; ++i)
    ASSERT_EQ(memcoro_amu_aload(a.amu, i, &dst[4096 * i], far.p + 4096 * i, 4096), MEMCORO_AMU_OK);
  for (int i = 0; i < 32; ++i)
    spin_getfin(a.amu);
  uint64_t elapsed = memcoro_amu_now() - t0;
  EXPECT_GE(elapsed, memcoro_amu_ns_to_ticks(32 * 4096) - 32) << "moved faster than 1 byte/ns";
  EXPECT_EQ(std::memcmp(dst.data(), far.p, dst.size()), 0);
  memcoro_amu_stats s = memcoro_amu_get_stats(a.amu);
  EXPECT_EQ(s.bytes, 32u * 4096u);

  // A misaligned 8-byte request straddling two lines pays for both.
  memcoro_amu_reset_stats(a.amu);
  uint64_t x;
  ASSERT_EQ(memcoro_amu_aload(a.amu, 0, &x, far.p + 60, 8), MEMCORO_AMU_OK);
  spin_getfin(a.amu);
  EXPECT_EQ(memcoro_amu_get_stats(a.amu).bytes, 128u);
}

TEST(Amu, RequestTableBoundsRequestsInFlight) {
  memcoro_amu_model m = fixed(1000);
  m.table_entries = 16;
  Amu a(m);
  Far far(1 << 16);
  uint64_t dst[17];
  for (int i = 0; i < 16; ++i)
    ASSERT_EQ(memcoro_amu_aload(a.amu, i, &dst[i], far.p + 64 * i, 8), MEMCORO_AMU_OK);
  EXPECT_EQ(memcoro_amu_in_flight(a.amu), 16u);
  dst[16] = 0xDEAD;
  EXPECT_EQ(memcoro_amu_aload(a.amu, 16, &dst[16], far.p, 8), MEMCORO_AMU_TABLE_FULL);
  EXPECT_EQ(memcoro_amu_await(a.amu, 16, nullptr), MEMCORO_AMU_TABLE_FULL);
  int32_t id = spin_getfin(a.amu);
  EXPECT_EQ(memcoro_amu_in_flight(a.amu), 15u);
  EXPECT_EQ(memcoro_amu_aload(a.amu, id, &dst[id], far.p, 8), MEMCORO_AMU_OK);
  for (int i = 0; i < 16; ++i)
    spin_getfin(a.amu);
  EXPECT_EQ(dst[16], 0xDEADu) << "a rejected request must not move data";
  EXPECT_EQ(memcoro_amu_get_stats(a.amu).max_in_flight, 16u);
  EXPECT_EQ(memcoro_amu_in_flight(a.amu), 0u);
}

TEST(Amu, AsetCompletesOnlyWhenAllItsRequestsHave) {
  constexpr double L = 2000;
  Amu a(fixed(L));
  Far far(1 << 16);
  uint64_t x = 0, y = 0, z = 0;
  ASSERT_EQ(memcoro_amu_aset(a.amu, 7, 3), MEMCORO_AMU_OK);
  EXPECT_EQ(memcoro_amu_aset(a.amu, 8, 1), MEMCORO_AMU_BAD_SET) << "groups do not nest";
  ASSERT_EQ(memcoro_amu_aload(a.amu, 7, &x, far.p + 64, 8), MEMCORO_AMU_OK);
  EXPECT_EQ(memcoro_amu_aload(a.amu, 8, &y, far.p, 8), MEMCORO_AMU_SET_MISMATCH);
  // Let the first request finish; its id must still not come back.
  uint64_t t = memcoro_amu_now() + memcoro_amu_ns_to_ticks(3 * L);
  while (memcoro_amu_now() < t)
    ASSERT_EQ(memcoro_amu_getfin(a.amu), MEMCORO_AMU_NONE);
  ASSERT_EQ(memcoro_amu_aload(a.amu, 7, &y, far.p + 128, 8), MEMCORO_AMU_OK);
  uint64_t t_last = memcoro_amu_now();
  ASSERT_EQ(memcoro_amu_aload(a.amu, 7, &z, far.p + 192, 8), MEMCORO_AMU_OK);
  EXPECT_EQ(spin_getfin(a.amu), 7);
  EXPECT_GE(memcoro_amu_now() - t_last, memcoro_amu_ns_to_ticks(L));
  EXPECT_EQ(std::memcmp(&x, far.p + 64, 8), 0);
  EXPECT_EQ(std::memcmp(&y, far.p + 128, 8), 0);
  EXPECT_EQ(std::memcmp(&z, far.p + 192, 8), 0);
  EXPECT_EQ(memcoro_amu_getfin(a.amu), MEMCORO_AMU_NONE) << "a group completes once";
  EXPECT_EQ(memcoro_amu_aset(a.amu, 7, 0), MEMCORO_AMU_BAD_SET);
  EXPECT_EQ(memcoro_amu_aset(a.amu, 7, 513), MEMCORO_AMU_BAD_SET);
}

TEST(Amu, AwaitCompletesOnlyOnAsignalInSignalOrder) {
  memcoro_amu_model m = fixed(100);
  m.table_entries = 3;
  Amu a(m);
  ASSERT_EQ(memcoro_amu_await(a.amu, 3, nullptr), MEMCORO_AMU_OK);
  ASSERT_EQ(memcoro_amu_await(a.amu, 1, nullptr), MEMCORO_AMU_OK);
  ASSERT_EQ(memcoro_amu_await(a.amu, 2, nullptr), MEMCORO_AMU_OK);
  EXPECT_EQ(memcoro_amu_await(a.amu, 4, nullptr), MEMCORO_AMU_TABLE_FULL) << "awaits use entries";
  EXPECT_EQ(memcoro_amu_await(a.amu, 3, nullptr), MEMCORO_AMU_BUSY);
  uint64_t t = memcoro_amu_now() + memcoro_amu_ns_to_ticks(10000);
  while (memcoro_amu_now() < t)
    ASSERT_EQ(memcoro_amu_getfin(a.amu), MEMCORO_AMU_NONE);
  EXPECT_EQ(memcoro_amu_wait(a.amu, 1), MEMCORO_AMU_DEADLOCK);
  ASSERT_EQ(memcoro_amu_asignal(a.amu, 2), MEMCORO_AMU_OK);
  ASSERT_EQ(memcoro_amu_asignal(a.amu, 3), MEMCORO_AMU_OK);
  EXPECT_EQ(memcoro_amu_asignal(a.amu, 3), MEMCORO_AMU_UNKNOWN_ID) << "signalled twice";
  EXPECT_EQ(memcoro_amu_asignal(a.amu, 5), MEMCORO_AMU_UNKNOWN_ID) << "never awaited";
  EXPECT_EQ(memcoro_amu_getfin(a.amu), 2);
  EXPECT_EQ(memcoro_amu_getfin(a.amu), 3);
  EXPECT_EQ(memcoro_amu_getfin(a.amu), MEMCORO_AMU_NONE);
  ASSERT_EQ(memcoro_amu_asignal(a.amu, 1), MEMCORO_AMU_OK);
  EXPECT_EQ(memcoro_amu_getfin(a.amu), 1);
  EXPECT_EQ(memcoro_amu_in_flight(a.amu), 0u);
  EXPECT_EQ(memcoro_amu_get_stats(a.amu).signals, 3u);
}

TEST(Amu, BafinReturnsResumeTargetAndHandler) {
  Amu a(fixed(500));
  Far far(1 << 16);
  struct Handler {
    uint64_t data[4];
  } handlers[16];
  memcoro_amu_aconfig(a.amu, handlers, sizeof(Handler));
  static int phase_a, phase_b;
  ASSERT_EQ(memcoro_amu_aload_r(a.amu, 5, &handlers[5].data[0], far.p, 8, &phase_a),
            MEMCORO_AMU_OK);
  ASSERT_EQ(memcoro_amu_await(a.amu, 11, &phase_b), MEMCORO_AMU_OK);
  ASSERT_EQ(memcoro_amu_asignal(a.amu, 11), MEMCORO_AMU_OK);
  memcoro_amu_fin fin;
  while (!memcoro_amu_bafin(a.amu, &fin)) {
  }
  EXPECT_EQ(fin.id, 11);
  EXPECT_EQ(fin.resume, &phase_b);
  EXPECT_EQ(fin.handler, &handlers[11]);
  while (!memcoro_amu_bafin(a.amu, &fin)) {
  }
  EXPECT_EQ(fin.id, 5);
  EXPECT_EQ(fin.resume, &phase_a);
  EXPECT_EQ(fin.handler, &handlers[5]);
  EXPECT_EQ(std::memcmp(&handlers[5].data[0], far.p, 8), 0);
}

TEST(Amu, MisuseIsReportedAndMovesNoData) {
  memcoro_amu_model m = fixed(1000);
  m.ids = 32;
  Amu a(m);
  Far far(1 << 16);
  unsigned char dst[8192];
  std::memset(dst, 0xCC, sizeof dst);
  EXPECT_EQ(memcoro_amu_aload(a.amu, 0, dst, far.p, 0), MEMCORO_AMU_BAD_SIZE);
  EXPECT_EQ(memcoro_amu_aload(a.amu, 0, dst, far.p, 4097), MEMCORO_AMU_BAD_SIZE);
  EXPECT_EQ(memcoro_amu_astore(a.amu, 0, far.p, dst, 5000), MEMCORO_AMU_BAD_SIZE);
  EXPECT_EQ(memcoro_amu_aload(a.amu, 32, dst, far.p, 8), MEMCORO_AMU_UNKNOWN_ID);
  EXPECT_EQ(memcoro_amu_aset(a.amu, 99, 2), MEMCORO_AMU_UNKNOWN_ID);
  EXPECT_EQ(memcoro_amu_wait(a.amu, 3), MEMCORO_AMU_UNKNOWN_ID) << "nothing in flight";
  ASSERT_EQ(memcoro_amu_aload(a.amu, 3, dst + 4096, far.p, 8), MEMCORO_AMU_OK);
  EXPECT_EQ(memcoro_amu_aload(a.amu, 3, dst, far.p + 64, 8), MEMCORO_AMU_BUSY);
  // Past its completion time but not yet returned: still the program's id in flight.
  uint64_t t = memcoro_amu_now() + memcoro_amu_ns_to_ticks(5000);
  while (memcoro_amu_now() < t) {
  }
  EXPECT_EQ(memcoro_amu_aload(a.amu, 3, dst, far.p + 64, 8), MEMCORO_AMU_BUSY);
  EXPECT_EQ(memcoro_amu_aset(a.amu, 3, 2), MEMCORO_AMU_BUSY);
  EXPECT_EQ(memcoro_amu_getfin(a.amu), 3);
  EXPECT_EQ(memcoro_amu_getfin(a.amu), MEMCORO_AMU_NONE);
  for (size_t i = 0; i < 4096; ++i)
    ASSERT_EQ(dst[i], 0xCC) << "rejected request wrote byte " << i;
  EXPECT_EQ(std::memcmp(dst + 4096, far.p, 8), 0);

  for (int s = MEMCORO_AMU_OK; s <= MEMCORO_AMU_DEADLOCK; ++s)
    EXPECT_GT(std::strlen(memcoro_amu_strerror(s)), 5u);
  EXPECT_STRNE(memcoro_amu_strerror(MEMCORO_AMU_BUSY), memcoro_amu_strerror(MEMCORO_AMU_TABLE_FULL));

  memcoro_amu_model bad = fixed(-1);
  EXPECT_EQ(memcoro_amu_create(&bad), nullptr);
  bad = fixed(100);
  bad.jitter = MEMCORO_AMU_UNIFORM;
  bad.jitter_ns = 200;
  EXPECT_EQ(memcoro_amu_create(&bad), nullptr) << "jitter would make latency negative";
  bad = fixed(100);
  bad.jitter = MEMCORO_AMU_BIMODAL;
  bad.slow_fraction = 1.5;
  EXPECT_EQ(memcoro_amu_create(&bad), nullptr);
}

TEST(Amu, WaitServesStaticRoundRobinAndLeavesOthersForGetfin) {
  memcoro_amu_model m = fixed(3000);
  m.jitter = MEMCORO_AMU_UNIFORM;
  m.jitter_ns = 2500;
  m.seed = 3;
  Amu a(m);
  Far far(1 << 16);
  uint64_t dst[8];
  std::vector<uint64_t> issued(8);
  for (int i = 0; i < 8; ++i) {
    issued[i] = memcoro_amu_now();
    ASSERT_EQ(memcoro_amu_aload(a.amu, i, &dst[i], far.p + 512 * i, 8), MEMCORO_AMU_OK);
  }
  ASSERT_EQ(memcoro_amu_wait(a.amu, 5), MEMCORO_AMU_OK);
  EXPECT_GE(memcoro_amu_now() - issued[5], memcoro_amu_ns_to_ticks(500));
  EXPECT_EQ(std::memcmp(&dst[5], far.p + 512 * 5, 8), 0);
  std::vector<int> seen;
  for (int n = 0; n < 7; ++n)
    seen.push_back(spin_getfin(a.amu));
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<int>{0, 1, 2, 3, 4, 6, 7})) << "5 must not come back twice";
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(std::memcmp(&dst[i], far.p + 512 * i, 8), 0) << i;
  // Reissue every id and consume them all by wait, in order: no stale returns.
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 8; ++i)
      ASSERT_EQ(memcoro_amu_aload(a.amu, i, &dst[i], far.p + 512 * i + 8, 8), MEMCORO_AMU_OK);
    for (int i = 0; i < 8; ++i)
      ASSERT_EQ(memcoro_amu_wait(a.amu, i), MEMCORO_AMU_OK);
    EXPECT_EQ(memcoro_amu_getfin(a.amu), MEMCORO_AMU_NONE);
  }
}

TEST(Amu, SynchronousFarAccessPaysTheModelledLatency) {
  constexpr double L = 5000;
  Amu a(fixed(L));
  Far far(1 << 16);
  uint64_t x, y = 0x1122334455667788;
  uint64_t t0 = memcoro_amu_now();
  memcoro_far_load(a.amu, &x, far.p + 8, 8);
  EXPECT_GE(memcoro_amu_now() - t0, memcoro_amu_ns_to_ticks(L));
  EXPECT_EQ(std::memcmp(&x, far.p + 8, 8), 0);
  t0 = memcoro_amu_now();
  memcoro_far_store(a.amu, far.p + 64, &y, 8);
  EXPECT_GE(memcoro_amu_now() - t0, memcoro_amu_ns_to_ticks(L));
  EXPECT_EQ(std::memcmp(far.p + 64, &y, 8), 0);
  EXPECT_EQ(memcoro_amu_get_stats(a.amu).requests, 2u);
}

}  // namespace
