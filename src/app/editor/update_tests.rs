//! The editor's update on its own: no `App`, only an [`Exercises`], an [`EditorCtx`] and the
//! effects it answers with.

use super::*;
use crate::app::editor::Stage;
use crate::app::{BannerKind, ExerciseCmd};

const ID: &str = "time-a-copy";

/// The list opened on one exercise and that exercise loaded into the editor.
fn opened(ctx: &EditorCtx) -> Exercises {
    let mut ex = Exercises::default();
    ex.update(EditorAction::OpenList, ctx);
    let open = ex.update(EditorAction::ListOpen, ctx);
    assert_eq!(
        open,
        [EditorEffect::Cmd(Cmd::Exercise(ExerciseCmd::Open {
            id: ID.into()
        }))]
    );
    let loaded = ExerciseMsg::Loaded {
        id: ID.into(),
        text: "int main() {}\n".into(),
        stamp: None,
    };
    assert!(ex.on_reply(loaded, ctx).is_empty());
    ex
}

#[test]
fn a_locked_solution_is_a_banner_effect_and_a_reset_a_question() {
    let ids = [ID.to_string()];
    let ctx = EditorCtx {
        running: None,
        lesson_exercises: &ids,
    };
    let mut ex = opened(&ctx);
    let fx = ex.update(EditorAction::Solution, &ctx);
    assert!(
        matches!(&fx[..], [EditorEffect::Banner(b)] if b.kind == BannerKind::Info && b.text.starts_with("the solution unlocks")),
        "{fx:?}"
    );
    assert_eq!(
        ex.update(EditorAction::Reset, &ctx),
        [EditorEffect::Ask(Reset::Exercise)]
    );
    let no_lesson = EditorCtx::default();
    let mut none = Exercises::default();
    let fx = none.update(EditorAction::OpenList, &no_lesson);
    assert!(matches!(&fx[..], [EditorEffect::Banner(_)]), "{fx:?}");
    assert!(none.picker.is_none());
}

#[test]
fn a_check_queues_behind_the_run_the_context_names() {
    let ids = [ID.to_string()];
    let ctx = EditorCtx {
        running: Some("async-copy"),
        lesson_exercises: &ids,
    };
    let mut ex = opened(&ctx);
    let fx = ex.update(EditorAction::Check, &ctx);
    assert!(
        matches!(
            fx.last(),
            Some(EditorEffect::Cmd(Cmd::Exercise(ExerciseCmd::Check { .. })))
        ),
        "{fx:?}"
    );
    let stage = ex
        .editor
        .as_ref()
        .and_then(|e| e.checking.as_ref())
        .map(|c| c.stage.clone());
    assert_eq!(
        stage,
        Some(Stage::Queued {
            behind: "the async-copy run".into()
        })
    );
}

#[test]
fn an_open_that_failed_closes_the_editor_and_says_why() {
    let ids = [ID.to_string()];
    let ctx = EditorCtx {
        running: None,
        lesson_exercises: &ids,
    };
    let mut ex = Exercises::default();
    ex.update(EditorAction::OpenList, &ctx);
    ex.update(EditorAction::ListOpen, &ctx);
    assert!(ex.editor.is_some(), "opening…");
    let failed = ExerciseMsg::OpenFailed {
        id: ID.into(),
        why: "cannot open exercise time-a-copy: too large".into(),
    };
    let fx = ex.on_reply(failed, &ctx);
    assert!(ex.editor.is_none());
    assert!(
        matches!(&fx[..], [EditorEffect::Banner(b)] if b.kind == BannerKind::Error),
        "{fx:?}"
    );
    assert!(!ex.quit_anyway);
    ex.on_reply(ExerciseMsg::QuitConfirmed, &ctx);
    assert!(ex.quit_anyway);
}
