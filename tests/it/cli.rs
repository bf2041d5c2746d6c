//! The real `cuda-academy` binary: help, version, `list`, `check`, `completions`, the TUI's
//! refusal without a terminal, and closed output pipes.

// Test helpers outside #[test] functions may fail loudly too; clippy.toml only covers the tests.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "cli/check.rs"]
mod check;
#[path = "cli/support.rs"]
mod support;

use std::io::Read;
use std::process::Stdio;

use serde_json::Value;
use support::*;

const SUBCOMMANDS: [&str; 7] = [
    "list",
    "check",
    "run",
    "info",
    "calibrate",
    "completions",
    "man",
];

#[test]
fn help_names_every_subcommand() {
    let out = run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("Usage: cuda-academy"), "{text}");
    for sub in SUBCOMMANDS {
        assert!(text.contains(sub), "--help lacks {sub}:\n{text}");
    }
}

#[test]
fn version_is_the_crate_version() {
    let out = run(&["-V"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        format!("cuda-academy {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn long_version_names_the_commit_and_the_cuda_bindings() {
    let out = run(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "cuda-academy {}\ngit commit: ",
            env!("CARGO_PKG_VERSION")
        )),
        "{text}"
    );
    assert!(text.contains("CUDA bindings: cuda-13000"), "{text}");
}

#[test]
fn usage_errors_exit_2() {
    let out = run(&["list", "--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--no-such-flag"));
}

#[test]
fn tutorial_refuses_without_a_terminal() {
    let out = run(&[]);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stdout.is_empty(),
        "wrote to a non-terminal: {:?}",
        stdout(&out)
    );
    let err = stderr(&out);
    assert!(
        err.starts_with("cuda-academy: the tutorial needs an interactive terminal"),
        "{err}"
    );
    assert!(
        err.contains("stdout"),
        "should say what is not a terminal: {err}"
    );
    assert!(
        err.contains("cuda-academy list"),
        "should point at the script commands: {err}"
    );
}

fn list_json(args: &[&str]) -> Vec<Value> {
    let out = run(args);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["schema_version"], 1);
    json["lessons"].as_array().unwrap().clone()
}

/// The SEEN, QUIZ and PREDICTIONS cells of a table line (EXERCISES follows them).
fn scores(line: &str) -> Vec<&str> {
    let cells: Vec<&str> = line.split_whitespace().collect();
    cells[cells.len().saturating_sub(4)..cells.len().saturating_sub(1)].to_vec()
}

#[test]
fn list_json_from_a_folder() {
    let dir = good_folder();
    let lessons = list_json(&["list", "--json", "--lessons", dir.path().to_str().unwrap()]);
    let ids: Vec<&str> = lessons.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["pageable", "streams", "overlap"]);
    assert_eq!(lessons[1]["title"], "Streams");
    assert_eq!(lessons[1]["order"], 2);
    assert_eq!(lessons[1]["cards"], 2);
    assert_eq!(lessons[1]["questions"], 1);
    assert_eq!(lessons[1]["quiz_questions"], 1);
    assert_eq!(lessons[1]["predict_questions"], 0);
    assert_eq!(lessons[1]["experiments"], serde_json::json!(["async-copy"]));
    assert!(lessons.iter().all(|l| l["broken"].is_null()));
    // No progress file yet: nothing done, and said so in numbers.
    let progress = &lessons[1]["progress"];
    assert_eq!(progress["cards_seen"], 0);
    assert_eq!(progress["quiz_right"], 0);
    assert_eq!(progress["passed"], false);
}

#[test]
fn list_json_reports_broken_files() {
    let dir = folder(&[
        ("good.md", lesson("good", "Good", 1).into_bytes()),
        ("junk.md", b"\x00\x01\x02".to_vec()),
    ]);
    let lessons = list_json(&["list", "--json", "--lessons", dir.path().to_str().unwrap()]);
    assert_eq!(lessons.len(), 2);
    assert!(lessons[0]["broken"].is_null());
    assert_eq!(lessons[1]["id"], "junk");
    let reason = lessons[1]["broken"].as_str().unwrap();
    assert!(
        reason.contains("junk.md:1:") && reason.contains("NUL"),
        "{reason}"
    );
}

#[test]
fn list_json_of_the_built_in_lessons() {
    let lessons = list_json(&["list", "--json"]);
    let titles: Vec<&str> = lessons
        .iter()
        .map(|l| l["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Why Pageable Memory Is Slow",
            "Pinned Memory with cudaMallocHost",
            "cudaMemcpyAsync in a Stream",
            "The Double-Buffering Pipeline",
        ]
    );
    let mut ids: Vec<&str> = lessons.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert!(ids.iter().all(|id| !id.is_empty()));
    ids.dedup();
    assert_eq!(ids.len(), 4, "ids are not unique: {ids:?}");
    assert!(
        lessons
            .iter()
            .all(|l| l["broken"].is_null() && l["cards"].as_u64() >= Some(8))
    );
}

