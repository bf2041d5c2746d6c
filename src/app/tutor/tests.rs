//! The tutor pane through `App::update`: nothing sent unless configured, what a request
//! carries (never an unanswered question's key), the answer streaming in, cancel, failures.

use std::sync::Arc;
use std::time::Duration;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::app::Msg;
use crate::app::tests::app;
use crate::exercise::Verdict;
use crate::exercise::hazards::{CardRef, Hazard, HazardKind};
use crate::progress::Attempt;
use crate::tutor::{Endpoint, Protocol, TutorConfig};

fn config() -> TutorConfig {
    TutorConfig {
        endpoint: Endpoint::parse("http://127.0.0.1:9").unwrap_or_else(|e| panic!("{e}")),
        protocol: Protocol::OpenAi,
        model: "m".into(),
        context_tokens: 8192,
        allow_remote: false,
        direct: false,
        connect_timeout: Duration::from_secs(1),
        read_timeout: Duration::from_secs(1),
    }
}

fn ready() -> App {
    let mut app = app();
    app.tutor_configure(Setup::Ready(Box::new(config())));
    app
}

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn type_text(app: &mut App, text: &str) -> Vec<Cmd> {
    text.chars()
        .flat_map(|c| app.update(key(KeyCode::Char(c))))
        .collect()
}

/// Open the pane, type `question`, press Enter: the body of the request, if one was made.
fn ask(app: &mut App, open: KeyCode, question: &str) -> Option<serde_json::Value> {
    let mut cmds = app.update(key(open));
    cmds.extend(type_text(app, question));
    cmds.extend(app.update(key(KeyCode::Enter)));
    cmds.into_iter().find_map(|c| match c {
        Cmd::Tutor(TutorCmd::Ask { body, .. }) => Some(body),
        _ => None,
    })
}

fn system(body: &serde_json::Value) -> String {
    body["messages"][0]["content"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[test]
fn nothing_is_sent_unless_a_tutor_is_configured() {
    let mut app = app();
    assert_eq!(app.tutor.setup, Setup::Off);
    let body = ask(&mut app, KeyCode::Char('t'), "why?");
    assert_eq!(body, None);
    assert!(app.tutor.open, "the pane says how to set one up");
    assert!(app.tutor.input.is_empty(), "and takes no question");
    let mut unusable = crate::app::tests::app();
    unusable.tutor_configure(Setup::Unusable("10.0.0.1 is not this machine".into()));
    assert_eq!(ask(&mut unusable, KeyCode::Char('t'), "why?"), None);
}

#[test]
fn a_request_carries_the_card_and_the_quiz_but_no_unanswered_key() {
    let mut app = ready();
    let body = ask(&mut app, KeyCode::Char('t'), "why is pageable slow?").unwrap_or_default();
    let text = system(&body);
    assert!(
        text.contains("Lesson \"Why Pageable Memory Is Slow\", card 1 of 3"),
        "{text}"
    );
    assert!(
        text.contains("The operating system may move a **pageable** page"),
        "{text}"
    );
    assert!(
        text.contains("Question 1: Where does the driver put pageable data"),
        "{text}"
    );
    assert!(
        text.contains("B) In a pinned staging buffer"),
        "the options are there"
    );
    assert!(
        !text.contains("The answer is"),
        "no key of an unanswered question: {text}"
    );
    assert!(
        !text.contains("The DMA engine can only read"),
        "nor its explanation"
    );
    assert!(text.contains("Not answered yet: do not give its answer."));
    assert_eq!(body["messages"][1]["content"], "why is pageable slow?");

    // Once answered, the key and the explanation go with it.
    let answers = &mut app
        .progress
        .lessons
        .entry("pageable".into())
        .or_default()
        .answers;
    answers
        .entry("staging".into())
        .or_default()
        .attempts
        .push(Attempt {
            at: 1,
            choice: Some(0),
            correct: Some(false),
            predicted: None,
            grade: None,
            after_seeing: false,
        });
    app.tutor.answering = None;
    let text = system(&ask(&mut app, KeyCode::Char('t'), "and now?").unwrap_or_default());
    assert!(
        text.contains("The learner answered A) In the GPU's L2 cache: wrong."),
        "{text}"
    );
    assert!(
        text.contains("The answer is B) In a pinned staging buffer."),
        "{text}"
    );
    assert_eq!(
        text.matches("The answer is").count(),
        1,
        "only the answered one: {text}"
    );
}

#[test]
fn in_the_editor_a_request_carries_code_verdict_hazards_and_attempts() {
    let mut app = ready();
    let _ = app.exercises.open("fix-the-race".to_string());
    let hazard = Hazard {
        kind: HazardKind::ReadBeforeSync,
        line: 3,
        other_line: Some(2),
        message: "h is read before the copy into it is known to be done".into(),
        teaches: CardRef::of(HazardKind::ReadBeforeSync),
    };
    if let Some(ed) = app.exercises.editor.as_mut() {
        ed.area = Some(crate::app::editor::text_area(
            "int main() {\n    copy();\n    read();\n}\n",
        ));
        ed.verdict = Some(Arc::new(Verdict {
            hazards: vec![hazard],
            ..Verdict::default()
        }));
        ed.hints_shown = 1;
    }
    let body = ask(&mut app, KeyCode::F(2), "why is line 3 flagged?").unwrap_or_default();
    let text = system(&body);
    assert!(text.contains("## Learner's code (line numbers first)\n  1 int main() {\n  2     copy();\n  3     read();"), "{text}");
    assert!(
        text.contains("hazard read-before-sync at line 3 and line 2: h is read before"),
        "{text}"
    );
    assert!(text.contains("hints shown: 1 of"), "{text}");
    assert!(
        text.contains("Hint 1 (already shown to the learner)"),
        "{text}"
    );
    assert!(
        !text.contains("Hint 2 (already shown"),
        "hints not shown stay out"
    );
    assert!(
        !text.contains("## Card the learner"),
        "the editor's conversation is the exercise's"
    );
    assert_eq!(app.tutor.key.as_deref(), Some("exercise:fix-the-race"));
}

#[test]
fn the_answer_streams_in_ends_as_a_turn_and_is_saved() {
    let mut app = ready();
    assert!(ask(&mut app, KeyCode::Char('t'), "q").is_some());
    let id = app.tutor.answering.as_ref().map_or(0, |a| a.id);
    let piece = |id, text: &str| {
        Msg::Tutor(TutorMsg::Event(TutorEvent::Piece {
            id,
            text: text.into(),
        }))
    };
    app.update(piece(id, "What does "));
    app.update(piece(id + 99, "IGNORED "));
    app.update(piece(id, "line 2 do?"));
    assert_eq!(
        app.tutor.answering.as_ref().map(|a| a.text.as_str()),
        Some("What does line 2 do?")
    );
    let done = Msg::Tutor(TutorMsg::Event(TutorEvent::Done {
        id,
        ending: Ending::Done,
    }));
    let cmds = app.update(done);
    assert!(app.tutor.answering.is_none());
    let turns: Vec<_> = app
        .tutor
        .conversation
        .turns
        .iter()
        .map(|t| (t.role, t.text.as_str()))
        .collect();
    assert_eq!(
        turns,
        [(Role::User, "q"), (Role::Assistant, "What does line 2 do?")]
    );
    assert!(
        matches!(&cmds[..], [Cmd::Tutor(TutorCmd::Save { key, .. })] if key == "card:pageable:1"),
        "{cmds:?}"
    );
    // A second question carries the first exchange.
    let body = ask(&mut app, KeyCode::Char('t'), "and?").unwrap_or_default();
    let roles: Vec<_> = body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| m["role"].clone())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "user"]);
}

