// SPDX-License-Identifier: Apache-2.0
// Functional tests of channels (chan.h): every mode, wrap-around, blocking
// and wake-up between coroutines and threads, close, and reported misuse.
#include "memcoro/chan.h"
#include "memcoro/co.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

const memcoro_chan_mode kModes[] = {MEMCORO_CHAN_SPSC, MEMCORO_CHAN_SPMC, MEMCORO_CHAN_MPSC,
                                    MEMCORO_CHAN_MPMC};

class ChanMode : public ::testing::TestWithParam<memcoro_chan_mode> {};

std::string mode_name(const ::testing::TestParamInfo<memcoro_chan_mode> &info) {
  const char *names[] = {"SPSC", "SPMC", "MPSC", "MPMC"};
  return names[info.param];
}

INSTANTIATE_TEST_SUITE_P(AllModes, ChanMode, ::testing::ValuesIn(kModes), mode_name);

TEST_P(ChanMode, TryOperationsRespectCapacityAndOrderOverManyLaps) {
  // 5 is not a power of two: positions wrap without the lap arithmetic
  // lining up with the slot count.
  memcoro_chan *ch = memcoro_chan_create(sizeof(uint64_t), 5, GetParam());
  ASSERT_NE(ch, nullptr);
  EXPECT_EQ(memcoro_chan_capacity(ch), 5u);
  EXPECT_EQ(memcoro_chan_get_mode(ch), GetParam());
  uint64_t next_in = 0, next_out = 0, v;
  EXPECT_FALSE(memcoro_chan_try_recv(ch, &v, sizeof v));
  for (int round = 0; round < 50; ++round) {
    int fill = 1 + round % 5;
    for (int i = 0; i < fill; ++i, ++next_in)
      ASSERT_TRUE(memcoro_chan_try_send(ch, &next_in, sizeof next_in));
    if (fill == 5)
      EXPECT_FALSE(memcoro_chan_try_send(ch, &next_in, sizeof next_in)) << "full at 5";
    for (int i = 0; i < fill; ++i, ++next_out) {
      ASSERT_TRUE(memcoro_chan_try_recv(ch, &v, sizeof v));
      ASSERT_EQ(v, next_out);
    }
    EXPECT_FALSE(memcoro_chan_try_recv(ch, &v, sizeof v)) << "empty";
  }
  memcoro_chan_destroy(ch);
}

TEST_P(ChanMode, LargeElementsArriveIntact) {
  struct Big {
    uint32_t words[37];
  };
  memcoro_chan *ch = memcoro_chan_create(sizeof(Big), 3, GetParam());
  for (uint32_t n = 0; n < 10; ++n) {
    Big in;
    for (uint32_t i = 0; i < 37; ++i)
      in.words[i] = n * 1000 + i;
    ASSERT_EQ(MEMCORO_CHAN_SEND(ch, in), MEMCORO_CHAN_OK);
    Big out{};
    ASSERT_EQ(MEMCORO_CHAN_RECV(ch, out), MEMCORO_CHAN_OK);
    for (uint32_t i = 0; i < 37; ++i)
      ASSERT_EQ(out.words[i], n * 1000 + i);
  }
  memcoro_chan_destroy(ch);
}

TEST_P(ChanMode, CloseDrainsThenReportsClosed) {
  memcoro_chan *ch = memcoro_chan_create(sizeof(int), 4, GetParam());
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(MEMCORO_CHAN_SEND(ch, i), MEMCORO_CHAN_OK);
  memcoro_chan_close(ch);
  memcoro_chan_close(ch); // harmless
  EXPECT_TRUE(memcoro_chan_is_closed(ch));
  int late = 7;
  EXPECT_EQ(MEMCORO_CHAN_SEND(ch, late), MEMCORO_CHAN_CLOSED);
  EXPECT_FALSE(memcoro_chan_try_send(ch, &late, sizeof late));
  for (int i = 0; i < 3; ++i) {
    int v = -1;
    ASSERT_EQ(MEMCORO_CHAN_RECV(ch, v), MEMCORO_CHAN_OK);
    EXPECT_EQ(v, i);
  }
  int v;
  EXPECT_EQ(MEMCORO_CHAN_RECV(ch, v), MEMCORO_CHAN_CLOSED);
  EXPECT_EQ(MEMCORO_CHAN_RECV(ch, v), MEMCORO_CHAN_CLOSED);
  memcoro_chan_destroy(ch);
}

struct Pipe {
  memcoro_chan *ch;
  int count;
  std::vector<int> *received;
};

void *produce(void *arg) {
  auto *p = static_cast<Pipe *>(arg);
  for (int i = 0; i < p->count; ++i)
    if (MEMCORO_CHAN_SEND(p->ch, i) != MEMCORO_CHAN_OK)
      return reinterpret_cast<void *>(1);
  memcoro_chan_close(p->ch);
  return nullptr;
}

void *consume(void *arg) {
  auto *p = static_cast<Pipe *>(arg);
  int v;
  while (MEMCORO_CHAN_RECV(p->ch, v) == MEMCORO_CHAN_OK)
    p->received->push_back(v);
  return nullptr;
}

