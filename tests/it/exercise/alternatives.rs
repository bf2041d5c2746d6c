//! Honest alternatives (issue 27): programs in `tests/fixtures/alternatives/<id>/` that do an
//! exercise's whole task another way than its solution (a host function queued in the stream,
//! ...). Each must pass its exercise's check on the simulator.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::catalog;
use cuda_academy::exercise::interp::Limits;

use super::sim;

/// `(exercise id, file name, source)` of every alternative.
fn alternatives() -> Vec<(String, String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/alternatives");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        let id = dir.file_name().unwrap().to_string_lossy().into_owned();
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.push((id.clone(), name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    out.sort();
    out
}

#[test]
fn every_honest_alternative_passes_its_exercise_on_the_simulator() {
    let all = alternatives();
    let names: Vec<String> = all.iter().map(|(id, f, _)| format!("{id}/{f}")).collect();
    // The two host-function alternatives of issue 27 at least.
    for want in [
        "overlap-host-work/host-func.cu",
        "staging-ring/host-func.cu",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} missing: {names:?}");
    }
    for (id, file, src) in &all {
        let ex = catalog::find(id).unwrap_or_else(|| panic!("{id}: no such exercise"));
        let v = cuda_academy::exercise::check(
            ex,
            src,
            &mut sim(),
            Limits::default(),
            &AtomicBool::new(false),
        );
        let failed: Vec<String> = v
            .checks
            .iter()
            .filter(|c| !c.passed)
            .map(|c| format!("{}: {}", c.name, c.detail))
            .collect();
        assert!(
            v.passed,
            "{id}/{file} fails: {failed:?}\nhazards: {:?}\noutput: {}",
            v.hazards, v.output
        );
    }
}

/// The host function of the `overlap-host-work` alternative ran in stream order: after the
/// download it follows, as a bar on the host lane, while the call itself returned at once (the
/// host work overlapped the copies, which `ops-overlap` checks above).
#[test]
fn the_host_function_alternative_runs_its_function_after_the_download() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/alternatives/overlap-host-work/host-func.cu"
    ))
    .unwrap();
    let out = super::run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert!(out.output.contains("batch done: yes"), "{}", out.output);
    let bar = out
        .host_calls
        .iter()
        .find(|o| o.label == "host function batch_done")
        .unwrap_or_else(|| panic!("no bar: {:?}", out.host_calls));
    let download_end = out
        .timeline
        .iter()
        .filter(|o| o.kind == cuda_academy::report::OpKind::D2h)
        .map(|o| o.end_us)
        .fold(0.0, f64::max);
    assert!(
        download_end > 0.0 && bar.start_us >= download_end,
        "{bar:?} vs {download_end}"
    );
}
