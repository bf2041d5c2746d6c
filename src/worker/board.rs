//! The worker's job board: which job runs now (with its cancel flag), which wait in the queue,
//! and which were cancelled before they started. The UI thread cancels through it; the worker
//! thread takes jobs off it. One lock, held for a few field updates, never across a GPU call.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// One piece of work for the worker: an experiment run or an exercise check, by the id the UI
/// gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Job {
    Run(u64),
    Check(u64),
}

#[derive(Debug, Default)]
struct State {
    current: Option<(Job, Arc<AtomicBool>)>,
    queued: Vec<Job>,
    cancelled: HashSet<Job>,
}

/// Shared between the [`super::Worker`] handle and its thread.
#[derive(Debug, Clone, Default)]
pub struct Board(Arc<Mutex<State>>);

impl Board {
    fn state(&self) -> MutexGuard<'_, State> {
        // A panic never happens while the lock is held (plain field updates), but if one did the
        // board is still consistent: take it back rather than stop the worker.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `job` was sent to the worker and waits its turn.
    pub fn queue(&self, job: Job) {
        self.state().queued.push(job);
    }

    /// The worker takes `job`: its cancel flag, or `None` when it was cancelled while queued.
    pub fn start(&self, job: Job) -> Option<Arc<AtomicBool>> {
        let mut s = self.state();
        s.queued.retain(|j| *j != job);
        if s.cancelled.remove(&job) {
            return None;
        }
        let flag = Arc::new(AtomicBool::new(false));
        s.current = Some((job, Arc::clone(&flag)));
        Some(flag)
    }

    /// The current job is over.
    pub fn finish(&self) {
        self.state().current = None;
    }

    /// The job running now, if any.
    pub fn current(&self) -> Option<Job> {
        self.state().current.as_ref().map(|(job, _)| *job)
    }

    /// Cancel every job `which` picks: the running one stops at its next step, a queued one is
    /// skipped when its turn comes.
    pub fn cancel(&self, which: impl Fn(Job) -> bool) {
        let mut s = self.state();
        if let Some((job, flag)) = &s.current
            && which(*job)
        {
            flag.store(true, Ordering::Relaxed);
        }
        let queued: Vec<Job> = s.queued.iter().copied().filter(|j| which(*j)).collect();
        s.cancelled.extend(queued);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_queued_job_is_skipped_and_the_running_one_is_flagged() {
        let board = Board::default();
        board.queue(Job::Run(1));
        board.queue(Job::Check(1));
        let run = board.start(Job::Run(1)).expect("the run starts");
        board.cancel(|j| j == Job::Check(1));
        assert!(
            !run.load(Ordering::Relaxed),
            "cancelling the check leaves the run"
        );
        board.finish();
        assert!(
            board.start(Job::Check(1)).is_none(),
            "skipped: cancelled while queued"
        );
        board.queue(Job::Check(2));
        let check = board.start(Job::Check(2)).expect("a later check starts");
        assert_eq!(board.current(), Some(Job::Check(2)));
        board.cancel(|j| matches!(j, Job::Check(_)));
        assert!(
            check.load(Ordering::Relaxed),
            "the running check is told to stop"
        );
    }
}
