// SPDX-License-Identifier: Apache-2.0
// The harness every kernel in bench/kernels/ shares: options, timer, fixed
// seed, trials, verification, huge-page allocation, the C++20 coroutine
// scheduler used by the `coro` baselines, and the registry through which the
// memcoro-compiled copies of a kernel's serial function make themselves known.
//
// Each kernel file is compiled several times (see bench/memcoro-bench):
//   -fno-memcoro                        serial + hand-written baselines + main
//   -DMEMCORO_ONLY -DMEMCORO_N=<n>      only the serial function, compiled by
//                                       memcoro, registered as ("memcoro", n);
//                                       n = 0: the pragma without parallel(),
//                                       memcoro's own choice of N
// and the objects are linked into one binary, so that every variant is timed
// side by side in one process on the same data.
#ifndef MEMCORO_BENCH_HARNESS_H
#define MEMCORO_BENCH_HARNESS_H

#include <memcoro/memcoro.h>

#include <algorithm>
#include <chrono>
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <time.h>

#ifndef MEMCORO_N
#define MEMCORO_N 16
#endif

// The clause every kernel's pragma starts with: `#pragma memcoro
// MEMCORO_PARALLEL remote(...)`. Empty for the default-N copy, so that copy is
// what a user who writes no parallel() gets.
#if MEMCORO_N == 0
#define MEMCORO_PARALLEL
#else
#define MEMCORO_PARALLEL parallel(MEMCORO_N)
#endif

namespace bench {

// ---------------------------------------------------------------- registry --
// A kernel's serial function has one signature `Fn`; every object file that
// defines it registers a pointer here from a static initialiser. The function
// itself is `static` in each object, so the copies never clash at link time.
template <class Fn> struct Registered {
  const char *variant; // "serial" or "memcoro"
  int n;               // MEMCORO_N of the memcoro copy (0: no parallel()); 0 for serial
  Fn fn;
};

template <class Fn> std::vector<Registered<Fn>> &registry() {
  static std::vector<Registered<Fn>> entries;
  return entries;
}

template <class Fn> struct Registrar {
  Registrar(const char *variant, int n, Fn fn) { registry<Fn>().push_back({variant, n, fn}); }
};

template <class Fn> Fn find_registered(const char *variant, int n) {
  for (const auto &e : registry<Fn>())
    if (std::string_view(e.variant) == variant && e.n == n)
      return e.fn;
  return nullptr;
}

#define BENCH_CAT2_(a, b) a##b
#define BENCH_CAT_(a, b) BENCH_CAT2_(a, b)
// Registers the serial function `fn` of type `Fn`: as "serial" in the
// -fno-memcoro object, as ("memcoro", MEMCORO_N) in a MEMCORO_ONLY object.
#ifdef MEMCORO_ONLY
#define BENCH_REGISTER_SERIAL(Fn, fn)                                                              \
  static ::bench::Registrar<Fn> BENCH_CAT_(bench_registrar_, __LINE__)("memcoro", MEMCORO_N, fn)
#else
#define BENCH_REGISTER_SERIAL(Fn, fn)                                                              \
  static ::bench::Registrar<Fn> BENCH_CAT_(bench_registrar_, __LINE__)("serial", 0, fn)
#endif

#ifndef MEMCORO_ONLY

// ----------------------------------------------------------------- options --
struct Options {
  size_t bytes = 0;          // total size of the remote data
  uint64_t ops = 0;          // operations per timed run; 0 = the kernel's default
  int trials = 3;            // timed runs of every variant
  std::vector<int> ns;       // interleaving widths for coro / amac / group / memcoro
  std::vector<int> ds;       // lookahead distances of the hand prefetch-distance loops (pfd)
  std::vector<std::string> variants; // empty = all
  uint64_t seed = 20260101;  // fixed: every run sees the same data

