//! Starting the program under the injection library and handing back how it ended. Its stdin,
//! stdout and stderr are this process's own (inherited, untouched); its exit status comes back
//! as a shell gives it (a signal death as 128 + the signal), and a program that cannot be
//! started as a shell says it (127: not found, 126: not executable).
//!
//! While it runs, SIGINT and SIGQUIT are caught and dropped here: the terminal sends them to the
//! program too (one process group), and `trace` must outlive it to report. SIGTERM and SIGHUP,
//! which are sent to one process, are passed on to the program. Caught rather than ignored, so
//! the program starts with every signal at its default (an ignored signal stays ignored across
//! `exec`).

use std::ffi::OsString;
use std::os::unix::process::ExitStatusExt as _;
use std::path::Path;
use std::process::Command;

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};

/// What to start and how.
pub struct Launch<'a> {
    /// The program and its arguments.
    pub argv: &'a [OsString],
    /// The trace file the library writes.
    pub trace_file: &'a Path,
    /// The injection library (`CUDA_INJECTION64_PATH`); `None` runs the program untraced.
    pub library: Option<&'a Path>,
}

/// How the program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this code.
    Code(i32),
    /// A signal killed it.
    Signal(i32),
}

impl Ended {
    /// The exit status a shell would report: the code, or 128 + the signal.
    pub fn exit_code(self) -> u8 {
        let code = match self {
            Ended::Code(c) => c,
            Ended::Signal(s) => 128 + s,
        };
        u8::try_from(code & 0xff).unwrap_or(1)
    }
}

/// Why the program did not start.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error("{0}: command not found")]
    NotFound(String),
    #[error("{0}: not executable ({1})")]
    NotExecutable(String, std::io::Error),
    #[error("{0}: could not start: {1}")]
    Other(String, std::io::Error),
    #[error("no program given: cuda-academy trace -- PROGRAM [ARGS...]")]
    Empty,
}

impl LaunchError {
    /// The shell's exit status for it.
    pub fn exit_code(&self) -> u8 {
        match self {
            LaunchError::NotFound(_) => 127,
            LaunchError::NotExecutable(..) => 126,
            LaunchError::Other(..) | LaunchError::Empty => 1,
        }
    }
}

/// The environment the program gets on top of this one's: the library for CUDA and for NVTX,
/// and the trace file.
pub fn environment<'a>(launch: &'a Launch<'a>) -> Vec<(&'static str, &'a std::ffi::OsStr)> {
    let Some(library) = launch.library else {
        return Vec::new();
    };
    vec![
        ("CUDA_INJECTION64_PATH", library.as_os_str()),
        ("NVTX_INJECTION64_PATH", library.as_os_str()),
        (super::TRACE_FILE_ENV, launch.trace_file.as_os_str()),
    ]
}

/// Run the program to its end.
pub fn run(launch: &Launch<'_>) -> Result<Ended, LaunchError> {
    run_with(launch, |_| Ok(()))
}

/// [`run`] with the program's stdout and stderr going to `output` (a check that reports what
/// the program printed: `exercise check --native`); its stdin stays this process's.
pub fn run_into(launch: &Launch<'_>, output: &std::fs::File) -> Result<Ended, LaunchError> {
    run_with(launch, |cmd| {
        cmd.stdout(output.try_clone()?).stderr(output.try_clone()?);
        Ok(())
    })
}

fn run_with(
    launch: &Launch<'_>,
    configure: impl FnOnce(&mut Command) -> std::io::Result<()>,
) -> Result<Ended, LaunchError> {
    let (program, args) = launch.argv.split_first().ok_or(LaunchError::Empty)?;
    let shown = crate::sanitize::clean_line(&program.to_string_lossy());
    let mut cmd = Command::new(program);
    cmd.args(args).envs(environment(launch));
    configure(&mut cmd).map_err(|err| LaunchError::Other(shown.clone(), err))?;
    let signals = signal_hook::iterator::Signals::new([SIGINT, SIGQUIT, SIGTERM, SIGHUP]);
    let mut child = cmd.spawn().map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => LaunchError::NotFound(shown.clone()),
        std::io::ErrorKind::PermissionDenied => LaunchError::NotExecutable(shown.clone(), err),
        _ if err.raw_os_error() == Some(8) => LaunchError::NotExecutable(shown.clone(), err),
        _ => LaunchError::Other(shown.clone(), err),
    })?;
    let pid = child.id();
    let forwarder = signals.ok().map(|mut signals| {
        let handle = signals.handle();
        let thread = std::thread::spawn(move || {
            for signal in signals.forever() {
                if signal == SIGTERM || signal == SIGHUP {
                    forward(pid, signal);
                }
            }
        });
        (handle, thread)
    });
    let status = child.wait();
    if let Some((handle, thread)) = forwarder {
        handle.close();
        let _ = thread.join();
    }
    let status = status.map_err(|err| LaunchError::Other(shown, err))?;
    Ok(match (status.code(), status.signal()) {
        (Some(code), _) => Ended::Code(code),
        (None, Some(signal)) => Ended::Signal(signal),
        (None, None) => Ended::Code(1),
    })
}

/// Pass `signal` on to the program.
fn forward(pid: u32, signal: i32) {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    if let (Ok(pid), Ok(signal)) = (i32::try_from(pid), Signal::try_from(signal)) {
        let _ = kill(Pid::from_raw(pid), signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_the_shells() {
        assert_eq!(Ended::Code(0).exit_code(), 0);
        assert_eq!(Ended::Code(3).exit_code(), 3);
        assert_eq!(Ended::Code(256 + 7).exit_code(), 7);
        assert_eq!(Ended::Signal(9).exit_code(), 137);
        assert_eq!(LaunchError::NotFound("x".into()).exit_code(), 127);
        assert_eq!(
            LaunchError::NotExecutable("x".into(), std::io::Error::other("no")).exit_code(),
            126
        );
    }
}
