// SPDX-License-Identifier: Apache-2.0
// Functional tests of primary/scavenger co-scheduling (scavenger.h): every
// registered function runs to completion, who gets the thread at each yield,
// thread exit, scavengers added by scavengers, a primary that is a coroutine.
#include "memcoro/co.h"
#include "memcoro/scavenger.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace {

// Far beyond any run of these tests: "no bound", so the order of hand-overs
// never depends on how fast the machine is.
constexpr uint64_t kForever = uint64_t(1) << 50;

struct Counter {
  int runs = 0;
};

void count_once(void *arg) { ++static_cast<Counter *>(arg)->runs; }

TEST(Scavenger, DrainRunsEveryRegisteredFunction) {
  Counter c;
  memcoro_scavenger_stats before;
  memcoro_scavenger_get_stats(&before);
  for (int i = 0; i < 100; ++i)
    ASSERT_TRUE(memcoro_scavenger_add(count_once, &c));
  EXPECT_EQ(memcoro_scavenger_drain(), 100u);
  EXPECT_EQ(c.runs, 100);
  memcoro_scavenger_stats after;
  memcoro_scavenger_get_stats(&after);
  EXPECT_EQ(after.added - before.added, 100u);
  EXPECT_EQ(after.completed - before.completed, 100u);
  EXPECT_EQ(memcoro_scavenger_drain(), 0u);
}

TEST(Scavenger, WithoutScavengersScavengeReturnsAtOnce) {
  memcoro_scavenge(kForever); // would hang if it waited for the bound
  EXPECT_FALSE(memcoro_in_scavenger());
  memcoro_scavenger_yield(); // outside a scavenger: nothing
}

struct Steps {
  int done = 0;
  int total = 0;
  bool inside = true;
};

// Yields at a bounded-distance point after every step.
void stepper(void *arg) {
  auto *s = static_cast<Steps *>(arg);
  for (int i = 0; i < s->total; ++i) {
    s->inside &= memcoro_in_scavenger();
    ++s->done;
    memcoro_scavenger_yield();
  }
}

TEST(Scavenger, ZeroBoundGivesOneStepPerStall) {
  // With a bound of 0 the deadline has passed at the scavenger's first yield
  // point: each stall of the primary runs exactly one step.
  Steps s{0, 5, true};
  ASSERT_TRUE(memcoro_scavenger_add(stepper, &s));
  for (int call = 1; call <= 5; ++call) {
    memcoro_scavenge(0);
    EXPECT_EQ(s.done, call);
  }
  EXPECT_TRUE(s.inside);
  EXPECT_FALSE(memcoro_in_scavenger());
  EXPECT_EQ(memcoro_scavenger_drain(), 1u); // the function's return is left
}

TEST(Scavenger, UnboundedStallRunsToTheEndOfTheRing) {
  // Bounded-distance yields do not give the thread back before the bound.
  Steps a{0, 50, true}, b{0, 30, true};
  ASSERT_TRUE(memcoro_scavenger_add(stepper, &a));
  ASSERT_TRUE(memcoro_scavenger_add(stepper, &b));
  memcoro_scavenge(kForever);
  EXPECT_EQ(a.done, 50);
  EXPECT_EQ(b.done, 30);
  EXPECT_EQ(memcoro_scavenger_drain(), 0u);
}

struct Trace {
  std::string events;
};
struct Staller {
  Trace *trace;
  char name;
  int stalls;
};

// A scavenger whose every step misses: it stalls (memcoro_scavenge), as a
// loop compiled with -fmemcoro-scavenge does at its suspension points.
void staller(void *arg) {
  auto *s = static_cast<Staller *>(arg);
  for (int i = 0; i < s->stalls; ++i) {
    s->trace->events += s->name;
    memcoro_scavenge(123); // ignored in a scavenger
  }
  s->trace->events += '.';
}

TEST(Scavenger, StallsRotateThroughScavengersWhileThePrimaryWaits) {
  Trace t;
  Staller a{&t, 'a', 4}, b{&t, 'b', 2};
  ASSERT_TRUE(memcoro_scavenger_add(staller, &a));
  ASSERT_TRUE(memcoro_scavenger_add(staller, &b));
  memcoro_scavenge(kForever);
  // Each stall passes to the other; a finished one leaves the ring; the last
  // one, alone, goes back to the primary at its stall, as MSH does.
  EXPECT_EQ(t.events, "ababa.a");
  t.events += '|';
  memcoro_scavenge(kForever);
  EXPECT_EQ(t.events, "ababa.a|.");
  EXPECT_EQ(memcoro_scavenger_drain(), 0u);
}

