//! Without a CUDA driver (CI, most laptops) nothing panics: `--backend gpu` is a clear error,
//! `auto` runs the simulator and says why, `info` works.
//!
//! These checks run everywhere, also on a machine that has a driver: each one starts the binary
//! with `CUDA_ACADEMY_HIDE_DRIVER=1`, which makes it behave as if libcuda were not installed.
//! (In-process library calls cannot hide the driver without affecting the GPU tests that share
//! this test binary.)

// Test helpers: a failed unwrap is a failed test, with its message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Command, Output};

use cuda_academy::gpu::cuda::context::HIDE_DRIVER_ENV;

/// The binary with the driver hidden (and a throwaway state dir).
fn hidden(args: &[&str]) -> Output {
    let state = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_cuda-academy"))
        .args(args)
        .env(HIDE_DRIVER_ENV, "1")
        .env("CUDA_ACADEMY_STATE_DIR", state.path())
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn no_crash(out: &Output) {
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!all.contains("panicked"), "{all}");
    assert!(!all.contains("stack backtrace"), "{all}");
    assert_ne!(out.status.code(), Some(101), "{all}");
}

#[test]
fn gpu_backend_without_driver_is_a_clear_error() {
    let out = hidden(&["run", "pinned-alloc", "--backend", "gpu", "--size", "1M"]);
    no_crash(&out);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("no CUDA driver found (libcuda.so could not be loaded)"),
        "{err}"
    );
    assert!(err.contains("--backend sim"), "{err}");
    assert!(out.stdout.is_empty(), "no results without a backend");
}

#[test]
fn info_succeeds_without_a_gpu_and_says_so() {
    let out = hidden(&["info"]);
    no_crash(&out);
    assert_eq!(out.status.code(), Some(0));
    let text_out = text(&out.stdout);
    assert!(text_out.contains("none usable"), "{text_out}");
    assert!(text_out.contains("no CUDA driver found"), "{text_out}");
    assert!(text_out.contains("Profile:         h200"), "{text_out}");

    let out = hidden(&["info", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["backend"], "simulated");
    assert_eq!(json["driver_loaded"], false);
    assert_eq!(json["devices"], 0);
    assert_eq!(json["cupti"]["available"], false);
    assert_eq!(json["profile"], "h200");
    assert!(json.get("device").is_none());

    // `--backend gpu` reports the failure and exits 1, after printing what it found.
    let out = hidden(&["info", "--backend", "gpu"]);
    no_crash(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("none usable"));
}

#[test]
fn auto_falls_back_to_the_simulator_with_the_reason() {
    let out = hidden(&["run", "pinned-alloc", "--size", "1M", "--json"]);
    no_crash(&out);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["backend"]["kind"], "simulated");
    assert_eq!(json["backend"]["profile"], "h200");
    let reason = json["backend"]["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("no CUDA driver found"), "{reason}");
    let out = hidden(&[
        "run",
        "pinned-alloc",
        "--size",
        "1M",
        "--json",
        "--backend",
        "sim",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["backend"]["reason"], "--backend sim");
}

/// Calibrating needs a GPU: without one, only an explicit `--backend sim` measures the
/// simulator (review M4); nothing is written otherwise.
#[test]
fn calibrate_without_a_gpu_refuses_unless_the_simulator_is_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("cal.toml");
    let out = hidden(&["calibrate", "--out", out_path.to_str().unwrap()]);
    no_crash(&out);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("no GPU to measure"), "{err}");
    assert!(err.contains("--backend sim"), "{err}");
    assert!(!out_path.exists(), "a refused calibration wrote a profile");
}

/// Without a driver the backend is known before CUDA is asked, so the TUI's first frame can
/// name it: the simulator for `auto` and `sim`, a clear error for `gpu`. (The library call is
/// only meaningful where no driver exists; the binary-level tests above cover the rest.)
#[test]
fn backend_is_known_without_cuda_init_when_there_is_no_driver() {
    use cuda_academy::cli::{BackendChoice, BackendSpec};
    use cuda_academy::gpu::detect::known_without_init;
    let sim =
        known_without_init(&BackendSpec::new(BackendChoice::Sim, 0)).expect("sim is always known");
    assert!(sim.is_ok());
    if cuda_academy::gpu::cuda::context::driver_present() {
        // With a driver, `auto` needs CUDA init to decide: not known up front.
        assert!(known_without_init(&BackendSpec::new(BackendChoice::Auto, 0)).is_none());
        return;
    }
    let auto = known_without_init(&BackendSpec::new(BackendChoice::Auto, 0))
        .expect("known without a driver");
    let info = auto.expect("auto falls back to the simulator");
    assert_eq!(
        info.backend.kind,
        cuda_academy::report::BackendKind::Simulated
    );
    assert!(
        info.backend
            .reason
            .unwrap_or_default()
            .contains("no CUDA driver")
    );
    let gpu = known_without_init(&BackendSpec::new(BackendChoice::Gpu, 0))
        .expect("known without a driver");
    assert!(gpu.unwrap_err().contains("no CUDA driver"));
}
