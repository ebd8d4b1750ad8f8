//! Benchmarks for the memcoro crate: pointer chasing over many linked lists of
//! 64-byte cells, binary search and hash-table probing, each run serially
//! (plain code), through `Executor::serial()`, interleaved with a sweep of
//! slot counts, and interleaved by hand (the yardstick). Every run's answer
//! is checked against the plain serial answer before its time counts.
//!
//!     cargo run --release --example bench -- [options]
//!
//! Options (defaults in brackets):
//!     --workloads chase,bsearch,hash   which kernels [all three]
//!     --sizes 512K,1G                  data sizes; K, M, G suffixes [512K,1G]
//!     --slots 1,2,4,8,...              slot counts to sweep [1,2,3,4,5,6,8,12,16,20,24,32,48,64]
//!     --variants serial,exec-serial,hand,interleave
//!                                      which variants to run [all]; serial always runs
//!     --repeats N                      repetitions; the table shows medians [3]
//!     --min-steps N                    repeat cache-resident kernels until one measurement
//!                                      made at least N steps [16M]; 1 for callgrind runs
//!     --csv FILE                       also write every measurement as CSV
//!     --no-huge-pages                  do not madvise the data for transparent huge pages
//!
//! Times are the thread's CPU time (on Linux), not wall time, and speed-ups are
//! ratios of the serial time to the variant's time measured in the same
//! repetition, so that busy neighbours on a shared machine disturb them less.

use std::env;
use std::fs::File;
use std::io::{self, Write};
use std::process;
#[cfg(not(target_os = "linux"))]
use std::time::Instant;

use memcoro::{prefetch, Executor};

const DEFAULT_SLOTS: &[usize] = &[1, 2, 3, 4, 5, 6, 8, 12, 16, 20, 24, 32, 48, 64];
/// Cache-resident runs repeat the kernel until it did about this many steps,
/// so that each measurement lasts tens of milliseconds.
const DEFAULT_MIN_STEPS: usize = 16 << 20;
/// Queries per binary search or hash measurement (before repetition).
const QUERY_STEPS: usize = 16 << 20;

struct Options {
    workloads: Vec<String>,
    sizes: Vec<usize>,
    slots: Vec<usize>,
    variants: Vec<String>,
    repeats: usize,
    csv: Option<String>,
    huge_pages: bool,
    min_steps: usize,
}

fn usage(message: &str) -> ! {
    eprintln!("bench: {}", message);
    eprintln!("usage: bench [--workloads chase,bsearch,hash] [--sizes 512K,1G] [--slots 1,2,4,...]");
    eprintln!("             [--variants serial,exec-serial,hand,interleave] [--repeats N] [--min-steps N] [--csv FILE] [--no-huge-pages]");
    process::exit(2);
}

fn parse_size(text: &str) -> usize {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => text.split_at(at),
        None => (text, ""),
    };
    let shift = match unit.to_ascii_uppercase().as_str() {
        "" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        _ => usage(&format!("bad size '{}': expected a number with an optional K, M or G", text)),
    };
    match digits.parse::<usize>() {
        Ok(n) if n > 0 => n << shift,
        _ => usage(&format!("bad size '{}': expected a positive number", text)),
    }
}

fn parse_list<T>(text: &str, parse: impl Fn(&str) -> T) -> Vec<T> {
    text.split(',').filter(|s| !s.is_empty()).map(parse).collect()
}

fn parse_options() -> Options {
    let mut options = Options {
        workloads: vec!["chase".into(), "bsearch".into(), "hash".into()],
        sizes: vec![512 << 10, 1 << 30],
        slots: DEFAULT_SLOTS.to_vec(),
        variants: vec!["serial".into(), "exec-serial".into(), "hand".into(), "interleave".into()],
        repeats: 3,
        csv: None,
        huge_pages: true,
        min_steps: DEFAULT_MIN_STEPS,
    };
    let mut args = env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--no-huge-pages" {
            options.huge_pages = false;
            continue;
        }
        let value = args
            .next()
            .unwrap_or_else(|| usage(&format!("{} needs a value", flag)));
        match flag.as_str() {
            "--workloads" => {
                options.workloads = parse_list(&value, |w| match w {
                    "chase" | "bsearch" | "hash" => w.to_string(),
                    _ => usage(&format!("unknown workload '{}'", w)),
                })
            }
            "--sizes" => options.sizes = parse_list(&value, parse_size),
            "--slots" => {
                options.slots = parse_list(&value, |s| match s.parse::<usize>() {
                    Ok(n) if n > 0 => n,
                    _ => usage(&format!("bad slot count '{}': expected a positive integer", s)),
                })
            }
            "--variants" => {
                options.variants = parse_list(&value, |v| match v {
                    "serial" | "exec-serial" | "hand" | "interleave" => v.to_string(),
                    _ => usage(&format!("unknown variant '{}'", v)),
                })
            }
            "--repeats" => {
                options.repeats = match value.parse::<usize>() {
                    Ok(n) if n > 0 => n,
                    _ => usage(&format!("bad repeat count '{}'", value)),
                }
            }
            "--csv" => options.csv = Some(value),
            "--min-steps" => options.min_steps = parse_size(&value),
            _ => usage(&format!("unknown option '{}'", flag)),
        }
    }
    options
}

