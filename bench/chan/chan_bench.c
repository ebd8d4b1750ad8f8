/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Sunway channel paper's Table 1 on x86-64: mean time per message sent
 * and received, by mode and number of senders/receivers, for memcoro
 * channels (coroutines on executors) and for a mutex + condition-variable
 * queue (plain threads). go/main.go measures Go channels the same way; run.sh
 * runs all of them side by side and report.py makes the table and the plot.
 *
 *   chan_bench [--impl memcoro|mutex] [--messages M] [--executors E]
 *              (E: 0 = one per CPU; rows are labelled memcoro-<E>exec)
 *   chan_bench --switch [--messages M]      context-switch cost
 *
 * Coroutines are placed round robin (the default), so with E > 1 they start
 * spread over the executors and the runtime decides where they run.
 *
 * Phases per point, as in the paper and the issues:
 *   unbounded  capacity M: the senders send all M messages (timed), then the
 *              receivers take them all (timed); nothing ever blocks.
 *   blocking   capacity 16, then 64: senders and receivers run at once, so
 *              they park and wake each other; one time for the whole transfer.
 * Time per message = wall time of the phase / M. Messages are pseudo-random
 * integers; the receivers' sum must equal the senders' ("verify=PASS").
 * Output: CSV on stdout, one row per phase:
 *   impl,mode,senders,receivers,capacity,phase,op,ns_per_message,verify
 * and for --switch: switch,yield|context_switch,ns.
 */
#define _GNU_SOURCE
#include "memcoro/chan.h"
#include "memcoro/co.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const size_t blocking_capacities[] = {16, 64};

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static uint64_t xorshift(uint64_t *state) {
  uint64_t x = *state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *state = x;
}

/* ---- the mutex + condition-variable queue -------------------------------- */

struct mutex_queue {
  pthread_mutex_t lock;
  pthread_cond_t not_full, not_empty;
  uint64_t *ring;
  size_t capacity, head, count;
};

static void mq_init(struct mutex_queue *q, size_t capacity) {
  pthread_mutex_init(&q->lock, NULL);
  pthread_cond_init(&q->not_full, NULL);
  pthread_cond_init(&q->not_empty, NULL);
  q->ring = malloc(capacity * sizeof *q->ring);
  q->capacity = capacity;
  q->head = q->count = 0;
}

static void mq_destroy(struct mutex_queue *q) {
  free(q->ring);
  pthread_cond_destroy(&q->not_full);
  pthread_cond_destroy(&q->not_empty);
  pthread_mutex_destroy(&q->lock);
}

static void mq_send(struct mutex_queue *q, uint64_t v) {
  pthread_mutex_lock(&q->lock);
  while (q->count == q->capacity)
    pthread_cond_wait(&q->not_full, &q->lock);
  q->ring[(q->head + q->count++) % q->capacity] = v;
  pthread_cond_signal(&q->not_empty);
  pthread_mutex_unlock(&q->lock);
}

static uint64_t mq_recv(struct mutex_queue *q) {
  pthread_mutex_lock(&q->lock);
  while (q->count == 0)
    pthread_cond_wait(&q->not_empty, &q->lock);
  uint64_t v = q->ring[q->head];
  q->head = (q->head + 1) % q->capacity;
  q->count--;
  pthread_cond_signal(&q->not_full);
  pthread_mutex_unlock(&q->lock);
  return v;
}

/* ---- parties ------------------------------------------------------------------ */

struct party {
  memcoro_chan *ch;
  struct mutex_queue *mq;
  uint64_t count; /* messages this party sends or receives */
  uint64_t seed;
  uint64_t sum;
  bool failed;
};

static void *memcoro_sender(void *arg) {
  struct party *p = arg;
  uint64_t seed = p->seed, sum = 0;
  for (uint64_t i = 0; i < p->count; ++i) {
    uint64_t v = xorshift(&seed);
    sum += v;
    if (memcoro_chan_send(p->ch, &v, sizeof v) != MEMCORO_CHAN_OK)
      p->failed = true;
  }
  p->sum = sum;
  return NULL;
}

static void *memcoro_receiver(void *arg) {
  struct party *p = arg;
  uint64_t sum = 0, v;
  for (uint64_t i = 0; i < p->count; ++i) {
    if (memcoro_chan_recv(p->ch, &v, sizeof v) != MEMCORO_CHAN_OK)
      p->failed = true;
    sum += v;
  }
  p->sum = sum;
  return NULL;
}

static void *mutex_sender(void *arg) {
  struct party *p = arg;
  uint64_t seed = p->seed, sum = 0;
  for (uint64_t i = 0; i < p->count; ++i) {
    uint64_t v = xorshift(&seed);
    sum += v;
    mq_send(p->mq, v);
  }
  p->sum = sum;
  return NULL;
}

