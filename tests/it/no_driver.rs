//! Without a CUDA driver (CI, most laptops) nothing panics: `--backend gpu` is a clear error,
//! `auto` runs the simulator and says why, `probe` and `info` work.
//! On a machine that has a driver these checks do not apply and are skipped with a note.

use cuda_academy::cli::BackendChoice;
use cuda_academy::cli::info::{gather, render_text};
use cuda_academy::gpu::GpuError;
use cuda_academy::gpu::cuda::context::driver_present;
use cuda_academy::gpu::detect;
use cuda_academy::report::BackendKind;

fn no_driver() -> bool {
    if driver_present() {
        eprintln!("a CUDA driver is present here: no-driver checks skipped");
        return false;
    }
    true
}

#[test]
fn gpu_backend_without_driver_is_a_clear_error() {
    if !no_driver() {
        return;
    }
    let err = detect::open(BackendChoice::Gpu, 0)
        .err()
        .expect("must fail without a driver");
    assert!(matches!(err, GpuError::NoDriver(_)), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("no CUDA driver found (libcuda.so could not be loaded)"),
        "{text}"
    );
    assert!(text.contains("--backend sim"), "{text}");
}

#[test]
fn probe_reports_why_the_simulator_runs() {
    if !no_driver() {
        return;
    }
    let s = detect::probe();
    assert!(!s.driver);
    assert_eq!(s.devices, 0);
    assert_eq!(s.chosen, BackendKind::Simulated);
    assert!(s.reason.contains("no CUDA driver found"), "{}", s.reason);
    assert!(!s.cupti);
}

#[test]
fn info_succeeds_without_a_gpu_and_says_so() {
    if !no_driver() {
        return;
    }
    let (report, failure) = gather(BackendChoice::Auto, 0);
    assert!(failure.is_none());
    assert_eq!(report.backend, BackendKind::Simulated);
    assert!(report.device.is_none());
    let text = render_text(&report);
    assert!(text.contains("none usable"), "{text}");
    assert!(text.contains("no CUDA driver found"), "{text}");
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["backend"], "simulated");
    // `--backend gpu` reports the failure (the command exits 1).
    let (_, failure) = gather(BackendChoice::Gpu, 0);
    assert!(failure.is_some());
}

#[test]
fn auto_falls_back_to_the_simulator_with_the_reason() {
    if !no_driver() {
        return;
    }
    let g = detect::open(BackendChoice::Auto, 0).expect("auto always opens a backend");
    let b = &g.info().backend;
    assert_eq!(b.kind, BackendKind::Simulated);
    assert_eq!(b.profile.as_deref(), Some("h200"));
    let reason = b.reason.clone().unwrap_or_default();
    assert!(reason.contains("no CUDA driver found"), "{reason}");
    let sim = detect::open(BackendChoice::Sim, 0).expect("sim opens");
    assert_eq!(sim.info().backend.reason.as_deref(), Some("--backend sim"));
    let (report, _) = gather(BackendChoice::Auto, 0);
    assert_eq!(report.profile.as_deref(), Some("h200"));
}

/// Without a driver the backend is known before CUDA is asked, so the TUI's first frame can
/// name it: the simulator for `auto` and `sim`, a clear error for `gpu`.
#[test]
fn backend_is_known_without_cuda_init_when_there_is_no_driver() {
    use cuda_academy::gpu::detect::known_without_init;
    let auto = known_without_init(BackendChoice::Auto, 0).expect("known without a driver");
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
    let sim = known_without_init(BackendChoice::Sim, 0).expect("sim is always known");
    assert!(sim.is_ok());
    let gpu = known_without_init(BackendChoice::Gpu, 0).expect("known without a driver");
    assert!(gpu.unwrap_err().contains("no CUDA driver"));
}
