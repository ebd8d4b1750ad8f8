/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memcoro.h: what a program that uses memcoro includes.
 *
 *   #pragma memcoro parallel(N) remote(p, q)   mark a loop (needs memcoro-cc)
 *   MEMCORO_LOOP(N)                            the same from a macro; expands to
 *                                              nothing under other compilers
 *   __remote                                   qualifier for far/long-latency memory
 *   memcoro_remote_alloc / memcoro_remote_free large aligned allocations
 */
#ifndef MEMCORO_MEMCORO_H
#define MEMCORO_MEMCORO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* memcoro-cc defines __MEMCORO__ (also under -fno-memcoro, where the pragma is
 * accepted and ignored), so the macro form costs nothing elsewhere. */
#define MEMCORO_PRAGMA_(text) _Pragma(#text)
#if defined(__MEMCORO__)
#define MEMCORO_LOOP(N) MEMCORO_PRAGMA_(memcoro parallel(N))
#else
#define MEMCORO_LOOP(N)
#endif

/* CoroAMU types far memory with an address space; accesses through such a
 * pointer are suspension points. Other compilers see a plain pointer. */
#if defined(__clang__)
#define __remote __attribute__((address_space(1)))
#else
#define __remote
#endif

/* Allocates `bytes` aligned to 2 MiB with transparent huge pages requested, so
 * that random accesses over a large table miss in the data caches, not in the
 * TLB. Returns NULL when the memory cannot be had. The memory is zeroed. */
void *memcoro_remote_alloc(size_t bytes);

/* Frees what memcoro_remote_alloc returned; NULL is allowed. */
void memcoro_remote_free(void *p);

#ifdef __cplusplus
}
#endif

#endif /* MEMCORO_MEMCORO_H */