  bool wants(std::string_view variant) const {
    return variants.empty() ||
           std::find(variants.begin(), variants.end(), variant) != variants.end();
  }
};

[[noreturn]] inline void die(const char *fmt, const char *arg = "") {
  std::fprintf(stderr, "error: ");
  std::fprintf(stderr, fmt, arg);
  std::fprintf(stderr, "\n");
  std::exit(2);
}

// Parses "64", "64K", "1M", "1G" (binary units).
inline uint64_t parse_size(const char *text) {
  char *end = nullptr;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text)
    die("not a size: '%s' (expected e.g. 1M, 1G, 4096)", text);
  unsigned shift = 0;
  switch (*end) {
  case '\0': break;
  case 'K': case 'k': shift = 10; ++end; break;
  case 'M': case 'm': shift = 20; ++end; break;
  case 'G': case 'g': shift = 30; ++end; break;
  default: die("not a size: '%s' (expected e.g. 1M, 1G, 4096)", text);
  }
  if (*end != '\0' && !(end[0] == 'i' && end[1] == 'B' && end[2] == '\0') &&
      !(end[0] == 'B' && end[1] == '\0'))
    die("not a size: '%s' (expected e.g. 1M, 1G, 4096)", text);
  if (value > (~0ull >> shift))
    die("size too large: '%s'", text);
  return value << shift;
}

inline std::vector<std::string> split(const char *text) {
  std::vector<std::string> parts;
  std::string current;
  for (const char *p = text;; ++p) {
    if (*p == ',' || *p == '\0') {
      if (!current.empty())
        parts.push_back(current);
      current.clear();
      if (*p == '\0')
        break;
    } else {
      current += *p;
    }
  }
  return parts;
}

inline Options parse_options(int argc, char **argv, size_t default_bytes) {
  Options o;
  o.bytes = default_bytes;
  o.ns = {1, 2, 4, 8, 16, 32, 64};
  o.ds = {4, 8, 16, 32, 64, 128, 256};
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc)
        die("%s needs a value", argv[i]);
      return argv[++i];
    };
    if (a == "--bytes") {
      o.bytes = parse_size(value());
    } else if (a == "--ops") {
      o.ops = parse_size(value());
    } else if (a == "--trials") {
      const char *v = value();
      o.trials = std::atoi(v);
      if (o.trials < 1)
        die("--trials must be at least 1, got '%s'", v);
    } else if (a == "--n" || a == "--d") {
      std::vector<int> &widths = a == "--n" ? o.ns : o.ds;
      widths.clear();
      for (const auto &s : split(value())) {
        int n = std::atoi(s.c_str());
        // --n widths index 64-slot arrays; a distance only offsets an index.
        if (n < 1 || n > (a == "--n" ? 64 : 1024))
          die(a == "--n" ? "--n values must be in 1..64, got '%s'"
                         : "--d values must be in 1..1024, got '%s'",
              s.c_str());
        widths.push_back(n);
      }
    } else if (a == "--variants") {
      o.variants = split(value());
    } else if (a == "--seed") {
      o.seed = std::strtoull(value(), nullptr, 10);
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: %s [--bytes SIZE] [--ops COUNT] [--trials T] [--n 1,2,4,...]\n"
                  "          [--d 4,8,...] [--variants serial,coro,amac,pfd,group,memcoro,\n"
                  "          memcoro-default,...] [--seed S]\n"
                  "  --n   widths of coro, amac, group and memcoro (memcoro: the linked copies)\n"
                  "  --d   lookahead distances of the hand prefetch-distance loop (pfd)\n",
                  argv[0]);
      std::exit(0);
    } else {
      die("unknown option '%s' (try --help)", argv[i]);
    }
  }
  if (o.bytes < 4096)
    die("--bytes must be at least 4K");
  return o;
}

// ---------------------------------------------------------------- memory --
// Remote data comes from memcoro_remote_alloc (2 MiB aligned, huge pages
// requested), so random accesses miss in the caches, not in the TLB.
template <class T> T *alloc_remote(size_t count) {
  T *p = static_cast<T *>(memcoro_remote_alloc(count * sizeof(T) + 64));
  if (!p) {
    char what[64];
    std::snprintf(what, sizeof what, "%zu bytes", count * sizeof(T));
    die("out of memory allocating %s", what);
  }
  return p;
}

