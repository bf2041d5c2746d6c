//! Review 2026-12-01b ST1, ST2 (issue 29): under a file-size limit (`ulimit -f`) or on a full
//! disk, the exercise save's in-place fallback cut the learner's file to a fragment, changed
//! its stamp (a "changed outside" prompt then offered that fragment) and the text was lost. Now
//! the exercise file and `progress.json` stay byte for byte what they were, with their stamps,
//! and the text is in a recovery file the message names (in parts, when the limit is smaller
//! than the text). The limit is set in a child process (it is process-wide): this test runs
//! itself again with [`CHILD`] set.

use std::path::{Path, PathBuf};
use std::process::Command;

use cuda_academy::exercise::catalog;
use cuda_academy::progress::{self, LessonProgress};
use cuda_academy::tui::exercise_store;

/// Set in the child: the state folder it works in.
const CHILD: &str = "CUDA_ACADEMY_TEST_FSIZE_CHILD";

/// The file-size limit the child runs under (`ulimit -f 2`).
const LIMIT: u64 = 2048;

const ID: &str = "time-a-copy";

fn big_text() -> String {
    format!("// {}\n", "y".repeat(3000))
}

#[test]
fn under_a_file_size_limit_a_failed_save_keeps_the_file_and_progress_byte_for_byte() {
    if let Ok(dir) = std::env::var(CHILD) {
        child(Path::new(&dir));
        return;
    }
    let state = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let starter = catalog::find(ID).unwrap().starter;
    exercise_store::save(state.path(), ID, starter).unwrap();
    let mut p = progress::load(state.path()).progress;
    p.current_lesson = Some("lesson-1".into());
    progress::save(state.path(), &p).unwrap();
    let ex_file = exercise_store::file_for(state.path(), ID);
    let prog_file = progress::path(state.path());
    let before = (
        std::fs::read(&ex_file).unwrap(),
        std::fs::read(&prog_file).unwrap(),
    );
    let stamp = exercise_store::stamp(&ex_file);
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "hardening::save_limits::under_a_file_size_limit_a_failed_save_keeps_the_file_and_progress_byte_for_byte",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, state.path())
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let recovered = said
        .lines()
        .find_map(|l| l.split_once("RECOVERED ").map(|(_, p)| p.trim()))
        .unwrap_or_else(|| panic!("the child named no recovery file: {said}"));
    assert_eq!(
        std::fs::read(&ex_file).unwrap(),
        before.0,
        "the exercise file changed"
    );
    assert_eq!(
        std::fs::read(&prog_file).unwrap(),
        before.1,
        "progress.json changed"
    );
    assert_eq!(
        exercise_store::stamp(&ex_file),
        stamp,
        "the exercise file's stamp changed"
    );
    assert_eq!(
        joined(recovered),
        big_text().into_bytes(),
        "the text is not where it was said"
    );
    let left: Vec<_> = std::fs::read_dir(ex_file.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().starts_with(".cuda-academy-tmp"))
        .collect();
    assert!(left.is_empty(), "temp files left: {left:?}");
}

/// The bytes of a recovery file, or of its parts (`…part-*-of-N.cu`) joined in order.
fn joined(path: &str) -> Vec<u8> {
    let Some((head, tail)) = path.split_once(".part-*-of-") else {
        return std::fs::read(path).unwrap();
    };
    let count: usize = tail.trim_end_matches(".cu").parse().unwrap();
    (1..=count)
        .flat_map(|i| {
            std::fs::read(PathBuf::from(format!("{head}.part-{i}-of-{count}.cu"))).unwrap()
        })
        .collect()
}

/// Under the limit: the save and the progress write fail, and say why; the recovery succeeds.
fn child(dir: &Path) {
    // As the binary does (main.rs): a write past the limit is EFBIG, not a kill.
    signal_hook::flag::register(
        signal_hook::consts::SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    )
    .unwrap();
    nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_FSIZE, LIMIT, LIMIT)
        .unwrap();
    let text = big_text();
    let err = format!("{:#}", exercise_store::save(dir, ID, &text).unwrap_err());
    assert!(
        err.contains("file-size limit") && err.contains("left as it was"),
        "{err}"
    );
    let mut p = progress::load(dir).progress;
    for i in 0..200 {
        p.lessons
            .insert(format!("unknown-{i}"), LessonProgress::default());
    }
    let err = format!("{:#}", progress::save(dir, &p).unwrap_err());
    assert!(err.contains("File too large"), "{err}");
    let path = exercise_store::recover(Some(dir), ID, &text, std::time::SystemTime::now()).unwrap();
    assert!(
        path.starts_with(dir.join("recovered")),
        "{}",
        path.display()
    );
    println!("RECOVERED {}", path.display());
}