#[test]
fn list_table_fits_80_columns() {
    let dir = good_folder();
    let out = run(&["list", "--lessons", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
    assert!(lines[0].starts_with("#  ID"), "{text}");
    assert!(lines[0].ends_with("PREDICTIONS  EXERCISES"), "{text}");
    assert!(lines[4].starts_with("SEEN: cards seen. QUIZ:"), "{text}");
    assert!(
        lines[6].starts_with("EXERCISES: exercises passed"),
        "{text}"
    );
    for (line, (id, title)) in lines[1..].iter().zip([
        ("pageable", "Pageable"),
        ("streams", "Streams"),
        ("overlap", "A very long title"),
    ]) {
        assert!(line.contains(id) && line.contains(title), "{line}");
    }
    assert!(
        lines[3].contains('…'),
        "long title not shortened: {}",
        lines[3]
    );
    assert!(lines.iter().all(|l| l.chars().count() <= 80), "{text}");
}

#[test]
fn list_table_marks_broken_lessons() {
    let dir = folder(&[
        ("good.md", lesson("good", "Good", 1).into_bytes()),
        ("empty.md", Vec::new()),
    ]);
    let out = run(&["list", "--lessons", dir.path().to_str().unwrap()]);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let broken = text.lines().find(|l| l.contains("empty")).unwrap();
    assert!(
        broken.starts_with('!') && broken.contains("BROKEN line 1: the file is empty"),
        "{text}"
    );
    let good = text.lines().find(|l| l.contains("good")).unwrap();
    assert_eq!(
        scores(good),
        ["0/2", "0/1", "-"],
        "no progress yet should read 0/N: {good}"
    );
    assert!(text.contains("cuda-academy check"), "{text}");
}

#[test]
fn list_shows_progress_without_touching_the_file() {
    let dir = good_folder();
    let state = tempfile::tempdir().unwrap();
    let progress = r#"{"version": 1, "lessons": {"streams": {"card": 1, "seen": [0, 1],
        "answers": {"q1": {"choice": 1, "predicted": null, "correct": true, "attempts": 2}}}}}"#;
    let file = state.path().join("progress.json");
    std::fs::write(&file, progress).unwrap();
    let out = bin(state.path())
        .args(["list", "--lessons", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    let text = stdout(&out);
    let streams = text.lines().find(|l| l.contains("streams")).unwrap();
    // A version-1 record answered twice: the right answer kept was a retry, its first try is
    // unknown, so it does not count as right.
    assert_eq!(scores(streams), ["2/2", "0/1", "-"], "{streams}");
    let pageable = text.lines().find(|l| l.contains("pageable")).unwrap();
    assert_eq!(scores(pageable), ["0/2", "0/1", "-"], "{pageable}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), progress);
    // A corrupt file is neither moved aside nor rewritten by `list`.
    std::fs::write(&file, "{junk").unwrap();
    let out = bin(state.path())
        .args(["list", "--lessons"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_dir(state.path()).unwrap().count(), 1);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{junk");
}

#[test]
fn list_and_list_json_count_first_tries_the_same_way() {
    let dir = good_folder();
    let state = tempfile::tempdir().unwrap();
    // Streams q1: wrong first (choice 0), then right as practice. Pageable q1: right first.
    let progress = r#"{"version": 2, "seed": 1, "lessons": {
        "streams": {"card": 1, "seen": [0, 1], "answers": {"q1": {"attempts": [
            {"at": 1, "choice": 0, "correct": false}, {"at": 2, "choice": 1, "correct": true}]}}},
        "pageable": {"seen": [0, 1], "answers": {"q1": {"attempts": [
            {"at": 3, "choice": 1, "correct": true}]}, "gone": {"attempts": [
            {"at": 4, "choice": 1, "correct": true}]}}}}}"#;
    std::fs::write(state.path().join("progress.json"), progress).unwrap();
    let list = |json: bool| {
        let mut cmd = bin(state.path());
        cmd.args(["list", "--lessons"]).arg(dir.path());
        if json {
            cmd.arg("--json");
        }
        stdout(&cmd.output().unwrap())
    };
    let text = list(false);
    let row = |id: &str| scores(text.lines().find(|l| l.contains(id)).unwrap()).join(" ");
    assert_eq!(
        row("streams"),
        "2/2 0/1 -",
        "a retry never raises the score"
    );
    assert_eq!(
        row("pageable"),
        "2/2 1/1 -",
        "an unknown question id does not count"
    );
    let json: Value = serde_json::from_str(&list(true)).unwrap();
    let by_id = |id: &str| {
        json["lessons"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["id"] == id)
            .unwrap()["progress"]
            .clone()
    };
    assert_eq!(by_id("streams")["quiz_right"], 0);
    assert_eq!(by_id("streams")["quiz_answered"], 1);
    assert_eq!(by_id("streams")["passed"], false);
    assert_eq!(by_id("pageable")["quiz_right"], 1);
    assert_eq!(by_id("pageable")["passed"], true);
    // An unreadable file: progress unknown, not zero.
    std::fs::write(state.path().join("progress.json"), "{junk").unwrap();
    let json: Value = serde_json::from_str(&list(true)).unwrap();
    assert!(json["lessons"][0]["progress"].is_null(), "{json}");
}

#[test]
fn empty_state_dir_override_falls_back_to_xdg_state_home() {
    let dir = good_folder();
    let xdg = tempfile::tempdir().unwrap();
    let state = xdg.path().join("cuda-academy");
    std::fs::create_dir(&state).unwrap();
    let progress = r#"{"version": 1, "lessons": {"pageable": {"seen": [1]}}}"#;
    std::fs::write(state.join("progress.json"), progress).unwrap();
    let out = bin(xdg.path())
        .env("CUDA_ACADEMY_STATE_DIR", "")
        .env("XDG_STATE_HOME", xdg.path())
        .args(["list", "--lessons"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = stdout(&out);
    let pageable = text.lines().find(|l| l.contains("pageable")).unwrap();
    assert_eq!(scores(pageable), ["1/2", "0/1", "-"], "{text}");
}

#[test]
fn list_of_a_missing_folder_is_exit_1() {
    let out = run(&["list", "--lessons", "/definitely/not/here"]);
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.starts_with("cuda-academy: "), "{err}");
    assert!(
        err.contains("/definitely/not/here") && err.contains("--lessons"),
        "{err}"
    );
}

#[test]
fn completions_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F _cuda__academy"),
        ("zsh", "#compdef cuda-academy"),
        ("fish", "complete -c cuda-academy"),
    ] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains(marker), "{shell} script lacks {marker:?}");
        for sub in SUBCOMMANDS {
            assert!(text.contains(sub), "{shell} script lacks {sub}");
        }
    }
}

