// SPDX-License-Identifier: Apache-2.0
// Multi-threaded stress of coroutines and executors: more executors than
// cores, spawns from several threads at once, joins that park across
// executors, and waiters signalled by plain threads in random order.
#include "memcoro/co.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifdef UNDER_SANITIZER
constexpr int kScale = 10;
#else
constexpr int kScale = 1;
#endif

namespace {

struct Job {
  memcoro_sched *sched;
  uint64_t value;
};

void *child(void *arg) {
  memcoro_co_yield();
  return reinterpret_cast<void *>(reinterpret_cast<uintptr_t>(arg) * 3);
}

void *parent(void *arg) {
  auto *job = static_cast<Job *>(arg);
  for (int i = 0; i < 10; ++i)
    memcoro_co_yield();
  memcoro_co *c = memcoro_co_spawn(job->sched, child, reinterpret_cast<void *>(job->value), nullptr);
  if (!c)
    return nullptr;
  return memcoro_co_join(c);
}

TEST(CoStress, SpawnYieldAndJoinAcrossExecutorsFromManyThreads) {
  memcoro_sched_options o{};
  o.executors = 4; // more than the cores: executors sleep and wake a lot
  memcoro_sched *s = memcoro_sched_create(&o);
  ASSERT_NE(s, nullptr);
  const int per_thread = 5000 / kScale;
  std::vector<std::thread> spawners;
  std::atomic<uint64_t> total{0};
  for (int t = 0; t < 4; ++t)
    spawners.emplace_back([&, t] {
      std::vector<Job> jobs(per_thread);
      std::vector<memcoro_co *> cos(per_thread);
      for (int i = 0; i < per_thread; ++i) {
        jobs[i] = {s, static_cast<uint64_t>(t * per_thread + i)};
        cos[i] = memcoro_co_spawn(s, parent, &jobs[i], nullptr);
        ASSERT_NE(cos[i], nullptr);
      }
      uint64_t sum = 0;
      for (memcoro_co *co : cos)
        sum += reinterpret_cast<uintptr_t>(memcoro_co_join(co));
      total += sum;
    });
  for (auto &t : spawners)
    t.join();
  const uint64_t n = 4 * static_cast<uint64_t>(per_thread);
  EXPECT_EQ(total.load(), 3 * n * (n - 1) / 2);
  memcoro_sched_destroy(s);
}

struct Sleeper {
  std::atomic<memcoro_waiter *> *slot;
  std::atomic<int> *woken;
};

void *sleep_until_signalled(void *arg) {
  auto *sl = static_cast<Sleeper *>(arg);
  memcoro_waiter w;
  memcoro_waiter_init(&w);
  sl->slot->store(&w, std::memory_order_release);
  memcoro_waiter_wait(&w);
  sl->woken->fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

TEST(CoStress, WaitersSignalledByThreadsInRandomOrder) {
  memcoro_sched_options o{};
  o.executors = 3;
  memcoro_sched *s = memcoro_sched_create(&o);
  const int n = 2000 / kScale;
  for (int round = 0; round < 10; ++round) {
    std::vector<std::atomic<memcoro_waiter *>> slots(n);
    std::atomic<int> woken{0};
    std::vector<Sleeper> sleepers(n);
    std::vector<memcoro_co *> cos(n);
    for (int i = 0; i < n; ++i) {
      sleepers[i] = {&slots[i], &woken};
      cos[i] = memcoro_co_spawn(s, sleep_until_signalled, &sleepers[i], nullptr);
    }
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i)
      order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(round));
    std::vector<std::thread> signallers;
    for (int t = 0; t < 4; ++t)
      signallers.emplace_back([&, t] {
        for (int k = t; k < n; k += 4) {
          memcoro_waiter *w;
          while (!(w = slots[order[k]].load(std::memory_order_acquire)))
            std::this_thread::yield();
          memcoro_waiter_signal(w);
        }
      });
    for (auto &t : signallers)
      t.join();
    for (memcoro_co *co : cos)
      memcoro_co_join(co);
    ASSERT_EQ(woken.load(), n) << "round " << round;
  }
  memcoro_sched_destroy(s);
}

} // namespace