static void *mutex_receiver(void *arg) {
  struct party *p = arg;
  uint64_t sum = 0;
  for (uint64_t i = 0; i < p->count; ++i)
    sum += mq_recv(p->mq);
  p->sum = sum;
  return NULL;
}

/* Runs the parties to completion as coroutines (memcoro) or threads (mutex). */
static void run_parties(memcoro_sched *sched, struct party *parties, int n,
                        void *(*fn_first)(void *), int n_first, void *(*fn_rest)(void *)) {
  if (sched) {
    memcoro_co *cos[128];
    for (int i = 0; i < n; ++i)
      cos[i] = memcoro_co_spawn(sched, i < n_first ? fn_first : fn_rest, &parties[i], NULL);
    for (int i = 0; i < n; ++i)
      memcoro_co_join(cos[i]);
  } else {
    pthread_t threads[128];
    for (int i = 0; i < n; ++i)
      pthread_create(&threads[i], NULL, i < n_first ? fn_first : fn_rest, &parties[i]);
    for (int i = 0; i < n; ++i)
      pthread_join(threads[i], NULL);
  }
}

struct point {
  const char *mode_name;
  memcoro_chan_mode mode;
  int senders, receivers;
};

static void split(struct party *parties, int n, uint64_t messages) {
  for (int i = 0; i < n; ++i) {
    parties[i].count = messages / n + ((uint64_t)i < messages % n);
    parties[i].seed = 0x9E3779B97F4A7C15ull * (i + 1);
    parties[i].sum = 0;
    parties[i].failed = false;
  }
}

static bool verify(struct party *senders, int s, struct party *receivers, int r) {
  uint64_t sent = 0, got = 0;
  bool failed = false;
  for (int i = 0; i < s; ++i)
    sent += senders[i].sum, failed |= senders[i].failed;
  for (int i = 0; i < r; ++i)
    got += receivers[i].sum, failed |= receivers[i].failed;
  return sent == got && !failed;
}

static bool measure(const char *impl, memcoro_sched *sched, const struct point *pt,
                    uint64_t messages) {
  struct party senders[64], receivers[64], both[128];
  bool use_memcoro = sched != NULL;
  struct mutex_queue mq;
  memcoro_chan *ch = NULL;
  bool all_ok = true;

  /* unbounded: all sends, then all receives */
  if (use_memcoro)
    ch = memcoro_chan_create(sizeof(uint64_t), messages, pt->mode);
  else
    mq_init(&mq, messages);
  split(senders, pt->senders, messages);
  split(receivers, pt->receivers, messages);
  for (int i = 0; i < pt->senders; ++i)
    senders[i].ch = ch, senders[i].mq = &mq;
  for (int i = 0; i < pt->receivers; ++i)
    receivers[i].ch = ch, receivers[i].mq = &mq;
  double t0 = now_ns();
  run_parties(sched, senders, pt->senders, use_memcoro ? memcoro_sender : mutex_sender,
              pt->senders, NULL);
  double t1 = now_ns();
  run_parties(sched, receivers, pt->receivers, use_memcoro ? memcoro_receiver : mutex_receiver,
              pt->receivers, NULL);
  double t2 = now_ns();
  bool ok = verify(senders, pt->senders, receivers, pt->receivers);
  all_ok &= ok;
  printf("%s,%s,%d,%d,%llu,unbounded,send,%.2f,%s\n", impl, pt->mode_name, pt->senders,
         pt->receivers, (unsigned long long)messages, (t1 - t0) / messages, ok ? "PASS" : "FAIL");
  printf("%s,%s,%d,%d,%llu,unbounded,recv,%.2f,%s\n", impl, pt->mode_name, pt->senders,
         pt->receivers, (unsigned long long)messages, (t2 - t1) / messages, ok ? "PASS" : "FAIL");
  if (use_memcoro)
    memcoro_chan_destroy(ch);
  else
    mq_destroy(&mq);

  /* blocking: everyone at once through a small ring */
  for (size_t c = 0; c < sizeof blocking_capacities / sizeof blocking_capacities[0]; ++c) {
    size_t capacity = blocking_capacities[c];
    if (use_memcoro)
      ch = memcoro_chan_create(sizeof(uint64_t), capacity, pt->mode);
    else
      mq_init(&mq, capacity);
    /* Receivers first, so that they start out parked on the empty channel. */
    split(both, pt->receivers, messages);
    split(both + pt->receivers, pt->senders, messages);
    for (int i = 0; i < pt->receivers + pt->senders; ++i)
      both[i].ch = ch, both[i].mq = &mq;
    t0 = now_ns();
    run_parties(sched, both, pt->receivers + pt->senders,
                use_memcoro ? memcoro_receiver : mutex_receiver, pt->receivers,
                use_memcoro ? memcoro_sender : mutex_sender);
    t1 = now_ns();
    ok = verify(both + pt->receivers, pt->senders, both, pt->receivers);
    all_ok &= ok;
    printf("%s,%s,%d,%d,%zu,blocking,transfer,%.2f,%s\n", impl, pt->mode_name, pt->senders,
           pt->receivers, capacity, (t1 - t0) / messages, ok ? "PASS" : "FAIL");
    if (use_memcoro)
      memcoro_chan_destroy(ch);
    else
      mq_destroy(&mq);
  }
  fflush(stdout);
  return all_ok;
}

