// SPDX-License-Identifier: Apache-2.0
// Functional tests of coroutines, executors and waiters (co.h).
#include "memcoro/co.h"

#include <gtest/gtest.h>

#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cfenv>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

struct SchedDeleter {
  void operator()(memcoro_sched *s) const { memcoro_sched_destroy(s); }
};
using Sched = std::unique_ptr<memcoro_sched, SchedDeleter>;

Sched make_sched(unsigned executors, size_t stack_size = 0) {
  memcoro_sched_options o{};
  o.executors = executors;
  o.stack_size = stack_size;
  return Sched(memcoro_sched_create(&o));
}

memcoro_co *spawn_on(memcoro_sched *s, int executor, memcoro_co_fn fn, void *arg,
                     const char *name = nullptr) {
  memcoro_co_attr attr{executor, name};
  return memcoro_co_spawn(s, fn, arg, &attr);
}

TEST(Co, JoinReturnsTheResult) {
  Sched s = make_sched(2);
  ASSERT_TRUE(s);
  int x = 20;
  memcoro_co *co = memcoro_co_spawn(
      s.get(), [](void *arg) -> void * { return reinterpret_cast<void *>(static_cast<intptr_t>(*static_cast<int *>(arg) + 22)); },
      &x, nullptr);
  ASSERT_NE(co, nullptr);
  EXPECT_EQ(reinterpret_cast<intptr_t>(memcoro_co_join(co)), 42);
}

struct Trace {
  std::vector<std::string> events;
  void add(const char *who, int i) { events.push_back(std::string(who) + std::to_string(i)); }
};

struct TraceArg {
  Trace *trace;
  const char *who;
};

void *yield_three_times(void *arg) {
  auto *a = static_cast<TraceArg *>(arg);
  for (int i = 0; i < 3; ++i) {
    a->trace->add(a->who, i);
    memcoro_co_yield();
  }
  return nullptr;
}

TEST(Co, YieldInterleavesCoroutinesOfOneExecutorInFifoOrder) {
  Sched s = make_sched(1);
  Trace trace;
  TraceArg a{&trace, "a"}, b{&trace, "b"};
  // Spawned by a coroutine of the same executor, so that both are queued
  // before either runs (from this thread, the executor could run a to the
  // end before b arrives).
  struct Both {
    memcoro_sched *s;
    TraceArg *a, *b;
  } both{s.get(), &a, &b};
  memcoro_co *parent = spawn_on(
      s.get(), 0,
      [](void *arg) -> void * {
        auto *p = static_cast<Both *>(arg);
        memcoro_co *ca = spawn_on(p->s, 0, yield_three_times, p->a);
        memcoro_co *cb = spawn_on(p->s, 0, yield_three_times, p->b);
        memcoro_co_join(ca);
        memcoro_co_join(cb);
        return nullptr;
      },
      &both);
  memcoro_co_join(parent);
  std::vector<std::string> want{"a0", "b0", "a1", "b1", "a2", "b2"};
  EXPECT_EQ(trace.events, want);
}

TEST(Co, RoundRobinPlacementGivesUniqueIdsAndAllFinish) {
  Sched s = make_sched(3);
  EXPECT_EQ(memcoro_sched_executors(s.get()), 3u);
  std::vector<memcoro_co *> cos;
  std::atomic<int> ran{0};
  for (int i = 0; i < 300; ++i)
    cos.push_back(memcoro_co_spawn(
        s.get(), [](void *arg) -> void * {
          static_cast<std::atomic<int> *>(arg)->fetch_add(1);
          memcoro_co_yield();
          return memcoro_co_self();
        },
        &ran, nullptr));
  std::set<uint64_t> ids;
  for (memcoro_co *co : cos) {
    ASSERT_NE(co, nullptr);
    ids.insert(memcoro_co_id(co));
    EXPECT_EQ(memcoro_co_join(co), co) << "memcoro_co_self inside the coroutine";
  }
  EXPECT_EQ(ids.size(), 300u);
  EXPECT_EQ(ran.load(), 300);
}

