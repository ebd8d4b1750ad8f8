//! Hide memory latency with `async`/`await` on one thread.
//!
//! A memory-bound loop whose iterations are independent (walk many lists,
//! look up many keys) spends most of its time waiting for cache misses, one
//! after another. Written as one `async` task per iteration, each awaiting a
//! [`prefetch`] before its likely miss, the loop runs on an [`Executor`] that
//! keeps a few tasks in flight: while one task's cache line travels, the
//! others run, and the misses overlap.
//!
//! ```
//! use memcoro::{interleave_fold, prefetch};
//!
//! // 64-byte cells linked into several lists; sum each list's values.
//! #[repr(align(64))]
//! struct Cell { next: usize, value: u64 }
//!
//! let cells: Vec<Cell> = (0..1024)
//!     .map(|i| Cell { next: (i + 17) % 1024, value: i as u64 })
//!     .collect();
//! let heads = [0usize, 100, 200, 300];
//!
//! let total = interleave_fold(heads.iter(), 4, 0u64, |&head| {
//!     let cells = &cells;
//!     async move {
//!         let (mut at, mut sum) = (head, 0);
//!         for _ in 0..50 {
//!             prefetch(&cells[at]).await; // yield while the line arrives
//!             sum += cells[at].value;
//!             at = cells[at].next;
//!         }
//!         sum
//!     }
//! }, |total, sum| total + sum);
//!
//! let serial: u64 = heads.iter().map(|&head| {
//!     let (mut at, mut sum) = (head, 0);
//!     for _ in 0..50 { sum += cells[at].value; at = cells[at].next; }
//!     sum
//! }).sum();
//! assert_eq!(total, serial);
//! ```
//!
//! What the crate offers:
//! - [`prefetch`] / [`prefetch_slice`]: issue a prefetch (x86-64
//!   `prefetcht0`; nothing elsewhere), return `Pending` once, then `Ready`;
//!   [`yield_now`] yields without prefetching.
//! - [`Executor`]: a fixed number of slots polled round robin; a finished
//!   slot is refilled in place from the work iterator, so there is no
//!   allocation per task. [`interleave`] and [`interleave_fold`] are the
//!   one-call forms.
//! - [`Executor::serial`] (or [`Executor::for_working_set`]) runs the same
//!   tasks one after another, with prefetches and yields compiled away, for
//!   data the caller knows to be cache-resident.
//!
//! All of it is single-threaded: run one executor per thread for more.
//! Benchmarks and measured speed-ups are in the crate's README.

#![warn(missing_docs)]
#![warn(unsafe_op_in_unsafe_fn)]

mod executor;
mod prefetch;
mod waker;

pub use executor::{interleave, interleave_fold, Executor, CACHE_RESIDENT_BYTES};
pub use prefetch::{prefetch, prefetch_slice, yield_now, Prefetch, YieldNow, CACHE_LINE};
