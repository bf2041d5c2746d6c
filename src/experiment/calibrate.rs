//! Calibration: measure the backend through the same experiments (and a few targeted
//! measurements) and fit every parameter of a simulator [`Profile`], so that the simulator
//! reproduces this GPU. Each copy is modelled as `latency + bytes / bandwidth`; bandwidths come
//! from the two largest sizes of a sweep, latencies from the smallest.

use crate::gpu::Gpu;
use crate::gpu::profile::{FORMAT_VERSION, Profile};
use crate::report::{Report, Series};

use super::options::GIB;
use super::session::Session;
use super::{ExperimentError, ExperimentOptions, RunContext};

pub mod copies;
pub mod gaps;
pub mod micro;
pub mod naming;
pub mod pacing;
pub mod provenance;

use copies::{fit_bidirectional, fit_copies, fit_other_memory, fit_pageable_async};
use naming::{derive_name, host_total_bytes, today};

/// Run every measurement on `gpu` and fit a profile named `name` (default: from the device
/// name). Fields that cannot be measured (host memory when `/proc/meminfo` is unreadable) come
/// from `template`.
pub fn calibrate(
    gpu: &mut dyn Gpu,
    name: Option<&str>,
    template: &Profile,
    ctx: &RunContext,
) -> Result<Profile, ExperimentError> {
    let opts = ExperimentOptions::default();
    let run = |id: &str, gpu: &mut dyn Gpu| {
        ctx.step(&format!("calibrate: {id}"))?;
        super::run(id, gpu, &opts, ctx)
    };
    // The experiments whose metrics the profile is fitted from (ids from their registry entries).
    let bw = run(super::pageable_vs_pinned::SPEC.id, gpu)?;
    let alloc = run(super::pinned_alloc::SPEC.id, gpu)?;
    let asynchronous = run(super::async_copy::SPEC.id, gpu)?;
    let pipe = run(super::pipeline::SPEC.id, gpu)?;
    ctx.step("calibrate: call costs and kernels")?;
    let mut s = Session::new(gpu);
    let m = micro::measure(&mut s, fallback_micro(template))?;
    s.finish()?;

    let info = gpu.info().clone();
    let mut p = template.clone();
    p.format_version = FORMAT_VERSION;
    p.name = name.map_or_else(|| derive_name(&info.name), str::to_string);
    p.device_name = info.name.clone();
    p.recorded_at = today();
    p.source = format!(
        "cuda-academy {} calibrate on the {:?} backend ({:?} timing)",
        env!("CARGO_PKG_VERSION"),
        info.backend.kind,
        info.backend.timing
    )
    .to_lowercase();
    p.compute_capability = [info.compute_capability.0, info.compute_capability.1];
    p.copy_engines = info.copy_engines;
    p.device_total_bytes = info.total_mem;
    // The driver's answers for this device. The host link is left unknown: calibrate has no
    // PCI bus id (`info` reads the link from sysfs), and the template's is the H200's.
    p.machine = crate::gpu::machine::MachineFacts {
        host_link: None,
        ..info.machine.clone()
    };
    let mut measured = vec![
        "compute_capability",
        "copy_engines",
        "device_total_bytes",
        "machine",
    ];
    if let Some(bytes) = host_total_bytes() {
        p.host_total_bytes = bytes;
        measured.push("host_total_bytes");
    }
    measured.extend(fit_copies(&mut p, &bw));
    measured.extend(fit_other_memory(&mut p, &alloc));
    measured.extend(fit_allocations(&mut p, &alloc));
    if let Some(us) = metric(&asynchronous, "async_return_us_pinned") {
        p.async_call_us = us;
        measured.push("async_call_us");
    }
    measured.extend(fit_bidirectional(&mut p, &pipe));
    measured.extend(fit_pageable_async(&mut p, &asynchronous));
    measured.extend(apply_micro(&mut p, &m));
    // Last: the per-op costs are fitted by simulating with everything above.
    ctx.step("calibrate: per-op costs against the pipeline's configurations")?;
    measured.extend(pacing::fit_pacing(&mut p, &pipe)?);
    provenance::mark(&mut p, &measured);
    let p = rounded(p);
    p.validate().map_err(|e| {
        ExperimentError::InvalidOption(format!("the fitted profile is not valid: {e}"))
    })?;
    Ok(p)
}

/// Every number to 5 significant digits: the measurements are not better than that, and the
/// file stays readable.
fn rounded(p: Profile) -> Profile {
    fn walk(v: &mut toml::Value) {
        match v {
            toml::Value::Float(f) if *f != 0.0 && f.is_finite() => {
                let scale = 10f64.powi(4 - f.abs().log10().floor() as i32);
                *f = (*f * scale).round() / scale;
            }
            toml::Value::Array(a) => a.iter_mut().for_each(walk),
            toml::Value::Table(t) => t.iter_mut().for_each(|(_, v)| walk(v)),
            _ => {}
        }
    }
    let Ok(mut v) = toml::Value::try_from(&p) else {
        return p;
    };
    walk(&mut v);
    v.try_into().unwrap_or(p)
}

