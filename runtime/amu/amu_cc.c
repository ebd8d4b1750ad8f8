/* SPDX-License-Identifier: Apache-2.0 */
/* The thread's AMU and the runtime side of code compiled with -fmemcoro-amu
 * (include/memcoro/amu_cc.h): out-of-line copies of the request path for
 * modules compiled without the header, the synchronous far accesses, and
 * the messages a compiled program stops with. */
#define MEMCORO_AMU_CC_LINKAGE
#include "memcoro/amu_cc.h"

#include <stdio.h>
#include <stdlib.h>

static _Thread_local struct memcoro_amu *current;

void memcoro_amu_set_current(struct memcoro_amu *amu) { current = amu; }
struct memcoro_amu *memcoro_amu_current(void) { return current; }

static __attribute__((noreturn, cold)) void no_amu(void) {
  fprintf(stderr, "memcoro: this thread has no AMU: code compiled with -fmemcoro-amu accesses "
                  "__remote memory through the thread's AMU; call memcoro_amu_set_current() "
                  "with one from memcoro_amu_create() first\n");
  exit(70);
}

struct memcoro_amu *memcoro_amu__cc_current(void) {
  if (__builtin_expect(!current, 0))
    no_amu();
  return current;
}

void memcoro_amu__cc_fail(int status) {
  fprintf(stderr, "memcoro: a far-memory request of a loop compiled with -fmemcoro-amu was refused: %s%s\n",
          memcoro_amu_strerror(status),
          status == MEMCORO_AMU_TABLE_FULL
              ? " (parallel(N) times the requests of one suspension exceeds the AMU's request "
                "table; lower N or create the AMU with more table_entries)"
              : "");
  exit(70);
}

void memcoro_amu__cc_far_load(void *dst, const void *far_src, size_t bytes) {
  if (__builtin_expect(!current, 0))
    no_amu();
  memcoro_far_load(current, dst, far_src, bytes);
}

void memcoro_amu__cc_far_store(void *far_dst, const void *src, size_t bytes) {
  if (__builtin_expect(!current, 0))
    no_amu();
  memcoro_far_store(current, far_dst, src, bytes);
}