TEST(Scavenger, TheNextStallResumesTheOtherScavenger) {
  // A scavenger that gave the thread back goes behind the others.
  Trace t;
  Staller a{&t, 'a', 2}, b{&t, 'b', 2};
  ASSERT_TRUE(memcoro_scavenger_add(staller, &a));
  ASSERT_TRUE(memcoro_scavenger_add(staller, &b));
  memcoro_scavenge(0);
  memcoro_scavenge(0);
  memcoro_scavenge(0);
  EXPECT_EQ(t.events, "aba");
  EXPECT_EQ(memcoro_scavenger_drain(), 2u);
}

struct Spawner {
  Counter *counter;
  int children;
};

void spawner(void *arg) {
  auto *s = static_cast<Spawner *>(arg);
  for (int i = 0; i < s->children; ++i) {
    EXPECT_TRUE(memcoro_scavenger_add(count_once, s->counter));
    memcoro_scavenger_yield();
  }
}

TEST(Scavenger, ScavengersMayAddScavengers) {
  Counter c;
  Spawner s{&c, 40};
  ASSERT_TRUE(memcoro_scavenger_add(spawner, &s));
  memcoro_scavenge(0);
  EXPECT_EQ(memcoro_scavenger_drain(), 41u);
  EXPECT_EQ(c.runs, 40);
}

TEST(Scavenger, AThreadThatEndsRunsWhatIsLeft) {
  Counter c;
  Steps s{0, 10, true};
  std::thread th([&] {
    for (int i = 0; i < 20; ++i)
      ASSERT_TRUE(memcoro_scavenger_add(count_once, &c));
    ASSERT_TRUE(memcoro_scavenger_add(stepper, &s));
    memcoro_scavenge(0); // one runs, the rest is left at exit
  });
  th.join();
  EXPECT_EQ(c.runs, 20);
  EXPECT_EQ(s.done, 10);
}

void deep(void *arg) {
  // Half of the 128 KiB stack: more than a thread's guard-less slack.
  volatile char buffer[64 << 10];
  for (size_t i = 0; i < sizeof buffer; i += 4096)
    buffer[i] = static_cast<char>(i);
  memcoro_scavenger_yield();
  *static_cast<int *>(arg) = buffer[4096];
}

TEST(Scavenger, HasAStackOfItsOwn) {
  int out = -1;
  ASSERT_TRUE(memcoro_scavenger_add(deep, &out));
  EXPECT_EQ(memcoro_scavenger_drain(), 1u);
  EXPECT_EQ(out, 0);
}

struct CoPrimary {
  Counter counter;
  Steps steps{0, 8, true};
  int stalls_seen = 0;
};

void *primary_coroutine(void *arg) {
  auto *p = static_cast<CoPrimary *>(arg);
  for (int i = 0; i < 4; ++i)
    memcoro_scavenger_add(count_once, &p->counter);
  memcoro_scavenger_add(stepper, &p->steps);
  for (int i = 0; i < 3; ++i)
    memcoro_scavenge(0);
  memcoro_scavenger_stats st;
  memcoro_scavenger_get_stats(&st);
  p->stalls_seen = static_cast<int>(st.stalls);
  memcoro_scavenger_drain();
  return nullptr;
}

TEST(Scavenger, APrimaryMayBeAPinnedCoroutine) {
  memcoro_sched_options o{};
  o.executors = 1;
  memcoro_sched *sched = memcoro_sched_create(&o);
  ASSERT_NE(sched, nullptr);
  CoPrimary p;
  memcoro_co_attr on0{0, "primary"};
  memcoro_co *co = memcoro_co_spawn(sched, primary_coroutine, &p, &on0);
  ASSERT_NE(co, nullptr);
  memcoro_co_join(co);
  memcoro_sched_destroy(sched);
  EXPECT_EQ(p.counter.runs, 4);
  EXPECT_EQ(p.steps.done, 8);
  EXPECT_EQ(p.stalls_seen, 3);
}

void drains(void *) { memcoro_scavenger_drain(); }

TEST(ScavengerDeathTest, DrainFromAScavengerAborts) {
  EXPECT_DEATH(
      {
        memcoro_scavenger_add(drains, nullptr);
        memcoro_scavenger_drain();
      },
      "only the primary may drain");
}

TEST(Scavenger, TscRateIsPositive) { EXPECT_GT(memcoro_tsc_per_ns(), 0.0); }

} // namespace
