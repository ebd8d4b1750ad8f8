/* SPDX-License-Identifier: Apache-2.0 */
/* Large allocations for the data memcoro interleaves over: mmap'd, 2 MiB
 * aligned, with transparent huge pages requested. A header in the page before
 * the returned address records the mapping so that free needs no size. */
#define _GNU_SOURCE
#include "memcoro/memcoro.h"

#include <stdint.h>
#include <sys/mman.h>

enum { HUGE_PAGE = 2u << 20, HEADER = 4096 };

struct mapping {
  void *base;
  size_t length;
};

void *memcoro_remote_alloc(size_t bytes) {
  if (bytes == 0 || bytes > SIZE_MAX - 2 * HUGE_PAGE - HEADER)
    return NULL;
  /* Over-allocate so that the user's block starts on a huge-page boundary
   * with room for the header in the page just before it. */
  size_t length = bytes + HEADER + HUGE_PAGE;
  void *base = mmap(NULL, length, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED)
    return NULL;
  uintptr_t user = ((uintptr_t)base + HEADER + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
  /* Advice only: the kernel may refuse huge pages, and the memory still works. */
  (void)madvise((void *)user, bytes, MADV_HUGEPAGE);
  struct mapping *m = (struct mapping *)(user - sizeof(struct mapping));
  m->base = base;
  m->length = length;
  return (void *)user;
}

void memcoro_remote_free(void *p) {
  if (!p)
    return;
  const struct mapping *m = (const struct mapping *)((uintptr_t)p - sizeof(struct mapping));
  munmap(m->base, m->length);
}