std::vector<int> iota(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

// Capacity 1 forces a park and a mutual wake-up on nearly every message.
TEST_P(ChanMode, CoroutinesOnOneExecutorBlockAndWakeEachOther) {
  memcoro_sched_options o{};
  o.executors = 1;
  memcoro_sched *s = memcoro_sched_create(&o);
  memcoro_chan *ch = memcoro_chan_create(sizeof(int), 1, GetParam());
  std::vector<int> received;
  Pipe pipe{ch, 1000, &received};
  // Consumer first, so it parks on the empty channel before anything is sent.
  memcoro_co *c = memcoro_co_spawn(s, consume, &pipe, nullptr);
  memcoro_co *p = memcoro_co_spawn(s, produce, &pipe, nullptr);
  EXPECT_EQ(memcoro_co_join(p), nullptr);
  memcoro_co_join(c);
  EXPECT_EQ(received, iota(1000));
  memcoro_sched_destroy(s);
  memcoro_chan_destroy(ch);
}

TEST_P(ChanMode, CoroutinesOnDifferentExecutorsBlockAndWakeEachOther) {
  memcoro_sched_options o{};
  o.executors = 2;
  memcoro_sched *s = memcoro_sched_create(&o);
  memcoro_chan *ch = memcoro_chan_create(sizeof(int), 2, GetParam());
  std::vector<int> received;
  Pipe pipe{ch, 5000, &received};
  memcoro_co_attr on0{0, "consumer"}, on1{1, "producer"};
  memcoro_co *c = memcoro_co_spawn(s, consume, &pipe, &on0);
  memcoro_co *p = memcoro_co_spawn(s, produce, &pipe, &on1);
  EXPECT_EQ(memcoro_co_join(p), nullptr);
  memcoro_co_join(c);
  EXPECT_EQ(received, iota(5000));
  memcoro_sched_destroy(s);
  memcoro_chan_destroy(ch);
}

TEST_P(ChanMode, PlainThreadsAndCoroutinesTalk) {
  memcoro_sched_options o{};
  o.executors = 1;
  memcoro_sched *s = memcoro_sched_create(&o);
  // Thread sends to a coroutine, which echoes doubled values back.
  memcoro_chan *to_co = memcoro_chan_create(sizeof(int), 1, GetParam());
  memcoro_chan *to_thread = memcoro_chan_create(sizeof(int), 1, GetParam());
  memcoro_chan *chans[2] = {to_co, to_thread};
  memcoro_co *echo = memcoro_co_spawn(
      s, [](void *arg) -> void * {
        auto **c = static_cast<memcoro_chan **>(arg);
        int v;
        while (MEMCORO_CHAN_RECV(c[0], v) == MEMCORO_CHAN_OK) {
          v *= 2;
          MEMCORO_CHAN_SEND(c[1], v);
        }
        memcoro_chan_close(c[1]);
        return nullptr;
      },
      chans, nullptr);
  std::thread user([&] {
    for (int i = 0; i < 2000; ++i) {
      ASSERT_EQ(MEMCORO_CHAN_SEND(to_co, i), MEMCORO_CHAN_OK);
      int back = -1;
      ASSERT_EQ(MEMCORO_CHAN_RECV(to_thread, back), MEMCORO_CHAN_OK);
      ASSERT_EQ(back, 2 * i);
    }
    memcoro_chan_close(to_co);
    int v;
    EXPECT_EQ(MEMCORO_CHAN_RECV(to_thread, v), MEMCORO_CHAN_CLOSED);
  });
  user.join();
  memcoro_co_join(echo);
  memcoro_sched_destroy(s);
  memcoro_chan_destroy(to_co);
  memcoro_chan_destroy(to_thread);
}

TEST_P(ChanMode, CloseWakesParkedReceivers) {
  memcoro_sched_options o{};
  o.executors = 2;
  memcoro_sched *s = memcoro_sched_create(&o);
  memcoro_chan *ch = memcoro_chan_create(sizeof(int), 1, GetParam());
  bool many = GetParam() == MEMCORO_CHAN_SPMC || GetParam() == MEMCORO_CHAN_MPMC;
  int receivers = many ? 8 : 1;
  std::vector<memcoro_co *> cos;
  for (int i = 0; i < receivers; ++i)
    cos.push_back(memcoro_co_spawn(
        s, [](void *arg) -> void * {
          int v;
          return reinterpret_cast<void *>(
              static_cast<intptr_t>(MEMCORO_CHAN_RECV(static_cast<memcoro_chan *>(arg), v)));
        },
        ch, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(20)); // let them park
  memcoro_chan_close(ch);
  for (memcoro_co *co : cos)
    EXPECT_EQ(reinterpret_cast<intptr_t>(memcoro_co_join(co)), MEMCORO_CHAN_CLOSED);
  memcoro_sched_destroy(s);
  memcoro_chan_destroy(ch);
}

// Two coroutines that keep waking each other through a channel run one after
// the other from the run-next slot; a third one on the same executor must
// still get turns while they do.
TEST(Chan, PingPongDoesNotStarveOtherCoroutines) {
  memcoro_sched_options o{};
  o.executors = 1;
  memcoro_sched *s = memcoro_sched_create(&o);
  memcoro_chan *ping = memcoro_chan_create(sizeof(int), 1, MEMCORO_CHAN_SPSC);
  memcoro_chan *pong = memcoro_chan_create(sizeof(int), 1, MEMCORO_CHAN_SPSC);
  static std::atomic<int> volleys{0};
  static std::atomic<int> volleys_when_bystander_done{-1};
  struct Players {
    memcoro_chan *in, *out;
    bool serves; // sends first
  } a{ping, pong, false}, b{pong, ping, true};
  auto player = [](void *arg) -> void * {
    auto *p = static_cast<Players *>(arg);
    int v = 0;
    for (int i = 0; i < 20000; ++i) {
      if (p->serves)
        MEMCORO_CHAN_SEND(p->out, v);
      MEMCORO_CHAN_RECV(p->in, v);
      if (!p->serves)
        MEMCORO_CHAN_SEND(p->out, v);
      volleys.fetch_add(1, std::memory_order_relaxed);
    }
    return nullptr;
  };
  // The bystander comes first and waits for the rally to start, so that it
  // is queued throughout however the threads are scheduled.
  memcoro_co *bystander = memcoro_co_spawn(
      s, [](void *) -> void * {
        while (volleys.load() == 0)
          memcoro_co_yield();
        for (int i = 0; i < 10; ++i)
          memcoro_co_yield();
        volleys_when_bystander_done.store(volleys.load());
        return nullptr;
      },
      nullptr, nullptr);
  memcoro_co *pa = memcoro_co_spawn(s, player, &a, nullptr);
  memcoro_co *pb = memcoro_co_spawn(s, player, &b, nullptr);
  memcoro_co_join(pa);
  memcoro_co_join(pb);
  memcoro_co_join(bystander);
  EXPECT_GE(volleys_when_bystander_done.load(), 0);
  EXPECT_LT(volleys_when_bystander_done.load(), 20000) << "the bystander only ran after the rally";
  memcoro_sched_destroy(s);
  memcoro_chan_destroy(ping);
  memcoro_chan_destroy(pong);
}

TEST(Chan, CreateRejectsBadArguments) {
  EXPECT_EQ(memcoro_chan_create(0, 4, MEMCORO_CHAN_SPSC), nullptr);
  EXPECT_EQ(memcoro_chan_create(8, 0, MEMCORO_CHAN_SPSC), nullptr);
  EXPECT_EQ(memcoro_chan_create(8, 4, static_cast<memcoro_chan_mode>(9)), nullptr);
  EXPECT_EQ(memcoro_chan_create(8, SIZE_MAX / 4, MEMCORO_CHAN_MPMC), nullptr);
  memcoro_chan_destroy(nullptr);
}

TEST(ChanDeathTest, ElementSizeMismatchIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  memcoro_chan *ch = memcoro_chan_create(sizeof(uint64_t), 4, MEMCORO_CHAN_MPMC);
  uint32_t small = 1;
  EXPECT_DEATH(memcoro_chan_send(ch, &small, sizeof small),
               "element size 4 does not match the channel's 8");
  EXPECT_DEATH(memcoro_chan_try_recv(ch, &small, sizeof small),
               "element size 4 does not match the channel's 8");
  memcoro_chan_destroy(ch);
}

TEST(ChanDeathTest, UseAfterDestroyIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        memcoro_chan *ch = memcoro_chan_create(sizeof(int), 4, MEMCORO_CHAN_SPSC);
        memcoro_chan_destroy(ch);
        int v = 0;
        MEMCORO_CHAN_SEND(ch, v);
      },
      "not a live channel|use-after-free");
}

TEST(ChanDeathTest, ASecondSenderOnSpscIsReportedWhenChecking) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("MEMCORO_CHECK", "1", 1);
  memcoro_chan *ch = memcoro_chan_create(sizeof(int), 64, MEMCORO_CHAN_SPSC);
  unsetenv("MEMCORO_CHECK");
  int v = 1;
  ASSERT_EQ(MEMCORO_CHAN_SEND(ch, v), MEMCORO_CHAN_OK);
  EXPECT_DEATH(
      {
        std::thread second([&] { MEMCORO_CHAN_SEND(ch, v); });
        second.join();
      },
      "a second sender on SPSC channel");
  memcoro_chan_destroy(ch);
}

TEST(ChanDeathTest, DestroyingAChannelSomeoneWaitsOnIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        memcoro_chan *ch = memcoro_chan_create(sizeof(int), 1, MEMCORO_CHAN_MPMC);
        std::thread receiver([ch] {
          int v;
          MEMCORO_CHAN_RECV(ch, v);
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        memcoro_chan_destroy(ch);
        receiver.join();
      },
      "1 receivers still wait on channel");
}

} // namespace
