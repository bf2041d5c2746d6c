//! The Chrome trace export: it parses, every complete event has its fields, events on each track
//! nest, every track is named, and the ops come back out of it, also for overlapping timelines.

// Test helpers outside #[test] functions may unwrap too (clippy.toml covers only the tests).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use cuda_academy::report::{
    BackendInfo, BackendKind, NamedTimeline, Op, OpKind, Params, Report, SCHEMA_VERSION,
    TimingSource,
};
use cuda_academy::timeline::sample::{op, pipeline, sequential};
use cuda_academy::trace::{chrome_trace, write_chrome_trace};
use proptest::prelude::*;
use serde_json::Value;

fn report(ops: Vec<Op>) -> Report {
    Report {
        schema_version: SCHEMA_VERSION,
        experiment: "pipeline".into(),
        backend: BackendInfo {
            kind: BackendKind::Simulated,
            device: "NVIDIA H200".into(),
            profile: Some("h200".into()),
            reason: Some("test".into()),
            timing: TimingSource::Model,
        },
        params: Params::default(),
        metrics: BTreeMap::new(),
        timeline: ops,
        other_timelines: Vec::new(),
        series: Vec::new(),
        checks: Vec::new(),
        notes: Vec::new(),
    }
}

/// Writes the trace to a file and parses it back, as a viewer would.
fn exported(report: &Report) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trace.json");
    write_chrome_trace(report, &path).unwrap();
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn events<'a>(trace: &'a Value, ph: &str) -> Vec<&'a Value> {
    trace["traceEvents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["ph"] == ph)
        .collect()
}

fn ns(v: &Value) -> i64 {
    (v.as_f64().unwrap() * 1000.0).round() as i64
}

/// (pid, tid) -> thread name.
fn thread_names(trace: &Value) -> BTreeMap<(u64, u64), String> {
    events(trace, "M")
        .into_iter()
        .filter(|e| e["name"] == "thread_name")
        .map(|e| {
            let key = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
            (key, e["args"]["name"].as_str().unwrap().to_string())
        })
        .collect()
}

/// Checks that the complete events of each (pid, tid) nest: sorted by start (longer first), an
/// event that starts before the innermost open one ends must also end no later than it.
fn assert_tracks_nest(trace: &Value) {
    let mut tracks: BTreeMap<(u64, u64), Vec<(i64, i64)>> = BTreeMap::new();
    for e in events(trace, "X") {
        let key = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
        let start = ns(&e["ts"]);
        tracks
            .entry(key)
            .or_default()
            .push((start, start + ns(&e["dur"])));
    }
    for (key, mut spans) in tracks {
        spans.sort_by_key(|&(s, e)| (s, std::cmp::Reverse(e)));
        let mut open: Vec<i64> = Vec::new();
        for (start, end) in spans {
            while open.last().is_some_and(|&e| e <= start) {
                open.pop();
            }
            if let Some(&outer) = open.last() {
                assert!(
                    end <= outer,
                    "track {key:?}: {start}..{end} overlaps one ending at {outer}"
                );
            }
            open.push(end);
        }
    }
}

fn assert_valid(trace: &Value) {
    assert_eq!(trace["displayTimeUnit"], "ns");
    assert_eq!(trace["otherData"]["backend"], "simulated");
    let names = thread_names(trace);
    for e in events(trace, "X") {
        for field in ["name", "cat", "ts", "dur", "pid", "tid", "args"] {
            assert!(!e[field].is_null(), "{field} missing in {e}");
        }
        assert!(e["dur"].as_f64().unwrap() >= 0.0);
        for arg in ["bytes", "stream", "start_inferred"] {
            assert!(!e["args"][arg].is_null(), "{arg} missing in {e}");
        }
        let key = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
        assert!(names.contains_key(&key), "no thread_name for {key:?}");
    }
    let pids: BTreeSet<u64> = events(trace, "X")
        .iter()
        .map(|e| e["pid"].as_u64().unwrap())
        .collect();
    let named: BTreeSet<u64> = events(trace, "M")
        .iter()
        .filter(|e| e["name"] == "process_name")
        .map(|e| e["pid"].as_u64().unwrap())
        .collect();
    assert_eq!(pids, named);
    assert_tracks_nest(trace);
}

/// The ops read back from the stream and host tracks (engine tracks repeat copies).
fn ops_back(trace: &Value) -> Vec<(u64, String, i64, i64, u64)> {
    let names = thread_names(trace);
    let mut ops: Vec<_> = events(trace, "X")
        .into_iter()
        .filter(|e| {
            let key = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
            !names[&key].starts_with("copy engine")
        })
        .map(|e| {
            let start = ns(&e["ts"]);
            let stream = e["args"]["stream"].as_u64().unwrap();
            let cat = e["cat"].as_str().unwrap().to_string();
            (
                stream,
                cat,
                start,
                start + ns(&e["dur"]),
                e["args"]["bytes"].as_u64().unwrap(),
            )
        })
        .collect();
    ops.sort();
    ops
}

