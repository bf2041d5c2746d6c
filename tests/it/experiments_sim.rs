//! Every experiment on the simulator with the H200 profile: the metric contract, the JSON
//! contract, determinism, the physics the lessons teach, verification, and option errors.

// Test helpers outside `#[test]` functions may fail loudly too.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use cuda_academy::experiment::{
    self, ExperimentError, ExperimentOptions, RunContext, parse_size, registry,
};
use cuda_academy::gpu::profile::Profile;
use cuda_academy::gpu::sim::SimGpu;
use cuda_academy::report::{OpKind, Report};

fn sim() -> SimGpu {
    SimGpu::new(Profile::builtin("h200").unwrap(), "test".into())
}

fn run(id: &str, opts: &ExperimentOptions) -> Result<Report, ExperimentError> {
    experiment::run(id, &mut sim(), opts, &RunContext::silent())
}

/// Each experiment's default run, once per test binary (they are the slow part).
fn report(id: &str) -> Report {
    static CACHE: OnceLock<Mutex<BTreeMap<String, Report>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(r) = cache.lock().unwrap().get(id) {
        return r.clone();
    }
    let start = Instant::now();
    let r = run(id, &ExperimentOptions::default()).unwrap();
    eprintln!(
        "{id}: simulated run took {:.2} s",
        start.elapsed().as_secs_f64()
    );
    cache.lock().unwrap().insert(id.to_string(), r.clone());
    r
}

fn metric(r: &Report, name: &str) -> f64 {
    r.metrics
        .get(name)
        .unwrap_or_else(|| panic!("{} lacks {name}", r.experiment))
        .value
}

#[test]
fn every_experiment_reports_its_contract_metrics_with_units() {
    for spec in registry::ALL {
        let id = spec.id;
        let r = report(id);
        assert_eq!(r.experiment, id);
        assert!(spec.required().next().is_some());
        for declared in spec.required() {
            let name = declared.name;
            let m = r
                .metrics
                .get(name)
                .unwrap_or_else(|| panic!("{id} lacks {name}"));
            assert_eq!(m.unit, declared.unit, "{id}: unit of {name}");
            assert!(
                m.value.is_finite() && m.value > 0.0,
                "{id}: {name} = {}",
                m.value
            );
        }
        assert!(!r.timeline.is_empty(), "{id}: empty timeline");
        assert!(
            r.timeline.iter().any(|o| o.kind == OpKind::Host),
            "{id}: no host lane"
        );
    }
}

#[test]
fn json_has_the_contract_keys_and_types() {
    for id in registry::ids() {
        let v = serde_json::to_value(report(id)).unwrap();
        assert!(v["schema_version"].is_u64());
        assert_eq!(v["experiment"], id);
        assert_eq!(v["backend"]["kind"], "simulated");
        assert_eq!(v["backend"]["profile"], "h200");
        assert!(v["backend"]["device"].as_str().unwrap().contains("H200"));
        assert!(v["params"]["size"].is_u64());
        let spec = registry::find(id).unwrap();
        for (name, m) in v["metrics"].as_object().unwrap() {
            assert!(m["value"].is_f64() || m["value"].is_u64(), "{id}: {name}");
            assert!(m["unit"].is_string(), "{id}: {name}");
            // Every metric is declared, and carries its clock and sample count.
            let declared = spec
                .metric(name)
                .unwrap_or_else(|| panic!("{id} reports {name}, which its registry entry lacks"));
            assert_eq!(m["unit"], declared.unit, "{id}: {name}");
            assert_eq!(m["clock"], "model", "{id}: {name} (a simulated run)");
            let n = m["n"].as_u64().unwrap();
            assert!(n >= 1, "{id}: {name}");
            // A spread needs several samples (derived values have an n but no spread).
            assert!(
                !m["spread"].is_object() || n > 1,
                "{id}: {name}: spread of one sample"
            );
        }
        for op in v["timeline"].as_array().unwrap() {
            assert!(op["stream"].is_u64());
            assert!(["h2d", "d2h", "kernel", "host"].contains(&op["kind"].as_str().unwrap()));
            assert!(op["start_us"].is_number() && op["end_us"].is_number());
            assert!(op["bytes"].is_u64());
            assert!(op["end_us"].as_f64().unwrap() >= op["start_us"].as_f64().unwrap());
        }
    }
}

