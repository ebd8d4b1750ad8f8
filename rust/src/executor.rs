//! The slot executor: a fixed number of futures polled round robin, each slot
//! refilled in place from the work iterator as soon as its future finishes.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::waker;

/// Working sets up to this size are treated as cache-resident by
/// [`Executor::for_working_set`]: the L2 size of the machines we measure on
/// (AMD Zen 4, 1 MiB per core). Beyond it, a miss costs enough (LLC ~50 cycles,
/// DRAM ~700) for a task switch to pay.
pub const CACHE_RESIDENT_BYTES: usize = 1 << 20;

/// Runs one future per work item, at most [`slots`](Executor::slots) of them
/// at once, polling them round robin on the calling thread.
///
/// The futures of one run share a type (they come from one closure), so the
/// executor keeps them in one array allocated per run, never per task: when a
/// future finishes, the next item's future is written over it in place.
///
/// A future that yields (for instance by awaiting [`prefetch`](crate::prefetch))
/// is polled again after every other slot had its turn; no waker is needed.
///
/// ```
/// use memcoro::{prefetch, Executor};
///
/// let data: Vec<u64> = (0..4096).collect();
/// let ends = [10usize, 20, 4000];
/// let sums = Executor::new(8).map(ends.iter(), |&end| {
///     let data = &data;
///     async move {
///         let mut sum = 0;
///         for i in (0..end).step_by(8) {
///             prefetch(&data[i..i + 8]).await;
///             sum += data[i..i + 8].iter().sum::<u64>();
///         }
///         sum
///     }
/// });
/// assert_eq!(sums, vec![(0..16).sum(), (0..24).sum(), (0..4000).sum()]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Executor {
    slots: usize,
    serial: bool,
}

impl Executor {
    /// An executor that keeps up to `slots` futures in flight.
    ///
    /// # Panics
    /// If `slots` is 0.
    pub fn new(slots: usize) -> Self {
        assert!(
            slots > 0,
            "memcoro::Executor::new: slots must be at least 1 (got 0); \
             use Executor::serial() to run the tasks one after another"
        );
        Executor {
            slots,
            serial: false,
        }
    }

    /// An executor that runs each future to completion before it starts the
    /// next, for data the caller knows to be cache-resident.
    ///
    /// It polls with a waker that [`prefetch`](crate::prefetch) and
    /// [`yield_now`](crate::yield_now) recognise: they return `Ready` at once
    /// and issue no prefetch, so after inlining the task runs as the plain
    /// loop it was written as.
    ///
    /// ```
    /// use memcoro::{prefetch, Executor};
    ///
    /// let small = [5u32, 6, 7];
    /// let doubled = Executor::serial().map(0..3, |i| {
    ///     let small = &small;
    ///     async move {
    ///         prefetch(&small[i]).await; // Ready at once: no prefetch, no yield
    ///         small[i] * 2
    ///     }
    /// });
    /// assert_eq!(doubled, vec![10, 12, 14]);
    /// ```
    pub fn serial() -> Self {
        Executor {
            slots: 1,
            serial: true,
        }
    }

    /// Serial if `bytes` (the data the tasks will touch) fits in
    /// [`CACHE_RESIDENT_BYTES`], interleaved with `slots` slots otherwise.
    ///
    /// # Panics
    /// If interleaving is chosen and `slots` is 0.
    pub fn for_working_set(bytes: usize, slots: usize) -> Self {
        if bytes <= CACHE_RESIDENT_BYTES {
            Executor::serial()
        } else {
            Executor::new(slots)
        }
    }

    /// How many futures run at once (1 for a serial executor).
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Whether this executor runs futures one after another, without
    /// prefetching or yielding.
    pub fn is_serial(&self) -> bool {
        self.serial
    }

    /// Runs `task(item)` for every item and hands each output to
    /// `sink(index, output)` as soon as its future finishes, `index` being
    /// the item's position in `items`.
    ///
    /// Outputs arrive in completion order, which depends on the slot count:
    /// use [`map`](Executor::map) for input order.
    pub fn for_each<I, F, Fut, S>(&self, items: I, task: F, mut sink: S)
    where
        I: IntoIterator,
        F: FnMut(I::Item) -> Fut,
        Fut: Future,
        S: FnMut(usize, Fut::Output),
    {
        self.drive(items, task, (), |(), index, output| sink(index, output));
    }

