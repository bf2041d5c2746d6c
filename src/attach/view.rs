//! The state of `trace`'s full-screen view, pure: the trace's timeline (the experiments'
//! [`TimelineView`]), its summary, and the findings as [`Mark`]s (a time range, a stream and a
//! text) with the op each one is drawn on; keys arrive as `keymap` actions of
//! [`Ctx::Trace`]. `ui::trace_view` draws it; `cli::trace` runs it on the terminal.
//!
//! Whatever judges a trace hands its findings over as marks ([`AsMark`]), so the view needs no
//! knowledge of the rules.

use ratatui::crossterm::event::KeyEvent;

use super::summary::Summary;
use super::timeline::TraceTimeline;
use crate::keymap::{self, Action, Ctx};
use crate::report::{Op, OpKind};
use crate::timeline::{OpRef, TimelineCursor, TimelineView};

/// How much a finding matters: an error (a race, a use after free) or a warning (lost overlap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One finding as the view shows it: a line in the list and `▲` on the bar of the op it is
/// about.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// Its kind, e.g. `device-race` (shown before the text).
    pub kind: String,
    /// What it says (outside text inside it is cleaned when drawn).
    pub text: String,
    pub severity: Severity,
    /// When it happened, ns on CUPTI's clock (the trace's records' clock).
    pub start_ns: u64,
    pub end_ns: u64,
    /// The stream whose op it is about, if one.
    pub stream: Option<u32>,
}

/// Anything the view can list and mark: a finding of the trace's judge.
pub trait AsMark {
    fn as_mark(&self) -> Mark;
}

impl AsMark for Mark {
    fn as_mark(&self) -> Mark {
        self.clone()
    }
}

/// What a key did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The view's state.
#[derive(Debug, Clone)]
pub struct TraceView {
    /// What is shown (a file name, `sample:NAME`): outside text, cleaned when drawn.
    pub source: String,
    pub timeline: TimelineView,
    pub summary: Summary,
    pub marks: Vec<Mark>,
    /// Per mark, the index of the op it is drawn on.
    pub mark_ops: Vec<Option<usize>>,
    /// The mark the list has selected (its op is selected on the timeline).
    pub selected_mark: Option<usize>,
    /// What the timeline leaves out (untimed ops, ops past the cap).
    pub left_out: Vec<String>,
    /// Whether a judge looked at the trace ([`Self::with_findings`]): without one, an empty
    /// list says nothing about races.
    pub judged: bool,
    /// Why copies did not overlap kernels: a line per cause, with its numbers and its card
    /// ([`Self::with_causes`]).
    pub causes: Vec<String>,
    /// What the judge could not see, so that no finding about it means nothing.
    pub not_watched: Vec<String>,
    /// The timeline's origin, to place marks.
    origin_ns: u64,
}

impl TraceView {
    /// The view of a trace's timeline and summary, not judged (no findings).
    pub fn new(source: impl Into<String>, timeline: TraceTimeline, summary: Summary) -> Self {
        let mut left_out = Vec::new();
        if timeline.untimed > 0 {
            left_out.push(format!(
                "{} ops never ran (the program ended first)",
                timeline.untimed
            ));
        }
        if timeline.left_out > 0 {
            left_out.push(format!(
                "only the first {} ops drawn ({} more in the file)",
                super::timeline::MAX_OPS,
                timeline.left_out
            ));
        }
        let origin_ns = timeline.origin_ns;
        TraceView {
            source: source.into(),
            timeline: TimelineView::new(timeline.ops).with_name("trace"),
            summary,
            marks: Vec::new(),
            mark_ops: Vec::new(),
            selected_mark: None,
            left_out,
            judged: false,
            causes: Vec::new(),
            not_watched: Vec::new(),
            origin_ns,
        }
    }

    /// This view with a judge's findings listed and marked on their ops.
    pub fn with_findings(mut self, findings: &[impl AsMark]) -> Self {
        self.marks = findings.iter().map(AsMark::as_mark).collect();
        self.mark_ops = self
            .marks
            .iter()
            .map(|m| op_of(&self.timeline.run.ops, self.origin_ns, m))
            .collect();
        self.judged = true;
        self.selected_mark = None;
        self
    }

    /// This view with the lines of a why-no-overlap report (one per cause) and what the judge
    /// could not see.
    pub fn with_causes(mut self, causes: Vec<String>, not_watched: Vec<String>) -> Self {
        self.causes = causes;
        self.not_watched = not_watched;
        self
    }

    /// A key pressed in the view.
    pub fn on_key(&mut self, key: &KeyEvent) -> Flow {
        match keymap::lookup(Ctx::Trace, key) {
            Some(action) => self.apply(action),
            None => Flow::Continue,
        }
    }