/// Run with stdout a pipe whose reading end is already closed: every write fails with EPIPE.
fn with_closed_stdout(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let state = tempfile::tempdir().unwrap();
    let child = bin(state.path())
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn closed_stdout_is_not_a_crash() {
    let dir = good_folder();
    let lessons = dir.path().as_os_str();
    let cases: [&[&str]; 6] = [
        &["list"],
        &["list", "--json"],
        &["check"],
        &["completions", "bash"],
        &["completions", "zsh"],
        &["--help"],
    ];
    for args in cases {
        let mut full: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
        if args[0] != "completions" && args[0] != "--help" {
            full.extend([std::ffi::OsStr::new("--lessons"), lessons]);
        }
        let out = with_closed_stdout(&full);
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}

#[test]
fn reader_that_stops_after_one_line_is_not_a_crash() {
    // Like `cuda-academy completions bash | head -1`.
    let state = tempfile::tempdir().unwrap();
    let mut child = bin(state.path())
        .args(["completions", "bash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_no_panic(&out);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!first.is_empty());
}

#[test]
fn info_json_carries_its_schema_version_and_each_fact_once() {
    let out = run(&["--backend", "sim", "info", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["build"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["build"]["cuda_bindings"], "cuda-13000");
    // The probe's facts appear once, at the top level, not again under `status`.
    assert!(v.get("status").is_none(), "{v}");
    assert!(
        v["driver_loaded"].is_boolean() && v["devices"].is_u64(),
        "{v}"
    );
}

#[test]
fn info_says_which_machine_the_simulator_models_and_where_its_rules_differ() {
    let out = run(&["--backend", "sim", "info", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let m = &v["machine"];
    assert_eq!(m["backend"], "simulated", "{v}");
    assert_eq!(m["name"], "NVIDIA H200", "{v}");
    assert_eq!(m["copy_engines"], 3, "{v}");
    assert_eq!(m["addressing"], "none", "{v}");
    assert_eq!(m["host_link"], "PCIe Gen5 x16", "{v}");
    assert_eq!(m["notes"], serde_json::json!([]), "{v}");

    let out = run(&[
        "--backend",
        "sim",
        "--profile",
        "h200-one-copy-engine",
        "info",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Profile:         h200-one-copy-engine"),
        "{text}"
    );
    assert!(text.contains("Copy engines:    1"), "{text}");
    assert!(
        text.contains("Rules differ:    one copy engine (asyncEngineCount 1)"),
        "{text}"
    );

    let out = run(&["--backend", "sim", "--profile", "no-such-profile", "info"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("no-such-profile"), "{}", stderr(&out));
}
