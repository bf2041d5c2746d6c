//! `cuda-academy run`: the binary's exit codes, stdout/stderr split and JSON, and the same logic
//! through library calls (table, options, errors).

// Test helpers outside `#[test]` functions may fail loudly too.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::process::{Command, Output};

use cuda_academy::cli::run::{backend_line, options, render_table};
use cuda_academy::cli::{BackendChoice, ColorChoice, GlobalArgs, RunArgs};
use cuda_academy::experiment::{self, ExperimentOptions, RunContext, registry};
use cuda_academy::gpu::profile::Profile;
use cuda_academy::gpu::sim::SimGpu;

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cuda-academy"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run_args(experiment: &str) -> RunArgs {
    RunArgs {
        experiment: experiment.into(),
        json: false,
        size: None,
        streams: None,
        chunks: None,
        host_mem: None,
        order: None,
        trace: None,
    }
}

fn global(backend: BackendChoice) -> GlobalArgs {
    GlobalArgs {
        lessons: None,
        color: ColorChoice::Never,
        hyperlinks: None,
        backend,
        device: 0,
        profile: None,
        no_mouse: false,
    }
}

#[test]
fn json_run_prints_one_report_object_on_stdout() {
    let out = cli(&[
        "run",
        "async-copy",
        "--backend",
        "sim",
        "--json",
        "--size",
        "4M",
    ]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["experiment"], "async-copy");
    assert_eq!(v["backend"]["kind"], "simulated");
    assert_eq!(v["params"]["size"], 4 << 20);
    assert_eq!(v["metrics"]["async_return_us_pinned"]["unit"], "us");
    assert!(v["timeline"].as_array().unwrap().len() > 3);
}

#[test]
fn table_run_names_the_backend_and_units() {
    let out = cli(&[
        "run",
        "pageable-vs-pinned",
        "--backend",
        "sim",
        "--size",
        "1M",
    ]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("Simulated: profile h200"), "{stdout}");
    assert!(
        stdout.contains("pinned_h2d_gbps") && stdout.contains("GB/s"),
        "{stdout}"
    );
}