TEST(Co, PinnedExecutorsRunOnTheirCpus) {
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof allowed, &allowed), 0);
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed))
      cpus.push_back(cpu);
  memcoro_sched_options o{};
  o.executors = 3;
  o.pin = true;
  Sched s(memcoro_sched_create(&o));
  ASSERT_TRUE(s);
  for (int executor = 0; executor < 3; ++executor) {
    memcoro_co *co = spawn_on(s.get(), executor, [](void *) -> void * {
      memcoro_co_yield(); // wherever it started, it resumes on its executor's CPU
      return reinterpret_cast<void *>(static_cast<intptr_t>(sched_getcpu()));
    }, nullptr);
    EXPECT_EQ(reinterpret_cast<intptr_t>(memcoro_co_join(co)), cpus[executor % cpus.size()])
        << "executor " << executor;
  }
}

TEST(Co, SelfIsNullOnAPlainThreadAndYieldThereIsHarmless) {
  EXPECT_EQ(memcoro_co_self(), nullptr);
  memcoro_co_yield();
}

TEST(Co, SpawnOnAMissingExecutorFails) {
  Sched s = make_sched(2);
  memcoro_co_attr attr{2, nullptr};
  EXPECT_EQ(memcoro_co_spawn(s.get(), yield_three_times, nullptr, &attr), nullptr);
  EXPECT_EQ(memcoro_co_spawn(s.get(), nullptr, nullptr, nullptr), nullptr);
}

void *join_child(void *arg) {
  auto *s = static_cast<memcoro_sched *>(arg);
  memcoro_co *child = memcoro_co_spawn(
      s, [](void *) -> void * {
        memcoro_co_yield();
        return reinterpret_cast<void *>(7);
      },
      nullptr, nullptr);
  return reinterpret_cast<void *>(reinterpret_cast<intptr_t>(memcoro_co_join(child)) * 6);
}

TEST(Co, ACoroutineJoinsAnotherByParking) {
  Sched s = make_sched(2);
  memcoro_co *parent = memcoro_co_spawn(s.get(), join_child, s.get(), nullptr);
  EXPECT_EQ(reinterpret_cast<intptr_t>(memcoro_co_join(parent)), 42);
}

TEST(Co, DetachedCoroutinesFinishBeforeDestroyReturns) {
  std::atomic<int> done{0};
  {
    Sched s = make_sched(2);
    for (int i = 0; i < 50; ++i)
      memcoro_co_detach(memcoro_co_spawn(
          s.get(), [](void *arg) -> void * {
            for (int k = 0; k < 10; ++k)
              memcoro_co_yield();
            static_cast<std::atomic<int> *>(arg)->fetch_add(1);
            return nullptr;
          },
          &done, nullptr));
  }
  EXPECT_EQ(done.load(), 50);
}

// The x87/SSE control state is callee-saved: a coroutine that changes the
// rounding mode must not leak it into another one on the same executor.
void *round_up_then_yield(void *) {
  std::fesetround(FE_UPWARD);
  memcoro_co_yield();
  return reinterpret_cast<void *>(static_cast<intptr_t>(std::fegetround()));
}

void *read_rounding(void *) { return reinterpret_cast<void *>(static_cast<intptr_t>(std::fegetround())); }

TEST(Co, FloatingPointControlStateIsPerCoroutine) {
  Sched s = make_sched(1);
  memcoro_co *changer = spawn_on(s.get(), 0, round_up_then_yield, nullptr);
  memcoro_co *reader = spawn_on(s.get(), 0, read_rounding, nullptr);
  EXPECT_EQ(reinterpret_cast<intptr_t>(memcoro_co_join(reader)), FE_TONEAREST);
  EXPECT_EQ(reinterpret_cast<intptr_t>(memcoro_co_join(changer)), FE_UPWARD);
}

struct WaitArg {
  memcoro_waiter *waiter;
  std::atomic<int> *stage;
};

TEST(Waiter, APlainThreadWakesAParkedCoroutine) {
  Sched s = make_sched(1);
  std::atomic<memcoro_waiter *> published{nullptr};
  int payload = 0;
  struct Arg {
    std::atomic<memcoro_waiter *> *published;
    int *payload;
  } arg{&published, &payload};
  memcoro_co *co = memcoro_co_spawn(
      s.get(), [](void *p) -> void * {
        auto *a = static_cast<Arg *>(p);
        memcoro_waiter w;
        memcoro_waiter_init(&w);
        a->published->store(&w);
        memcoro_waiter_wait(&w);
        return reinterpret_cast<void *>(static_cast<intptr_t>(*a->payload));
      },
      &arg, nullptr);
  memcoro_waiter *w;
  while (!(w = published.load()))
    std::this_thread::yield();
  payload = 99; // made visible to the coroutine by the signal
  memcoro_waiter_signal(w);
  EXPECT_EQ(reinterpret_cast<intptr_t>(memcoro_co_join(co)), 99);
}

