//! Fitting the copy parameters: bandwidths and latencies of each kind of host memory, both
//! directions at once, and which pageable uploads return before they are done.

use crate::gpu::profile::Profile;
use crate::report::{Report, Series};

use super::{metric, series};

/// `(bandwidth GB/s, latency us)` of `time = latency + bytes / bandwidth` from a GB/s-by-size
/// series through its smallest and largest sizes. (The slope between the two largest sizes is
/// the marginal bandwidth, which for pageable copies differs from the average bandwidth at the
/// largest size that the experiments report; the line through the ends reproduces both ends.)
fn copy_line(s: &Series) -> Option<(f64, f64)> {
    let t = |&(b, g): &(f64, f64)| (b, b / g / 1e3);
    let pts: Vec<(f64, f64)> = s.points.iter().filter(|p| p.1 > 0.0).map(t).collect();
    let (first, n) = (*pts.first()?, pts.len());
    if n < 3 {
        return None;
    }
    let (a, b) = (first, pts[n - 1]);
    let bytes_per_us = (b.0 - a.0) / (b.1 - a.1);
    (bytes_per_us > 0.0).then(|| {
        (
            bytes_per_us / 1e3,
            (first.1 - first.0 / bytes_per_us).max(0.0),
        )
    })
}

/// Bandwidths and latencies of pinned and pageable copies from the size sweeps; returns the
/// fields fitted.
pub fn fit_copies(p: &mut Profile, r: &Report) -> Vec<&'static str> {
    let mut fitted = Vec::new();
    let mut pinned_lat = Vec::new();
    let mut pageable_lat = Vec::new();
    for (dir, pin_name, pin_bw, page_name, page_bw) in [
        (
            "h2d",
            "pinned_h2d_gbps",
            &mut p.pinned_h2d_gbps,
            "pageable_h2d_gbps",
            &mut p.pageable_h2d_gbps,
        ),
        (
            "d2h",
            "pinned_d2h_gbps",
            &mut p.pinned_d2h_gbps,
            "pageable_d2h_gbps",
            &mut p.pageable_d2h_gbps,
        ),
    ] {
        if let Some((bw, lat)) =
            series(r, &format!("pinned_{dir}_gbps_by_size")).and_then(copy_line)
        {
            *pin_bw = bw;
            pinned_lat.push(lat);
            fitted.push(pin_name);
        }
        if let Some((bw, lat)) =
            series(r, &format!("pageable_{dir}_gbps_by_size")).and_then(copy_line)
        {
            *page_bw = bw;
            pageable_lat.push(lat);
            fitted.push(page_name);
        }
    }
    if !pinned_lat.is_empty() {
        p.copy_latency_us = pinned_lat.iter().sum::<f64>() / pinned_lat.len() as f64;
        fitted.push("copy_latency_us");
    }
    if !pageable_lat.is_empty() {
        // Pageable copies are timed on the host: the call and the sync are in there too.
        let host = pageable_lat.iter().sum::<f64>() / pageable_lat.len() as f64;
        p.pageable_copy_latency_us =
            (host - p.copy_latency_us - p.async_call_us - p.sync_call_us).max(0.0);
        fitted.push("pageable_copy_latency_us");
    }
    fitted
}

/// Write-combined and registered bandwidths, from one large copy each (latency removed);
/// returns the fields fitted.
pub fn fit_other_memory(p: &mut Profile, r: &Report) -> Vec<&'static str> {
    let mut fitted = Vec::new();
    let Some(bytes) = r
        .params
        .extra
        .get("copy_size")
        .and_then(|s| s.parse::<f64>().ok())
    else {
        return fitted;
    };
    let lat = p.copy_latency_us;
    let fix = |gbps: f64| {
        let t = bytes / gbps / 1e3 - lat;
        (t > 0.0).then(|| bytes / t / 1e3)
    };
    for (name, field) in [
        ("write_combined_h2d_gbps", &mut p.write_combined_h2d_gbps),
        ("write_combined_d2h_gbps", &mut p.write_combined_d2h_gbps),
        ("registered_h2d_gbps", &mut p.registered_h2d_gbps),
        ("registered_d2h_gbps", &mut p.registered_d2h_gbps),
    ] {
        if let Some(v) = metric(r, name).and_then(fix) {
            *field = v;
            fitted.push(name);
        }
    }
    fitted
}

/// Both directions at once: the pipeline measured half its buffer each way on two streams.
/// Returns the field fitted, if it was.
pub fn fit_bidirectional(p: &mut Profile, r: &Report) -> Vec<&'static str> {
    let Some(gbps) = metric(r, "bidirectional_gbps") else {
        return Vec::new();
    };
    let total = (r.params.size / 8 * 4 * 2) as f64;
    let t = total / gbps / 1e3 - p.copy_latency_us;
    if t <= 0.0 {
        return Vec::new();
    }
    p.bidirectional_gbps = total / t / 1e3;
    vec!["bidirectional_gbps"]
}

/// The largest pageable H2D size whose `cuMemcpyHtoDAsync` returned before the copy was done:
/// after the call the host still waited for at least half as long as it does for a pinned copy
/// of that size (a blocking call leaves only the sync's own cost). Sizes count from the
/// smallest up; the first blocking one ends the run. Returns the field fitted, if it was.
pub fn fit_pageable_async(p: &mut Profile, r: &Report) -> Vec<&'static str> {
    let points = |name: &str| {
        series(r, name)
            .map(|s| s.points.clone())
            .unwrap_or_default()
    };
    let (ret, done) = (
        points("async_return_us_pageable_by_size"),
        points("copy_done_us_pageable_by_size"),
    );
    let (pret, pdone) = (
        points("async_return_us_pinned_by_size"),
        points("copy_done_us_pinned_by_size"),
    );
    if ret.is_empty()
        || ret.len() != done.len()
        || pret.len() != ret.len()
        || pdone.len() != ret.len()
    {
        return Vec::new();
    }
    let mut max = 0;
    for i in 0..ret.len() {
        let after_call = done[i].1 - ret[i].1;
        let pinned_after_call = pdone[i].1 - pret[i].1;
        if after_call < 0.5 * pinned_after_call {
            break;
        }
        max = ret[i].0 as u64;
    }
    p.pageable_async_h2d_max_bytes = max;
    vec!["pageable_async_h2d_max_bytes"]
}
