// SPDX-License-Identifier: Apache-2.0
// The checking build's runtime (-fmemcoro-check; docs/compiler.md, "The
// checking build"): memcoro-split reports every access of an interleaved
// loop's iterations here (check.h), and this file reports two accesses of
// different iterations to the same bytes, at least one a store, that ran in
// an order the serial loop would not have.
//
// Shadow state, per thread (each OpenMP thread runs its own executions of a
// loop): a hash table of 8-byte granules, each byte with the serially latest
// (highest-iteration) read and write so far, plain and atomic apart. An
// access of iteration i conflicts when a conflicting access of an iteration
// j > i already ran: j comes after i in the serial loop, yet ran first.
// Keeping the highest iteration is enough to detect every such pair; a table
// entry belongs to one execution of a loop (its generation), so a new
// execution forgets the old one's accesses without clearing the table.
//
// Freed bytes are forgotten too (__memcoro_check_forget, called by the free
// and realloc of freed.c): malloc hands a block an iteration freed to the
// next iteration that allocates, and what the first did to it is no
// dependence of the second's.
#include "check.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { GRANULE = 8, MIN_CAPACITY = 1024, EXIT_STATUS = 66 };

// An access, by iteration + 1 (0: none yet).
struct last_access {
  uint64_t iteration1;
  const struct memcoro_check_site *site;
};

// [0] plain accesses, [1] atomic accesses and updates.
struct byte_shadow {
  struct last_access read[2];
  struct last_access write[2];
};

struct granule {
  uintptr_t key; // address / GRANULE
  uint64_t generation;
  struct byte_shadow bytes[GRANULE];
};

// Open addressing; an entry of an older generation is free. Entries of the
// current generation are never freed before the next, so a lookup may stop
// at the first free entry.
struct shadow_table {
  struct granule *entries;
  size_t capacity; // a power of two
  size_t used;     // entries of the current generation
  uint64_t generation;
};

static _Thread_local struct shadow_table shadow;

// A thread's table is freed when the thread ends. Emptied first: the frees
// the thread's other destructors make still look it up.
static pthread_key_t table_key;
static pthread_once_t table_key_once = PTHREAD_ONCE_INIT;
static void free_table(void *entries) {
  shadow.entries = NULL;
  shadow.capacity = 0;
  shadow.used = 0;
  free(entries);
}
static void make_table_key(void) {
  if (pthread_key_create(&table_key, free_table) != 0)
    abort();
}

static void *check_calloc(size_t count, size_t size) {
  void *p = calloc(count, size);
  if (!p) {
    fprintf(stderr, "memcoro-check: out of memory for the shadow table (%zu entries)\n", count);
    abort();
  }
  return p;
}

static size_t slot_of(uintptr_t key, size_t capacity) {
  return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (capacity - 1);
}

static void grow(void) {
  size_t capacity = shadow.capacity ? 2 * shadow.capacity : MIN_CAPACITY;
  struct granule *entries = check_calloc(capacity, sizeof *entries);
  for (size_t i = 0; i < shadow.capacity; ++i) {
    struct granule *g = &shadow.entries[i];
    if (g->generation != shadow.generation)
      continue;
    size_t j = slot_of(g->key, capacity);
    while (entries[j].generation == shadow.generation)
      j = (j + 1) & (capacity - 1);
    entries[j] = *g;
  }
  // The old table is freed once the new one is in place: its free looks the
  // table up.
  struct granule *old = shadow.entries;
  shadow.entries = entries;
  shadow.capacity = capacity;
  pthread_once(&table_key_once, make_table_key);
  pthread_setspecific(table_key, entries);
  free(old);
}

// The entry of `key`, or the free entry where it would go.
static struct granule *probe(uintptr_t key) {
  size_t mask = shadow.capacity - 1;
  for (size_t i = slot_of(key, shadow.capacity);; i = (i + 1) & mask) {
    struct granule *g = &shadow.entries[i];
    if (g->generation != shadow.generation || g->key == key)
      return g;
  }
}

