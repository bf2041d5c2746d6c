//! Review minor 10: profiles with absurd values are refused up front, and a profile at the very
//! edges of what is accepted still gives JSON with a finite number wherever one is promised.

use super::{assert_no_crash, run, text};
use cuda_academy::gpu::profile::Profile;

fn write_profile(dir: &std::path::Path, name: &str, edit: impl FnOnce(&mut Profile)) -> String {
    let mut p = Profile::builtin("h200").unwrap();
    edit(&mut p);
    let path = dir.join(name);
    std::fs::write(&path, p.to_toml().unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn absurd_profiles_are_rejected_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    type Edit = fn(&mut Profile);
    let cases: [(&str, Edit); 5] = [
        ("pinned_h2d_gbps", |p| p.pinned_h2d_gbps = 1e-308),
        ("bidirectional_gbps", |p| p.bidirectional_gbps = 50_000.0),
        ("copy_latency_us", |p| p.copy_latency_us = 1e308),
        ("async_call_us", |p| p.async_call_us = 2e6),
        ("pinned_alloc_ms_per_gib", |p| {
            p.pinned_alloc_ms_per_gib = 1e9
        }),
    ];
    for (field, edit) in cases {
        let path = write_profile(dir.path(), &format!("{field}.toml"), edit);
        let out = run(&[
            "--profile",
            &path,
            "run",
            "pinned-alloc",
            "--backend",
            "sim",
        ]);
        assert_no_crash(&out);
        assert_eq!(out.status.code(), Some(1), "{field} accepted");
        let err = text(&out.stderr);
        assert!(err.contains(&format!("field `{field}`")), "{err}");
        assert!(out.stdout.is_empty());
    }
}

/// Every number in `v` is finite and no value is `null` (serde_json writes NaN and inf as null).
fn assert_no_null(path: &str, v: &serde_json::Value) {
    match v {
        serde_json::Value::Null => panic!("null at {path}"),
        serde_json::Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| assert_no_null(&format!("{path}[{i}]"), x)),
        serde_json::Value::Object(o) => o
            .iter()
            .for_each(|(k, x)| assert_no_null(&format!("{path}.{k}"), x)),
        _ => {}
    }
}

#[test]
fn the_edges_of_the_accepted_range_still_give_finite_json() {
    let dir = tempfile::tempdir().unwrap();
    let slow = write_profile(dir.path(), "slow.toml", |p| {
        p.pageable_h2d_gbps = 0.01;
        p.pageable_d2h_gbps = 0.01;
        p.copy_latency_us = 1e6;
    });
    let fast = write_profile(dir.path(), "fast.toml", |p| {
        p.pinned_h2d_gbps = 10_000.0;
        p.pinned_d2h_gbps = 10_000.0;
        p.bidirectional_gbps = 10_000.0;
        p.copy_latency_us = 0.0;
        p.async_call_us = 0.0;
    });
    for profile in [&slow, &fast] {
        for exp in ["pageable-vs-pinned", "async-copy", "pinned-alloc"] {
            let out = run(&[
                "--profile",
                profile,
                "run",
                exp,
                "--backend",
                "sim",
                "--json",
                "--size",
                "1M",
            ]);
            assert_no_crash(&out);
            let json: serde_json::Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{exp} with {profile}: {e}: {}", text(&out.stderr)));
            assert_no_null(exp, &json);
        }
    }
}