#[test]
fn runs_are_deterministic() {
    for id in ["async-copy", "pipeline"] {
        let opts = ExperimentOptions {
            size: Some(16 << 20),
            ..Default::default()
        };
        assert_eq!(run(id, &opts).unwrap(), run(id, &opts).unwrap(), "{id}");
    }
}

#[test]
fn every_check_passes() {
    for id in registry::ids() {
        let r = report(id);
        assert!(!r.checks.is_empty(), "{id}: no checks");
        for c in &r.checks {
            assert!(c.passed, "{id}: check `{}` failed: {}", c.name, c.detail);
        }
    }
}

#[test]
fn ops_on_one_stream_never_overlap() {
    for id in registry::ids() {
        let r = report(id);
        let timelines =
            std::iter::once(&r.timeline).chain(r.other_timelines.iter().map(|t| &t.ops));
        for ops in timelines {
            let mut dev: Vec<_> = ops.iter().filter(|o| o.kind != OpKind::Host).collect();
            dev.sort_by(|a, b| {
                (a.stream, a.start_us)
                    .partial_cmp(&(b.stream, b.start_us))
                    .unwrap()
            });
            for w in dev.windows(2) {
                if w[0].stream == w[1].stream {
                    assert!(
                        w[1].start_us >= w[0].end_us - 1e-6,
                        "{id}: {:?} overlaps {:?}",
                        w[0],
                        w[1]
                    );
                }
            }
        }
    }
}

#[test]
fn pinned_beats_pageable() {
    let r = report("pageable-vs-pinned");
    for dir in ["h2d", "d2h"] {
        let (p, q) = (
            metric(&r, &format!("pinned_{dir}_gbps")),
            metric(&r, &format!("pageable_{dir}_gbps")),
        );
        assert!(p > q, "{dir}: pinned {p} vs pageable {q}");
    }
    // Bandwidth grows with size: the small end pays the per-copy latency.
    let s = r
        .series
        .iter()
        .find(|s| s.name == "pinned_h2d_gbps_by_size")
        .unwrap();
    assert!(s.points.first().unwrap().1 < s.points.last().unwrap().1);
}

#[test]
fn pinned_async_copies_return_early_and_pageable_ones_do_not() {
    let r = report("async-copy");
    let (ret_pinned, done_pinned) = (
        metric(&r, "async_return_us_pinned"),
        metric(&r, "copy_done_us_pinned"),
    );
    let ret_pageable = metric(&r, "async_return_us_pageable");
    assert!(
        ret_pinned < 0.01 * done_pinned,
        "{ret_pinned} vs {done_pinned}"
    );
    assert!(ret_pageable > 0.5 * metric(&r, "copy_done_us_pageable"));
}

#[test]
fn legacy_default_stream_serialises() {
    let r = report("default-stream");
    assert!(metric(&r, "legacy_default_ms") > 1.5 * metric(&r, "nonblocking_ms"));
}

#[test]
fn pipeline_sits_between_its_bound_and_sequential() {
    let r = report("pipeline");
    let (best, bound, seq) = (
        metric(&r, "best_ms"),
        metric(&r, "bound_ms"),
        metric(&r, "sequential_ms"),
    );
    assert!(best >= bound * 0.999, "best {best} below bound {bound}");
    assert!(best <= seq, "best {best} above sequential {seq}");
    assert!(
        metric(&r, "speedup") > 1.5,
        "speedup {}",
        metric(&r, "speedup")
    );
    assert!((metric(&r, "efficiency") - bound / best).abs() < 1e-9);
    assert!(r.series.len() >= 2, "series per streams and order");
}

#[test]
fn pinning_costs_grow_with_size_and_registering_beats_allocating() {
    let r = report("pinned-alloc");
    // Registering pages that are already touched skips the allocation itself.
    assert!(metric(&r, "register_ms_per_gib") < metric(&r, "pinned_alloc_ms_per_gib"));
    for name in [
        "pinned_alloc_ms_by_size",
        "pageable_alloc_ms_by_size",
        "register_ms_by_size",
    ] {
        let s = r.series.iter().find(|s| s.name == name).unwrap();
        assert_eq!(s.points.len(), 3, "{name}");
        assert!(
            s.points.windows(2).all(|w| w[1].1 > w[0].1),
            "{name} does not grow: {:?}",
            s.points
        );
    }
}