static struct granule *granule_for(uintptr_t key) {
  if (2 * (shadow.used + 1) > shadow.capacity)
    grow();
  struct granule *g = probe(key);
  if (g->generation != shadow.generation) {
    memset(g, 0, sizeof *g);
    g->key = key;
    g->generation = shadow.generation;
    ++shadow.used;
  }
  return g;
}

void __memcoro_check_enter(void) {
  // Generation 0 is what calloc gives: never current, so every entry is free.
  ++shadow.generation;
  shadow.used = 0;
}

// ------------------------------------------------------------------ reports --
// Reports are process-wide: counted for the exit status, and printed once per
// pair of source locations whichever thread finds them.
struct reported_pair {
  const struct memcoro_check_site *first, *second;
};

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static struct reported_pair *reported;
static size_t reported_count, reported_capacity;

static int same_location(const struct memcoro_check_site *a, const struct memcoro_check_site *b) {
  // Copies of one loop (versioning, unswitching, inlining) have sites of
  // their own at the same source location.
  return a == b || (a->line == b->line && a->column == b->column && a->flags == b->flags &&
                    strcmp(a->file, b->file) == 0);
}

static const char *access_name(const struct memcoro_check_site *s) {
  int rw = s->flags & (MEMCORO_CHECK_READ | MEMCORO_CHECK_WRITE);
  if (s->flags & MEMCORO_CHECK_ATOMIC)
    return rw == MEMCORO_CHECK_READ ? "atomic load" : rw == MEMCORO_CHECK_WRITE ? "atomic store" : "atomic update";
  if (s->flags & MEMCORO_CHECK_UPDATE)
    return rw == MEMCORO_CHECK_READ ? "load of an update" : "store of an update";
  return rw == MEMCORO_CHECK_READ ? "load" : "store";
}

// `first` is the access of the iteration that comes first in the serial loop,
// `second` the one of the later iteration, which ran before it.
static void report(const char *dependence, const struct memcoro_check_site *first, uint64_t first_iteration,
                   const struct memcoro_check_site *second, uint64_t second_iteration, const void *addr) {
  pthread_mutex_lock(&report_lock);
  for (size_t i = 0; i < reported_count; ++i)
    if (same_location(reported[i].first, first) && same_location(reported[i].second, second)) {
      pthread_mutex_unlock(&report_lock);
      return;
    }
  if (reported_count == reported_capacity) {
    size_t capacity = reported_capacity ? 2 * reported_capacity : 16;
    struct reported_pair *grown = realloc(reported, capacity * sizeof *grown);
    if (!grown)
      abort();
    reported = grown;
    reported_capacity = capacity;
  }
  reported[reported_count++] = (struct reported_pair){first, second};
  const struct memcoro_check_loop *loop = first->loop;
  fprintf(stderr,
          "memcoro-check: loop at %s:%" PRIu32 " (parallel(%" PRIu32 "), %s dispatch): %s dependence between "
          "iterations ran out of serial order\n"
          "  %s:%" PRIu32 ":%" PRIu32 ": %s in iteration %" PRIu64 "\n"
          "  %s:%" PRIu32 ":%" PRIu32 ": %s in iteration %" PRIu64 " ran before it (same bytes at %p)\n",
          loop->file, loop->line, loop->parallel, loop->dispatch, dependence, first->file, first->line,
          first->column, access_name(first), first_iteration, second->file, second->line, second->column,
          access_name(second), second_iteration, addr);
  pthread_mutex_unlock(&report_lock);
  const char *abort_now = getenv("MEMCORO_CHECK_ABORT");
  if (abort_now && strcmp(abort_now, "0") != 0 && *abort_now) {
    fprintf(stderr, "memcoro-check: MEMCORO_CHECK_ABORT is set: aborting at the first report\n");
    abort();
  }
}

