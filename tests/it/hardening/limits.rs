//! Review C3: a run never grows into an out-of-memory kill. The simulator holds no bytes, so an
//! address-space limit (`ulimit -v`, as `prlimit --as` sets) does not stop it; sizes its profiled
//! host could not hold are refused with a message. (A live GPU's host buffers are checked
//! against free memory before allocating: `experiment::fit` tests.)

use std::process::Output;

use super::{assert_no_crash, text};

/// `cuda-academy ARGS` under `ulimit -v KIB` (through `sh`, which sets it for the child).
fn limited(kib: u64, args: &[&str]) -> Output {
    let state = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_cuda-academy");
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(bin)
        .args(args)
        .env("CUDA_ACADEMY_STATE_DIR", state.path())
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap()
}

/// A 1 GiB address space: the simulator holds descriptions, not bytes, so an 8 GiB pipeline
/// runs (and verifies) in a few megabytes instead of being aborted or killed.
#[test]
fn an_address_space_limit_does_not_stop_the_simulator() {
    let out = limited(
        1 << 20,
        &["run", "pipeline", "--backend", "sim", "--size", "8G"],
    );
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("floats match"),
        "{}",
        text(&out.stdout)
    );
}

/// A size the simulated host (the profiled machine) could not hold runs on the simulator, which
/// holds no bytes (issue 10 §1), with a note that a live run there would be refused; under a
/// 1 GiB address space too.
#[test]
fn a_size_beyond_the_profiled_host_runs_with_a_note() {
    let out = limited(
        1 << 20,
        &["run", "pipeline", "--backend", "sim", "--size", "64G"],
    );
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("floats match") && stdout.contains("would be refused for host memory"),
        "{stdout}"
    );
}
