//! The two kinds of job the worker runs, each with its events: an experiment run (phases, then
//! its report) and an exercise check (started, then its verdict). Each catches a panic and says
//! so, so the worker can reopen the backend and go on.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{CheckRunner, Request, Runner, WorkerEvent, failed_verdict};
use crate::exercise::SharedVerdict;
use crate::experiment::{ExperimentOptions, RunContext};
use crate::gpu::Gpu;

/// The worker's backend, once open.
pub type Backend = Box<dyn Gpu + Send>;

/// The event for a job cancelled before its turn came.
pub fn skipped(request: Request) -> WorkerEvent {
    match request {
        Request::Run { run_id, .. } => WorkerEvent::Done {
            run_id,
            result: Err("cancelled before it started".to_string()),
        },
        Request::Check { check_id, id, .. } => WorkerEvent::Checked {
            check_id,
            id,
            verdict: SharedVerdict(Arc::new(failed_verdict(
                "cancelled before it started".to_string(),
            ))),
            cancelled: true,
        },
    }
}

const NO_BACKEND: &str = "no backend could be opened (see the status bar)";

pub struct RunJob<'a> {
    pub run_id: u64,
    pub experiment: &'a str,
    pub options: &'a ExperimentOptions,
    /// The end-to-end tests' hook ([`super::hold`]): wait at each phase until cancelled.
    pub hold: bool,
}

impl RunJob<'_> {
    /// Run the experiment and emit its phases and result; returns whether it panicked.
    pub fn serve(
        &self,
        runner: Runner,
        gpu: Option<&mut Backend>,
        cancel: &AtomicBool,
        emit: &dyn Fn(WorkerEvent),
    ) -> bool {
        let run_id = self.run_id;
        let Some(backend) = gpu else {
            let result = Err(NO_BACKEND.to_string());
            emit(WorkerEvent::Done { run_id, result });
            return false;
        };
        let progress = |text: &str| {
            emit(WorkerEvent::Phase {
                run_id,
                text: text.to_string(),
            });
            if self.hold {
                super::hold::until_cancelled(cancel);
            }
        };
        let ctx = RunContext {
            cancel,
            progress: &progress,
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            runner(self.experiment, backend.as_mut(), self.options, &ctx)
        }));
        let (result, crashed) = match outcome {
            Ok(Ok(report)) => (Ok(Box::new(report)), false),
            Ok(Err(err)) => (Err(err.to_string()), false),
            Err(panic) => (
                Err(format!("the experiment crashed: {}", panic_message(&panic))),
                true,
            ),
        };
        emit(WorkerEvent::Done { run_id, result });
        crashed
    }
}

pub struct CheckJob<'a> {
    pub check_id: u64,
    pub id: &'a str,
    pub text: &'a str,
}

impl CheckJob<'_> {
    /// Check the exercise and emit its verdict; returns whether the check panicked.
    pub fn serve(
        &self,
        runner: CheckRunner,
        gpu: Option<&mut Backend>,
        cancel: &AtomicBool,
        emit: &dyn Fn(WorkerEvent),
    ) -> bool {
        let (verdict, crashed) = match gpu {
            None => (failed_verdict(NO_BACKEND.to_string()), false),
            Some(backend) => {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    runner(self.id, self.text, backend.as_mut(), cancel)
                }));
                match outcome {
                    Ok(verdict) => (verdict, false),
                    Err(panic) => {
                        let why = format!("the check crashed: {}", panic_message(&panic));
                        (failed_verdict(why), true)
                    }
                }
            }
        };
        emit(WorkerEvent::Checked {
            check_id: self.check_id,
            id: self.id.to_string(),
            verdict: SharedVerdict(Arc::new(verdict)),
            cancelled: cancel.load(Ordering::Relaxed),
        });
        crashed
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}