// Runs after main has returned and the atexit handlers have run (a
// destructor of the executable is called last): the program's own status is
// replaced when anything was reported, as ThreadSanitizer does.
__attribute__((destructor)) static void exit_status(void) {
  pthread_mutex_lock(&report_lock);
  size_t count = reported_count;
  pthread_mutex_unlock(&report_lock);
  if (!count)
    return;
  fprintf(stderr,
          "memcoro-check: %zu pair%s of accesses ran out of serial order: the marked loops' iterations depend "
          "on each other through memory; exiting with status %d\n",
          count, count == 1 ? "" : "s", EXIT_STATUS);
  fflush(NULL);
  _exit(EXIT_STATUS);
}

// ------------------------------------------------------------------ accesses --
void __memcoro_check_access(const struct memcoro_check_site *site, uint64_t iteration, const void *addr,
                            uint64_t size) {
  const uint64_t me = iteration + 1;
  const int atomic = (site->flags & (MEMCORO_CHECK_ATOMIC | MEMCORO_CHECK_UPDATE)) != 0;
  const int reads = (site->flags & MEMCORO_CHECK_READ) != 0, writes = (site->flags & MEMCORO_CHECK_WRITE) != 0;
  uintptr_t at = (uintptr_t)addr, end = at + size;
  while (at < end) {
    struct granule *g = granule_for(at / GRANULE);
    uintptr_t granule_end = (at / GRANULE + 1) * GRANULE;
    for (; at < end && at < granule_end; ++at) {
      struct byte_shadow *b = &g->bytes[at % GRANULE];
      // Two atomic accesses or updates may depend on each other; one of them
      // and a plain access may not.
      for (int kind = 0; kind < (atomic ? 1 : 2); ++kind) {
        const struct last_access *w = &b->write[kind], *r = &b->read[kind];
        if (reads && w->iteration1 > me)
          report("write-after-read", site, iteration, w->site, w->iteration1 - 1, (const void *)at);
        if (writes && r->iteration1 > me)
          report("read-after-write", site, iteration, r->site, r->iteration1 - 1, (const void *)at);
        if (writes && w->iteration1 > me)
          report("write-after-write", site, iteration, w->site, w->iteration1 - 1, (const void *)at);
      }
      if (reads && me >= b->read[atomic].iteration1)
        b->read[atomic] = (struct last_access){me, site};
      if (writes && me >= b->write[atomic].iteration1)
        b->write[atomic] = (struct last_access){me, site};
    }
  }
}

// ---------------------------------------------------------------- frees --
// The granule's bytes in [at, end) have no accesses again. Its entry stays:
// lookups stop at the first free entry, so an entry of the current
// generation is never emptied.
static void forget_bytes(struct granule *g, uintptr_t at, uintptr_t end) {
  uintptr_t base = g->key * GRANULE;
  uintptr_t from = at > base ? at : base, to = end < base + GRANULE ? end : base + GRANULE;
  memset(&g->bytes[from - base], 0, (to - from) * sizeof g->bytes[0]);
}

void __memcoro_check_forget(const void *addr, uint64_t size) {
  // Every free of the program comes here, inside marked loops or not; a
  // thread that has recorded nothing since its execution began has nothing
  // to look up.
  if (!shadow.used || !size)
    return;
  uintptr_t at = (uintptr_t)addr, end = at + size;
  uintptr_t first = at / GRANULE, last = (end - 1) / GRANULE;
  if (last - first >= shadow.capacity) {
    // A block of more granules than the table has entries: visiting the
    // entries costs less than looking each granule up.
    for (size_t i = 0; i < shadow.capacity; ++i) {
      struct granule *g = &shadow.entries[i];
      if (g->generation == shadow.generation && g->key >= first && g->key <= last)
        forget_bytes(g, at, end);
    }
    return;
  }
  for (uintptr_t key = first; key <= last; ++key) {
    struct granule *g = probe(key);
    if (g->generation == shadow.generation)
      forget_bytes(g, at, end);
  }
}