pub(crate) fn metric(r: &Report, name: &str) -> Option<f64> {
    r.metrics.get(name).map(|m| m.value)
}

pub(crate) fn series<'r>(r: &'r Report, name: &str) -> Option<&'r Series> {
    r.series.iter().find(|s| s.name == name)
}

/// Least-squares line `y = slope * x + intercept`.
fn line(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), p| (a + p.0, b + p.1));
    let (mx, my) = (sx / n, sy / n);
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    (points.len() >= 2 && sxx > 0.0).then(|| (sxy / sxx, my - sxy / sxx * mx))
}

/// Allocation costs: ms against bytes, per GiB (slope) and fixed (intercept); returns the
/// fields fitted.
fn fit_allocations(p: &mut Profile, r: &Report) -> Vec<&'static str> {
    let mut fitted = Vec::new();
    let fit = |name: &str| {
        series(r, &format!("{name}_ms_by_size"))
            .and_then(|s| line(&s.points))
            .map(|(slope, icpt)| (slope * GIB as f64, (icpt * 1e3).max(0.0)))
    };
    if let Some((per_gib, fixed)) = fit("pinned_alloc") {
        (p.pinned_alloc_ms_per_gib, p.pinned_alloc_fixed_us) = (per_gib.max(0.0), fixed);
        fitted.extend(["pinned_alloc_ms_per_gib", "pinned_alloc_fixed_us"]);
    }
    if let Some((per_gib, fixed)) = fit("pageable_alloc") {
        (p.pageable_alloc_ms_per_gib, p.pageable_alloc_us) = (per_gib.max(0.0), fixed);
        fitted.extend(["pageable_alloc_ms_per_gib", "pageable_alloc_us"]);
    }
    for (name, field_name, field) in [
        (
            "pinned_free",
            "pinned_free_ms_per_gib",
            &mut p.pinned_free_ms_per_gib,
        ),
        (
            "register",
            "register_ms_per_gib",
            &mut p.register_ms_per_gib,
        ),
        (
            "unregister",
            "unregister_ms_per_gib",
            &mut p.unregister_ms_per_gib,
        ),
        // The simulator charges `free` of touched pageable memory per GiB.
        (
            "pageable_free",
            "pageable_free_ms_per_gib",
            &mut p.pageable_free_ms_per_gib,
        ),
    ] {
        if let Some((per_gib, _)) = fit(name) {
            *field = per_gib.max(0.0);
            fitted.push(field_name);
        }
    }
    fitted
}

fn fallback_micro(t: &Profile) -> micro::Micro {
    micro::Micro {
        launch_call_us: t.launch_call_us,
        sync_call_us: t.sync_call_us,
        api_call_us: t.api_call_us,
        device_alloc_us: t.device_alloc_us,
        device_free_us: t.device_free_us,
        kernel_launch_latency_us: t.kernel_launch_latency_us,
        device_mem_gbps: t.device_mem_gbps,
        spin_ns_per_iteration: t.spin_ns_per_iteration,
        kernels_measured: false,
    }
}

/// Copy the targeted measurements into `p`; returns the fields measured (the kernel fields
/// only when the backend had kernels to time).
fn apply_micro(p: &mut Profile, m: &micro::Micro) -> Vec<&'static str> {
    p.launch_call_us = m.launch_call_us;
    p.sync_call_us = m.sync_call_us;
    p.api_call_us = m.api_call_us;
    p.device_alloc_us = m.device_alloc_us;
    p.device_free_us = m.device_free_us;
    p.kernel_launch_latency_us = m.kernel_launch_latency_us;
    p.device_mem_gbps = m.device_mem_gbps;
    p.spin_ns_per_iteration = m.spin_ns_per_iteration;
    let mut measured = vec![
        "sync_call_us",
        "api_call_us",
        "device_alloc_us",
        "device_free_us",
    ];
    if m.kernels_measured {
        measured.extend([
            "launch_call_us",
            "kernel_launch_latency_us",
            "device_mem_gbps",
            "spin_ns_per_iteration",
        ]);
    }
    measured
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_recovers_a_line() {
        let (m, c) = line(&[(1.0, 5.0), (2.0, 7.0), (4.0, 11.0)]).unwrap();
        assert!((m - 2.0).abs() < 1e-12 && (c - 3.0).abs() < 1e-12);
        assert!(line(&[(1.0, 1.0)]).is_none());
    }
}
