/* SPDX-License-Identifier: Apache-2.0 */
/*
 * amu_cc.h: what code compiled with -fmemcoro-amu calls (docs/amu.md,
 * "Compiling for the AMU"). Not for hand-written code: use amu.h.
 *
 * memcoro-cc -fmemcoro-amu includes this header in every translation unit.
 * The request path (aload, aset, getfin, bafin) is defined here, static and
 * kept by `used`, so that memcoro-split finds the definitions in the module
 * and inlines them into the loop it generates, as the hand-written kernels
 * inline amu.h. Compiled without this header (opt on a .ll file), the calls
 * go to the out-of-line copies in libmemcoro_rt (runtime/amu/amu_cc.c).
 *
 * A request the generated code issues fails only when the program's AMU
 * cannot hold what the loop asks for (parallel(N) times the requests of one
 * suspension over the request table): the program stops with the reason.
 */
#ifndef MEMCORO_AMU_CC_H
#define MEMCORO_AMU_CC_H

#include "memcoro/amu.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MEMCORO_AMU_CC_LINKAGE
#define MEMCORO_AMU_CC_LINKAGE __attribute__((used)) static inline
#endif

/* The calling thread's AMU for a transformed loop; stops with a message
 * naming memcoro_amu_set_current when the thread has none. */
struct memcoro_amu *memcoro_amu__cc_current(void);
/* Stops the program: a request of a compiled loop was refused. */
__attribute__((noreturn, cold)) void memcoro_amu__cc_fail(int status);
/* The synchronous far accesses of code outside transformed loops (and of
 * -fno-memcoro -fmemcoro-amu): the thread's AMU, full modelled latency. */
void memcoro_amu__cc_far_load(void *dst, const void *far_src, size_t bytes);
void memcoro_amu__cc_far_store(void *far_dst, const void *src, size_t bytes);

MEMCORO_AMU_CC_LINKAGE void memcoro_amu__cc_aload(struct memcoro_amu *amu, uint32_t id, void *dst,
                                                  const void *src, uint64_t bytes, void *resume) {
  int status = memcoro_amu__issue(amu, id, dst, src, bytes, MEMCORO_AMU__LOAD, resume);
  if (__builtin_expect(status != MEMCORO_AMU_OK, 0))
    memcoro_amu__cc_fail(status);
}

MEMCORO_AMU_CC_LINKAGE void memcoro_amu__cc_aset(struct memcoro_amu *amu, uint32_t id, uint32_t n) {
  int status = memcoro_amu_aset(amu, id, n);
  if (__builtin_expect(status != MEMCORO_AMU_OK, 0))
    memcoro_amu__cc_fail(status);
}

MEMCORO_AMU_CC_LINKAGE void memcoro_amu__cc_wait(struct memcoro_amu *amu, uint32_t id) {
  int status = memcoro_amu_wait(amu, id);
  if (__builtin_expect(status != MEMCORO_AMU_OK, 0))
    memcoro_amu__cc_fail(status);
}

/* A completed id, or MEMCORO_AMU_NONE. */
MEMCORO_AMU_CC_LINKAGE int32_t memcoro_amu__cc_getfin(struct memcoro_amu *amu) {
  return memcoro_amu__getfin(amu);
}

/* A completed id in the low 32 bits and the resume target its request
 * registered (a phase number) in the high 32; or -1 when none is done. */
MEMCORO_AMU_CC_LINKAGE int64_t memcoro_amu__cc_bafin(struct memcoro_amu *amu) {
  int32_t id = memcoro_amu__getfin(amu);
  if (id < 0)
    return -1;
  return (int64_t)((uint64_t)(uintptr_t)amu->idv[id].resume << 32 | (uint32_t)id);
}

#ifdef __cplusplus
}
#endif

#endif /* MEMCORO_AMU_CC_H */
