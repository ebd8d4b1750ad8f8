// SPDX-License-Identifier: Apache-2.0
// The checking build's free and realloc (-fmemcoro-check; docs/compiler.md,
// "The checking build"): each hands the block to the allocator's own and
// tells check.c which bytes stopped being the block's. malloc gives a block
// an iteration freed to the next iteration that allocates (a std::vector
// local to the body), and what the first did to those bytes is no
// dependence of the second's. Defined in the program, they also see the
// frees made inside libraries, inlined into the loop or not: operator delete,
// sized and aligned, calls free, and reallocarray calls realloc.
//
// They live in libmemcoro_check.a, which memcoro-cc links whole into checking
// builds only: in libmemcoro_rt.a, which every program links, any program
// that calls free would pull them in. They are weak: a program with an
// allocator of its own, or linked -static against libc.a's, keeps its free
// and realloc (those frees are then not seen, as before).
#define _GNU_SOURCE
#include "check.h"

#include <dlfcn.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>

typedef void free_fn(void *);
typedef void *realloc_fn(void *, size_t);

// The definitions after the program's in the lookup order: libc's, or those
// of an allocator the program links or preloads.
static free_fn *next_free;
static realloc_fn *next_realloc;
// dlsym may free on its way; such a block is left to leak rather than freed
// by a free not yet known.
static _Thread_local int resolving;

static void resolve(void) {
  resolving = 1;
  free_fn *f = (free_fn *)dlsym(RTLD_NEXT, "free");
  realloc_fn *r = (realloc_fn *)dlsym(RTLD_NEXT, "realloc");
  resolving = 0;
  if (!f || !r) {
    fprintf(stderr, "memcoro-check: no free or realloc after the checking build's: %s\n", dlerror());
    abort();
  }
  __atomic_store_n(&next_free, f, __ATOMIC_RELAXED);
  __atomic_store_n(&next_realloc, r, __ATOMIC_RELAXED);
}

__attribute__((weak)) void free(void *block) {
  if (!block)
    return;
  free_fn *f = __atomic_load_n(&next_free, __ATOMIC_RELAXED);
  if (!f) {
    if (resolving)
      return;
    resolve();
    f = next_free;
  }
  __memcoro_check_forget(block, malloc_usable_size(block));
  f(block);
}

__attribute__((weak)) void *realloc(void *old, size_t size) {
  realloc_fn *r = __atomic_load_n(&next_realloc, __ATOMIC_RELAXED);
  if (!r) {
    resolve();
    r = next_realloc;
  }
  size_t old_size = old ? malloc_usable_size(old) : 0;
  void *block = r(old, size);
  // No old block, or a failure that leaves it as it was.
  if (!old || (!block && size))
    return block;
  if (block != old) {
    __memcoro_check_forget(old, old_size);
    return block;
  }
  // Shrunk in place: the tail may be a free block of its own already.
  size_t kept = malloc_usable_size(block);
  if (kept < old_size)
    __memcoro_check_forget((char *)block + kept, old_size - kept);
  return block;
}

