//! The scripts complete what the registries hold: bash's completion function is run on a
//! command line, as bash runs it on Tab; the other shells' scripts are searched for the ids.

use std::process::Command;

use clap_complete::Shell;

use super::script;
use crate::experiment::registry;

/// What bash's completion function offers for `words` (the last one being typed), candidates
/// starting with `-` left out unless the typed word starts with one.
fn bash_candidates(words: &[&str]) -> Vec<String> {
    let text = String::from_utf8(script(Shell::Bash)).unwrap();
    let function = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("complete -F "))
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the script registers a function")
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("completion.bash");
    std::fs::write(&file, &text).unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let (cur, prev) = (words[cword], words[cword - 1]);
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={cword}; {function} cuda-academy '{cur}' '{prev}'; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        file.display(),
        quoted.join(" ")
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut found: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty() && (cur.starts_with('-') || !l.starts_with('-')))
        .map(String::from)
        .collect();
    found.sort();
    found
}

fn sorted(ids: impl IntoIterator<Item = impl Into<String>>) -> Vec<String> {
    let mut ids: Vec<String> = ids.into_iter().map(Into::into).collect();
    ids.sort();
    ids
}

#[test]
fn bash_completes_the_experiment_ids_after_run() {
    let ids = sorted(registry::ALL.iter().map(|s| s.id));
    assert_eq!(bash_candidates(&["cuda-academy", "run", ""]), ids);
    assert_eq!(
        bash_candidates(&["cuda-academy", "run", "pi"]),
        sorted(ids.iter().filter(|id| id.starts_with("pi")).cloned())
    );
}

#[test]
fn bash_completes_the_exercise_ids_after_exercise_check_and_show() {
    let ids = sorted(crate::exercise::catalog::all().iter().map(|e| e.id.clone()));
    assert!(ids.len() > 10, "{ids:?}");
    for sub in ["check", "show"] {
        assert_eq!(
            bash_candidates(&["cuda-academy", "exercise", sub, ""]),
            ids,
            "exercise {sub}"
        );
    }
}

#[test]
fn bash_completes_subcommands_and_flag_values() {
    let subs = bash_candidates(&["cuda-academy", "ex"]);
    assert_eq!(subs, ["exercise"]);
    assert_eq!(
        bash_candidates(&["cuda-academy", "run", "pipeline", "--order", ""]),
        ["breadth-first", "by-stage", "per-chunk"]
    );
    assert_eq!(
        bash_candidates(&["cuda-academy", "info", "--backend", ""]),
        ["auto", "gpu", "sim"]
    );
}

#[test]
fn every_shells_script_names_every_experiment_and_exercise() {
    let experiments = registry::ALL.iter().map(|s| s.id.to_string());
    let exercises = crate::exercise::catalog::all().iter().map(|e| e.id.clone());
    let ids: Vec<String> = experiments.chain(exercises).collect();
    // The shells the README gives install lines for.
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        let text = String::from_utf8(script(shell)).unwrap();
        for id in &ids {
            assert!(text.contains(id.as_str()), "{shell}: no {id}");
        }
        for sub in ["run", "exercise", "list", "info", "completions"] {
            assert!(text.contains(sub), "{shell}: no {sub}");
        }
    }
}