TEST(Waiter, ASignalBeforeTheWaitIsNotLost) {
  memcoro_waiter w;
  memcoro_waiter_init(&w);
  EXPECT_FALSE(memcoro_waiter_try_wait(&w));
  memcoro_waiter_signal(&w);
  EXPECT_TRUE(memcoro_waiter_try_wait(&w));
  memcoro_waiter_wait(&w); // returns at once
}

TEST(Waiter, ACoroutineWakesASleepingThread) {
  Sched s = make_sched(2);
  memcoro_waiter w;
  memcoro_waiter_init(&w);
  memcoro_co *co = memcoro_co_spawn(
      s.get(), [](void *p) -> void * {
        for (int i = 0; i < 100; ++i)
          memcoro_co_yield(); // give the thread time to fall asleep
        memcoro_waiter_signal(static_cast<memcoro_waiter *>(p));
        return nullptr;
      },
      &w, nullptr);
  memcoro_waiter_wait(&w);
  EXPECT_TRUE(memcoro_waiter_try_wait(&w));
  memcoro_co_join(co);
}

// ---- where coroutines run -------------------------------------------------

// The calling thread's kernel id. Not pthread_self(): glibc declares it
// const, so the compiler may reuse its value across a suspension after which
// the coroutine runs on another thread.
long thread_id() { return syscall(SYS_gettid); }

// True once the thread is asleep in the kernel ("S" in /proc): an executor
// that sleeps has committed every park and has nothing to run.
bool thread_sleeps(long tid) {
  std::ifstream stat("/proc/self/task/" + std::to_string(tid) + "/stat");
  std::string line;
  std::getline(stat, line);
  size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] == 'S';
}

