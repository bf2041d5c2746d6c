//! The checked program's timeline as the editor shows it: the experiment panel's
//! [`TimelineView`] of the verdict's ops, and each hazard placed on it ([`HazardMark`]: its kind,
//! the line of the access, the line of the operation it races with, and that operation's bar).
//!
//! Each op carries the line of the learner's program that issued it (the backend tags the ops
//! a call queues), so a hazard's bar is the first op, in time order, that its operation's line
//! issued: in a loop, the first occurrence, where the checker reports it.
//!
//! The time axis starts at the program's first device op (the set-up before it, pinning
//! buffers for instance, would push the work into a corner): the ops are shifted so that it
//! starts at 0, host calls before it are cut there, and allocation calls after the last device
//! op (the tear-down) are left off. The host lane keeps the waits and `host_work`, so host work
//! done after the GPU finished still shows.

use crate::exercise::{HazardKind, Verdict};
use crate::report::{Op, OpKind};
use crate::timeline::{TimelineCursor, TimelineView, time_order};

/// One hazard as drawn on the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct HazardMark {
    pub kind: HazardKind,
    /// The line of the access (or of the call, for a warning about the call itself).
    pub line: u32,
    /// The line of the operation it races with, if any.
    pub other_line: Option<u32>,
    /// The bar of that operation (index into the timeline's ops), where it can be told.
    pub op: Option<usize>,
}

impl HazardMark {
    /// `read-before-sync L24 ↔ L22`, or `pageable-async L12` for a hazard about one call.
    pub fn label(&self) -> String {
        self.label_now(|_| None)
    }

    /// The label with the lines where they are now (`now`: a checked line's place in the
    /// edited text; a line deleted since keeps its checked number).
    pub fn label_now(&self, now: impl Fn(u32) -> Option<u32>) -> String {
        let at = |line: u32| now(line).unwrap_or(line);
        match self.other_line {
            Some(other) => format!("{} L{} ↔ L{}", self.kind.name(), at(self.line), at(other)),
            None => format!("{} L{}", self.kind.name(), at(self.line)),
        }
    }
}

/// The timeline pane's state for one verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictTimeline {
    pub view: TimelineView,
    pub marks: Vec<HazardMark>,
    /// Each op's line in the text checked (the view's ops carry the line it is on now).
    checked_lines: Vec<Option<u32>>,
}

impl VerdictTimeline {
    /// The timeline of `verdict`, its first marked op selected so the details line describes
    /// it; `None` when the program recorded no operation.
    pub fn new(verdict: &Verdict) -> Option<Self> {
        let ops = from_first_device_op(&verdict.timeline);
        if ops.is_empty() {
            return None;
        }
        let marks: Vec<HazardMark> = verdict
            .hazards
            .iter()
            .map(|h| {
                // A warning about a call (no other line) is about the call's own op.
                let op_line = h.other_line.unwrap_or(h.line);
                HazardMark {
                    kind: h.kind,
                    line: h.line,
                    other_line: h.other_line,
                    op: op_issued_at(&ops, op_line),
                }
            })
            .collect();
        let mut view = TimelineView::new(ops);
        if let Some(op) = marks.iter().find_map(|m| m.op) {
            view.select_index(op);
        }
        let checked_lines = view.run.ops.iter().map(|o| o.line).collect();
        Some(VerdictTimeline {
            view,
            marks,
            checked_lines,
        })
    }

    /// This timeline with the learner's window and selection (`cursor`, kept by the editor
    /// while the timeline is derived anew from the verdict).
    pub fn with_cursor(self, cursor: TimelineCursor) -> Self {
        VerdictTimeline {
            view: self.view.with_cursor(cursor),
            ..self
        }
    }

    /// Give each op the line its checked line is on now (`now`), so the details line names
    /// the line in the edited text; a line deleted since keeps its checked number.
    pub fn follow_lines(&mut self, now: impl Fn(u32) -> Option<u32>) {
        for (op, checked) in self.view.run.ops.iter_mut().zip(&self.checked_lines) {
            op.line = checked.map(|l| now(l).unwrap_or(l));
        }
    }
}

/// The first device op, in time order, that line `line` issued (a host call on the same line,
/// a blocking copy's wait, is not the operation a hazard is about).
fn op_issued_at(ops: &[Op], line: u32) -> Option<usize> {
    time_order(ops)
        .into_iter()
        .find(|&i| ops[i].line == Some(line) && ops[i].kind != OpKind::Host)
}

/// Allocation and free calls: set-up and tear-down, left off after the last device op.
fn manages_memory(op: &Op) -> bool {
    ["cudaMalloc", "cudaFree", "cudaHost", "malloc", "free"]
        .iter()
        .any(|p| op.label.starts_with(p))
}