    /// Runs `task(item)` for every item and returns the outputs in the order
    /// of `items`.
    pub fn map<I, F, Fut>(&self, items: I, task: F) -> Vec<Fut::Output>
    where
        I: IntoIterator,
        F: FnMut(I::Item) -> Fut,
        Fut: Future,
    {
        let items = items.into_iter();
        let outputs: Vec<Option<Fut::Output>> = Vec::with_capacity(items.size_hint().0);
        let outputs = self.drive(items, task, outputs, |mut outputs, index, output| {
            if index >= outputs.len() {
                outputs.resize_with(index + 1, || None);
            }
            outputs[index] = Some(output);
            outputs
        });
        outputs
            .into_iter()
            .map(|output| output.expect("memcoro: every task that was started has finished"))
            .collect()
    }

    /// Runs `task(item)` for every item and folds the outputs into `init`
    /// with `fold`, in completion order.
    ///
    /// Completion order depends on the slot count, so `fold` should be
    /// associative and commutative (integer sums, min, max, counts) for the
    /// answer to match a serial loop bit for bit; floating-point sums are not.
    /// Use [`map`](Executor::map) and fold the vector when order matters.
    pub fn fold<I, F, Fut, B, G>(&self, items: I, init: B, task: F, mut fold: G) -> B
    where
        I: IntoIterator,
        F: FnMut(I::Item) -> Fut,
        Fut: Future,
        G: FnMut(B, Fut::Output) -> B,
    {
        self.drive(items, task, init, |accumulator, _, output| fold(accumulator, output))
    }

    /// The one loop behind `for_each`, `map` and `fold`: threads `state`
    /// through `step(state, index, output)` by value, so a fold needs no
    /// `Option` juggling per task.
    fn drive<I, F, Fut, B, G>(&self, items: I, task: F, state: B, step: G) -> B
    where
        I: IntoIterator,
        F: FnMut(I::Item) -> Fut,
        Fut: Future,
        G: FnMut(B, usize, Fut::Output) -> B,
    {
        if self.serial {
            run_serial(items.into_iter(), task, state, step)
        } else {
            run_interleaved(self.slots, items.into_iter(), task, state, step)
        }
    }
}

/// Runs `task(item)` for every item with at most `slots` futures in flight and
/// returns the outputs in input order: `Executor::new(slots).map(items, task)`.
///
/// ```
/// use memcoro::{interleave, prefetch};
///
/// // Follow a chain per start index; each hop is a likely miss on big data.
/// let next: Vec<usize> = (0..100).map(|i| (i * 7 + 3) % 100).collect();
/// let ends = interleave(0..5, 4, |start| {
///     let next = &next;
///     async move {
///         let mut at = start;
///         for _ in 0..10 {
///             prefetch(&next[at]).await;
///             at = next[at];
///         }
///         at
///     }
/// });
/// let serial: Vec<usize> = (0..5)
///     .map(|start| (0..10).fold(start, |at, _| next[at]))
///     .collect();
/// assert_eq!(ends, serial);
/// ```
///
/// # Panics
/// If `slots` is 0.
pub fn interleave<I, F, Fut>(items: I, slots: usize, task: F) -> Vec<Fut::Output>
where
    I: IntoIterator,
    F: FnMut(I::Item) -> Fut,
    Fut: Future,
{
    Executor::new(slots).map(items, task)
}

/// Like [`interleave`], but folds the outputs in completion order instead of
/// collecting them: `Executor::new(slots).fold(items, init, task, fold)`.
/// See [`Executor::fold`] for when the order matters.
///
/// ```
/// use memcoro::{interleave_fold, prefetch};
///
/// let values: Vec<u64> = (1..=1000).collect();
/// let total = interleave_fold(0..10usize, 4, 0u64, |chunk| {
///     let part = &values[chunk * 100..(chunk + 1) * 100];
///     async move {
///         prefetch(&part[0]).await;
///         part.iter().sum::<u64>()
///     }
/// }, |sum, part| sum + part);
/// assert_eq!(total, 500_500);
/// ```
///
/// # Panics
/// If `slots` is 0.
pub fn interleave_fold<I, F, Fut, B, G>(items: I, slots: usize, init: B, task: F, fold: G) -> B
where
    I: IntoIterator,
    F: FnMut(I::Item) -> Fut,
    Fut: Future,
    G: FnMut(B, Fut::Output) -> B,
{
    Executor::new(slots).fold(items, init, task, fold)
}

