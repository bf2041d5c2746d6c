//! Hints and the solution in the editor: Ctrl-T shows one more hint; Ctrl-G shows the solution
//! once the exercise passes, before that (after enough checks of a changed file) after a y/n
//! that is recorded, else says when it will unlock, in a banner that goes once the solution
//! shows. The gate is `exercise::attempts`, the one `exercise show --solution` uses.

use super::{EditorEffect, Exercises, Reveal, banner, verdict_scroll};
use crate::app::{BannerKind, Cmd, ExerciseCmd, Reset};
use crate::exercise::attempts::{self, Attempt, CHECKS_BEFORE_SOLUTION, Gate};
use crate::exercise::catalog;

/// How the banner saying why Ctrl-G shows no solution yet begins (it goes once the solution
/// is shown).
const SOLUTION_LOCKED: &str = "the solution unlocks";

impl Exercises {
    /// Ctrl-T: one more hint.
    pub(super) fn hint(&mut self) {
        let Some(ed) = self.editor.as_mut() else {
            return;
        };
        let total = catalog::find(&ed.id).map_or(0, |e| e.hints.len());
        ed.show_solution = false;
        ed.hints_shown = (ed.hints_shown + 1).min(total);
        ed.verdict_scroll.reveal(Reveal::LastHint);
    }

    /// The open exercise's attempts (none yet: the default).
    pub fn attempt(&self) -> Attempt {
        self.editor
            .as_ref()
            .and_then(|e| self.attempts.get(&e.id))
            .copied()
            .unwrap_or_default()
    }

    /// Whether the open exercise has been passed.
    pub fn open_passed(&self) -> bool {
        self.editor
            .as_ref()
            .is_some_and(|e| self.passed.contains(&e.id))
    }

    /// Whether Ctrl-G may show the solution: passed, or (after a y/n) enough checks of a
    /// changed file (`exercise::attempts`, the gate `exercise show --solution` uses).
    pub fn solution_unlocked(&self) -> bool {
        !matches!(
            attempts::gate(self.open_passed(), self.attempt(), true),
            Gate::Closed(_)
        )
    }

    /// Ctrl-G: once passed, show or hide the solution; before that, after enough checks of a
    /// changed file, ask y/n (viewing it is recorded), else say when it will unlock.
    pub(super) fn solution(&mut self) -> Vec<EditorEffect> {
        let passed = self.open_passed();
        let attempt = self.attempt();
        let Some(ed) = self.editor.as_mut() else {
            return Vec::new();
        };
        if ed.show_solution {
            ed.show_solution = false;
            ed.verdict_scroll.reveal(Reveal::Top);
            return Vec::new();
        }
        match attempts::gate(passed, attempt, true) {
            Gate::Open => self.show_solution(),
            Gate::Forced if attempt.solution_viewed => self.show_solution(),
            Gate::Forced => vec![EditorEffect::Ask(Reset::Solution)],
            Gate::Closed(_) => {
                let left = CHECKS_BEFORE_SOLUTION.saturating_sub(attempt.changed_checks);
                vec![banner(
                    BannerKind::Info,
                    format!(
                        "{SOLUTION_LOCKED} when the exercise passes, or after {left} more check(s) of your changed file"
                    ),
                )]
            }
        }
    }

    /// Put the solution on screen; the banner saying it is locked goes.
    fn show_solution(&mut self) -> Vec<EditorEffect> {
        match self.editor.as_mut() {
            Some(ed) => {
                verdict_scroll::show_solution(ed);
                vec![EditorEffect::DropBanners(SOLUTION_LOCKED)]
            }
            None => Vec::new(),
        }
    }

    /// The confirmed y of Ctrl-G before a pass: show the solution and record the view.
    pub(super) fn view_solution(&mut self) -> Vec<EditorEffect> {
        let Some(id) = self.editor.as_ref().map(|ed| ed.id.clone()) else {
            return Vec::new();
        };
        let mut effects = self.show_solution();
        self.attempts.entry(id.clone()).or_default().solution_viewed = true;
        effects.push(EditorEffect::Cmd(Cmd::Exercise(
            ExerciseCmd::SolutionViewed { id },
        )));
        effects
    }
}
