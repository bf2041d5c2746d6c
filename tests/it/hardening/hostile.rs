//! Review C1, C2: escape sequences in every field of a lesson, in file names, in TOML error
//! text, in profile fields and paths never reach stdout or stderr of any command raw.

use super::{assert_no_crash, assert_terminal_safe, bin, run, text};

/// Sequences of every kind: OSC title and clipboard, CSI clear screen, a C1 CSI, DEL, BEL, NUL
/// is left out (the parser rejects NUL bytes, which is tested elsewhere).
const HOSTILE: [&str; 6] = [
    "\u{1b}]0;pwned-title\u{7}",
    "\u{1b}]52;c;cHduZWQ=\u{7}",
    "\u{1b}[2J\u{1b}[H",
    "\u{9b}31m",
    "\u{7f}",
    "\u{8}\u{d}",
];

fn all_hostile() -> String {
    HOSTILE.concat()
}

/// TOML basic-string form of `s` (escapes for every control character).
fn toml_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if c.is_control() || c == '"' || c == '\\' {
            out.push_str(&format!("\\u{:04X}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out + "\""
}

fn hostile_lesson(id: &str, order: u32) -> String {
    let h = toml_str(&format!("T{}X and a long title to be cut", all_hostile()));
    format!(
        "+++\nid = \"{id}\"\ntitle = {h}\norder = {order}\nsummary = {h}\n\n[[quiz]]\nid = \"q1\"\n\
         prompt = {h}\nchoices = [{h}, {h}]\nanswer = 1\nexplanation = {h}\n+++\n# Card {}\n\nBody {}\n",
        all_hostile(),
        all_hostile()
    )
}

/// A folder of hostile lessons: fields, a file name with ESC, a broken file whose TOML error
/// quotes a hostile key, and one whose duplicate id names a hostile file.
fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::write(p.join("a.md"), hostile_lesson("fields", 1)).unwrap();
    let esc_name = format!("b{}.md", HOSTILE[0]);
    std::fs::write(p.join(&esc_name), hostile_lesson("named", 2)).unwrap();
    let key = toml_str(HOSTILE[0]);
    std::fs::write(
        p.join(format!("c{}.md", HOSTILE[2])),
        format!("+++\nid = \"bad\"\ntitle = \"t\"\n{key} = 1\n+++\n# x\n"),
    )
    .unwrap();
    std::fs::write(
        p.join(format!("d{}.md", HOSTILE[3])),
        hostile_lesson("fields", 1),
    )
    .unwrap();
    dir
}

#[test]
fn list_and_check_print_no_control_characters() {
    let dir = corpus();
    let d = dir.path().to_str().unwrap();
    for args in [
        vec!["list", "--lessons", d],
        vec!["list", "--json", "--lessons", d],
        vec!["check", d],
    ] {
        let out = run(&args);
        assert_no_crash(&out);
        assert_terminal_safe(&args.join(" "), &out);
    }
    // The replacement shows that something was there, and the TOML error still names the key.
    let out = run(&["check", d]);
    let shown = text(&out.stdout);
    assert!(shown.contains("\u{FFFD}]0;pwned-title"), "{shown}");
    assert!(shown.contains("unknown field"), "{shown}");
    assert_eq!(out.status.code(), Some(1));
    // JSON keeps the exact text, escaped.
    let out = run(&["list", "--json", "--lessons", d]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let titles: Vec<&str> = json["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["title"].as_str())
        .collect();
    assert!(titles.iter().any(|t| t.contains(HOSTILE[3])), "{titles:?}");
}

/// The TUI's views get clean text too: the parsed lesson holds no control character.
#[test]
fn parsed_lessons_hold_no_control_characters() {
    let lesson = cuda_academy::lesson::Lesson::parse("a.md", hostile_lesson("x", 1).as_bytes())
        .expect("hostile text is still a valid lesson");
    let q = &lesson.meta.quiz[0];
    let texts = [
        &lesson.meta.title,
        &lesson.meta.summary,
        &q.prompt,
        &q.explanation,
    ]
    .into_iter()
    .chain(&q.choices)
    .chain(lesson.cards.iter().map(|c| &c.markdown));
    for t in texts {
        assert!(!t.chars().any(cuda_academy::sanitize::is_unsafe), "{t:?}");
    }
}

#[test]
fn a_missing_hostile_folder_is_reported_safely() {
    let name = format!("/nonexistent/{}", all_hostile());
    for args in [vec!["list", "--lessons", &name], vec!["check", &name]] {
        let out = run(&args);
        assert_no_crash(&out);
        assert_eq!(out.status.code(), Some(1));
        assert_terminal_safe("missing folder", &out);
    }
}

fn hostile_profile(dir: &std::path::Path) -> std::path::PathBuf {
    let base = cuda_academy::gpu::profile::Profile::builtin("h200").unwrap();
    let mut p = base.clone();
    p.name = format!("h{}", all_hostile());
    p.device_name = format!("GPU{}", all_hostile());
    p.source = all_hostile();
    let path = dir.join("esc.toml");
    std::fs::write(&path, p.to_toml().unwrap()).unwrap();
    path
}

#[test]
fn profile_fields_never_reach_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    let profile = hostile_profile(dir.path());
    let p = profile.to_str().unwrap();
    let run_args = ["run", "pinned-alloc", "--backend", "sim", "--size", "1M"];
    for extra in [&[][..], &["--json"][..]] {
        let mut args = vec!["--profile", p];
        args.extend(run_args);
        args.extend(extra);
        let out = run(&args);
        assert_no_crash(&out);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_terminal_safe(&args.join(" "), &out);
        for info in [
            vec!["--profile", p, "info", "--backend", "sim"],
            vec!["--profile", p, "info", "--backend", "sim", "--json"],
        ] {
            let out = run(&info);
            assert_no_crash(&out);
            assert_terminal_safe("info", &out);
        }
    }
    // A hostile key makes TOML's own message quote it.
    let bad = dir
        .path()
        .join(format!("profile-under-test{}.toml", HOSTILE[0]));
    std::fs::write(&bad, format!("{} = 1\n", toml_str(HOSTILE[2]))).unwrap();
    let out = run(&["--profile", bad.to_str().unwrap(), "info"]);
    assert_eq!(out.status.code(), Some(1));
    assert_terminal_safe("profile parse error", &out);
    let err = text(&out.stderr);
    assert_eq!(
        err.matches("profile-under-test").count(),
        1,
        "the path is said once: {err}"
    );
}

/// `calibrate --name` and the profile it writes: the summary line is clean; the file is written
/// through a symlink (the link stays) and atomically.
#[test]
fn calibrate_output_is_clean_and_written_through_a_symlink() {
    let state = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.toml");
    std::fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.toml");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let name = format!("n{}", all_hostile());
    let out = bin(state.path())
        .args(["calibrate", "--backend", "sim", "--name", &name, "--out"])
        .arg(&link)
        .output()
        .unwrap();
    assert_no_crash(&out);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_terminal_safe("calibrate", &out);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let written = cuda_academy::gpu::profile::Profile::load(&real).unwrap();
    assert_eq!(written.name, name, "the file keeps the exact name");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temp file left"
    );
}
