/* SPDX-License-Identifier: Apache-2.0 */
/*
 * chan.h: bounded channels between coroutines and threads, on a ring buffer.
 *
 * The mode, fixed at creation, says how many parties may use each end at
 * the same time, and each mode pays only for the synchronisation it needs:
 *
 *   MEMCORO_CHAN_SPSC  one sender, one receiver    no atomic read-modify-write
 *   MEMCORO_CHAN_SPMC  one sender, many receivers  receivers claim slots by CAS
 *   MEMCORO_CHAN_MPSC  many senders, one receiver  senders claim slots by CAS
 *   MEMCORO_CHAN_MPMC  many of both                both ends claim by CAS
 *
 * "One sender" means no two sends run at the same time; it may be one thread
 * or one coroutine. Every mode keeps each sender's messages in the order it
 * sent them (with one receiver, that is the order they arrive in).
 *
 * Blocking: memcoro_chan_send on a full channel parks the calling coroutine
 * (or puts the calling thread to sleep) on the channel's send wait list; the
 * receive that frees a slot wakes it. memcoro_chan_recv on an empty channel
 * does the mirror image. try_ operations never block.
 *
 * Closing: memcoro_chan_close wakes everyone. Receivers still get every
 * message sent before the close, then MEMCORO_CHAN_CLOSED. A send that starts
 * after the close returns MEMCORO_CHAN_CLOSED and delivers nothing. Close
 * after the senders' last send has returned (usually the last sender closes):
 * a send racing with close may deliver a message that no receiver waits for.
 *
 * Misuse that would corrupt data is reported on stderr and aborts: an element
 * size other than the channel's, a destroyed channel, destroying a channel
 * that coroutines wait on, and (when checking is on: builds without NDEBUG,
 * or MEMCORO_CHECK=1 in the environment when the channel is created) a second
 * sender on an SPSC/SPMC channel or a second receiver on SPSC/MPSC.
 */
#ifndef MEMCORO_CHAN_H
#define MEMCORO_CHAN_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct memcoro_chan memcoro_chan;

typedef enum memcoro_chan_mode {
  MEMCORO_CHAN_SPSC,
  MEMCORO_CHAN_SPMC,
  MEMCORO_CHAN_MPSC,
  MEMCORO_CHAN_MPMC,
} memcoro_chan_mode;

typedef enum memcoro_chan_status {
  MEMCORO_CHAN_OK = 0,
  MEMCORO_CHAN_CLOSED = 1,
} memcoro_chan_status;

/* A channel of `capacity` elements of `elem_size` bytes each. Returns NULL
 * (and says why on stderr) for a zero size or capacity, an unknown mode, or
 * when memory cannot be had. */
memcoro_chan *memcoro_chan_create(size_t elem_size, size_t capacity, memcoro_chan_mode mode);

/* Frees the channel. Messages still in it are dropped. Nobody may be
 * waiting on it or use it afterwards. NULL is allowed. */
void memcoro_chan_destroy(memcoro_chan *ch);

/* Copies elem_size bytes from elem into the channel, waiting while it is
 * full. MEMCORO_CHAN_CLOSED if the channel is (or becomes) closed first. */
memcoro_chan_status memcoro_chan_send(memcoro_chan *ch, const void *elem, size_t elem_size);

/* Copies the oldest message into out, waiting while the channel is empty.
 * MEMCORO_CHAN_CLOSED once the channel is closed and drained. */
memcoro_chan_status memcoro_chan_recv(memcoro_chan *ch, void *out, size_t elem_size);

/* Never wait for space or for a message: false when full (empty), or closed
 * (see memcoro_chan_is_closed). Like every operation they may hold the
 * channel's wait-list lock for a moment to wake a parked peer. */
bool memcoro_chan_try_send(memcoro_chan *ch, const void *elem, size_t elem_size);
bool memcoro_chan_try_recv(memcoro_chan *ch, void *out, size_t elem_size);

/* Closing twice is harmless. */
void memcoro_chan_close(memcoro_chan *ch);
bool memcoro_chan_is_closed(const memcoro_chan *ch);

size_t memcoro_chan_capacity(const memcoro_chan *ch);
memcoro_chan_mode memcoro_chan_get_mode(const memcoro_chan *ch);

/* For the common case: the size comes from the variable itself. */
#define MEMCORO_CHAN_SEND(ch, var) memcoro_chan_send((ch), &(var), sizeof(var))
#define MEMCORO_CHAN_RECV(ch, var) memcoro_chan_recv((ch), &(var), sizeof(var))

#ifdef __cplusplus
}
#endif

#endif /* MEMCORO_CHAN_H */
