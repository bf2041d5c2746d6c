//! The `alternatives` experiment (issue 30) on the simulator: its contract, its checksum, and
//! the model's physics (which way wins which access, and that each fitted parameter moves the
//! time it should). `alternatives_gpu` runs the experiment on the GPU.

// Test helpers outside `#[test]` functions may fail loudly too.
#![allow(clippy::unwrap_used, clippy::panic)]

use cuda_academy::experiment::alternatives::{self, SPARSE_STRIDE};
use cuda_academy::experiment::{self, ExperimentOptions, RunContext};
use cuda_academy::gpu::profile::Profile;
use cuda_academy::gpu::sim::SimGpu;
use cuda_academy::gpu::{Access, Driver, HostAccess, HostView, Operand, StreamKind, UnifiedKind};
use cuda_academy::report::Report;

const MIB: u64 = 1 << 20;

fn h200() -> Profile {
    Profile::builtin("h200").unwrap()
}

fn run_on(p: Profile, size: u64) -> Report {
    let mut g = SimGpu::new(p, "test".into());
    let opts = ExperimentOptions {
        size: Some(size),
        ..ExperimentOptions::default()
    };
    let spec = experiment::registry::find(alternatives::ID).unwrap();
    (spec.run)(&mut g, &opts, &RunContext::silent()).unwrap()
}

fn ms(r: &Report, name: &str) -> f64 {
    r.metrics
        .get(name)
        .unwrap_or_else(|| panic!("no {name}"))
        .value
}

#[test]
fn the_run_reports_every_point_and_every_checksum_is_right() {
    let r = run_on(h200(), 16 * MIB);
    for way in ["explicit", "managed", "prefetch", "mapped"] {
        for access in ["once", "four", "sparse"] {
            assert!(
                ms(&r, &format!("{way}_{access}_ms")) > 0.0,
                "{way} {access}"
            );
        }
    }
    assert!(!r.checks.is_empty());
    assert!(r.checks.iter().all(|c| c.passed), "{:?}", r.checks);
    assert!(!r.timeline.is_empty(), "the timeline has the four ways");
    // The device's part (to the end of the sync) is the total less the host's checksum.
    for way in ["explicit", "managed", "prefetch", "mapped"] {
        let series = |n: &str| {
            r.series
                .iter()
                .find(|s| s.name == format!("{way}_{n}_by_access"))
                .unwrap_or_else(|| panic!("no {way} {n}"))
                .points
                .clone()
        };
        for ((_, total), (_, device)) in series("ms").iter().zip(series("device_ms").iter()) {
            assert!(
                *device > 0.0 && device < total,
                "{way}: {device} of {total}"
            );
        }
    }
}

#[test]
fn the_model_is_deterministic() {
    let (a, b) = (run_on(h200(), 8 * MIB), run_on(h200(), 8 * MIB));
    assert_eq!(a.metrics, b.metrics);
}

#[test]
fn each_way_wins_where_the_h200_says_it_does() {
    let r = run_on(h200(), 256 * MIB);
    // Sparse: mapped memory reads only the floats it needs; the others move everything.
    let sparse = ["explicit", "managed", "prefetch"].map(|w| ms(&r, &format!("{w}_sparse_ms")));
    assert!(
        sparse
            .iter()
            .all(|&t| ms(&r, "mapped_sparse_ms") * 10.0 < t),
        "{sparse:?}"
    );
    // Faulting pages over costs more than prefetching them; both more than nothing.
    assert!(ms(&r, "managed_once_ms") > ms(&r, "prefetch_once_ms"));
    assert!(ms(&r, "managed_sparse_ms") > 2.0 * ms(&r, "prefetch_sparse_ms"));
    // Reuse: mapped memory crosses the link on every pass, copied data only once.
    let mapped_extra = ms(&r, "mapped_four_ms") - ms(&r, "mapped_once_ms");
    let explicit_extra = ms(&r, "explicit_four_ms") - ms(&r, "explicit_once_ms");
    assert!(
        mapped_extra > 10.0 * explicit_extra.max(0.01),
        "{mapped_extra} {explicit_extra}"
    );
}

#[test]
fn a_slower_link_and_dearer_faults_move_the_right_points() {
    let base = run_on(h200(), 64 * MIB);
    let p = h200();
    let slow = run_on(
        Profile {
            mapped_gbps: p.mapped_gbps / 2.0,
            ..p.clone()
        },
        64 * MIB,
    );
    assert!(ms(&slow, "mapped_four_ms") > ms(&base, "mapped_four_ms") * 1.05);
    assert_eq!(ms(&slow, "explicit_once_ms"), ms(&base, "explicit_once_ms"));
    let faults = run_on(
        Profile {
            managed_gpu_fault_us: p.managed_gpu_fault_us * 4.0,
            ..p.clone()
        },
        64 * MIB,
    );
    assert!(ms(&faults, "managed_sparse_ms") > ms(&base, "managed_sparse_ms") * 1.5);
    assert_eq!(
        ms(&faults, "prefetch_once_ms"),
        ms(&base, "prefetch_once_ms")
    );
}

#[test]
fn a_kernel_that_did_not_run_leaves_a_checksum_that_fails() {
    let mut g = SimGpu::new(h200(), "test".into());
    let s = g.stream_create(StreamKind::NonBlocking).unwrap();
    let (a, b) = (
        g.unified_alloc(MIB, UnifiedKind::Managed).unwrap(),
        g.unified_alloc(MIB, UnifiedKind::Managed).unwrap(),
    );
    g.unified_fill(a, 30).unwrap();
    g.unified_fill(b, 31).unwrap();
    let want = alternatives::expected_sum(MIB, SPARSE_STRIDE);
    let before = g
        .host_sum_strided(HostView::Unified(b), MIB, SPARSE_STRIDE)
        .unwrap();
    assert_ne!(before, want, "the output's old contents must not pass");
    let access = Access {
        stride: SPARSE_STRIDE,
        passes: 1,
    };
    g.launch_strided(s, Operand::Unified(a), Operand::Unified(b), MIB, access)
        .unwrap();
    g.stream_sync(s).unwrap();
    let after = g
        .host_sum_strided(HostView::Unified(b), MIB, SPARSE_STRIDE)
        .unwrap();
    assert_eq!(after, want);
}

#[test]
fn prefetching_mapped_memory_is_refused() {
    let mut g = SimGpu::new(h200(), "test".into());
    let s = g.stream_create(StreamKind::NonBlocking).unwrap();
    let m = g.unified_alloc(MIB, UnifiedKind::Mapped).unwrap();
    let e = g
        .prefetch_async(s, m, cuda_academy::gpu::Side::Device)
        .unwrap_err();
    assert!(e.to_string().contains("managed memory"), "{e}");
}

#[test]
fn a_profile_without_the_figures_is_refused_with_what_to_do() {
    let old = Profile {
        mapped_gbps: 0.0,
        ..h200()
    };
    let mut g = SimGpu::new(old, "test".into());
    let e = g.unified_alloc(MIB, UnifiedKind::Mapped).unwrap_err();
    assert!(e.to_string().contains("mapped_gbps"), "{e}");
    assert!(e.to_string().contains("built-in h200"), "{e}");
}