#[test]
fn bad_options_are_clear_errors() {
    let err = |id: &str, opts: ExperimentOptions| run(id, &opts).unwrap_err().to_string();
    let o = ExperimentOptions::default;
    assert!(
        err(
            "pipeline",
            ExperimentOptions {
                size: Some(0),
                ..o()
            }
        )
        .contains("--size")
    );
    assert!(
        err(
            "pipeline",
            ExperimentOptions {
                size: Some(65 << 30),
                ..o()
            }
        )
        .contains("64 GiB")
    );
    assert!(
        err(
            "pipeline",
            ExperimentOptions {
                size: Some(1001),
                ..o()
            }
        )
        .contains("multiple of 4")
    );
    assert!(
        err(
            "pipeline",
            ExperimentOptions {
                streams: Some(0),
                ..o()
            }
        )
        .contains("--streams")
    );
    assert!(
        err(
            "pipeline",
            ExperimentOptions {
                streams: Some(33),
                ..o()
            }
        )
        .contains("--streams")
    );
    assert!(
        err(
            "pipeline",
            ExperimentOptions {
                chunks: Some(0),
                ..o()
            }
        )
        .contains("--chunks")
    );
    assert!(
        err(
            "pipeline",
            ExperimentOptions {
                chunks: Some(5000),
                ..o()
            }
        )
        .contains("--chunks")
    );
    assert!(
        err(
            "pipeline",
            ExperimentOptions {
                size: Some(16),
                chunks: Some(8),
                ..o()
            }
        )
        .contains("chunks")
    );
    assert!(
        err(
            "async-copy",
            ExperimentOptions {
                streams: Some(2),
                ..o()
            }
        )
        .contains("pipeline")
    );
    let unknown = err("nope", o());
    for id in registry::ids() {
        assert!(unknown.contains(id), "{unknown}");
    }
}

#[test]
fn a_size_that_does_not_fit_names_what_is_free() {
    let mut profile = Profile::builtin("h200").unwrap();
    profile.device_total_bytes = 1 << 30;
    let mut gpu = SimGpu::new(profile, "small".into());
    let opts = ExperimentOptions {
        size: Some(1 << 30),
        ..Default::default()
    };
    let e = experiment::run("pipeline", &mut gpu, &opts, &RunContext::silent())
        .unwrap_err()
        .to_string();
    assert!(e.contains("1 GiB") && e.contains("free"), "{e}");
}

#[test]
fn sizes_parse_with_binary_suffixes() {
    assert_eq!(parse_size("4096"), Ok(4096));
    assert_eq!(parse_size("64KiB"), Ok(64 << 10));
    assert_eq!(parse_size("256M"), Ok(256 << 20));
    assert_eq!(parse_size("1G"), Ok(1 << 30));
    assert_eq!(parse_size("1.5k"), Ok(1536));
    for bad in ["", "M", "12Q", "-4", "0.3"] {
        assert!(parse_size(bad).is_err(), "{bad}");
    }
}

#[test]
fn cancel_stops_a_run_and_progress_is_reported() {
    let cancel = AtomicBool::new(true);
    let ctx = RunContext {
        cancel: &cancel,
        progress: &|_| {},
    };
    let r = experiment::run("pipeline", &mut sim(), &ExperimentOptions::default(), &ctx);
    assert_eq!(r.unwrap_err(), ExperimentError::Cancelled);

    let phases = Mutex::new(Vec::new());
    let never = AtomicBool::new(false);
    let progress = |p: &str| phases.lock().unwrap().push(p.to_string());
    let ctx = RunContext {
        cancel: &never,
        progress: &progress,
    };
    let opts = ExperimentOptions {
        size: Some(1 << 20),
        ..Default::default()
    };
    experiment::run("async-copy", &mut sim(), &opts, &ctx).unwrap();
    let phases = phases.into_inner().unwrap();
    assert!(
        phases.iter().any(|p| p.contains("pinned async copy 1 MiB")),
        "{phases:?}"
    );
}