struct Slot<Fut> {
    /// Position in the work iterator of the item this slot's future runs.
    index: usize,
    /// `None` once the work ran out and this slot's last future finished.
    future: Option<Fut>,
}

fn run_interleaved<I, F, Fut, B, G>(slots: usize, items: I, mut task: F, mut state: B, mut step: G) -> B
where
    I: Iterator,
    F: FnMut(I::Item) -> Fut,
    Fut: Future,
    G: FnMut(B, usize, Fut::Output) -> B,
{
    // Every slot that retires asks for more work: after the first `None`,
    // an iterator that is not fused may not be asked again.
    let mut items = items.fuse();
    let waker = waker::interleaved();
    let mut cx = Context::from_waker(&waker);

    let mut started = 0;
    let mut ring: Vec<Slot<Fut>> = Vec::with_capacity(slots);
    for item in items.by_ref().take(slots) {
        ring.push(Slot {
            index: started,
            future: Some(task(item)),
        });
        started += 1;
    }
    // From here on `ring` is never grown or shrunk, so its futures stay where
    // they are until the vector drops them in place (also when a task or the
    // sink panics): the guarantee `Pin::new_unchecked` below relies on.
    let mut live = ring.len();
    // While work remains, every slot holds a running future, so the steady
    // state skips the `None` test; it ends when the first slot retires.
    'steady: while live > 0 {
        for slot in ring.iter_mut() {
            // SAFETY: the future is not moved until it is dropped, see above;
            // it is replaced only through `Pin::set`, which drops it in place.
            let mut future = unsafe { Pin::new_unchecked(&mut slot.future) };
            // A refilled slot runs its new task at once, so the task's first
            // prefetch is issued in this turn rather than a whole round later.
            loop {
                let running = match future.as_mut().as_pin_mut() {
                    Some(running) => running,
                    // SAFETY: a slot becomes `None` only right before
                    // `break 'steady`, and `ring` starts with every slot `Some`.
                    None => unsafe { std::hint::unreachable_unchecked() },
                };
                let output = match running.poll(&mut cx) {
                    Poll::Pending => break,
                    Poll::Ready(output) => output,
                };
                state = step(state, slot.index, output);
                match items.next() {
                    Some(item) => {
                        future.set(Some(task(item)));
                        slot.index = started;
                        started += 1;
                    }
                    None => {
                        future.set(None);
                        live -= 1;
                        break 'steady;
                    }
                }
            }
        }
    }
    // The tail: slots retire one by one as the last tasks finish.
    while live > 0 {
        for slot in ring.iter_mut() {
            // SAFETY: as in the steady loop.
            let mut future = unsafe { Pin::new_unchecked(&mut slot.future) };
            while let Some(running) = future.as_mut().as_pin_mut() {
                let output = match running.poll(&mut cx) {
                    Poll::Pending => break,
                    Poll::Ready(output) => output,
                };
                state = step(state, slot.index, output);
                match items.next() {
                    Some(item) => {
                        future.set(Some(task(item)));
                        slot.index = started;
                        started += 1;
                    }
                    None => {
                        future.set(None);
                        live -= 1;
                        break;
                    }
                }
            }
        }
    }
    state
}

fn run_serial<I, F, Fut, B, G>(items: I, mut task: F, mut state: B, mut step: G) -> B
where
    I: Iterator,
    F: FnMut(I::Item) -> Fut,
    Fut: Future,
    G: FnMut(B, usize, Fut::Output) -> B,
{
    let waker = waker::serial();
    let mut cx = Context::from_waker(&waker);
    for (index, item) in items.enumerate() {
        let mut future = task(item);
        // SAFETY: the shadowing below leaves no way to move `future` again; it
        // is dropped in place at the end of this iteration.
        let mut future = unsafe { Pin::new_unchecked(&mut future) };
        // Only futures other than ours (which are Ready at once here) can
        // return Pending; with nothing else to run, poll again.
        let output = loop {
            if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
                break output;
            }
        };
        state = step(state, index, output);
    }
    state
}