fn ops_sent(ops: &[Op]) -> Vec<(u64, String, i64, i64, u64)> {
    let mut v: Vec<_> = ops
        .iter()
        .map(|o| {
            let cat = format!("{:?}", o.kind).to_lowercase();
            let s = (o.start_us * 1000.0).round() as i64;
            let e = ((o.end_us * 1000.0).round() as i64).max(s);
            (u64::from(o.stream), cat, s, e, o.bytes)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn pipeline_trace_is_valid_and_round_trips() {
    let ops = pipeline(3, 8, 64 << 20);
    let trace = exported(&report(ops.clone()));
    assert_valid(&trace);
    assert_eq!(ops_back(&trace), ops_sent(&ops));
    let names: BTreeSet<String> = thread_names(&trace).into_values().collect();
    for name in [
        "stream 1",
        "stream 2",
        "stream 3",
        "host",
        "copy engine 1",
        "copy engine 2",
    ] {
        assert!(names.contains(name), "{name} not in {names:?}");
    }
    let copies = ops.iter().filter(|o| o.engine.is_some()).count();
    assert_eq!(events(&trace, "X").len(), ops.len() + copies);
}

#[test]
fn an_h2d_event_says_what_it_moved() {
    let trace = chrome_trace(&report(sequential(8 << 20)));
    let h2d = events(&trace, "X")
        .into_iter()
        .find(|e| e["cat"] == "h2d")
        .unwrap();
    assert_eq!(h2d["name"], "H2D 8 MiB");
    assert_eq!(h2d["pid"], 1);
    assert_eq!(h2d["args"]["host_mem"], "pinned");
    let rate = h2d["args"]["GB/s"].as_f64().unwrap();
    let dur = h2d["dur"].as_f64().unwrap();
    assert!((rate - (8u64 << 20) as f64 / (dur * 1e3)).abs() < 0.01);
    let host = events(&trace, "X")
        .into_iter()
        .find(|e| e["cat"] == "host")
        .unwrap();
    assert_eq!(host["pid"], 2);
}

#[test]
fn partial_overlaps_go_to_named_overflow_tracks() {
    let mut a = op(OpKind::H2d, 1, 0.0, 10.0);
    let mut b = op(OpKind::H2d, 2, 5.0, 15.0);
    a.engine = Some(1);
    b.engine = Some(1);
    let ops = vec![
        a,
        b,
        op(OpKind::Host, 1, 0.0, 4.0),
        op(OpKind::Host, 2, 3.0, 6.0),
        op(OpKind::Host, 2, 1.0, 2.0),
    ];
    let trace = exported(&report(ops.clone()));
    assert_valid(&trace);
    assert_eq!(ops_back(&trace), ops_sent(&ops));
    let names: BTreeSet<String> = thread_names(&trace).into_values().collect();
    assert!(names.contains("copy engine 1 (overlap)"), "{names:?}");
    assert!(names.contains("host (overlap)"), "{names:?}");
}

#[test]
fn other_timelines_get_their_own_processes() {
    let mut r = report(pipeline(2, 4, 1 << 20));
    r.other_timelines.push(NamedTimeline {
        name: "sequential".into(),
        ops: sequential(1 << 20),
    });
    let trace = exported(&r);
    assert_valid(&trace);
    let processes: Vec<String> = events(&trace, "M")
        .iter()
        .filter(|e| e["name"] == "process_name")
        .map(|e| e["args"]["name"].as_str().unwrap().to_string())
        .collect();
    assert!(
        processes.contains(&"sequential: device".to_string()),
        "{processes:?}"
    );
}

#[test]
fn an_empty_timeline_is_still_a_trace() {
    let trace = exported(&report(Vec::new()));
    assert!(events(&trace, "X").is_empty());
    assert_eq!(trace["otherData"]["experiment"], "pipeline");
}

#[test]
fn an_unwritable_path_says_which_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-folder").join("trace.json");
    let err = write_chrome_trace(&report(sequential(4096)), &path).unwrap_err();
    let text = err.to_string();
    assert!(text.contains(&path.display().to_string()), "{text}");
    assert!(text.contains("No such file or directory"), "{text}");
    // A folder is not a file either.
    let err = write_chrome_trace(&report(Vec::new()), dir.path()).unwrap_err();
    assert!(err.to_string().contains(&dir.path().display().to_string()));
}

fn arb_op() -> impl Strategy<Value = Op> {
    let kind = prop_oneof![
        Just(OpKind::H2d),
        Just(OpKind::D2h),
        Just(OpKind::Kernel),
        Just(OpKind::Host)
    ];
    (
        kind,
        0u32..3,
        0.0f64..100.0,
        0.0f64..30.0,
        proptest::option::of(0u32..2),
        any::<bool>(),
    )
        .prop_map(|(kind, stream, start, len, engine, inferred)| {
            let mut o = op(kind, stream, start, start + len);
            o.bytes = (len * 1000.0) as u64;
            o.engine = engine;
            o.start_inferred = inferred;
            o
        })
}

proptest! {
    #[test]
    fn any_timeline_exports_nested_tracks(ops in proptest::collection::vec(arb_op(), 0..60)) {
        let trace = chrome_trace(&report(ops.clone()));
        assert_valid(&trace);
        prop_assert_eq!(ops_back(&trace), ops_sent(&ops));
    }
}