/// `ops` on an axis from the first device op (see the module docs); all of them, unshifted,
/// when there is no device op.
fn from_first_device_op(ops: &[Op]) -> Vec<Op> {
    let device = ops.iter().filter(|o| o.kind != OpKind::Host);
    let (first, last) = device.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), o| {
        (lo.min(o.start_us), hi.max(o.end_us))
    });
    if !first.is_finite() {
        return ops.to_vec();
    }
    ops.iter()
        .filter(|o| o.kind != OpKind::Host || o.end_us > first)
        .filter(|o| !(o.kind == OpKind::Host && o.start_us >= last && manages_memory(o)))
        .map(|o| Op {
            start_us: o.start_us.max(first) - first,
            end_us: o.end_us - first,
            ..o.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::Hazard;
    use crate::report::OpKind;

    fn op(kind: OpKind, start_us: f64, line: u32) -> Op {
        Op {
            stream: 1,
            kind,
            start_us,
            end_us: start_us + 10.0,
            bytes: 64,
            host_mem: None,
            engine: None,
            start_inferred: false,
            line: Some(line),
            label: String::new(),
        }
    }

    fn host(label: &str, start_us: f64, end_us: f64, line: u32) -> Op {
        Op {
            stream: 0,
            end_us,
            bytes: 0,
            label: label.into(),
            ..op(OpKind::Host, start_us, line)
        }
    }

    #[test]
    fn the_axis_starts_at_the_first_device_op_and_leaves_off_set_up_and_tear_down() {
        let v = Verdict {
            timeline: vec![
                op(OpKind::H2d, 500.0, 5),
                op(OpKind::D2h, 520.0, 6),
                host("cudaMallocHost", 0.0, 400.0, 2),
                host("host_work", 490.0, 700.0, 7),
                host("cudaStreamSynchronize", 700.0, 710.0, 8),
                host("cudaFreeHost", 710.0, 900.0, 9),
            ],
            ..Verdict::default()
        };
        let t = VerdictTimeline::new(&v).unwrap();
        let ops = &t.view.run.ops;
        let spans: Vec<(&str, f64, f64)> = ops
            .iter()
            .map(|o| (o.label.as_str(), o.start_us, o.end_us))
            .collect();
        assert_eq!(
            spans,
            [
                ("", 0.0, 10.0),
                ("", 20.0, 30.0),
                ("host_work", 0.0, 200.0),
                ("cudaStreamSynchronize", 200.0, 210.0),
            ]
        );
        assert_eq!(
            t.view.scale.start_us, 0.0,
            "the axis starts at the first copy"
        );
        assert_eq!(t.view.run.lanes.lanes[0].label, "host");
    }

    #[test]
    fn the_ops_follow_their_lines_through_edits() {
        let mut t = VerdictTimeline::new(&verdict(Vec::new())).unwrap();
        t.follow_lines(|l| (l != 3).then_some(l + 1));
        let lines: Vec<Option<u32>> = t.view.run.ops.iter().map(|o| o.line).collect();
        assert_eq!(lines, [Some(5), Some(3), Some(3), Some(6)]);
    }

    #[test]
    fn a_hazard_marks_the_device_op_of_its_line_not_the_wait_on_it() {
        let mut v = verdict(vec![hazard(HazardKind::ReadBeforeSync, 6, Some(4))]);
        v.timeline.push(host("cudaMemcpy", 25.0, 50.0, 4));
        let t = VerdictTimeline::new(&v).unwrap();
        let op = t.marks[0].op.unwrap();
        assert_eq!(t.view.run.ops[op].kind, OpKind::D2h);
    }

    fn verdict(hazards: Vec<Hazard>) -> Verdict {
        Verdict {
            hazards,
            timeline: vec![
                op(OpKind::D2h, 30.0, 4),
                op(OpKind::H2d, 0.0, 2),
                op(OpKind::Kernel, 15.0, 3),
                op(OpKind::D2h, 45.0, 5),
            ],
            ..Verdict::default()
        }
    }

    fn hazard(kind: HazardKind, line: u32, other_line: Option<u32>) -> Hazard {
        Hazard {
            kind,
            line,
            other_line,
            message: String::new(),
            teaches: crate::exercise::hazards::CardRef::of(kind),
        }
    }

    #[test]
    fn a_race_is_marked_at_the_op_its_other_line_issued_and_selected() {
        let v = verdict(vec![hazard(HazardKind::ReadBeforeSync, 6, Some(4))]);
        let t = VerdictTimeline::new(&v).unwrap();
        assert_eq!(t.marks[0].op, Some(0), "the D2H line 4 issued");
        assert_eq!(t.marks[0].label(), "read-before-sync L6 ↔ L4");
        assert_eq!(t.view.selected_index(), Some(0));
        let v = verdict(vec![hazard(HazardKind::ReadBeforeSync, 6, Some(5))]);
        assert_eq!(VerdictTimeline::new(&v).unwrap().marks[0].op, Some(3));
    }

    #[test]
    fn a_warning_marks_its_own_call_and_a_line_without_an_op_marks_nothing() {
        let v = verdict(vec![
            hazard(HazardKind::PageableAsync, 2, None),
            hazard(HazardKind::Leak, 6, Some(1)),
        ]);
        let t = VerdictTimeline::new(&v).unwrap();
        assert_eq!(t.marks[0].op, Some(1), "the H2D of line 2");
        assert_eq!(t.marks[0].label(), "pageable-async L2");
        assert_eq!(t.marks[1].op, None);
    }

    #[test]
    fn a_line_issuing_in_a_loop_marks_its_first_op() {
        let mut v = verdict(vec![hazard(HazardKind::ReadBeforeSync, 6, Some(4))]);
        v.timeline.push(op(OpKind::D2h, 10.0, 4)); // line 4 again, earlier: a loop
        assert_eq!(VerdictTimeline::new(&v).unwrap().marks[0].op, Some(4));
        assert!(VerdictTimeline::new(&Verdict::default()).is_none());
    }
}
