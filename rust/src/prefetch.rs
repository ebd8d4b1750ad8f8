//! Futures that give the executor a turn while a cache line is on its way.

use std::future::Future;
use std::mem;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::waker::runs_serially;

/// Bytes per cache line on the machines the prefetch is issued on (x86-64).
pub const CACHE_LINE: usize = 64;

/// Future returned by [`prefetch`] and [`prefetch_slice`].
///
/// On its first poll it issues a prefetch for every cache line of the value
/// and returns `Pending`, so the executor runs the other slots while the lines
/// travel; the next poll returns `Ready`. There is no way to ask the hardware
/// whether a line has arrived, so "one round of the other slots" is the guess
/// (the heuristic of the blog post this crate grew from). Under
/// [`Executor::serial`](crate::Executor::serial) it is `Ready` at once and
/// issues nothing.
///
/// It holds the reference until its first poll and nothing after: one word
/// in the task's frame for a sized value (the line count is then a
/// compile-time constant), two for a slice.
#[derive(Debug)]
#[must_use = "futures do nothing unless awaited"]
pub struct Prefetch<'a, T: ?Sized> {
    /// `None` once the prefetch was issued.
    value: Option<&'a T>,
}

/// Prefetches the cache lines holding `value`, then yields once.
///
/// Await it right before the access that is likely to miss:
///
/// ```
/// use memcoro::{interleave, prefetch};
///
/// let table: Vec<u64> = (0..1000).map(|i| i * i).collect();
/// let keys = [3usize, 999, 10];
/// let squares = interleave(keys.iter(), 2, |&k| {
///     let table = &table;
///     async move {
///         prefetch(&table[k]).await;
///         table[k]
///     }
/// });
/// assert_eq!(squares, vec![9, 998_001, 100]);
/// ```
#[inline(always)]
pub fn prefetch<T: ?Sized>(value: &T) -> Prefetch<'_, T> {
    Prefetch { value: Some(value) }
}

/// How many cache lines `size` bytes at `start` touch, at least one (a
/// zero-sized value still yields, like any other prefetch). For a sized type the
/// alignment alone decides, so the count is a compile-time constant and the
/// prefetch loop unrolls to exactly the instructions needed.
#[inline(always)]
fn lines_spanned(start: usize, size: usize, align: usize) -> usize {
    if size == 0 {
        1
    } else if align % CACHE_LINE == 0 {
        (size + CACHE_LINE - 1) / CACHE_LINE
    } else if size <= align {
        // A power-of-two alignment below the line size divides it, so an
        // object no bigger than its alignment never straddles two lines.
        1
    } else {
        (start + size - 1) / CACHE_LINE - start / CACHE_LINE + 1
    }
}

/// Prefetches every cache line that `items` covers, then yields once.
///
/// Meant for short ranges that one step reads together: a hash bucket, a
/// B-tree node, the few elements around a probe. It issues one prefetch per
/// line, so a long slice costs as many instructions.
///
/// ```
/// use memcoro::{interleave, prefetch_slice};
///
/// let buckets: Vec<u32> = (0..64).collect();
/// let sums = interleave(0..4usize, 4, |b| {
///     let buckets = &buckets;
///     async move {
///         let bucket = &buckets[b * 16..(b + 1) * 16];
///         prefetch_slice(bucket).await;
///         bucket.iter().sum::<u32>()
///     }
/// });
/// assert_eq!(sums, vec![120, 376, 632, 888]);
/// ```
#[inline(always)]
pub fn prefetch_slice<T>(items: &[T]) -> Prefetch<'_, [T]> {
    prefetch(items)
}

impl<T: ?Sized> Future for Prefetch<'_, T> {
    type Output = ();

    #[inline(always)]
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if runs_serially(cx) {
            return Poll::Ready(());
        }
        let value = match self.value.take() {
            Some(value) => value,
            None => return Poll::Ready(()),
        };
        let start = value as *const T as *const u8 as usize;
        let lines = lines_spanned(start, mem::size_of_val(value), mem::align_of_val(value));
        // An address inside each line will do: `start + 64 * i` lies in the
        // i-th line of the range whatever the alignment of `start`. The first
        // line is issued outside the loop, so that a one-line prefetch is one
        // instruction and no test.
        prefetch_line(start as *const u8);
        for line in 1..lines {
            prefetch_line((start + line * CACHE_LINE) as *const u8);
        }
        Poll::Pending
    }
}

#[inline(always)]
fn prefetch_line(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint: it never faults, whatever the address.
    #[allow(unused_unsafe)] // the intrinsic became a safe fn in newer toolchains
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch(address as *const i8, _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// Future returned by [`yield_now`].
#[derive(Debug, Default)]
#[must_use = "futures do nothing unless awaited"]
pub struct YieldNow {
    yielded: bool,
}

/// Gives the other slots one turn without prefetching anything.
///
/// Useful when a task has issued its own prefetches (several unrelated lines
/// before one suspension). Like [`prefetch`], it is `Ready` at once in a
/// serial run.
#[inline(always)]
pub fn yield_now() -> YieldNow {
    YieldNow { yielded: false }
}

impl Future for YieldNow {
    type Output = ();

    #[inline(always)]
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.yielded || runs_serially(cx) {
            return Poll::Ready(());
        }
        self.yielded = true;
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::lines_spanned;

    #[test]
    fn lines_spanned_counts_every_touched_line() {
        // Sized types: alignment decides.
        assert_eq!(lines_spanned(0x1000, 64, 64), 1);
        assert_eq!(lines_spanned(0x1000, 192, 64), 3);
        assert_eq!(lines_spanned(0x1038, 8, 8), 1);
        assert_eq!(lines_spanned(0x1000, 0, 1), 1);
        // Byte-aligned ranges: the addresses decide.
        assert_eq!(lines_spanned(0x103f, 2, 1), 2);
        assert_eq!(lines_spanned(0x1000, 64, 1), 1);
        assert_eq!(lines_spanned(0x1001, 64, 1), 2);
        assert_eq!(lines_spanned(0x1010, 16 * 10, 8), 3);
    }
}