template <class T> struct RemoteArray {
  T *data = nullptr;
  size_t size = 0;
  RemoteArray() = default;
  explicit RemoteArray(size_t n) : data(alloc_remote<T>(n)), size(n) {}
  RemoteArray(const RemoteArray &) = delete;
  RemoteArray &operator=(const RemoteArray &) = delete;
  RemoteArray(RemoteArray &&o) noexcept : data(o.data), size(o.size) { o.data = nullptr; }
  RemoteArray &operator=(RemoteArray &&o) noexcept {
    std::swap(data, o.data);
    std::swap(size, o.size);
    return *this;
  }
  ~RemoteArray() { memcoro_remote_free(data); }
  T &operator[](size_t i) { return data[i]; }
  const T &operator[](size_t i) const { return data[i]; }
};

// ---------------------------------------------------------------- random --
// splitmix64: a fast, fixed, platform-independent stream, so data sets are
// identical on every machine.
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) without modulo bias worth caring about here.
  uint64_t below(uint64_t bound) { return (uint64_t)(((unsigned __int128)next() * bound) >> 64); }
  double uniform() { return (double)(next() >> 11) * 0x1.0p-53; }
};

// A bijective mixer: distinct inputs give distinct 64-bit outputs.
inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

// Order-sensitive digest of an array, for comparing a variant's output with
// the serial one.
template <class T> uint64_t digest(const T *data, size_t count) {
  uint64_t h = 0x243f6a8885a308d3ull;
  for (size_t i = 0; i < count; ++i)
    h = mix64(h ^ (uint64_t)data[i]) + i;
  return h;
}

template <class T> void shuffle(T *data, size_t count, Rng &rng) {
  for (size_t i = count; i > 1; --i)
    std::swap(data[i - 1], data[rng.below(i)]);
}

// The data of a one-access gather or scatter kernel: a u64 table of --bytes
// (left for the kernel to fill) and --ops (default 2 Mi) uniform random
// 32-bit indices into it, read in order by the loop.
struct IndexedTable {
  std::vector<uint32_t> index;
  RemoteArray<uint64_t> table;
};

inline IndexedTable indexed_table(const Options &o) {
  const size_t size = o.bytes / sizeof(uint64_t);
  if (size > (1ull << 32))
    die("--bytes too large: the indices are 32-bit");
  Rng rng(o.seed);
  std::vector<uint32_t> index(o.ops ? o.ops : 2u << 20);
  for (auto &x : index)
    x = (uint32_t)rng.below(size);
  return {std::move(index), RemoteArray<uint64_t>(size)};
}

// ------------------------------------------------------- C++20 coroutines --
// The `coro` baseline: the state-of-the-art hand-written form (prefetch, then
// suspend; a static round-robin scheduler over N coroutines). Each of the N
// coroutines loops over work items it claims from a shared cursor, so a frame
// is allocated once per slot and recycled for every item, never per item.
struct Task {
  struct promise_type {
    Task get_return_object() { return Task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::abort(); }
  };
  std::coroutine_handle<promise_type> handle;
};

// `co_await bench::prefetch(p)`: start the miss, let the other coroutines run.
struct prefetch {
  const void *address;
  bool await_ready() const noexcept {
    __builtin_prefetch(address, 0, 3);
    return false;
  }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept {}
};

// Same for a line about to be written.
struct prefetch_write {
  const void *address;
  bool await_ready() const noexcept {
    __builtin_prefetch(address, 1, 3);
    return false;
  }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept {}
};

// Runs `n` coroutines made by `make(slot)` round robin until all have finished.
template <class Make> void run_interleaved(int n, Make &&make) {
  std::coroutine_handle<Task::promise_type> slots[64];
  int live = 0;
  for (int s = 0; s < n; ++s)
    slots[live++] = make(s).handle;
  while (live > 0) {
    for (int s = 0; s < live;) {
      slots[s].resume();
      if (slots[s].done()) {
        slots[s].destroy();
        slots[s] = slots[--live];
      } else {
        ++s;
      }
    }
  }
}

// ------------------------------------------------------------------ driver --
struct Variant {
  std::string name; // serial, coro, amac, memcoro, or a kernel's extra baseline
  int n;            // interleaving width; 0 for serial
  std::function<void()> run;
};

struct Kernel {
  const char *name;
  uint64_t ops;                          // operations per call of a variant
  std::function<void()> reset;           // restore inputs before a run (may be empty)
  std::function<bool(std::string &)> verify; // check the last run's output
  int repeat = 1;                        // calls of the variant per timed run (small sizes)
};

