//! Review 2026-12-01 K1, X4, X29 (and X34): `exercise check` quotes the learner's file
//! (function, kernel and type names, printf conversion specs, syntax-error snippets, the
//! program's output), profile fields and paths. None of it may reach the terminal raw: C0 and
//! C1 controls replaced, bidi controls shown as `<U+XXXX>`, in text and in `--json` (escaped).

use super::{assert_no_crash, assert_terminal_safe, bin, text};
use cuda_academy::gpu::profile::Profile;
use cuda_academy::sanitize::is_bidi_control;

/// OSC 0 (title), OSC 52 (clipboard), CSI 2J (clear screen), a C1 CSI and a right-to-left
/// override: what a hostile `.cu` file carries.
const EVIL: &str = "\u{1b}]0;PWNED\u{7}\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}[2J\u{9b}31m\u{202e}gnp";

fn program(body: &str) -> String {
    format!("int main()\n{{\n{body}\n    return 0;\n}}\n")
}

/// The hostile files: where the text gets into a message.
fn hostile_files() -> Vec<(&'static str, String)> {
    vec![
        // X1: the conversion spec runs up to the first letter, so it carries ESC ] 0 ;.
        (
            "printf spec",
            program(&format!("    printf(\"%{EVIL}q\");")),
        ),
        (
            "printf spec with an argument",
            program("    printf(\"%\u{1b}[2J\u{9b}\u{202e}q\", 1);"),
        ),
        // X2: a function's name in a template argument.
        (
            "function name",
            format!("void f<\"{EVIL}\">() {{}}\n") + &program(""),
        ),
        // X3: kernel and type names.
        (
            "kernel name",
            program(&format!("    k[\"{EVIL}\"]<<<1, 1>>>(0);")),
        ),
        ("type name", program(&format!("    foo<\"{EVIL}\"> x;"))),
        // A syntax error whose snippet quotes the text.
        (
            "syntax error",
            program(&format!("    int x = @ \"{EVIL}\";")),
        ),
        // The program's own output.
        (
            "printf output",
            program(&format!("    printf(\"out {EVIL}\\n\");")),
        ),
    ]
}

#[track_caller]
fn assert_no_bidi(what: &str, out: &std::process::Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let t = text(bytes);
        assert!(
            !t.chars().any(is_bidi_control),
            "{what}: raw bidi control on {stream}:\n{}",
            t.escape_debug()
        );
    }
}

#[test]
fn hostile_source_text_never_reaches_the_terminal_raw() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut shown_bidi = 0;
    for (what, source) in hostile_files() {
        let file = dir.path().join("evil.cu");
        std::fs::write(&file, &source).unwrap();
        let f = file.to_str().unwrap();
        let out = bin(state.path())
            .args(["exercise", "check", "time-a-copy", f, "--backend", "sim"])
            .output()
            .unwrap();
        assert_no_crash(&out);
        assert_terminal_safe(what, &out);
        assert_no_bidi(what, &out);
        let all = text(&out.stdout) + &text(&out.stderr);
        shown_bidi += usize::from(all.contains("<U+202E>"));

        let json = bin(state.path())
            .args([
                "exercise",
                "check",
                "time-a-copy",
                f,
                "--backend",
                "sim",
                "--json",
            ])
            .output()
            .unwrap();
        assert_no_crash(&json);
        assert_terminal_safe(&format!("{what} --json"), &json);
        assert_no_bidi(&format!("{what} --json"), &json);
        let parsed: serde_json::Value = serde_json::from_slice(&json.stdout)
            .unwrap_or_else(|e| panic!("{what}: --json is not JSON ({e})"));
        assert_eq!(parsed["passed"], false, "{what}");
    }
    // The override is shown where it was, not silently dropped.
    assert!(
        shown_bidi >= 4,
        "`<U+202E>` shown in {shown_bidi} of the cases"
    );
}

/// X29: a profile's `name` and `device_name` with C1, ESC and a bidi override, in `--json`.
#[test]
fn hostile_profile_fields_are_escaped_in_check_json() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut p = Profile::builtin("h200").unwrap();
    p.name = format!("n{EVIL}");
    p.device_name = format!("d\u{9d}0;PWNED\u{9c}{EVIL}");
    let profile = dir.path().join("evil.toml");
    std::fs::write(&profile, p.to_toml().unwrap()).unwrap();
    for json in [false, true] {
        let mut cmd = bin(state.path());
        cmd.args(["--profile", profile.to_str().unwrap()])
            .args(["exercise", "check", "time-a-copy"])
            .arg("exercises/time-a-copy/solution.cu")
            .args(["--backend", "sim"]);
        if json {
            cmd.arg("--json");
        }
        let out = cmd.output().unwrap();
        assert_no_crash(&out);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_terminal_safe("profile fields", &out);
        assert_no_bidi("profile fields", &out);
    }
}

/// X34: a state folder whose name holds OSC and a bidi override, with a `passed.json` that is
/// not a list: the path in "passed exercises unknown" and "the pass is not recorded" is cleaned.
#[test]
fn a_hostile_state_path_is_cleaned_in_messages() {
    let root = tempfile::tempdir().unwrap();
    let state = root.path().join(format!("s{EVIL}"));
    std::fs::create_dir_all(state.join("exercises")).unwrap();
    std::fs::write(state.join("exercises/passed.json"), "{}").unwrap();
    let list = bin(&state).args(["exercise", "list"]).output().unwrap();
    let check = bin(&state)
        .args(["exercise", "check", "time-a-copy"])
        .arg("exercises/time-a-copy/solution.cu")
        .args(["--backend", "sim"])
        .output()
        .unwrap();
    for (what, out) in [("list", &list), ("check", &check)] {
        assert_no_crash(out);
        assert!(text(&out.stderr).contains("is not a JSON list"), "{what}");
        assert_terminal_safe(what, out);
        assert_no_bidi(what, out);
    }
}