void wait_until_asleep(long tid) {
  while (!thread_sleeps(tid))
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

struct Worker {
  memcoro_waiter w;
  std::atomic<long> home{0};        // thread before parking (published last)
  long woken_on = 0;                // thread right after the wake-up
  std::set<long> ran_on;            // threads of the turns after that
};

// Parks until signalled, then computes in turns of ~1 ms (long turns: work a
// second executor can take), yielding between them.
void *park_then_compute(void *arg) {
  auto *w = static_cast<Worker *>(arg);
  memcoro_waiter_init(&w->w);
  w->home.store(thread_id(), std::memory_order_release);
  memcoro_waiter_wait(&w->w);
  w->woken_on = thread_id();
  for (int turn = 0; turn < 20; ++turn) {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
    while (std::chrono::steady_clock::now() < until) {
    }
    w->ran_on.insert(thread_id());
    memcoro_co_yield();
  }
  return nullptr;
}

struct Wakeup {
  std::vector<Worker> *workers;
  long thread = 0;
};

void *signal_all(void *arg) {
  auto *wk = static_cast<Wakeup *>(arg);
  wk->thread = thread_id();
  for (Worker &w : *wk->workers)
    memcoro_waiter_signal(&w.w);
  return nullptr;
}

// Starts the workers (pinned to executor 1, or round robin), waits until
// every one is parked and both executors sleep, then wakes them all from a
// coroutine pinned to executor 0 and lets them finish.
long run_workers(memcoro_sched *s, std::vector<Worker> &workers, bool pinned) {
  std::vector<memcoro_co *> cos;
  for (Worker &w : workers)
    cos.push_back(pinned ? spawn_on(s, 1, park_then_compute, &w)
                         : memcoro_co_spawn(s, park_then_compute, &w, nullptr));
  for (Worker &w : workers)
    while (!w.home.load(std::memory_order_acquire))
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (Worker &w : workers)
    wait_until_asleep(w.home.load(std::memory_order_relaxed));
  Wakeup wk{&workers};
  memcoro_co *waker = spawn_on(s, 0, signal_all, &wk);
  memcoro_co_join(waker);
  for (memcoro_co *co : cos)
    memcoro_co_join(co);
  return wk.thread;
}

TEST(Placement, AWokenCoroutineRunsOnTheWakersExecutorAndIdleOnesTakeWorkOver) {
  Sched s = make_sched(2);
  std::vector<Worker> workers(4);
  long waker = run_workers(s.get(), workers, false);
  std::set<long> homes, later;
  for (const Worker &w : workers) {
    homes.insert(w.home.load());
    later.insert(w.ran_on.begin(), w.ran_on.end());
  }
  ASSERT_EQ(homes.size(), 2u) << "round robin placement spreads the workers";
  // Signalled last, it sits in the waker's run-next slot and runs there as
  // soon as the waker finishes (Go's runnext), though it was placed on the
  // other executor: no other thread is woken to run it. The rest queue
  // behind it, where the idle executor may take them before they run.
  const Worker &last = workers.back();
  ASSERT_NE(last.home.load(), waker) << "round robin put the last worker on executor 1";
  EXPECT_EQ(last.woken_on, waker);
  // All four were queued on the waker's executor and compute in long
  // turns; the idle executor must get some of them.
  EXPECT_EQ(later.size(), 2u) << "the idle executor took no work";
}

TEST(Placement, PinnedCoroutinesStayOnTheirExecutor) {
  Sched s = make_sched(2);
  std::vector<Worker> workers(4);
  long waker = run_workers(s.get(), workers, true);
  for (const Worker &w : workers) {
    long home = w.home.load();
    EXPECT_NE(home, waker);
    EXPECT_EQ(w.woken_on, home);
    EXPECT_EQ(w.ran_on, std::set<long>{home});
  }
}

double process_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// No busy-waiting when nothing can run: after work, with a coroutine parked,
// the executors sleep. A spinning executor would burn about the whole 300
// ms (each); the bound leaves room for a loaded machine's scheduling, not
// for a spin.
TEST(Placement, AnIdleSchedulerUsesNoCpu) {
  Sched s = make_sched(2);
  std::vector<memcoro_co *> busy;
  for (int i = 0; i < 8; ++i)
    busy.push_back(memcoro_co_spawn(
        s.get(), [](void *) -> void * {
          for (int k = 0; k < 1000; ++k)
            memcoro_co_yield();
          return nullptr;
        },
        nullptr, nullptr));
  for (memcoro_co *co : busy)
    memcoro_co_join(co);
  Worker parked;
  memcoro_co *co = memcoro_co_spawn(
      s.get(), [](void *arg) -> void * {
        auto *w = static_cast<Worker *>(arg);
        memcoro_waiter_init(&w->w);
        w->home.store(thread_id(), std::memory_order_release);
        memcoro_waiter_wait(&w->w);
        return nullptr;
      },
      &parked, nullptr);
  while (!parked.home.load(std::memory_order_acquire))
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  double before = process_cpu_seconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  double used = process_cpu_seconds() - before;
  EXPECT_LT(used, 0.03) << "executors kept running with nothing to do";
  memcoro_waiter_signal(&parked.w);
  memcoro_co_join(co);
}

TEST(WaiterDeathTest, SignallingTwiceIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  memcoro_waiter w;
  memcoro_waiter_init(&w);
  memcoro_waiter_signal(&w);
  EXPECT_DEATH(memcoro_waiter_signal(&w), "signalled twice");
}

// Recursion that the optimiser cannot turn into a loop.
int __attribute__((noinline)) recurse(volatile char *parent, int depth) {
  volatile char frame[256];
  frame[0] = parent ? parent[0] + 1 : 0;
  if (depth == 0)
    return frame[0];
  return recurse(frame, depth - 1) + frame[0];
}

void overflow_a_named_coroutine() {
  Sched s = make_sched(1, 16 << 10);
  memcoro_co_attr attr{MEMCORO_ANY_EXECUTOR, "deep-recursion"};
  memcoro_co *co = memcoro_co_spawn(
      s.get(),
      [](void *) -> void * { return reinterpret_cast<void *>(static_cast<intptr_t>(recurse(nullptr, 1 << 20))); },
      nullptr, &attr);
  memcoro_co_join(co);
}

TEST(CoDeathTest, StackOverflowNamesTheCoroutine) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(overflow_a_named_coroutine(), "stack overflow in coroutine [0-9]+ \"deep-recursion\".*guard");
}

void detach_twice() {
  Sched s = make_sched(1);
  static std::atomic<bool> stop{false};
  memcoro_co *co = memcoro_co_spawn(
      s.get(),
      [](void *) -> void * {
        while (!stop.load())
          memcoro_co_yield();
        return nullptr;
      },
      nullptr, nullptr);
  memcoro_co_detach(co);
  memcoro_co_detach(co); // still running, so co is still valid here
}

TEST(CoDeathTest, DetachingTwiceIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(detach_twice(), "already joined or detached");
}

} // namespace
