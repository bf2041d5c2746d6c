//! `cuda-academy exercise list|show|check`: output, JSON fields and exit codes.

use std::process::{Command, Output};

use serde_json::Value;

/// The real binary with a throwaway state folder.
fn run(args: &[&str]) -> Output {
    let state = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_cuda-academy"))
        .env("CUDA_ACADEMY_STATE_DIR", state.path())
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn list_names_every_exercise_with_its_lesson() {
    let out = run(&["exercise", "list", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows: Vec<Value> = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(rows.len(), cuda_academy::exercise::catalog::all().len());
    let fix = rows.iter().find(|r| r["id"] == "fix-the-race").unwrap();
    assert_eq!(
        (fix["lesson"].as_str(), fix["passed"].as_bool()),
        (Some("async-copy"), Some(false))
    );
}

#[test]
fn show_prints_the_starter_or_the_solution() {
    let starter = run(&["exercise", "show", "keep-it-alive"]);
    assert_eq!(
        stdout(&starter),
        std::fs::read_to_string("exercises/keep-it-alive/starter.cu").unwrap()
    );
    // Not passed on a fresh state folder: the solution is gated (see the test below).
    let solution = run(&["exercise", "show", "keep-it-alive", "--solution"]);
    assert_eq!(solution.status.code(), Some(2), "{}", stdout(&solution));
    assert!(stdout(&solution).is_empty());
    let unknown = run(&["exercise", "show", "no-such"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("unknown exercise \"no-such\""));
}

#[test]
fn check_reports_diagnostics_with_exit_1_and_usage_errors_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mine.cu");
    std::fs::write(
        &file,
        "#include \"academy.cuh\"\nint main() {\n  cudaMemcpy3D(0);\n  return 0;\n}\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let out = run(&[
        "--backend",
        "sim",
        "exercise",
        "check",
        "fix-the-race",
        f,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    for field in [
        "schema_version",
        "exercise",
        "passed",
        "backend",
        "checks",
        "diagnostics",
        "hazards",
        "metrics",
        "timeline",
    ] {
        assert!(v.get(field).is_some(), "no {field}: {v}");
    }
    assert_eq!(v["passed"], false);
    assert_eq!(v["backend"]["kind"], "simulated");
    assert_eq!(v["diagnostics"][0]["line"], 3);
    assert!(
        v["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("`cudaMemcpy3D` is not supported here")
    );
    assert!(
        stderr(&out).starts_with("fix-the-race: not yet"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        run(&["exercise", "check", "no-such", f]).status.code(),
        Some(2)
    );
    let missing = dir.path().join("absent.cu");
    assert_eq!(
        run(&[
            "exercise",
            "check",
            "fix-the-race",
            missing.to_str().unwrap()
        ])
        .status
        .code(),
        Some(2)
    );
}

#[test]
fn check_json_metrics_carry_value_unit_label_and_clock_as_run_does() {
    let out = run(&[
        "--backend",
        "sim",
        "exercise",
        "check",
        "time-a-copy",
        "exercises/time-a-copy/solution.cu",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["schema_version"], 2);
    let metrics = v["metrics"].as_object().unwrap();
    assert_eq!(metrics.len(), 2, "{metrics:?}");
    for (name, label) in [
        ("pageable_gbps", "pageable bandwidth"),
        ("pinned_gbps", "pinned bandwidth"),
    ] {
        let m = &metrics[name];
        assert!(m["value"].as_f64().is_some_and(|x| x > 0.0), "{name}: {m}");
        assert_eq!(m["unit"], "GB/s", "{name}: {m}");
        assert_eq!(m["label"], label, "{name}: {m}");
        assert_eq!(m["clock"], "model", "{name}: {m}");
        assert_eq!(m["n"], 1, "{name}: {m}");
    }
    // Pinned beats pageable on the simulated H200, as the exercise teaches.
    assert!(metrics["pinned_gbps"]["value"].as_f64() > metrics["pageable_gbps"]["value"].as_f64());
}

/// Issue 17's "done when": a missing `cudaStreamWaitEvent` between an upload stream and a kernel
/// stream is a `device-race` on both lines, in the text and in `--json`, with the card that
/// teaches it.
#[test]
fn a_missing_stream_wait_is_a_device_race_on_both_lines_in_text_and_json() {
    let file = "tests/fixtures/ordering-corpus/033-upload-kernel-two-streams-no-event.cu";
    let text = run(&[
        "--backend",
        "sim",
        "exercise",
        "check",
        "fix-the-race",
        file,
    ]);
    assert_eq!(text.status.code(), Some(1), "{}", stderr(&text));
    let out = stdout(&text);
    let line = out
        .lines()
        .find(|l| l.contains("[device-race]"))
        .unwrap_or_else(|| panic!("no device-race in:\n{out}"));
    assert!(
        line.starts_with(&format!("{file}:24: error [device-race]")),
        "{line}"
    );
    assert!(line.contains("line 23"), "{line}");
    assert!(out.contains("learn: lesson `pipeline`"), "{out}");
    let json = run(&[
        "--backend",
        "sim",
        "exercise",
        "check",
        "fix-the-race",
        file,
        "--json",
    ]);
    let v: Value = serde_json::from_str(&stdout(&json)).unwrap();
    let races: Vec<&Value> = v["hazards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["kind"] == "device-race")
        .collect();
    assert_eq!(races.len(), 1, "{v}");
    assert_eq!(
        (races[0]["line"].as_u64(), races[0]["other_line"].as_u64()),
        (Some(24), Some(23))
    );
    assert_eq!(races[0]["teaches"]["lesson"], "pipeline");
    // The timeline's ops carry the lines that issued them: both lines' ops are there.
    let lines: Vec<u64> = v["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|op| op["line"].as_u64())
        .collect();
    assert!(lines.contains(&23) && lines.contains(&24), "{lines:?}");
}

/// The binary on the state folder `state`.
fn run_in(state: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cuda-academy"))
        .env("CUDA_ACADEMY_STATE_DIR", state)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_solution_shows_after_a_pass_or_forced_after_three_checks_of_a_changed_file() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let id = "keep-it-alive";
    let show = |force: bool| {
        let mut args = vec!["exercise", "show", id, "--solution"];
        if force {
            args.push("--force");
        }
        run_in(state.path(), &args)
    };
    let solution = std::fs::read_to_string("exercises/keep-it-alive/solution.cu").unwrap();
    let starter = std::fs::read_to_string("exercises/keep-it-alive/starter.cu").unwrap();
    // Three checks of the untouched starter unlock nothing.
    let untouched = dir.path().join("starter.cu");
    std::fs::write(&untouched, &starter).unwrap();
    for _ in 0..3 {
        run_in(
            state.path(),
            &["exercise", "check", id, untouched.to_str().unwrap()],
        );
    }
    let closed = show(true);
    assert_eq!(closed.status.code(), Some(2));
    assert!(stderr(&closed).contains("0 so far"), "{}", stderr(&closed));
    // Three checks of a changed (still failing) file: only with --force.
    let changed = dir.path().join("mine.cu");
    std::fs::write(&changed, {
        let changed = starter.replace(
            "cudaFreeHost(h_stage);\n",
            "cudaFreeHost(h_stage); // moved?\n",
        );
        assert_ne!(changed, starter, "the edit must change the file");
        changed
    })
    .unwrap();
    for _ in 0..3 {
        let c = run_in(
            state.path(),
            &["exercise", "check", id, changed.to_str().unwrap()],
        );
        assert_eq!(c.status.code(), Some(1), "{}", stderr(&c));
    }
    let unforced = show(false);
    assert_eq!(unforced.status.code(), Some(2));
    assert!(
        stderr(&unforced).contains("--force"),
        "{}",
        stderr(&unforced)
    );
    let forced = show(true);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    assert_eq!(stdout(&forced), solution);
    // The pass after that view is recorded as such.
    let sol = dir.path().join("sol.cu");
    std::fs::write(&sol, &solution).unwrap();
    let pass = run_in(
        state.path(),
        &["exercise", "check", id, sol.to_str().unwrap()],
    );
    assert_eq!(pass.status.code(), Some(0), "{}", stderr(&pass));
    let list = run_in(state.path(), &["exercise", "list", "--json"]);
    let rows: Vec<Value> = serde_json::from_str(&stdout(&list)).unwrap();
    let row = rows.iter().find(|r| r["id"] == id).unwrap();
    assert_eq!(row["passed"], true);
    assert_eq!(row["solution_viewed"], true);
    assert_eq!(row["changed_checks"], 4);
    let text = stdout(&run_in(state.path(), &["exercise", "list"]));
    assert!(
        text.contains("yes*") && text.contains("passed after viewing the solution"),
        "{text}"
    );
    // Passed: the solution shows with no force, and nothing more is recorded.
    assert_eq!(stdout(&show(false)), solution);
    // `list --json` gives each lesson's exercises with their solution views.
    let lessons: Value =
        serde_json::from_str(&stdout(&run_in(state.path(), &["list", "--json"]))).unwrap();
    let ex = lessons["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|l| l["exercises"].as_array().cloned().unwrap_or_default())
        .find(|e| e["id"] == id)
        .unwrap();
    assert_eq!(
        (&ex["passed"], &ex["solution_viewed"]),
        (&Value::Bool(true), &Value::Bool(true))
    );
    let table = stdout(&run_in(state.path(), &["list"]));
    assert!(
        table.contains("Solution viewed before passing: keep-it-alive (passed)"),
        "{table}"
    );
}