/// Calibrating against a simulator must recover that simulator's own profile.
fn assert_recovers(truth: &Profile) {
    let mut gpu = SimGpu::new(truth.clone(), "calibration test".into());
    let template = Profile::builtin("h200").unwrap();
    let fitted =
        experiment::calibrate::calibrate(&mut gpu, None, &template, &RunContext::silent()).unwrap();
    let pairs = [
        (
            "pinned_h2d_gbps",
            truth.pinned_h2d_gbps,
            fitted.pinned_h2d_gbps,
        ),
        (
            "pinned_d2h_gbps",
            truth.pinned_d2h_gbps,
            fitted.pinned_d2h_gbps,
        ),
        (
            "pageable_h2d_gbps",
            truth.pageable_h2d_gbps,
            fitted.pageable_h2d_gbps,
        ),
        (
            "pageable_d2h_gbps",
            truth.pageable_d2h_gbps,
            fitted.pageable_d2h_gbps,
        ),
        (
            "write_combined_h2d_gbps",
            truth.write_combined_h2d_gbps,
            fitted.write_combined_h2d_gbps,
        ),
        (
            "registered_h2d_gbps",
            truth.registered_h2d_gbps,
            fitted.registered_h2d_gbps,
        ),
        (
            "bidirectional_gbps",
            truth.bidirectional_gbps,
            fitted.bidirectional_gbps,
        ),
        (
            "copy_latency_us",
            truth.copy_latency_us,
            fitted.copy_latency_us,
        ),
        ("async_call_us", truth.async_call_us, fitted.async_call_us),
        (
            "launch_call_us",
            truth.launch_call_us,
            fitted.launch_call_us,
        ),
        (
            "kernel_launch_latency_us",
            truth.kernel_launch_latency_us,
            fitted.kernel_launch_latency_us,
        ),
        (
            "device_mem_gbps",
            truth.device_mem_gbps,
            fitted.device_mem_gbps,
        ),
        (
            "spin_ns_per_iteration",
            truth.spin_ns_per_iteration,
            fitted.spin_ns_per_iteration,
        ),
        (
            "pinned_alloc_ms_per_gib",
            truth.pinned_alloc_ms_per_gib,
            fitted.pinned_alloc_ms_per_gib,
        ),
        (
            "pageable_alloc_ms_per_gib",
            truth.pageable_alloc_ms_per_gib,
            fitted.pageable_alloc_ms_per_gib,
        ),
        (
            "register_ms_per_gib",
            truth.register_ms_per_gib,
            fitted.register_ms_per_gib,
        ),
    ];
    let off: Vec<String> = pairs
        .iter()
        .filter(|(_, t, f)| (f - t).abs() > 0.03 * t.abs())
        .map(|(n, t, f)| format!("{n}: profile {t}, fitted {f}"))
        .collect();
    assert!(
        off.is_empty(),
        "calibration is off by more than 3%:\n{}",
        off.join("\n")
    );
    assert_eq!(
        fitted.pageable_async_h2d_max_bytes,
        truth.pageable_async_h2d_max_bytes
    );
    assert_eq!(fitted.device_name, truth.device_name);
    assert_eq!(fitted.copy_engines, truth.copy_engines);
    assert_eq!(fitted.device_total_bytes, truth.device_total_bytes);
    let again = Profile::from_toml_str(&fitted.to_toml().unwrap(), "fitted").unwrap();
    assert_eq!(again, fitted);
}

#[test]
fn calibrating_the_simulator_recovers_its_profile() {
    assert_recovers(&Profile::builtin("h200").unwrap());
}

#[test]
fn calibration_follows_a_different_gpu() {
    // A slower, Gen4-like machine: the fit must follow the model, not the built-in numbers.
    let mut p = Profile::builtin("h200").unwrap();
    p.pinned_h2d_gbps = 24.0;
    p.pinned_d2h_gbps = 26.0;
    p.pageable_h2d_gbps = 6.0;
    p.pageable_d2h_gbps = 8.0;
    p.write_combined_h2d_gbps = 20.0;
    p.registered_h2d_gbps = 23.0;
    p.bidirectional_gbps = 40.0;
    p.copy_latency_us = 5.0;
    p.async_call_us = 4.0;
    p.spin_ns_per_iteration = 3.5;
    p.pinned_alloc_ms_per_gib = 200.0;
    p.pageable_async_h2d_max_bytes = 4096;
    assert_recovers(&p);
}

