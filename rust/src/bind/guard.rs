//! The wall between the engine and Python: work runs without the GIL, and a panic of the
//! engine (a bug) becomes the package's internal error, never a crash or a Python
//! `PanicException` (which escapes `except Exception`). Work that may wait for an input (a
//! FIFO, a device, a slow pipe) is interruptible: Python's signal handlers run meanwhile,
//! and one that raises stops the work and is the call's exception ([`watched`]).

use crate::read::open::{SLICE, Stop};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Condvar, Mutex, PoisonError};

/// The error for a panic of the engine while it was doing `what`.
pub fn internal(what: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "irscale: internal error of the native engine while {what}"
    ))
}

/// `work` without the GIL; a panic is the internal error of [`internal`].
pub fn detached<T: Send>(
    py: Python<'_>,
    what: &str,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(work)))
        .map_err(|_| internal(what))
}

/// `work`, which may wait for an input that `stop` ends the waits of, without the GIL (as
/// [`detached`]) and interruptible: it runs on a thread of its own while this one, every
/// [`SLICE`], takes the GIL back just to run Python's signal handlers
/// (`PyErr_CheckSignals`, which runs them on the main thread only). A handler that raises
/// (^C's `KeyboardInterrupt`, the command line's stop signals) sets `stop`: the work's
/// waits end within a slice (work that is not waiting goes on to its end), and the
/// handler's exception is the call's, whatever the work gave. Where no thread can be
/// started, the work runs here as [`detached`] runs it.
pub fn watched<T: Send>(
    py: Python<'_>,
    what: &str,
    stop: &Stop,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let work = Mutex::new(Some(work));
    let run = || {
        let work = work.lock().unwrap_or_else(PoisonError::into_inner).take();
        work.map(|work| catch_unwind(AssertUnwindSafe(work)))
    };
    // the work's outcome, handed over when it is done
    let done = Mutex::new(None);
    let ready = Condvar::new();
    let mut raised = None;
    let outcome = std::thread::scope(|scope| {
        let started = std::thread::Builder::new().spawn_scoped(scope, || {
            let outcome = run();
            *done.lock().unwrap_or_else(PoisonError::into_inner) = Some(outcome);
            ready.notify_one();
        });
        if started.is_err() {
            return py.detach(run);
        }
        loop {
            let outcome = py.detach(|| {
                let held = done.lock().unwrap_or_else(PoisonError::into_inner);
                let (mut held, _) = ready
                    .wait_timeout_while(held, SLICE, |outcome| outcome.is_none())
                    .unwrap_or_else(PoisonError::into_inner);
                held.take()
            });
            if let Some(outcome) = outcome {
                return outcome;
            }
            if raised.is_none() {
                if let Err(error) = py.check_signals() {
                    raised = Some(error);
                    stop.stop();
                }
            }
        }
    });
    if let Some(error) = raised {
        return Err(error);
    }
    match outcome {
        Some(Ok(value)) => Ok(value),
        _ => Err(internal(what)),
    }
}
