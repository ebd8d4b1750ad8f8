//! The executor allocates per run, never per task. This file has a counting
//! global allocator of its own, so it is a separate test binary; it counts
//! only the calling thread's allocations, so other tests cannot disturb it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use memcoro::{prefetch, Executor};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded unchanged from our caller.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged from our caller.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(run: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    run();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn one_allocation_per_run_whatever_the_number_of_tasks() {
    let data: Vec<u64> = (0..10_000).collect();
    for tasks in [10usize, 10_000] {
        let mut sum = 0;
        let count = allocations_during(|| {
            sum = Executor::new(16).fold(0..tasks, 0u64, |i| {
                let data = &data;
                async move {
                    prefetch(&data[i]).await;
                    prefetch(&data[data.len() - 1 - i]).await;
                    data[i]
                }
            }, |a, b| a + b);
        });
        assert_eq!(sum, (0..tasks as u64).sum());
        assert_eq!(count, 1, "{} tasks", tasks);
    }
    let count = allocations_during(|| {
        Executor::serial().for_each(0..1000, |i| async move { i }, |_, _| {});
    });
    assert_eq!(count, 0);
}
