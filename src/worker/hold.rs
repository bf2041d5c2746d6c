//! A test hook for the end-to-end tests: hold every experiment run at its phases until it is
//! cancelled, so a test that presses Esc during a run knows the run is still going when the key
//! arrives, however fast the simulator is. Without it the test raced the run's end.
//!
//! Only debug builds (`debug_assertions`, the builds `cargo test` runs) read the variable; a
//! release build, the one `cargo install` gives a user, has no such path. The variable's name
//! says what it is for; nothing else sets it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Set (to anything) in a debug build: every run waits at each phase until it is cancelled.
pub const HOLD_RUNS_ENV: &str = "CUDA_ACADEMY_TEST_HOLD_RUNS_UNTIL_CANCELLED";

/// How often a held run looks at its cancel flag (the flag is an atomic with no waker).
const POLL: Duration = Duration::from_millis(5);

/// Whether runs are held: read once when the worker starts.
pub fn requested() -> bool {
    cfg!(debug_assertions) && std::env::var_os(HOLD_RUNS_ENV).is_some()
}

/// Return once `cancel` is set. The run then goes on to its next step, which sees the flag and
/// stops the way any cancelled run does (the path under test).
pub fn until_cancelled(cancel: &AtomicBool) {
    while !cancel.load(Ordering::Relaxed) {
        std::thread::sleep(POLL);
    }
}