#[test]
fn errors_go_to_stderr_with_a_failing_exit_also_with_json() {
    for (args, needle) in [
        (vec!["run", "nope", "--json"], "pipeline"),
        (vec!["run", "pipeline", "--json", "--size", "0"], "--size"),
        (vec!["run", "pipeline", "--size", "12Q"], "unit"),
        (vec!["run", "pipeline", "--streams", "0"], "--streams"),
        (vec!["run", "pipeline", "--chunks", "100000"], "--chunks"),
        (vec!["run", "pipeline", "--size", "70G"], "64 GiB"),
        (vec!["run", "async-copy", "--streams", "2"], "pipeline"),
    ] {
        let out = cli(&args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn usage_errors_exit_2_and_a_misspelled_id_gets_a_suggestion() {
    for args in [
        vec!["run", "pipline"],
        vec!["run", "pipeline", "--size", "12XB"],
        vec!["run", "pipeline", "--size", "0"],
        vec!["run", "pipeline", "--streams", "0"],
        vec!["run", "pipeline", "--order", "sideways"],
    ] {
        let out = cli(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let stderr = text(&cli(&["run", "pipline"]).stderr);
    assert!(stderr.contains("'pipeline'"), "{stderr}");
    let script = text(&cli(&["completions", "bash"]).stdout);
    for id in registry::ids() {
        assert!(script.contains(id), "bash completions lack {id}");
    }
}

#[test]
fn options_come_from_the_flags() {
    let mut a = run_args("pipeline");
    a.size = Some(64 << 10);
    a.streams = Some(3);
    a.order = Some(cuda_academy::cli::OrderArg::BreadthFirst);
    let o = options(&a);
    assert_eq!(
        (o.size, o.streams, o.chunks, o.issue_order),
        (
            Some(64 << 10),
            Some(3),
            None,
            Some(experiment::IssueOrder::BreadthFirst)
        )
    );
}

#[test]
fn trace_flag_writes_a_chrome_trace_or_says_why_not() {
    let g = global(BackendChoice::Sim);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.json");
    let mut traced = run_args("async-copy");
    traced.size = Some(1 << 20);
    traced.json = true;
    traced.trace = Some(path.clone());
    cuda_academy::cli::run::run(&traced, &g.backend_spec().unwrap()).unwrap();
    let trace: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let events = trace["traceEvents"].as_array().unwrap();
    assert!(events.iter().any(|e| e["ph"] == "X"), "no complete events");
    traced.trace = Some(dir.path().join("missing-folder/t.json"));
    let e = cuda_academy::cli::run::run(&traced, &g.backend_spec().unwrap()).unwrap_err();
    assert!(format!("{e:#}").contains("missing-folder"), "{e:#}");
}

#[test]
fn the_table_shows_backend_metrics_and_checks() {
    let mut gpu = SimGpu::new(Profile::builtin("h200").unwrap(), "--backend sim".into());
    let opts = ExperimentOptions {
        size: Some(8 << 20),
        ..Default::default()
    };
    let report = experiment::run("pipeline", &mut gpu, &opts, &RunContext::silent()).unwrap();
    let table = render_table(&report);
    assert_eq!(backend_line(&report), table.lines().next().unwrap());
    assert!(table.contains("--backend sim"), "{table}");
    // Contract metrics come first, in contract order.
    let seq = table.find("sequential_ms").unwrap();
    let eff = table.find("efficiency").unwrap();
    let extra = table.find("h2d_alone_ms").unwrap();
    assert!(seq < eff && eff < extra, "{table}");
    assert!(
        table.contains("[pass]") && !table.contains("[FAIL]"),
        "{table}"
    );
}

/// `--profile FILE` makes the simulator use a recorded profile: a slower link gives a slower
/// result, and the report names the profile; a broken file is a clear error.
#[test]
fn profile_flag_selects_the_simulator_profile() {
    let dir = tempfile::tempdir().unwrap();
    let slow = Profile::builtin("h200")
        .unwrap()
        .to_toml()
        .unwrap()
        .lines()
        .map(|l| match l.split(" = ").next() {
            Some("name") => "name = \"slow-link\"".to_string(),
            Some("pinned_h2d_gbps") => "pinned_h2d_gbps = 11.0".to_string(),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let path = dir.path().join("slow.toml");
    std::fs::write(&path, slow).unwrap();
    let p = path.to_str().unwrap();
    let args = [
        "--backend",
        "sim",
        "--profile",
        p,
        "run",
        "pageable-vs-pinned",
        "--size",
        "64M",
        "--json",
    ];
    let out = cli(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["backend"]["profile"], "slow-link");
    let gbps = report["metrics"]["pinned_h2d_gbps"]["value"]
        .as_f64()
        .unwrap();
    assert!((10.0..11.5).contains(&gbps), "{gbps}");

    std::fs::write(&path, "pinned_h2d_gbps = oops").unwrap();
    let out = cli(&args);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("--profile") && err.contains("slow.toml"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// `--order by-stage` runs the third layout alone (three streams, its series only); a typo is a
/// usage error (exit 2) that names the value; with `--streams` other than 3 it says what to do.
#[test]
fn order_by_stage_runs_alone_and_its_misuses_are_clear() {
    let out = cli(&[
        "--backend",
        "sim",
        "run",
        "pipeline",
        "--size",
        "16M",
        "--order",
        "by-stage",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r: cuda_academy::report::Report = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r.params.extra["best_order"], "by-stage");
    assert_eq!(r.params.streams, Some(3));
    assert!(r.series.iter().all(|s| s.name.ends_with("by-stage")));
    assert!(r.checks.iter().all(|c| c.passed), "{:?}", r.checks);
    let typo = cli(&["--backend", "sim", "run", "pipeline", "--order", "by-stge"]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(text(&typo.stderr).contains("by-stage"));
    let two = cli(&[
        "--backend",
        "sim",
        "run",
        "pipeline",
        "--order",
        "by-stage",
        "--streams",
        "2",
    ]);
    assert_eq!(two.status.code(), Some(1));
    assert!(
        text(&two.stderr).contains("--streams 3"),
        "{}",
        text(&two.stderr)
    );
}
