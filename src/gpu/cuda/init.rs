//! `cuInit`, once per process, with a time limit, and never in this process when the driver
//! would hang or crash in it.
//!
//! A `cuInit` that never returns (a wedged GPU, a half-installed driver) cannot be cancelled: a
//! thread blocked in it stays blocked, may hold the driver's own locks, and the driver's exit
//! handlers could then block the process's exit too. So the binary first runs `cuInit` in a
//! child process (itself, with [`PROBE_ARG`]), which is killed when it does not answer within
//! the limit (`CUDA_ACADEMY_CUINIT_TIMEOUT_S`, default 30 s). Only when the child answered does
//! this process call `cuInit` itself, again on a thread with the same limit as a second guard. A
//! driver that crashes in `cuInit` takes only the child down.
//!
//! Library users (tests, benchmarks) that never call [`use_child_probe`] skip the child: their
//! executable is not `cuda-academy` and would not understand [`PROBE_ARG`].

use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use cudarc::driver::result;
use cudarc::driver::sys;

use super::error::map;
use crate::gpu::GpuError;

/// Seconds `cuInit` may take before the driver is reported as not answering (default 30: a
/// cold start of many GPUs without persistence mode takes seconds, never this long).
pub const INIT_TIMEOUT_ENV: &str = "CUDA_ACADEMY_CUINIT_TIMEOUT_S";

/// The hidden first argument that makes the binary a `cuInit` probe and nothing else.
pub const PROBE_ARG: &str = "__probe-cuinit";

/// What the probe prints once `cuInit` has returned, whatever it returned.
const ANSWERED: &str = "cuinit-answered";

/// What `cuInit` said, remembered for the process (it is a process-wide call).
#[derive(Debug, Clone)]
pub(super) enum Init {
    Ready,
    NoDevice,
    Failed(GpuError),
}

static INIT: Mutex<Option<Init>> = Mutex::new(None);
static CHILD_PROBE: AtomicBool = AtomicBool::new(false);

/// Probe the driver in a child process before calling `cuInit` here (the binary's `main` calls
/// this; see the module comment).
pub fn use_child_probe() {
    CHILD_PROBE.store(true, Ordering::Relaxed);
}

/// In the child started by [`use_child_probe`]: when this process was started with
/// [`PROBE_ARG`], call `cuInit`, say that it answered, and return the exit code; `None`
/// otherwise. The child leaves by `_exit`, never through exit handlers a driver could block.
pub fn serve_probe_if_asked() -> Option<ExitCode> {
    if std::env::args_os().nth(1).is_none_or(|a| a != PROBE_ARG) {
        return None;
    }
    let (tx, rx) = mpsc::channel();
    let _ = std::thread::Builder::new().spawn(move || {
        let _ = crate::gpu::quiet::catch_quietly(result::init);
        let _ = tx.send(());
    });
    // The parent kills this process at the limit; the extra second only covers a parent that
    // died first, so that no probe outlives it for long.
    if rx
        .recv_timeout(init_timeout() + Duration::from_secs(1))
        .is_ok()
    {
        let mut out = std::io::stdout();
        let _ = writeln!(out, "{ANSWERED}");
        let _ = out.flush();
    }
    signal_hook::low_level::exit(0)
}

/// `cuInit`, once; a driver that does not answer in time, or crashes, is an error.
pub(super) fn init_once() -> Init {
    let mut slot = INIT.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(done) = &*slot {
        return done.clone();
    }
    let outcome = match CHILD_PROBE.load(Ordering::Relaxed).then(probe_in_child) {
        Some(Some(refused)) => Init::Failed(refused),
        Some(None) | None => init_on_thread(),
    };
    *slot = Some(outcome.clone());
    outcome
}

/// Whether `cuInit` has run and failed: later driver queries are skipped (a hung or stub driver
/// would only hang or fail again).
pub fn init_failed() -> bool {
    matches!(
        &*INIT.lock().unwrap_or_else(|p| p.into_inner()),
        Some(Init::Failed(_))
    )
}

/// Run `cuInit` in a child. `Some(error)` when the driver hung or crashed there (this process
/// must not call it); `None` when it answered, or when no child could tell (then this process
/// calls it on a thread, as library users do).
fn probe_in_child() -> Option<GpuError> {
    let exe = std::env::current_exe().ok()?;
    let mut child = Command::new(exe)
        .arg(PROBE_ARG)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let limit = init_timeout();
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let answered = read_all(&mut child).contains(ANSWERED);
                return match status.signal() {
                    Some(sig) if !answered => Some(crashed(sig)),
                    _ => None,
                };
            }
            Ok(None) if start.elapsed() >= limit => {
                give_up_on(child);
                return Some(timed_out(limit));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => return None,
        }
    }
}

fn read_all(child: &mut Child) -> String {
    let mut text = String::new();
    if let Some(out) = child.stdout.as_mut() {
        let _ = out.take(4096).read_to_string(&mut text);
    }
    text
}

/// Kill a probe stuck in the driver, and reap it on a thread of its own: a process blocked in
/// the kernel dies only when the kernel lets go, and nothing here waits for that.
fn give_up_on(mut child: Child) {
    let _ = child.kill();
    let _ = std::thread::Builder::new()
        .name("cuinit-probe-reaper".into())
        .spawn(move || child.wait());
}

/// `cuInit` on a thread of its own with the time limit (the stuck thread, if any, is left
/// behind and no later call touches the driver).
fn init_on_thread() -> Init {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("cuda-init".into())
        .spawn(move || {
            let outcome = crate::gpu::quiet::catch_quietly(|| match result::init() {
                Ok(()) => Init::Ready,
                Err(e) if e.0 == sys::CUresult::CUDA_ERROR_NO_DEVICE => Init::NoDevice,
                Err(e) => Init::Failed(map("cuInit", e)),
            });
            let _ = tx.send(outcome.unwrap_or_else(Init::Failed));
        });
    let limit = init_timeout();
    match spawned {
        Err(e) => Init::Failed(GpuError::Driver {
            call: "cuInit".into(),
            message: format!("cannot start a thread for it: {e}"),
        }),
        Ok(_) => rx
            .recv_timeout(limit)
            .unwrap_or_else(|_| Init::Failed(timed_out(limit))),
    }
}

fn timed_out(limit: Duration) -> GpuError {
    GpuError::Driver {
        call: "cuInit".into(),
        message: format!(
            "the driver did not answer within {} s; check the GPU with `nvidia-smi`, or use \
             --backend sim",
            limit.as_secs_f64()
        ),
    }
}

fn crashed(signal: i32) -> GpuError {
    GpuError::Driver {
        call: "cuInit".into(),
        message: format!(
            "the driver crashed while initialising (signal {signal}, in a probe process); check \
             the driver installation with `nvidia-smi`, or use --backend sim"
        ),
    }
}

fn init_timeout() -> Duration {
    std::env::var(INIT_TIMEOUT_ENV)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e6)
        .map_or(Duration::from_secs(30), Duration::from_secs_f64)
}
