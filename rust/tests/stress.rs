//! Many threads, each with its own executors, over shared read-only data:
//! random slot counts, task shapes and lengths, every answer checked against
//! a plain loop. Executors keep no global mutable state, so threads must not
//! disturb each other.

use std::thread;

use memcoro::{prefetch, prefetch_slice, yield_now, Executor};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

#[repr(align(64))]
struct Cell {
    next: u32,
    value: u32,
}

/// One walk: `hops` steps from `head`, sometimes yielding twice, sometimes
/// reading a short slice, so tasks suspend a varying number of times.
async fn walk(cells: &[Cell], head: usize, hops: usize) -> u64 {
    let (mut at, mut sum) = (head, 0u64);
    for hop in 0..hops {
        match hop % 3 {
            0 => prefetch(&cells[at]).await,
            1 => {
                let end = (at + 4).min(cells.len());
                prefetch_slice(&cells[at..end]).await;
                yield_now().await;
            }
            _ => {}
        }
        sum = sum.wrapping_mul(1_000_003).wrapping_add(cells[at].value as u64);
        at = cells[at].next as usize;
    }
    sum
}

fn walk_serially(cells: &[Cell], head: usize, hops: usize) -> u64 {
    let (mut at, mut sum) = (head, 0u64);
    for _ in 0..hops {
        sum = sum.wrapping_mul(1_000_003).wrapping_add(cells[at].value as u64);
        at = cells[at].next as usize;
    }
    sum
}

#[test]
fn threads_running_random_executors_agree_with_serial_loops() {
    let n = 1 << 14;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let cells: Vec<Cell> = (0..n)
        .map(|_| Cell { next: rng.below(n) as u32, value: rng.next() as u32 })
        .collect();
    let cells = &cells[..];
    let threads = 4;
    let rounds = if cfg!(debug_assertions) { 40 } else { 400 };
    thread::scope(|scope| {
        for t in 0..threads {
            scope.spawn(move || {
                let mut rng = Rng(t as u64 * 7919 + 1);
                for round in 0..rounds {
                    let jobs: Vec<(usize, usize)> =
                        (0..rng.below(300)).map(|_| (rng.below(n), rng.below(40))).collect();
                    let executor = match rng.below(10) {
                        0 => Executor::serial(),
                        _ => Executor::new(1 + rng.below(64)),
                    };
                    let expected: Vec<u64> =
                        jobs.iter().map(|&(head, hops)| walk_serially(cells, head, hops)).collect();
                    let got = executor.map(jobs.iter(), |&(head, hops)| walk(cells, head, hops));
                    assert_eq!(got, expected, "thread {} round {} {:?}", t, round, executor);
                    let total = executor.fold(jobs.iter(), 0u64, |&(head, hops)| walk(cells, head, hops), |a, b| {
                        a.wrapping_add(b)
                    });
                    assert_eq!(total, expected.iter().fold(0u64, |a, &b| a.wrapping_add(b)));
                }
            });
        }
    });
}