    /// One of the view's actions (the keys of [`Ctx::Trace`] in `keymap`).
    pub fn apply(&mut self, action: Action) -> Flow {
        if let Some(t) = action.timeline() {
            self.timeline.apply(t);
            return Flow::Continue;
        }
        match action {
            Action::Quit => return Flow::Quit,
            Action::LaneMode => self.timeline.cycle_mode(),
            Action::ScrollDown => self.select_mark(1),
            Action::ScrollUp => self.select_mark(-1),
            _ => {}
        }
        Flow::Continue
    }

    /// Move the findings list's selection by `step`, selecting its op on the timeline.
    fn select_mark(&mut self, step: isize) {
        if self.marks.is_empty() {
            return;
        }
        let last = self.marks.len() - 1;
        let next = match self.selected_mark {
            None => {
                if step > 0 {
                    0
                } else {
                    last
                }
            }
            Some(i) => i.saturating_add_signed(step).min(last),
        };
        self.selected_mark = Some(next);
        if let Some(index) = self.mark_ops.get(next).copied().flatten() {
            let op = &self.timeline.run.ops[index];
            let (start, end) = (op.start_us, op.end_us);
            let cursor = TimelineCursor {
                window: self.timeline.cursor().window,
                selected: Some(OpRef {
                    in_previous: false,
                    index,
                }),
            };
            let view = std::mem::replace(&mut self.timeline, TimelineView::new(Vec::new()));
            self.timeline = view.with_cursor(cursor);
            self.timeline.scale.reveal(start, end);
        }
    }

    /// A mark's time on the timeline, microseconds.
    pub fn mark_us(&self, mark: &Mark) -> (f64, f64) {
        let us = |ns: u64| {
            if ns >= self.origin_ns {
                (ns - self.origin_ns) as f64 / 1e3
            } else {
                -((self.origin_ns - ns) as f64 / 1e3)
            }
        };
        (us(mark.start_ns), us(mark.end_ns))
    }
}

/// The op a mark is drawn on: on its stream (or any device lane), the op that overlaps the mark
/// longest, the nearest one when none overlaps; host calls only when the mark names no stream.
fn op_of(ops: &[Op], origin_ns: u64, mark: &Mark) -> Option<usize> {
    let us = |ns: u64| ns.saturating_sub(origin_ns) as f64 / 1e3;
    let (start, end) = (us(mark.start_ns), us(mark.end_ns).max(us(mark.start_ns)));
    let fits = |op: &Op| match mark.stream {
        Some(s) => op.stream == s && op.kind != OpKind::Host,
        None => true,
    };
    let score = |op: &Op| {
        let shared = op.end_us.min(end) - op.start_us.max(start);
        if shared >= 0.0 {
            (0, -(shared * 1e3) as i64)
        } else {
            (1, (-shared * 1e3) as i64)
        }
    };
    ops.iter()
        .enumerate()
        .filter(|(_, op)| fits(op))
        .min_by_key(|(_, op)| score(op))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::sample::op;

    fn mark(stream: Option<u32>, start_us: u64, end_us: u64) -> Mark {
        Mark {
            kind: "device-race".into(),
            text: "two streams write the same bytes".into(),
            severity: Severity::Error,
            start_ns: 1_000_000 + start_us * 1000,
            end_ns: 1_000_000 + end_us * 1000,
            stream,
        }
    }

    fn view(marks: &[Mark]) -> TraceView {
        let ops = vec![
            op(OpKind::H2d, 1, 0.0, 10.0),
            op(OpKind::Kernel, 2, 5.0, 30.0),
            op(OpKind::D2h, 2, 40.0, 50.0),
        ];
        let timeline = TraceTimeline {
            ops,
            origin_ns: 1_000_000,
            ..Default::default()
        };
        TraceView::new("t", timeline, Summary::default()).with_findings(marks)
    }

    #[test]
    fn a_mark_lands_on_the_op_of_its_stream_that_it_overlaps_most() {
        let v = view(&[
            mark(Some(2), 20, 45),
            mark(Some(1), 60, 70),
            mark(None, 6, 9),
        ]);
        assert_eq!(v.mark_ops, vec![Some(1), Some(0), Some(0)]);
        let none = view(&[mark(Some(9), 0, 1)]);
        assert_eq!(none.mark_ops, vec![None]);
    }

    #[test]
    fn walking_the_findings_selects_their_ops_and_q_quits() {
        let mut v = view(&[mark(Some(2), 41, 42), mark(Some(1), 1, 2)]);
        assert_eq!(v.apply(Action::ScrollDown), Flow::Continue);
        assert_eq!(v.selected_mark, Some(0));
        let selected = v.timeline.cursor().selected.map(|r| r.index);
        assert_eq!(selected, Some(2));
        v.apply(Action::ScrollDown);
        v.apply(Action::ScrollDown);
        assert_eq!(v.selected_mark, Some(1), "stays on the last");
        assert_eq!(v.timeline.cursor().selected.map(|r| r.index), Some(0));
        let q = KeyEvent::from(ratatui::crossterm::event::KeyCode::Char('q'));
        assert_eq!(v.on_key(&q), Flow::Quit);
    }
}