// Every timed region goes through this one function, so that
// `valgrind --tool=callgrind --toggle-collect=*timed_run*` counts exactly the
// instructions of the variant and nothing of the set-up or the verifier.
[[gnu::noinline]] inline void timed_run(const Variant &v, int repeat) {
  for (int r = 0; r < repeat; ++r)
    v.run();
}

inline double now_ns() {
  return (double)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// CPU time of this thread: on a machine shared with other jobs it leaves out
// the time the kernel was preempted, which wall time cannot. Memory stalls are
// still counted: a stalled core is busy. ns/op is taken from this clock.
inline double thread_cpu_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

// Adds serial, coro(n), amac(n), every registered memcoro(n) the options ask
// for, and memcoro-default (the copy built without parallel()) when linked in.
// `coro` and `amac` take n; `amac` is nullptr where add_hand_variants adds it.
template <class Fn, class Serial, class Coro, class Amac>
std::vector<Variant> standard_variants(const Options &o, Serial serial, Coro coro, Amac amac) {
  std::vector<Variant> v;
  Fn serial_fn = find_registered<Fn>("serial", 0);
  if (!serial_fn)
    die("the serial function is not registered (BENCH_REGISTER_SERIAL missing?)");
  if (o.wants("serial"))
    v.push_back({"serial", 0, [=] { serial(serial_fn); }});
  if (o.wants("memcoro-default"))
    if (Fn fn = find_registered<Fn>("memcoro", 0))
      v.push_back({"memcoro-default", 0, [=] { serial(fn); }});
  for (int n : o.ns) {
    if (o.wants("coro"))
      v.push_back({"coro", n, [=] { coro(n); }});
    if constexpr (!std::is_same_v<Amac, std::nullptr_t>)
      if (o.wants("amac"))
        v.push_back({"amac", n, [=] { amac(n); }});
    if (o.wants("memcoro")) {
      if (Fn fn = find_registered<Fn>("memcoro", n))
        v.push_back({"memcoro", n, [=] { serial(fn); }});
      else
        std::fprintf(stderr, "note: no memcoro object for N=%d linked in; not run\n", n);
    }
  }
  return v;
}

// Adds the hand-written baseline `name` once per width (a group size from
// --n, a lookahead distance from --d) if the options ask for it.
template <class Run>
void add_swept(std::vector<Variant> &v, const Options &o, const char *name,
               const std::vector<int> &widths, Run run) {
  if (o.wants(name))
    for (int w : widths)
      v.push_back({name, w, [=] { run(w); }});
}

// ---------------------------------------- hand forms of a one-access loop --
// For a loop `for (i < len) body(i, address(i))` whose one long-latency access
// is *address(i) and whose iterations are independent (gather, update, is):
// the three forms a performance engineer writes by hand. `Write` says whether
// the line is about to be written (prefetchw).

// The first edit everyone makes: prefetch the address `d` iterations ahead,
// recomputing it there (the index load is sequential and cheap).
template <bool Write, class Addr, class Body>
inline void prefetch_distance(size_t len, int d, Addr address, Body body) {
  size_t i = 0;
  for (; i + (size_t)d < len; ++i) {
    __builtin_prefetch(address(i + d), Write, 3);
    body(i, address(i));
  }
  for (; i < len; ++i)
    body(i, address(i));
}

// Group prefetching: prefetch the next g addresses, then run their bodies.
template <bool Write, class Addr, class Body>
inline void group_prefetch(size_t len, int g, Addr address, Body body) {
  for (size_t base = 0; base < len; base += (size_t)g) {
    const size_t end = std::min(len, base + (size_t)g);
    for (size_t i = base; i < end; ++i)
      __builtin_prefetch(address(i), Write, 3);
    for (size_t i = base; i < end; ++i)
      body(i, address(i));
  }
}

// AMAC for one access: n iterations in flight, each holding the address it
// prefetched in a ring until its turn comes, so the address is computed once
// (pfd computes it twice). With one state per iteration the ring of slots is a
// software pipeline: slot i % 128 is filled n iterations before it is used.
template <bool Write, class Addr, class Body>
inline void amac_ring(size_t len, int n, Addr address, Body body) {
  decltype(address(0)) ring[128]; // > the largest n: a slot is used before it is refilled
  size_t i = 0;
  for (; i < len && i < (size_t)n; ++i) {
    ring[i % 128] = address(i);
    __builtin_prefetch(ring[i % 128], Write, 3);
  }
  for (i = 0; i + (size_t)n < len; ++i) {
    const auto p = address(i + n);
    ring[(i + n) % 128] = p;
    __builtin_prefetch(p, Write, 3);
    body(i, ring[i % 128]);
  }
  for (; i < len; ++i)
    body(i, ring[i % 128]);
}

enum class Hand { amac, pfd, group };

template <bool Write, class Addr, class Body>
inline void hand_loop(Hand form, size_t len, int width, Addr address, Body body) {
  switch (form) {
  case Hand::amac: return amac_ring<Write>(len, width, address, body);
  case Hand::pfd: return prefetch_distance<Write>(len, width, address, body);
  case Hand::group: return group_prefetch<Write>(len, width, address, body);
  }
}

// Adds amac (width from --n), pfd (--d) and group (--n) of a one-access loop;
// `hand(form, width)` runs one of them.
template <class Hand_>
void add_hand_variants(std::vector<Variant> &v, const Options &o, Hand_ hand) {
  add_swept(v, o, "amac", o.ns, [=](int w) { hand(Hand::amac, w); });
  add_swept(v, o, "pfd", o.ds, [=](int w) { hand(Hand::pfd, w); });
  add_swept(v, o, "group", o.ns, [=](int w) { hand(Hand::group, w); });
}

// Runs every variant `trials` times, round robin so that slow drift in the
// machine's load spreads over all variants alike. Every run is verified; a
// run that fails is reported as FAIL and its time is never printed.
// Output, one line per run, for bench/memcoro-bench to parse:
//   RESULT kernel=K variant=V n=N trial=T ops=O ns=CPU wall_ns=WALL ns_per_op=X verify=PASS
// and at the end "Verification: PASS" or "Verification: FAIL".
inline int run_all(const Options &o, const Kernel &k, std::vector<Variant> variants) {
  const unsigned long long ops = k.ops * (unsigned long long)k.repeat;
  std::printf("kernel %s: bytes=%zu ops=%llu trials=%d variants=%zu\n", k.name, o.bytes, ops,
              o.trials, variants.size());
  std::fflush(stdout);
  bool all_pass = true;
  std::vector<bool> failed(variants.size(), false);
  // One untimed run first: whatever runs first otherwise pays for the cold
  // caches, TLB and page tables left by the set-up.
  if (!variants.empty()) {
    if (k.reset)
      k.reset();
    variants[0].run();
  }
  for (int t = 0; t < o.trials; ++t) {
    for (size_t i = 0; i < variants.size(); ++i) {
      const Variant &v = variants[i];
      if (failed[i])
        continue;
      if (k.reset)
        k.reset();
      const double wall0 = now_ns(), t0 = thread_cpu_ns();
      timed_run(v, k.repeat);
      const double t1 = thread_cpu_ns(), wall1 = now_ns();
      std::string why;
      bool ok = k.verify(why);
      if (!ok) {
        failed[i] = true;
        all_pass = false;
        std::printf("RESULT kernel=%s variant=%s n=%d trial=%d verify=FAIL reason=\"%s\"\n", k.name,
                    v.name.c_str(), v.n, t, why.c_str());
      } else {
        std::printf("RESULT kernel=%s variant=%s n=%d trial=%d ops=%llu ns=%.0f wall_ns=%.0f "
                    "ns_per_op=%.4f verify=PASS\n",
                    k.name, v.name.c_str(), v.n, t, ops, t1 - t0, wall1 - wall0,
                    (t1 - t0) / (double)ops);
      }
      std::fflush(stdout);
    }
  }
  std::printf("Verification: %s\n", all_pass ? "PASS" : "FAIL");
  return all_pass ? 0 : 1;
}

#endif // MEMCORO_ONLY

} // namespace bench

#endif // MEMCORO_BENCH_HARNESS_H
