// SPDX-License-Identifier: Apache-2.0
// Stress: several threads, one AMU each (as one per core), run a random mix
// of aload/astore/aset/await/asignal/getfin/wait against a shadow copy of
// their far memory. Checks that every byte moved is the right one, that no
// completion comes earlier than the shortest modelled latency, and that the
// request table bound holds throughout.
#include "memcoro/amu.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace {

constexpr int kIds = 48;          // ids 0..kIds-1 move data, kIds.. are awaited
constexpr int kAwaitIds = 8;
constexpr size_t kChunk = 4096;   // id k owns far chunk k: in-flight requests never overlap
constexpr uint32_t kEntries = 24; // smaller than the ids, so the table fills

struct Pending {
  bool busy = false;
  bool store = false;
  bool grouped = false;
  size_t off = 0, len = 0, off2 = 0, len2 = 0;
  uint64_t issued = 0;
};

void run_thread(unsigned seed, int ops, std::vector<std::string> *errors) {
  memcoro_amu_model m{};
  m.latency_ns = 300;
  m.jitter = MEMCORO_AMU_UNIFORM;
  m.jitter_ns = 200;
  m.bytes_per_ns = 64;
  m.table_entries = kEntries;
  m.ids = kIds + kAwaitIds;
  m.seed = seed;
  memcoro_amu *amu = memcoro_amu_create(&m);
  auto *far = static_cast<unsigned char *>(memcoro_far_alloc(kIds * kChunk));
  std::vector<unsigned char> shadow(kIds * kChunk), local(kIds * 2 * kChunk);
  std::mt19937 rng(seed);
  for (size_t i = 0; i < shadow.size(); ++i)
    far[i] = shadow[i] = static_cast<unsigned char>(rng());
  std::vector<Pending> p(kIds);
  std::vector<int> awaiting(kAwaitIds);  // 0 free, 1 awaiting, 2 signalled
  const uint64_t min_latency = memcoro_amu_ns_to_ticks(100);
  auto fail = [&](const std::string &what) { errors->push_back(what); };

  auto complete = [&](int id) {
    if (id >= kIds) {
      if (awaiting[id - kIds] != 2)
        fail("an await id completed without asignal");
      awaiting[id - kIds] = 0;
      return;
    }
    Pending &q = p[id];
    if (!q.busy)
      return fail("completion for an id not in flight");
    if (memcoro_amu_now() - q.issued < min_latency)
      fail("completed earlier than the model");
    unsigned char *buf = &local[id * 2 * kChunk];
    if (q.store) {
      std::memcpy(&shadow[id * kChunk + q.off], buf, q.len);
    } else {
      if (std::memcmp(buf, &shadow[id * kChunk + q.off], q.len) != 0)
        fail("aload delivered wrong bytes");
      if (q.grouped && std::memcmp(buf + kChunk, &shadow[id * kChunk + q.off2], q.len2) != 0)
        fail("grouped aload delivered wrong bytes");
    }
    q.busy = false;
  };

  for (int op = 0; op < ops && errors->empty(); ++op) {
    if (memcoro_amu_in_flight(amu) > kEntries)
      fail("request table bound exceeded");
    int id = static_cast<int>(rng() % kIds);
    unsigned char *buf = &local[id * 2 * kChunk];
    switch (rng() % 8) {
    case 0:
    case 1: {  // aload (maybe rejected: busy or table full)
      size_t len = 1 + rng() % kChunk, off = rng() % (kChunk - len + 1);
      uint64_t t = memcoro_amu_now();
      int s = memcoro_amu_aload(amu, id, buf, far + id * kChunk + off, len);
      if (s == MEMCORO_AMU_OK)
        p[id] = {true, false, false, off, len, 0, 0, t};
      else if ((s == MEMCORO_AMU_BUSY) != p[id].busy && s != MEMCORO_AMU_TABLE_FULL)
        fail(std::string("unexpected aload status: ") + memcoro_amu_strerror(s));
      break;
    }
    case 2: {  // astore of fresh bytes
      if (p[id].busy)
        break;
      size_t len = 1 + rng() % 256, off = rng() % (kChunk - len + 1);
      for (size_t i = 0; i < len; ++i)
        buf[i] = static_cast<unsigned char>(rng());
      uint64_t t = memcoro_amu_now();
      if (memcoro_amu_astore(amu, id, far + id * kChunk + off, buf, len) == MEMCORO_AMU_OK)
        p[id] = {true, true, false, off, len, 0, 0, t};
      break;
    }
    case 3: {  // two independent loads under one id
      if (p[id].busy || memcoro_amu_in_flight(amu) + 2 > kEntries)
        break;
      size_t len = 1 + rng() % 512, off = rng() % (kChunk / 2 - len);
      size_t len2 = 1 + rng() % 512, off2 = kChunk / 2 + rng() % (kChunk / 2 - len2);
      uint64_t t = memcoro_amu_now();
      if (memcoro_amu_aset(amu, id, 2) != MEMCORO_AMU_OK ||
          memcoro_amu_aload(amu, id, buf, far + id * kChunk + off, len) != MEMCORO_AMU_OK ||
          memcoro_amu_aload(amu, id, buf + kChunk, far + id * kChunk + off2, len2) != MEMCORO_AMU_OK)
        fail("aset group rejected with room in the table");
      p[id] = {true, false, true, off, len, off2, len2, t};
      break;
    }
    case 4: {  // await, or signal an awaiting id
      int w = static_cast<int>(rng() % kAwaitIds);
      if (awaiting[w] == 1) {
        if (memcoro_amu_asignal(amu, kIds + w) != MEMCORO_AMU_OK)
          fail("asignal of an awaiting id failed");
        awaiting[w] = 2;
      } else if (awaiting[w] == 2) {
        if (memcoro_amu_asignal(amu, kIds + w) != MEMCORO_AMU_UNKNOWN_ID)
          fail("a second asignal was accepted");
      } else if (memcoro_amu_await(amu, kIds + w, nullptr) == MEMCORO_AMU_OK) {
        awaiting[w] = 1;
      }
      break;
    }
    case 5:
      if (p[id].busy) {
        if (memcoro_amu_wait(amu, id) != MEMCORO_AMU_OK)
          fail("wait on an id in flight failed");
        complete(id);
      }
      break;
    default: {
      int32_t fin = memcoro_amu_getfin(amu);
      if (fin != MEMCORO_AMU_NONE)
        complete(fin);
    }
    }
  }
  // Drain: signal what awaits, then collect everything.
  for (int w = 0; w < kAwaitIds; ++w)
    if (awaiting[w] == 1) {
      memcoro_amu_asignal(amu, kIds + w);
      awaiting[w] = 2;
    }
  while (memcoro_amu_in_flight(amu) > 0 && errors->empty()) {
    int32_t fin = memcoro_amu_getfin(amu);
    if (fin != MEMCORO_AMU_NONE)
      complete(fin);
  }
  int32_t fin;
  while ((fin = memcoro_amu_getfin(amu)) != MEMCORO_AMU_NONE)
    complete(fin);
  for (int id = 0; id < kIds; ++id)
    if (p[id].busy)
      fail("request never completed");
  if (std::memcmp(far, shadow.data(), shadow.size()) != 0)
    fail("far memory differs from the shadow after all stores");
  if (memcoro_amu_get_stats(amu).max_in_flight > kEntries)
    fail("max_in_flight above the table size");
  memcoro_far_free(far);
  memcoro_amu_destroy(amu);
}

TEST(AmuStress, ThreadsWithOwnAmusMoveExactlyTheRightBytes) {
  constexpr int kThreads = 4;
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  constexpr int kOps = 20000;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  constexpr int kOps = 20000;
#else
  constexpr int kOps = 200000;
#endif
#else
  constexpr int kOps = 200000;
#endif
  std::vector<std::vector<std::string>> errors(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(run_thread, 1000u + t, kOps, &errors[t]);
  for (auto &t : threads)
    t.join();
  for (int t = 0; t < kThreads; ++t)
    for (const auto &e : errors[t])
      ADD_FAILURE() << "thread " << t << ": " << e;
}

}  // namespace
