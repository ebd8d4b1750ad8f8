// SPDX-License-Identifier: Apache-2.0
// Stress of primary/scavenger co-scheduling: threads at once (more than
// cores), each a primary that stalls with random bounds while thousands of
// scavengers stall, yield, add more scavengers and finish; a thread that ends
// with work left; an executor coroutine as primary. Every piece of work is
// checked off exactly once.
#include "memcoro/co.h"
#include "memcoro/scavenger.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
// Every live scavenger is a TSan fiber with trace memory of its own: bound
// how many wait at once, as a service that sheds work would.
#ifdef UNDER_SANITIZER
constexpr int kScale = 10;
constexpr uint64_t kMaxPending = 32;
#else
constexpr int kScale = 1;
constexpr uint64_t kMaxPending = 512;
#endif

namespace {

struct Board {
  explicit Board(size_t n) : done(n) {}
  std::vector<std::atomic<uint32_t>> done;
  std::atomic<uint64_t> next{0};
};

struct Work {
  Board *board;
  uint64_t id;
  uint32_t seed;
  int depth;
};

// Stalls and yields a random number of times; may register children, whose
// ids come from the board so that the total is known in advance.
void work(void *arg) {
  std::unique_ptr<Work> w(static_cast<Work *>(arg));
  std::minstd_rand rng(w->seed);
  int steps = static_cast<int>(rng() % 20);
  for (int i = 0; i < steps; ++i) {
    if (rng() % 2)
      memcoro_scavenge(rng() % 1000);
    else
      memcoro_scavenger_yield();
    if (w->depth < 2 && rng() % 8 == 0) {
      uint64_t child = w->board->next.fetch_add(1, std::memory_order_relaxed);
      if (child < w->board->done.size()) {
        auto *c = new Work{w->board, child, static_cast<uint32_t>(rng()), w->depth + 1};
        ASSERT_TRUE(memcoro_scavenger_add(work, c));
      }
    }
  }
  w->board->done[w->id].fetch_add(1, std::memory_order_relaxed);
}

void primary(Board *board, uint32_t seed, size_t share, bool drain) {
  std::minstd_rand rng(seed);
  for (size_t i = 0; i < share; ++i) {
    uint64_t id = board->next.fetch_add(1, std::memory_order_relaxed);
    if (id >= board->done.size())
      break;
    ASSERT_TRUE(memcoro_scavenger_add(work, new Work{board, id, static_cast<uint32_t>(rng()), 0}));
    // The primary's own stalls, with bounds from none to a few microseconds.
    for (int s = rng() % 4; s > 0; --s)
      memcoro_scavenge(rng() % 3000);
    memcoro_scavenger_stats st;
    memcoro_scavenger_get_stats(&st);
    if (st.added - st.completed > kMaxPending)
      memcoro_scavenger_drain();
  }
  if (drain)
    memcoro_scavenger_drain();
}

TEST(ScavengerStress, EveryPieceOfWorkRunsExactlyOnce) {
  const size_t total = 200000 / kScale;
  Board board(total);
  std::vector<std::thread> threads;
  const unsigned n = 6;
  for (unsigned t = 0; t < n; ++t)
    // Half of the threads leave their work to the thread-exit drain.
    threads.emplace_back(primary, &board, 1000 + t, total / n / 2, t % 2 == 0);
  for (auto &th : threads)
    th.join();
  // What the primaries' shares and children did not cover: this thread.
  primary(&board, 7, total, true);
  size_t missing = 0, twice = 0;
  for (auto &d : board.done) {
    uint32_t v = d.load(std::memory_order_relaxed);
    missing += v == 0;
    twice += v > 1;
  }
  EXPECT_EQ(missing, 0u);
  EXPECT_EQ(twice, 0u);
}

struct CoJob {
  Board *board;
  uint32_t seed;
  size_t share;
};

void *co_primary(void *arg) {
  auto *j = static_cast<CoJob *>(arg);
  primary(j->board, j->seed, j->share, true);
  return nullptr;
}

TEST(ScavengerStress, PinnedCoroutinesAsPrimaries) {
  const size_t total = 50000 / kScale;
  Board board(total);
  memcoro_sched_options o{};
  o.executors = 3;
  memcoro_sched *sched = memcoro_sched_create(&o);
  ASSERT_NE(sched, nullptr);
  std::vector<CoJob> jobs(6);
  std::vector<memcoro_co *> cos;
  for (unsigned i = 0; i < jobs.size(); ++i) {
    jobs[i] = CoJob{&board, 50 + i, total / jobs.size()};
    memcoro_co_attr attr{static_cast<int>(i % 3), "primary"};
    cos.push_back(memcoro_co_spawn(sched, co_primary, &jobs[i], &attr));
    ASSERT_NE(cos.back(), nullptr);
  }
  for (memcoro_co *co : cos)
    memcoro_co_join(co);
  memcoro_sched_destroy(sched);
  primary(&board, 9, total, true);
  size_t wrong = 0;
  for (auto &d : board.done)
    wrong += d.load(std::memory_order_relaxed) != 1;
  EXPECT_EQ(wrong, 0u);
}

} // namespace
