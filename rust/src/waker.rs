//! The two wakers the executor polls with.
//!
//! No task ever waits for an event: a slot is polled again on its next turn
//! whatever happened, so waking does nothing. The wakers only differ in
//! identity, which tells [`crate::Prefetch`] whether it runs interleaved (issue
//! the prefetch and yield) or serially (the data is cache-resident: do neither).
//! Both vtables are `static`s, so after inlining the comparison in
//! [`runs_serially`] folds to a constant and the serial path carries no test.

use std::mem::ManuallyDrop;
use std::ptr;
use std::task::{Context, RawWaker, RawWakerVTable, Waker};

fn clone_interleaved(_: *const ()) -> RawWaker {
    RawWaker::new(ptr::null(), &INTERLEAVED)
}

fn clone_serial(_: *const ()) -> RawWaker {
    RawWaker::new(ptr::null(), &SERIAL)
}

fn ignore(_: *const ()) {}

// `static`, not `const`: each needs one address of its own for the identity test.
static INTERLEAVED: RawWakerVTable = RawWakerVTable::new(clone_interleaved, ignore, ignore, ignore);
static SERIAL: RawWakerVTable = RawWakerVTable::new(clone_serial, ignore, ignore, ignore);

pub(crate) fn interleaved() -> Waker {
    // SAFETY: every vtable function ignores the data pointer, so null is fine,
    // and none of them has an effect to be unsound about.
    unsafe { Waker::from_raw(clone_interleaved(ptr::null())) }
}

pub(crate) fn serial() -> Waker {
    // SAFETY: as in `interleaved`.
    unsafe { Waker::from_raw(clone_serial(ptr::null())) }
}

/// True when `cx` comes from a serial run ([`crate::Executor::serial`]):
/// futures should then neither prefetch nor yield.
#[inline(always)]
pub(crate) fn runs_serially(cx: &Context<'_>) -> bool {
    // ManuallyDrop: dropping would call through the vtable for nothing.
    let serial = ManuallyDrop::new(serial());
    cx.waker().will_wake(&serial)
}