#[test]
fn the_pipeline_search_covers_every_layout_and_keeps_the_fastest() {
    let r = report("pipeline");
    let orders = ["per-chunk", "breadth-first", "by-stage"];
    for order in orders {
        assert!(
            r.series.iter().any(|s| s.name.ends_with(order)),
            "no {order} series"
        );
    }
    let chunk_counts: std::collections::BTreeSet<u64> = r
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0 as u64))
        .collect();
    assert!(
        chunk_counts.len() >= 4,
        "only chunk counts {chunk_counts:?} tried"
    );
    let fastest_seen = r
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(f64::INFINITY, f64::min);
    // "Best" is the simplest configuration within 1% of the fastest.
    assert!(
        metric(&r, "best_ms") <= fastest_seen * 1.01 + 1e-9,
        "best is not within 1% of the fastest configuration tried"
    );
    assert!(orders.contains(&r.params.extra["best_order"].as_str()));
    // The best of the other layouts was also run, recorded, and the winner named.
    let win = experiment::pipeline::order_result(&r).unwrap();
    assert_ne!(win.winner, win.loser);
    assert!(win.winner_ms <= win.loser_ms * 1.01, "{win:?}");
    let other = r
        .other_timelines
        .iter()
        .find(|t| t.name.starts_with(win.loser) || t.name.starts_with(win.winner))
        .unwrap_or_else(|| panic!("no other-order timeline in {:?}", r.other_timelines));
    assert!(other.name.contains("streams x"), "{}", other.name);
    assert!(!other.ops.is_empty());
}

#[test]
fn a_fixed_issue_order_runs_only_that_order() {
    let opts = ExperimentOptions {
        size: Some(4 << 20),
        issue_order: Some(experiment::IssueOrder::BreadthFirst),
        ..Default::default()
    };
    let r = run("pipeline", &opts).unwrap();
    assert_eq!(r.params.extra["best_order"], "breadth-first");
    assert!(experiment::pipeline::order_result(&r).is_none());
    assert!(r.series.iter().all(|s| s.name.ends_with("breadth-first")));
}

#[test]
fn streams_and_chunks_fix_their_dimension() {
    let opts = ExperimentOptions {
        size: Some(16 << 20),
        streams: Some(2),
        chunks: Some(16),
        ..Default::default()
    };
    let r = run("pipeline", &opts).unwrap();
    assert_eq!(
        (metric(&r, "best_streams"), metric(&r, "best_chunks")),
        (2.0, 16.0)
    );
    let streams: std::collections::BTreeSet<u32> = r
        .timeline
        .iter()
        .filter(|o| o.kind != OpKind::Host)
        .map(|o| o.stream)
        .collect();
    assert_eq!(streams.len(), 2, "headline uses streams {streams:?}");
    assert_eq!(
        r.timeline
            .iter()
            .filter(|o| o.kind == OpKind::Kernel)
            .count(),
        16
    );
}

/// The time uploads and downloads of `ops` run at the same time, in µs.
fn h2d_under_d2h_us(ops: &[cuda_academy::report::Op]) -> f64 {
    let of = |k: OpKind| ops.iter().filter(move |o| o.kind == k);
    of(OpKind::H2d)
        .flat_map(|u| of(OpKind::D2h).map(move |d| (u, d)))
        .map(|(u, d)| (u.end_us.min(d.end_us) - u.start_us.max(d.start_us)).max(0.0))
        .sum()
}

#[test]
fn the_one_copy_engine_what_if_never_runs_an_upload_beside_a_download() {
    let h200 = report("pipeline");
    assert!(
        h2d_under_d2h_us(&h200.timeline) > 0.0,
        "the H200's three copy engines overlap the two directions"
    );
    let mut one = SimGpu::new(
        Profile::builtin("h200-one-copy-engine").unwrap(),
        "test".into(),
    );
    let r = experiment::run(
        "pipeline",
        &mut one,
        &ExperimentOptions::default(),
        &RunContext::silent(),
    )
    .unwrap();
    assert!(r.timeline.iter().any(|o| o.kind == OpKind::D2h), "{r:?}");
    assert_eq!(h2d_under_d2h_us(&r.timeline), 0.0);
    assert_eq!(r.backend.profile.as_deref(), Some("h200-one-copy-engine"));
}
