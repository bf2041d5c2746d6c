//! A saved run's detail: kept through a save and a reload, bounded in size with what was left
//! out named, and files from before it existed still load (their runs keep their metrics).

use super::*;
use crate::progress::{Progress, load, save};
use crate::report::{Check, Metric, OpKind, Params};

fn op(i: u32) -> Op {
    Op {
        stream: 1 + i % 3,
        kind: OpKind::H2d,
        start_us: f64::from(i) * 10.0,
        end_us: f64::from(i) * 10.0 + 9.5,
        bytes: 1 << 20,
        host_mem: None,
        engine: None,
        start_inferred: false,
        line: None,
        label: format!("H2D chunk {i}"),
    }
}

fn report(ops: u32) -> Report {
    let mut metrics = std::collections::BTreeMap::new();
    metrics.insert("best_ms".to_string(), Metric::new(5.62, "ms"));
    Report {
        schema_version: crate::report::SCHEMA_VERSION,
        experiment: "pipeline".into(),
        backend: BackendInfo {
            kind: BackendKind::Simulated,
            device: "NVIDIA H200".into(),
            profile: Some("h200".into()),
            reason: Some("--backend sim".into()),
            timing: TimingSource::Model,
        },
        params: Params {
            size: 256 << 20,
            streams: Some(3),
            chunks: Some(32),
            ..Params::default()
        },
        metrics,
        timeline: (0..ops).map(op).collect(),
        other_timelines: vec![NamedTimeline {
            name: "sequential".into(),
            ops: (0..3).map(op).collect(),
        }],
        series: Vec::new(),
        checks: vec![Check {
            name: "best configuration's output matches the host".into(),
            passed: true,
            detail: String::new(),
        }],
        notes: vec!["a note".into()],
    }
}

#[test]
fn a_saved_run_comes_back_with_its_checks_and_timelines_after_a_reload() {
    let dir = tempfile::tempdir().unwrap();
    let run = report(40);
    let mut progress = Progress::fresh();
    progress.results.insert(
        "pipeline".into(),
        SavedRun::from_report(&run, 1_796_144_520_000),
    );
    save(dir.path(), &progress).unwrap();
    let loaded = load(dir.path()).progress;
    let saved = &loaded.results["pipeline"];
    assert_eq!(saved.at, 1_796_144_520_000);
    assert!(saved.detail.as_ref().unwrap().left_out.is_empty());
    // Everything the panel reads comes back, but the reason the backend ran (a fact of the
    // session, not of the run).
    let back = saved.report();
    assert_eq!(back.reason_free(), run.reason_free());
}

#[test]
fn a_timeline_too_large_is_left_out_and_named_and_the_rest_is_kept() {
    let big = report(4000);
    let detail = RunDetail::bounded(&big, DETAIL_CAP);
    assert!(serde_json::to_vec(&detail).unwrap().len() <= DETAIL_CAP);
    assert!(detail.timeline.is_empty());
    assert!(detail.timeline_left_out());
    // Without the headline timeline there is nothing to compare with: the others go too.
    assert!(detail.other_timelines.is_empty());
    assert_eq!(
        detail.left_out,
        vec![HEADLINE.to_string(), "sequential".into()]
    );
    assert_eq!(detail.checks, big.checks);
    // A small one is kept whole.
    let small = RunDetail::bounded(&report(40), DETAIL_CAP);
    assert_eq!(small.timeline.len(), 40);
    assert_eq!(small.other_timelines.len(), 1);
}

/// A progress file written before runs kept their detail: its results load, quote their metrics,
/// and give a report of those metrics alone.
#[test]
fn a_file_from_before_the_detail_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    let old = r#"{
  "version": 2,
  "results": {
    "pipeline": {
      "at": 1764600000000,
      "source": {
        "experiment": "pipeline",
        "backend": "simulated",
        "device": "NVIDIA H200",
        "params": { "size": 268435456, "streams": 3, "chunks": 32 }
      },
      "metrics": { "speedup": { "value": 1.76, "unit": "x", "n": 3 } }
    }
  }
}"#;
    std::fs::write(dir.path().join(crate::progress::FILE_NAME), old).unwrap();
    let loaded = load(dir.path());
    assert_eq!(loaded.banner, None);
    let saved = &loaded.progress.results["pipeline"];
    assert_eq!(saved.detail, None);
    let back = saved.report();
    assert_eq!(back.metrics["speedup"].value, 1.76);
    assert!(back.timeline.is_empty() && back.checks.is_empty());
}

impl Report {
    fn reason_free(&self) -> Report {
        let mut r = self.clone();
        r.backend.reason = None;
        r
    }
}

/// The file is outside text: what it says reaches the terminal only through the sanitiser.
#[test]
fn a_saved_run_s_texts_are_sanitised_on_the_way_back() {
    let mut run = report(3);
    run.notes = vec!["evil \u{1b}]0;title\u{7} note".into()];
    run.checks[0].detail = "bidi \u{202e}kcatta".into();
    run.other_timelines[0].name = "seq\u{1b}[2J".into();
    let back = SavedRun::from_report(&run, 1).report();
    let texts = [
        back.notes[0].as_str(),
        back.checks[0].detail.as_str(),
        back.other_timelines[0].name.as_str(),
    ];
    for text in texts {
        assert!(
            !text
                .chars()
                .any(|c| crate::sanitize::is_unsafe(c) || crate::sanitize::is_bidi_control(c)),
            "{text:?} still holds a control"
        );
    }
}

/// A detail this build cannot read (here, a timing source from a newer version) drops the
/// detail alone: the file loads, the run keeps its metrics.
#[test]
fn a_detail_from_a_newer_version_is_dropped_not_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut progress = Progress::fresh();
    let run = SavedRun::from_report(&report(3), 7);
    progress.results.insert("pipeline".into(), run);
    let json = serde_json::to_string(&progress)
        .unwrap()
        .replace("\"timing\":\"model\"", "\"timing\":\"quantum\"");
    assert!(json.contains("quantum"));
    std::fs::write(dir.path().join(crate::progress::FILE_NAME), json).unwrap();
    let loaded = load(dir.path());
    assert_eq!(loaded.banner, None);
    let saved = &loaded.progress.results["pipeline"];
    assert_eq!(saved.detail, None);
    assert_eq!(saved.metrics["best_ms"].value, 5.62);
}