/* ---- context switch ---------------------------------------------------------- */

static double thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

struct yield_arg {
  uint64_t yields;
  double cpu_ns; /* the executor thread's CPU time when the loop starts (ends) */
};

static void *yield_loop_first(void *arg) {
  struct yield_arg *a = arg;
  a->cpu_ns = thread_cpu_ns();
  for (uint64_t i = 0; i < a->yields; ++i)
    memcoro_co_yield();
  return NULL;
}

static void *yield_loop_last(void *arg) {
  struct yield_arg *a = arg;
  for (uint64_t i = 0; i < a->yields; ++i)
    memcoro_co_yield();
  a->cpu_ns = thread_cpu_ns();
  return NULL;
}

/* Two coroutines on one executor yield to each other: every yield is two
 * context switches (coroutine to executor loop, loop to the other one).
 * Timed in the executor thread's CPU time, so that time the machine's other
 * tenants take from us does not count as switching. */
static void measure_switch(uint64_t yields) {
  memcoro_sched_options o = {.executors = 1};
  memcoro_sched *s = memcoro_sched_create(&o);
  struct yield_arg first = {yields / 2, 0}, last = {yields / 2, 0};
  memcoro_co_attr on0 = {0, NULL};
  memcoro_co *a = memcoro_co_spawn(s, yield_loop_first, &first, &on0);
  memcoro_co *b = memcoro_co_spawn(s, yield_loop_last, &last, &on0);
  memcoro_co_join(a);
  memcoro_co_join(b);
  memcoro_sched_destroy(s);
  double ns = last.cpu_ns - first.cpu_ns, n = (double)(first.yields + last.yields);
  printf("switch,yield,%.2f\n", ns / n);
  printf("switch,context_switch,%.2f\n", ns / (2 * n));
}

static const struct point points[] = {
    {"SPSC", MEMCORO_CHAN_SPSC, 1, 1},   {"SPMC", MEMCORO_CHAN_SPMC, 1, 1},
    {"SPMC", MEMCORO_CHAN_SPMC, 1, 10},  {"SPMC", MEMCORO_CHAN_SPMC, 1, 32},
    {"MPSC", MEMCORO_CHAN_MPSC, 1, 1},   {"MPSC", MEMCORO_CHAN_MPSC, 10, 1},
    {"MPSC", MEMCORO_CHAN_MPSC, 32, 1},  {"MPMC", MEMCORO_CHAN_MPMC, 1, 1},
    {"MPMC", MEMCORO_CHAN_MPMC, 10, 10}, {"MPMC", MEMCORO_CHAN_MPMC, 32, 32},
};

static void usage(void) {
  fprintf(stderr, "usage: chan_bench [--impl memcoro|mutex] [--messages M] [--executors E]\n"
                  "       chan_bench --switch [--messages M]\n");
  exit(2);
}

int main(int argc, char **argv) {
  const char *impl = "memcoro";
  uint64_t messages = 1000000;
  unsigned executors = 0;
  bool switch_only = false;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--impl") && i + 1 < argc)
      impl = argv[++i];
    else if (!strcmp(argv[i], "--messages") && i + 1 < argc)
      messages = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--executors") && i + 1 < argc)
      executors = (unsigned)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--switch"))
      switch_only = true;
    else
      usage();
  }
  if (messages < 64) {
    fprintf(stderr, "chan_bench: --messages must be at least 64\n");
    return 2;
  }
  if (switch_only) {
    measure_switch(messages);
    return 0;
  }
  bool use_memcoro = !strcmp(impl, "memcoro");
  if (!use_memcoro && strcmp(impl, "mutex"))
    usage();
  memcoro_sched *sched = NULL;
  if (use_memcoro) {
    memcoro_sched_options o = {.executors = executors};
    sched = memcoro_sched_create(&o);
    if (!sched)
      return 1;
  }
  /* memcoro rows say how many executors carried the coroutines. */
  char label[32];
  if (use_memcoro)
    snprintf(label, sizeof label, "memcoro-%uexec", memcoro_sched_executors(sched));
  else
    snprintf(label, sizeof label, "%s", impl);
  bool ok = true;
  for (size_t i = 0; i < sizeof points / sizeof points[0]; ++i) {
    fprintf(stderr, "chan_bench %s: %s %d->%d\n", label, points[i].mode_name, points[i].senders,
            points[i].receivers);
    ok &= measure(label, sched, &points[i], messages);
  }
  memcoro_sched_destroy(sched);
  if (!ok)
    fprintf(stderr, "chan_bench: verification FAILED\n");
  return ok ? 0 : 1;
}
