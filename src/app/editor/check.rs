//! A check's life in the editor: Ctrl-R queues it on the experiment worker (behind a run, if
//! one is on: the verdict pane says so), the worker says when it starts, Esc cancels it (a
//! second Esc leaves), and its verdict comes back through the shell, which records a pass.

use std::sync::Arc;

use super::SharedVerdict;
use super::{EditorCtx, EditorEffect, Exercises, banner};
use crate::app::{BannerKind, Cmd, ExerciseCmd};
use crate::exercise::Verdict;
use crate::worker::WorkerEvent;

/// Where the check in flight is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// Waiting on the worker behind `behind` (e.g. "the async-copy run").
    Queued { behind: String },
    /// Running on the worker.
    Running,
    /// Esc asked it to stop; its verdict is on the way.
    Cancelling,
}

/// The check in flight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checking {
    pub check_id: u64,
    pub stage: Stage,
    /// The text checked: the verdict's line numbers are its lines.
    pub text: String,
}

impl Exercises {
    /// Ctrl-R: save and check (one check at a time).
    pub(super) fn check(&mut self, ctx: &EditorCtx) -> Vec<Cmd> {
        let behind = match (ctx.running, self.in_flight) {
            (Some(run), _) => Some(format!("the {run} run")),
            (None, Some(_)) => Some("the previous check".to_string()),
            (None, None) => None,
        };
        let Some(ed) = self.editor.as_mut() else {
            return Vec::new();
        };
        let Some(text) = ed.text() else {
            return Vec::new();
        };
        if ed.checking.is_some() {
            return Vec::new();
        }
        self.next_check += 1;
        let check_id = self.next_check;
        let stage = behind.map_or(Stage::Running, |behind| Stage::Queued { behind });
        ed.checking = Some(Checking {
            check_id,
            stage,
            text: text.clone(),
        });
        ed.cancelled = false;
        ed.show_solution = false;
        ed.verdict_scroll.reveal(super::Reveal::Top);
        self.in_flight = Some(check_id);
        let id = ed.id.clone();
        // A check of a changed file counts towards the solution gate.
        if let Some(ex) = crate::exercise::catalog::find(&id)
            && crate::exercise::attempts::changed(&text, ex.starter)
        {
            let a = self.attempts.entry(id.clone()).or_default();
            a.changed_checks = a.changed_checks.saturating_add(1);
        }
        // Saved first when it is not (never over a file changed outside: the shell refuses).
        let save = self.editor.as_ref().is_some_and(|ed| ed.dirty()).then(|| {
            Cmd::Exercise(ExerciseCmd::Save {
                id: id.clone(),
                text: text.clone(),
                base: self.editor.as_ref().and_then(|ed| ed.stamp),
            })
        });
        save.into_iter()
            .chain([Cmd::Exercise(ExerciseCmd::Check { id, text, check_id })])
            .collect()
    }

    /// Esc: close the diff or the quit question; else cancel the check in flight; when there is
    /// none (or it is already being cancelled), save and leave.
    pub(super) fn escape(&mut self) -> Vec<Cmd> {
        if self.prompt_escape() {
            return Vec::new();
        }
        if let Some(ed) = self.editor.as_mut()
            && let Some(checking) = ed.checking.as_mut()
            && checking.stage != Stage::Cancelling
        {
            checking.stage = Stage::Cancelling;
            let check_id = checking.check_id;
            return vec![Cmd::Exercise(ExerciseCmd::Cancel { check_id })];
        }
        self.leave()
    }

    /// The worker's check events.
    pub(super) fn on_check_event(&mut self, event: WorkerEvent) -> Vec<EditorEffect> {
        match event {
            WorkerEvent::CheckStarted { check_id } => {
                if let Some(checking) = self.checking_mut(check_id)
                    && matches!(checking.stage, Stage::Queued { .. })
                {
                    checking.stage = Stage::Running;
                }
                Vec::new()
            }
            WorkerEvent::Checked {
                check_id,
                id,
                verdict,
                cancelled,
            } => {
                if self.in_flight == Some(check_id) {
                    self.in_flight = None;
                }
                vec![EditorEffect::Cmd(Cmd::Exercise(ExerciseCmd::Record {
                    id,
                    check_id,
                    verdict,
                    cancelled,
                }))]
            }
            _ => Vec::new(),
        }
    }

    fn checking_mut(&mut self, check_id: u64) -> Option<&mut Checking> {
        let ed = self.editor.as_mut()?;
        ed.checking.as_mut().filter(|c| c.check_id == check_id)
    }

    /// The shell recorded the verdict: show it (a pass counts even if the editor was left).
    pub(super) fn on_checked(
        &mut self,
        (id, check_id): (&str, u64),
        verdict: SharedVerdict,
        cancelled: bool,
        recorded: Result<(), String>,
    ) -> Vec<EditorEffect> {
        let verdict: Arc<Verdict> = verdict.0;
        if verdict.passed && !cancelled {
            self.passed.insert(id.to_string());
        }
        let effects: Vec<EditorEffect> = recorded
            .err()
            .map(|why| {
                banner(
                    BannerKind::Warning,
                    format!("the pass is not recorded: {why}"),
                )
            })
            .into_iter()
            .collect();
        let Some(ed) = self.editor.as_mut() else {
            return effects;
        };
        if ed.checking.as_ref().map(|c| c.check_id) != Some(check_id) {
            return effects;
        }
        let checked = ed.checking.take().map(|c| c.text);
        ed.verdict_scroll.reveal(super::Reveal::Top);
        if cancelled {
            // What ran before Esc is half a program: no verdict (the last one is of an older
            // text, its lines no longer match), no failed check counted.
            ed.cancelled = true;
            ed.verdict = None;
            ed.timeline_cursor = None;
            ed.checked_text = None;
            ed.remap();
            return effects;
        }
        if !verdict.passed {
            ed.failed_checks += 1;
        }
        // A check always shows its verdict (issue 28: with the timeline in its place, Ctrl-L,
        // the new verdict stayed hidden and only the title's `✓ passed` said what happened).
        ed.show_timeline = false;
        ed.timeline_cursor = None;
        ed.verdict = Some(verdict);
        ed.checked_text = checked;
        ed.remap();
        effects
    }
}