/// splitmix64: a fixed-seed generator, so every run builds the same data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    fn below(&mut self, bound: usize) -> usize {
        ((self.next() as u128 * bound as u128) >> 64) as usize
    }
}

/// The splitmix64 finaliser: a bijection on u64, used to make distinct keys.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A vector of `len` copies of `fill` whose pages the kernel is asked to back
/// with 2 MiB pages: without them every step of a walk over 1 GiB also misses
/// the TLB, for serial and interleaved code alike.
fn big_vec<T: Copy>(len: usize, fill: T, huge_pages: bool) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    if huge_pages {
        advise_huge_pages(v.as_mut_ptr() as usize, len * std::mem::size_of::<T>());
    }
    v.resize(len, fill);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, bytes: usize) {
    extern "C" {
        fn madvise(addr: *mut u8, length: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const PAGE: usize = 4096;
    let first = (start + PAGE - 1) / PAGE * PAGE;
    let end = (start + bytes) / PAGE * PAGE;
    if end > first {
        // SAFETY: the range lies inside memory this process owns (the vector's
        // allocation); MADV_HUGEPAGE changes no contents, only how it is backed.
        // Failure (no THP support) only costs speed, so it is ignored.
        unsafe {
            madvise(first as *mut u8, end - first, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: usize, _: usize) {}

// ---------------------------------------------------------------- pointer chase

#[repr(C, align(64))]
#[derive(Clone, Copy)]
struct Cell {
    next: u64,
    _padding: [u64; 7],
}

struct Chase {
    cells: Vec<Cell>,
    heads: Vec<usize>,
    steps: usize,
}

impl Chase {
    /// All cells, in one random order, cut into equal lists.
    fn new(bytes: usize, huge_pages: bool) -> Chase {
        let count = bytes / std::mem::size_of::<Cell>();
        let lists = (count / 1024).clamp(64, 1024);
        let steps = count / lists;
        let mut order: Vec<u32> = (0..count as u32).collect();
        let mut rng = Rng(42);
        for i in (1..count).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut cells = big_vec(count, Cell { next: 0, _padding: [0; 7] }, huge_pages);
        let mut heads = Vec::with_capacity(lists);
        for list in order.chunks_exact(steps).take(lists) {
            heads.push(list[0] as usize);
            for pair in list.windows(2) {
                cells[pair[0] as usize].next = pair[1] as u64;
            }
            cells[list[steps - 1] as usize].next = list[0] as u64;
        }
        Chase { cells, heads, steps }
    }

    fn steps(&self) -> usize {
        self.heads.len() * self.steps
    }

    fn serial(&self) -> u64 {
        let mut total = 0u64;
        for &head in &self.heads {
            let (mut at, mut sum) = (head, 0u64);
            for _ in 0..self.steps {
                let next = self.cells[at].next;
                sum = sum.wrapping_add(next);
                at = next as usize;
            }
            total = total.wrapping_add(sum);
        }
        total
    }

    fn run(&self, executor: Executor) -> u64 {
        let (cells, steps) = (&self.cells[..], self.steps);
        executor.fold(
            self.heads.iter(),
            0u64,
            |&head| async move {
                let (mut at, mut sum) = (head, 0u64);
                for _ in 0..steps {
                    let cell = &cells[at];
                    prefetch(cell).await;
                    sum = sum.wrapping_add(cell.next);
                    at = cell.next as usize;
                }
                sum
            },
            u64::wrapping_add,
        )
    }

    /// The same interleaving written by hand (group prefetching with refill,
    /// "AMAC"): what the crate should come close to.
    fn hand(&self, slots: usize) -> u64 {
        struct Walk {
            at: usize,
            left: usize,
            sum: u64,
        }
        let mut total = 0u64;
        let mut heads = self.heads.iter();
        let mut walks: Vec<Walk> = Vec::with_capacity(slots);
        for &head in heads.by_ref().take(slots) {
            prefetch_now(&self.cells[head]);
            walks.push(Walk { at: head, left: self.steps, sum: 0 });
        }
        let mut live = walks.len();
        while live > 0 {
            for walk in walks.iter_mut() {
                if walk.left == 0 {
                    continue;
                }
                let next = self.cells[walk.at].next;
                walk.sum = walk.sum.wrapping_add(next);
                walk.at = next as usize;
                walk.left -= 1;
                if walk.left == 0 {
                    total = total.wrapping_add(walk.sum);
                    match heads.next() {
                        Some(&head) => *walk = Walk { at: head, left: self.steps, sum: 0 },
                        None => {
                            live -= 1;
                            continue;
                        }
                    }
                }
                prefetch_now(&self.cells[walk.at]);
            }
        }
        total
    }
}

fn prefetch_now<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unused_unsafe)]
    // SAFETY: a prefetch never faults.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch(value as *const T as *const i8, _MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

// ---------------------------------------------------------------- binary search

struct Search {
    keys: Vec<u64>,
    queries: Vec<u64>,
}

impl Search {
    /// Sorted odd keys 1, 3, 5, ...; queries uniform over the key range, so
    /// about half are found.
    fn new(bytes: usize, huge_pages: bool) -> Search {
        let count = bytes / 8;
        let mut keys = big_vec(count, 0u64, huge_pages);
        for (i, key) in keys.iter_mut().enumerate() {
            *key = 2 * i as u64 + 1;
        }
        let levels = usize::BITS as usize - count.leading_zeros() as usize;
        let queries = (QUERY_STEPS / 8 / levels).clamp(1 << 12, 1 << 18);
        let mut rng = Rng(7);
        let queries = (0..queries).map(|_| rng.below(2 * count + 2) as u64).collect();
        Search { keys, queries }
    }

    fn steps(&self) -> usize {
        self.queries.len() * (usize::BITS - self.keys.len().leading_zeros()) as usize
    }

    fn serial(&self) -> u64 {
        let keys = &self.keys[..];
        let mut total = 0u64;
        for &x in &self.queries {
            let (mut base, mut size) = (0usize, keys.len());
            while size > 1 {
                let half = size / 2;
                let middle = base + half;
                if keys[middle] < x {
                    base = middle;
                }
                size -= half;
            }
            total = total.wrapping_add((base + (keys[base] < x) as usize) as u64);
        }
        total
    }

    fn run(&self, executor: Executor) -> u64 {
        let keys = &self.keys[..];
        executor.fold(
            self.queries.iter(),
            0u64,
            |&x| async move {
                let (mut base, mut size) = (0usize, keys.len());
                while size > 1 {
                    let half = size / 2;
                    let middle = base + half;
                    prefetch(&keys[middle]).await;
                    if keys[middle] < x {
                        base = middle;
                    }
                    size -= half;
                }
                (base + (keys[base] < x) as usize) as u64
            },
            u64::wrapping_add,
        )
    }
}

impl Search {
    /// Hand-written interleaving: a ring of searches, each advanced one level
    /// per turn, the next probe prefetched before moving on.
    fn hand(&self, slots: usize) -> u64 {
        struct Probe {
            x: u64,
            base: usize,
            size: usize,
        }
        let keys = &self.keys[..];
        let mut total = 0u64;
        let mut queries = self.queries.iter();
        let start = |x: u64| {
            let probe = Probe { x, base: 0, size: keys.len() };
            if probe.size > 1 {
                prefetch_now(&keys[probe.size / 2]);
            }
            probe
        };
        let mut ring: Vec<Option<Probe>> = queries.by_ref().take(slots).map(|&x| Some(start(x))).collect();
        let mut live = ring.len();
        while live > 0 {
            for entry in ring.iter_mut() {
                let probe = match entry {
                    Some(probe) => probe,
                    None => continue,
                };
                if probe.size > 1 {
                    let half = probe.size / 2;
                    let middle = probe.base + half;
                    if keys[middle] < probe.x {
                        probe.base = middle;
                    }
                    probe.size -= half;
                    if probe.size > 1 {
                        prefetch_now(&keys[probe.base + probe.size / 2]);
                        continue;
                    }
                }
                total = total.wrapping_add((probe.base + (keys[probe.base] < probe.x) as usize) as u64);
                match queries.next() {
                    Some(&x) => *probe = start(x),
                    None => {
                        *entry = None;
                        live -= 1;
                    }
                }
            }
        }
        total
    }
}

// ---------------------------------------------------------------- hash probing

/// Aligned to its size, so a bucket never straddles two lines and the
/// prefetch of one compiles to a single instruction.
#[repr(C, align(16))]
#[derive(Clone, Copy)]
struct Bucket {
    key: u64,
    value: u64,
}

struct Hash {
    buckets: Vec<Bucket>,
    shift: u32,
    queries: Vec<u64>,
}

impl Hash {
    /// Open addressing with linear probing, half full; key 0 marks an empty
    /// bucket. Half the queries are keys that are present.
    fn new(bytes: usize, huge_pages: bool) -> Hash {
        let capacity = (bytes / std::mem::size_of::<Bucket>()).next_power_of_two();
        let shift = 64 - capacity.trailing_zeros();
        let mut table = Hash {
            buckets: big_vec(capacity, Bucket { key: 0, value: 0 }, huge_pages),
            shift,
            queries: Vec::new(),
        };
        let present = capacity / 2;
        for i in 0..present {
            table.insert(key_of(i), i as u64 + 1);
        }
        let queries = (QUERY_STEPS / 4).clamp(1 << 12, 1 << 21);
        let mut rng = Rng(9);
        table.queries = (0..queries).map(|_| key_of(rng.below(2 * present))).collect();
        table
    }

    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn insert(&mut self, key: u64, value: u64) {
        let mask = self.buckets.len() - 1;
        let mut at = self.home(key);
        while self.buckets[at].key != 0 && self.buckets[at].key != key {
            at = (at + 1) & mask;
        }
        self.buckets[at] = Bucket { key, value };
    }

    fn steps(&self) -> usize {
        self.queries.len()
    }

    fn probe(buckets: &[Bucket], mut at: usize, key: u64) -> u64 {
        let mask = buckets.len() - 1;
        loop {
            let bucket = buckets[at];
            if bucket.key == key {
                return bucket.value;
            }
            if bucket.key == 0 {
                return 0;
            }
            at = (at + 1) & mask;
        }
    }

    fn serial(&self) -> u64 {
        let mut total = 0u64;
        for &key in &self.queries {
            total = total.wrapping_add(Hash::probe(&self.buckets, self.home(key), key));
        }
        total
    }

    fn run(&self, executor: Executor) -> u64 {
        let buckets = &self.buckets[..];
        executor.fold(
            self.queries.iter(),
            0u64,
            |&key| {
                let home = self.home(key);
                async move {
                    prefetch(&buckets[home]).await;
                    Hash::probe(buckets, home, key)
                }
            },
            u64::wrapping_add,
        )
    }
}

impl Hash {
    /// Hand-written interleaving: a ring of queries; each turn probes the
    /// bucket prefetched a round ago and prefetches the next query's bucket.
    fn hand(&self, slots: usize) -> u64 {
        let buckets = &self.buckets[..];
        let mut total = 0u64;
        let mut queries = self.queries.iter();
        let start = |key: u64| {
            let home = self.home(key);
            prefetch_now(&buckets[home]);
            (key, home)
        };
        let mut ring: Vec<Option<(u64, usize)>> = queries.by_ref().take(slots).map(|&k| Some(start(k))).collect();
        let mut live = ring.len();
        while live > 0 {
            for entry in ring.iter_mut() {
                let (key, home) = match *entry {
                    Some(query) => query,
                    None => continue,
                };
                total = total.wrapping_add(Hash::probe(buckets, home, key));
                *entry = queries.next().map(|&k| start(k));
                if entry.is_none() {
                    live -= 1;
                }
            }
        }
        total
    }
}

/// Distinct non-zero keys for indices below 2^63.
fn key_of(i: usize) -> u64 {
    mix(i as u64 + 1) | 1 << 63
}

// ---------------------------------------------------------------- harness

trait Kernel {
    fn steps(&self) -> usize;
    fn serial(&self) -> u64;
    fn run(&self, executor: Executor) -> u64;
    /// The hand-written interleaving, for kernels that have one.
    fn hand(&self, _slots: usize) -> Option<u64> {
        None
    }
    fn has_hand(&self) -> bool {
        false
    }
}

impl Kernel for Chase {
    fn steps(&self) -> usize {
        Chase::steps(self)
    }
    fn serial(&self) -> u64 {
        Chase::serial(self)
    }
    fn run(&self, executor: Executor) -> u64 {
        Chase::run(self, executor)
    }
    fn hand(&self, slots: usize) -> Option<u64> {
        Some(Chase::hand(self, slots))
    }
    fn has_hand(&self) -> bool {
        true
    }
}

impl Kernel for Search {
    fn steps(&self) -> usize {
        Search::steps(self)
    }
    fn serial(&self) -> u64 {
        Search::serial(self)
    }
    fn run(&self, executor: Executor) -> u64 {
        Search::run(self, executor)
    }
    fn hand(&self, slots: usize) -> Option<u64> {
        Some(Search::hand(self, slots))
    }
    fn has_hand(&self) -> bool {
        true
    }
}

impl Kernel for Hash {
    fn steps(&self) -> usize {
        Hash::steps(self)
    }
    fn serial(&self) -> u64 {
        Hash::serial(self)
    }
    fn run(&self, executor: Executor) -> u64 {
        Hash::run(self, executor)
    }
    fn hand(&self, slots: usize) -> Option<u64> {
        Some(Hash::hand(self, slots))
    }
    fn has_hand(&self) -> bool {
        true
    }
}

struct Row {
    workload: String,
    bytes: usize,
    variant: String,
    slots: usize,
    repeat: usize,
    seconds: f64,
    ns_per_step: f64,
    speedup: f64,
}

/// Runs `body` `passes` times; returns the seconds taken and the wrapping
/// sum of the answers (each pass must give the same answer).
///
/// The seconds are this thread's CPU time where the OS offers it: on a machine
/// shared with busy neighbours, wall time also counts the slices in which the
/// scheduler ran someone else, and that noise swamps the ratios.
fn measure(passes: usize, mut body: impl FnMut() -> u64) -> (f64, u64) {
    let start = Clock::now();
    let mut answer = 0u64;
    for _ in 0..passes {
        answer = answer.wrapping_add(body());
    }
    (start.elapsed(), answer)
}

#[cfg(target_os = "linux")]
struct Clock(f64);

#[cfg(target_os = "linux")]
impl Clock {
    fn now() -> Clock {
        #[repr(C)]
        struct Timespec {
            seconds: i64,
            nanoseconds: i64,
        }
        extern "C" {
            fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
        }
        const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
        let mut time = Timespec { seconds: 0, nanoseconds: 0 };
        // SAFETY: `time` is a valid timespec for the call to fill in.
        let status = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) };
        assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
        Clock(time.seconds as f64 + time.nanoseconds as f64 * 1e-9)
    }

    fn elapsed(&self) -> f64 {
        Clock::now().0 - self.0
    }
}

#[cfg(not(target_os = "linux"))]
struct Clock(Instant);

#[cfg(not(target_os = "linux"))]
impl Clock {
    fn now() -> Clock {
        Clock(Instant::now())
    }

    fn elapsed(&self) -> f64 {
        self.0.elapsed().as_secs_f64()
    }
}

fn human(bytes: usize) -> String {
    if bytes >= 1 << 30 && bytes % (1 << 30) == 0 {
        format!("{} GiB", bytes >> 30)
    } else if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

fn bench(kernel: &dyn Kernel, workload: &str, bytes: usize, options: &Options, rows: &mut Vec<Row>) {
    let steps = kernel.steps();
    let passes = (options.min_steps / steps).max(1);
    let wants = |v: &str| options.variants.iter().any(|w| w == v);
    for repeat in 0..options.repeats {
        let (serial_seconds, expected) = measure(passes, || kernel.serial());
        let mut results: Vec<(String, usize, f64)> = vec![("serial".into(), 1, serial_seconds)];
        let mut check = |variant: &str, slots: usize, (seconds, answer): (f64, u64)| {
            if answer != expected {
                eprintln!(
                    "bench: Verification: FAIL: {} {} {} with {} slots gave {:#x}, serial gave {:#x}",
                    workload, human(bytes), variant, slots, answer, expected
                );
                process::exit(1);
            }
            results.push((variant.to_string(), slots, seconds));
        };
        if wants("exec-serial") {
            check("exec-serial", 1, measure(passes, || kernel.run(Executor::serial())));
        }
        for &slots in &options.slots {
            if wants("hand") && kernel.has_hand() {
                check("hand", slots, measure(passes, || kernel.hand(slots).unwrap_or(0)));
            }
            if wants("interleave") {
                check("interleave", slots, measure(passes, || kernel.run(Executor::new(slots))));
            }
        }
        eprintln!(
            "bench: {} {} repeat {}/{}: Verification: PASS ({} variants), serial {:.1} ns/step",
            workload,
            human(bytes),
            repeat + 1,
            options.repeats,
            results.len(),
            serial_seconds * 1e9 / (passes * steps) as f64
        );
        for (variant, slots, seconds) in results {
            rows.push(Row {
                workload: workload.to_string(),
                bytes,
                variant,
                slots,
                repeat,
                seconds,
                ns_per_step: seconds * 1e9 / (passes * steps) as f64,
                speedup: serial_seconds / seconds,
            });
        }
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).expect("timings are finite"));
    let middle = values.len() / 2;
    if values.len() % 2 == 1 {
        values[middle]
    } else {
        (values[middle - 1] + values[middle]) / 2.0
    }
}

/// One markdown table per workload and size: median ns/step and median
/// speed-up over serial for every variant.
fn print_tables(rows: &[Row], options: &Options) -> io::Result<()> {
    let out = io::stdout();
    let mut out = out.lock();
    let mut seen: Vec<(String, usize)> = Vec::new();
    for row in rows {
        let key = (row.workload.clone(), row.bytes);
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    for (workload, bytes) in seen {
        writeln!(out, "\n{} over {} (medians of {} repeats)\n", workload, human(bytes), options.repeats)?;
        writeln!(out, "| variant | slots | ns/step | speed-up vs serial |")?;
        writeln!(out, "|---|---:|---:|---:|")?;
        let mut variants: Vec<(String, usize)> = Vec::new();
        for row in rows.iter().filter(|r| r.workload == workload && r.bytes == bytes) {
            let key = (row.variant.clone(), row.slots);
            if !variants.contains(&key) {
                variants.push(key);
            }
        }
        for (variant, slots) in variants {
            let matching = || {
                rows.iter()
                    .filter(|r| r.workload == workload && r.bytes == bytes && r.variant == variant && r.slots == slots)
            };
            let ns = median(matching().map(|r| r.ns_per_step).collect());
            let speedup = median(matching().map(|r| r.speedup).collect());
            writeln!(out, "| {} | {} | {:.2} | {:.2}x |", variant, slots, ns, speedup)?;
        }
    }
    Ok(())
}

fn write_csv(path: &str, rows: &[Row]) -> io::Result<()> {
    let mut file = io::BufWriter::new(File::create(path)?);
    writeln!(file, "workload,bytes,variant,slots,repeat,seconds,ns_per_step,speedup")?;
    for r in rows {
        writeln!(
            file,
            "{},{},{},{},{},{:.6},{:.3},{:.4}",
            r.workload, r.bytes, r.variant, r.slots, r.repeat, r.seconds, r.ns_per_step, r.speedup
        )?;
    }
    file.flush()
}

fn main() {
    let options = parse_options();
    let mut rows = Vec::new();
    for &bytes in &options.sizes {
        for workload in &options.workloads {
            eprintln!("bench: building {} over {}", workload, human(bytes));
            let kernel: Box<dyn Kernel> = match workload.as_str() {
                "chase" => Box::new(Chase::new(bytes, options.huge_pages)),
                "bsearch" => Box::new(Search::new(bytes, options.huge_pages)),
                _ => Box::new(Hash::new(bytes, options.huge_pages)),
            };
            bench(kernel.as_ref(), workload, bytes, &options, &mut rows);
        }
    }
    if let Some(path) = &options.csv {
        if let Err(error) = write_csv(path, &rows) {
            eprintln!("bench: cannot write {}: {}", path, error);
            process::exit(1);
        }
    }
    if let Err(error) = print_tables(&rows, &options) {
        eprintln!("bench: cannot print the tables: {}", error);
        process::exit(1);
    }
}
