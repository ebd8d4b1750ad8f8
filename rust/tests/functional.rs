//! What the executor and the futures promise: the order tasks run in, how
//! many are in flight, results in input order, every future dropped once.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};

use memcoro::{interleave, interleave_fold, prefetch, prefetch_slice, yield_now, Executor, CACHE_RESIDENT_BYTES};

/// Each task logs (task, step) before and after one awaited prefetch.
fn trace(executor: Executor, tasks: usize) -> Vec<(usize, u8)> {
    let log = RefCell::new(Vec::new());
    let data = [0u64; 8];
    executor.for_each(
        0..tasks,
        |task| {
            let (log, data) = (&log, &data);
            async move {
                log.borrow_mut().push((task, 0));
                prefetch(&data[task % 8]).await;
                log.borrow_mut().push((task, 1));
            }
        },
        |_, ()| {},
    );
    log.into_inner()
}

#[test]
fn prefetch_yields_once_and_slots_take_turns() {
    assert_eq!(trace(Executor::new(2), 2), vec![(0, 0), (1, 0), (0, 1), (1, 1)]);
    // Slot 0 finishes first and is refilled with task 2, which starts at once.
    assert_eq!(
        trace(Executor::new(2), 3),
        vec![(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (2, 1)]
    );
    // One slot: the yield comes straight back to the same task.
    assert_eq!(trace(Executor::new(1), 2), vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
}

#[test]
fn serial_executor_runs_tasks_to_completion_in_order() {
    assert_eq!(trace(Executor::serial(), 3), vec![(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
}

#[test]
fn yield_now_gives_every_other_slot_one_turn() {
    let log = RefCell::new(Vec::new());
    Executor::new(3).for_each(
        0..3,
        |task| {
            let log = &log;
            async move {
                for step in 0..2u8 {
                    log.borrow_mut().push((task, step));
                    yield_now().await;
                }
            }
        },
        |_, ()| {},
    );
    assert_eq!(
        log.into_inner(),
        vec![(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
    );
}

#[test]
fn polls_per_task_are_one_more_than_its_suspensions() {
    // A future that counts its polls, wrapped around a task with k prefetches.
    let data: Vec<u32> = (0..64).collect();
    let polls = Cell::new(0usize);
    let sums = interleave(0..10usize, 4, |k| {
        let (data, polls) = (&data, &polls);
        CountPolls {
            polls,
            inner: Box::pin(async move {
                let mut sum = 0;
                for value in &data[..k] {
                    prefetch(value).await;
                    sum += value;
                }
                sum
            }),
        }
    });
    assert_eq!(sums, (0..10u32).map(|k| (0..k).sum()).collect::<Vec<u32>>());
    let suspensions: usize = (0..10).sum();
    assert_eq!(polls.get(), suspensions + 10);
}

struct CountPolls<'a, F> {
    polls: &'a Cell<usize>,
    inner: std::pin::Pin<Box<F>>,
}

impl<F: std::future::Future> std::future::Future for CountPolls<'_, F> {
    type Output = F::Output;
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<F::Output> {
        self.polls.set(self.polls.get() + 1);
        self.inner.as_mut().poll(cx)
    }
}

#[test]
fn never_more_than_slots_tasks_in_flight() {
    for slots in [1, 2, 3, 7, 64] {
        let (live, most) = (Cell::new(0usize), Cell::new(0usize));
        // Every task suspends at least once, so all first polls overlap.
        let lengths: Vec<usize> = (0..40).map(|i| (i * 7) % 5 + 1).collect();
        let out = interleave(lengths.iter(), slots, |&n| {
            let (live, most) = (&live, &most);
            async move {
                live.set(live.get() + 1);
                most.set(most.get().max(live.get()));
                for _ in 0..n {
                    yield_now().await;
                }
                live.set(live.get() - 1);
                n
            }
        });
        assert_eq!(out, lengths);
        assert_eq!(most.get(), slots.min(lengths.len()), "slots = {}", slots);
    }
}

#[test]
fn results_come_back_in_input_order_whatever_finishes_first() {
    // Task i suspends 20 - i times, so later tasks finish first.
    let out = interleave(0..20u32, 8, |i| async move {
        for _ in i..20 {
            yield_now().await;
        }
        i * 3
    });
    assert_eq!(out, (0..20u32).map(|i| i * 3).collect::<Vec<_>>());

    let mut order = Vec::new();
    Executor::new(8).for_each(0..20u32, |i| async move {
        for _ in i..20 {
            yield_now().await;
        }
        i
    }, |index, i| {
        assert_eq!(index as u32, i);
        order.push(i);
    });
    assert_ne!(order, (0..20).collect::<Vec<_>>(), "completion order differs from input order");
    order.sort_unstable();
    assert_eq!(order, (0..20).collect::<Vec<_>>());
}

/// Lists of 64-byte cells, linked in a scrambled order; the walk from each
/// head is checked against a plain loop for every slot count.
#[test]
fn pointer_chase_matches_serial_for_every_slot_count() {
    #[repr(align(64))]
    struct Cell {
        next: usize,
        value: u64,
    }
    let n = 4096;
    let cells: Vec<Cell> = (0..n)
        .map(|i| Cell { next: (i * 2654435761) % n, value: (i * i) as u64 })
        .collect();
    let heads: Vec<usize> = (0..50).map(|h| h * 37 % n).collect();
    let walk = |head: usize| {
        let (mut at, mut sum) = (head, 0u64);
        for _ in 0..(head % 23 + 1) {
            sum = sum.wrapping_mul(31).wrapping_add(cells[at].value);
            at = cells[at].next;
        }
        sum
    };
    let expected: Vec<u64> = heads.iter().map(|&h| walk(h)).collect();
    let executors = (1..=64).map(Executor::new).chain(Some(Executor::serial()));
    for executor in executors {
        let cells = &cells;
        let got = executor.map(heads.iter(), |&head| async move {
            let (mut at, mut sum) = (head, 0u64);
            for _ in 0..(head % 23 + 1) {
                prefetch(&cells[at]).await;
                sum = sum.wrapping_mul(31).wrapping_add(cells[at].value);
                at = cells[at].next;
            }
            sum
        });
        assert_eq!(got, expected, "{:?}", executor);
        let total = executor.fold(heads.iter(), 0u64, |&head| {
            let expected = &expected;
            let heads = &heads;
            async move {
                prefetch_slice(&cells[head..(head + 3).min(n)]).await;
                expected[heads.iter().position(|&h| h == head).unwrap()]
            }
        }, u64::wrapping_add);
        assert_eq!(total, expected.iter().fold(0u64, |a, &b| a.wrapping_add(b)));
    }
}

#[test]
fn nested_async_functions_suspend_through_their_callers() {
    async fn load(data: &[u64], i: usize) -> u64 {
        prefetch(&data[i]).await;
        data[i]
    }
    let data: Vec<u64> = (0..100).map(|i| i * 10).collect();
    let out = interleave(0..10usize, 3, |i| {
        let data = &data;
        async move { load(data, i).await + load(data, 99 - i).await }
    });
    assert_eq!(out, vec![990; 10]);
}

#[test]
fn empty_work_and_more_slots_than_work() {
    let none: Vec<u8> = interleave(Vec::<u8>::new(), 4, |x| async move { x });
    assert!(none.is_empty());
    assert_eq!(interleave_fold(0..0, 4, 7, |x: i32| async move { x }, |a, b| a + b), 7);
    assert_eq!(interleave(0..3, 100, |x| async move { x + 1 }), vec![1, 2, 3]);
    assert_eq!(Executor::serial().map(0..0, |x: u8| async move { x }), Vec::<u8>::new());
}

#[test]
#[should_panic(expected = "slots must be at least 1")]
fn zero_slots_is_refused_with_a_message() {
    let _ = Executor::new(0);
}

#[test]
fn working_set_picks_serial_only_when_cache_resident() {
    assert!(Executor::for_working_set(CACHE_RESIDENT_BYTES, 16).is_serial());
    let big = Executor::for_working_set(CACHE_RESIDENT_BYTES + 1, 16);
    assert!(!big.is_serial());
    assert_eq!(big.slots(), 16);
}

struct Tracked<'a>(&'a Cell<usize>);

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

#[test]
fn every_future_is_dropped_once_also_when_a_task_panics() {
    let (created, dropped) = (Cell::new(0usize), Cell::new(0usize));
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        interleave(0..50usize, 6, |i| {
            created.set(created.get() + 1);
            let guard = Tracked(&dropped);
            async move {
                let _guard = guard;
                for _ in 0..i % 4 {
                    yield_now().await;
                }
                assert!(i != 20, "task 20 fails");
                i
            }
        })
    }));
    assert!(outcome.is_err());
    assert!(created.get() >= 21 && created.get() < 50);
    assert_eq!(dropped.get(), created.get());

    // Without a panic, too.
    let (created, dropped) = (Cell::new(0usize), Cell::new(0usize));
    for executor in [Executor::new(5), Executor::serial()] {
        executor.for_each(0..30usize, |i| {
            created.set(created.get() + 1);
            let guard = Tracked(&dropped);
            async move {
                let _guard = guard;
                yield_now().await;
                i
            }
        }, |_, _| {});
    }
    assert_eq!((created.get(), dropped.get()), (60, 60));
}

#[test]
fn futures_stay_send() {
    fn assert_send<T: Send>(_: &T) {}
    let x = 5u64;
    assert_send(&prefetch(&x));
    assert_send(&yield_now());
    let task = async {
        prefetch(&x).await;
        yield_now().await;
    };
    assert_send(&task);
}

/// Yields 0..n, then `None` once, then starts again: a legal iterator that
/// is not fused. The executor must stop at the first `None`.
struct Restarting {
    next: u32,
    n: u32,
}

impl Iterator for Restarting {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.next == self.n {
            self.next = 0;
            return None;
        }
        self.next += 1;
        Some(self.next - 1)
    }
}

#[test]
fn work_ends_at_the_first_none_of_an_unfused_iterator() {
    for slots in [1, 3, 8] {
        let out = interleave(Restarting { next: 0, n: 5 }, slots, |i| async move {
            for _ in 0..i % 3 {
                yield_now().await;
            }
            i
        });
        assert_eq!(out, vec![0, 1, 2, 3, 4], "slots = {}", slots);
    }
}
