//! The host-function alternatives (issue 27) among the honest alternatives of
//! `tests/fixtures/honest/<id>/` (each passes its exercise: `shortcuts::every_honest_alternative_passes`):
//! what the function did and when.

/// The host function of the `overlap-host-work` alternative ran in stream order: after the
/// download it follows, as a bar on the host lane, while the call itself returned at once (the
/// host work overlapped the copies, which `ops-overlap` checks).
#[test]
fn the_host_function_alternative_runs_its_function_after_the_download() {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/honest/overlap-host-work/host-func.cu"
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
