//! Review C3: a run never grows into an out-of-memory kill. The simulator's footprint counts
//! its device buffers (kept in host memory), and under an address-space limit (`ulimit -v`,
//! as `prlimit --as` sets) a too-large run is refused with a message naming a size that fits,
//! instead of aborting on a failed allocation.

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

/// A 1 GiB address space: `pipeline --size 1G` would hold 3 GiB on the simulator.
#[test]
fn an_address_space_limit_is_a_refusal_that_names_a_size_that_fits() {
    let out = limited(
        1 << 20,
        &["run", "pipeline", "--backend", "sim", "--size", "1G"],
    );
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("of host memory"), "{err}");
    let fits = err
        .split("the largest size that fits is --size ")
        .nth(1)
        .unwrap_or_else(|| panic!("no size that fits named: {err}"))
        .trim()
        .to_string();
    // And that size does run under the same limit.
    let out = limited(
        1 << 20,
        &["run", "pipeline", "--backend", "sim", "--size", &fits],
    );
    assert_no_crash(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "--size {fits}: {}",
        text(&out.stderr)
    );
}

/// Without `--size`, the default shrinks to what the limit leaves, with a note.
#[test]
fn defaults_shrink_under_an_address_space_limit() {
    let out = limited(
        1_000_000,
        &["run", "pageable-vs-pinned", "--backend", "sim", "--json"],
    );
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes = report["notes"].to_string();
    assert!(notes.contains("size reduced from 256 MiB"), "{notes}");
}