#[test]
fn esc_cancels_an_answer_then_closes_the_pane_and_late_pieces_change_nothing() {
    let mut app = ready();
    assert!(ask(&mut app, KeyCode::Char('t'), "q").is_some());
    let id = app.tutor.answering.as_ref().map_or(0, |a| a.id);
    app.update(Msg::Tutor(TutorMsg::Event(TutorEvent::Piece {
        id,
        text: "Part".into(),
    })));
    let cmds = app.update(key(KeyCode::Esc));
    assert!(cmds.contains(&Cmd::Tutor(TutorCmd::Cancel)), "{cmds:?}");
    assert!(app.tutor.answering.is_none() && app.tutor.open);
    assert_eq!(
        app.tutor.conversation.turns.last().map(|t| t.text.as_str()),
        Some("Part [cancelled]")
    );
    let before = app.tutor.conversation.clone();
    app.update(Msg::Tutor(TutorMsg::Event(TutorEvent::Piece {
        id,
        text: "late".into(),
    })));
    assert_eq!(app.tutor.conversation, before);
    app.update(key(KeyCode::Esc));
    assert!(!app.tutor.open);
}

#[test]
fn a_failure_before_any_answer_puts_the_question_back() {
    let mut app = ready();
    assert!(ask(&mut app, KeyCode::Char('t'), "why?").is_some());
    let id = app.tutor.answering.as_ref().map_or(0, |a| a.id);
    let failed = TutorEvent::Failed {
        id,
        message: "the server answered 404: model \"m\" not found".into(),
    };
    app.update(Msg::Tutor(TutorMsg::Event(failed)));
    assert_eq!(app.tutor.input, "why?");
    assert!(app.tutor.conversation.turns.is_empty());
    assert!(
        app.tutor
            .error
            .as_deref()
            .is_some_and(|e| e.contains("not found"))
    );
}

#[test]
fn the_switch_asks_for_direct_answers() {
    let mut app = ready();
    app.update(key(KeyCode::Char('t')));
    app.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('d'),
        KeyModifiers::CONTROL,
    )));
    assert_eq!(app.tutor.mode, Mode::Direct);
    let text = system(&ask(&mut app, KeyCode::Char('t'), "q").unwrap_or_default());
    assert!(
        text.contains("the learner asked for direct answers"),
        "{text}"
    );
}
