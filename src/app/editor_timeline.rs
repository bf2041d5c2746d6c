//! The checked program's timeline as the editor shows it: the experiment panel's
//! [`TimelineView`] of the verdict's ops, and each hazard placed on it ([`HazardMark`]: its kind,
//! the line of the access, the line of the operation it races with, and that operation's bar).
//!
//! The verdict's ops do not carry the source line that issued them, so the bar of a hazard's
//! operation is found from the checked text: the operation's line names its kind (`<<<` a
//! kernel, `cudaMemcpy…HostToDevice` an H2D copy, `…DeviceToHost` a D2H copy), and the ops of
//! that kind, in time order, are matched to the lines issuing that kind, in text order, when
//! there are as many of each (straight-line code). When one line alone issues that kind (a
//! loop), the first of its ops is marked: the hazard checker reports a race at its first
//! occurrence. Otherwise the hazard is listed without a bar rather than pinned to a guess.

use crate::exercise::{HazardKind, Verdict};
use crate::report::{Op, OpKind};
use crate::timeline::{TimelineView, time_order};

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
        match self.other_line {
            Some(other) => format!("{} L{} ↔ L{other}", self.kind.name(), self.line),
            None => format!("{} L{}", self.kind.name(), self.line),
        }
    }
}

/// The timeline pane's state for one verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct VerdictTimeline {
    pub view: TimelineView,
    pub marks: Vec<HazardMark>,
}

impl VerdictTimeline {
    /// The timeline of `verdict` (checked from `source`), its first marked op selected so the
    /// details line describes it; `None` when the program recorded no operation.
    pub fn new(verdict: &Verdict, source: &str) -> Option<Self> {
        if verdict.timeline.is_empty() {
            return None;
        }
        let lines: Vec<&str> = source.lines().collect();
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
                    op: op_issued_at(&verdict.timeline, &lines, op_line),
                }
            })
            .collect();
        let mut view = TimelineView::new(verdict.timeline.clone());
        if let Some(op) = marks.iter().find_map(|m| m.op) {
            view.select_index(op);
        }
        Some(VerdictTimeline { view, marks })
    }
}

/// The op that line `line` (1-based) of `lines` issued, when it can be told (see the module).
fn op_issued_at(ops: &[Op], lines: &[&str], line: u32) -> Option<usize> {
    let text = lines.get(usize::try_from(line).ok()?.checked_sub(1)?)?;
    let kind = op_kind_of(text)?;
    let issuing: Vec<usize> = (1..=lines.len())
        .filter(|&n| op_kind_of(lines[n - 1]) == Some(kind))
        .collect();
    let of_kind: Vec<usize> = time_order(ops)
        .into_iter()
        .filter(|&i| ops[i].kind == kind)
        .collect();
    let place = issuing.iter().position(|&n| n == line as usize)?;
    if issuing.len() == of_kind.len() {
        of_kind.get(place).copied()
    } else if issuing.len() == 1 {
        of_kind.first().copied()
    } else {
        None
    }
}

/// The kind of op a source line issues, read from its code (comments left out).
fn op_kind_of(line: &str) -> Option<OpKind> {
    let code = line.split("//").next().unwrap_or("");
    if code.contains("<<<") {
        Some(OpKind::Kernel)
    } else if !code.contains("cudaMemcpy") {
        None
    } else if code.contains("cudaMemcpyHostToDevice") {
        Some(OpKind::H2d)
    } else if code.contains("cudaMemcpyDeviceToHost") {
        Some(OpKind::D2h)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::Hazard;

    fn op(kind: OpKind, start_us: f64) -> Op {
        Op {
            stream: 1,
            kind,
            start_us,
            end_us: start_us + 10.0,
            bytes: 64,
            host_mem: None,
            engine: None,
            start_inferred: false,
            label: String::new(),
        }
    }

    const SOURCE: &str = "int main() {\n\
        cudaMemcpyAsync(d, h, b, cudaMemcpyHostToDevice, s);\n\
        transform<<<1, 1, 0, s>>>(d, e, n);\n\
        cudaMemcpyAsync(h2, e, b, cudaMemcpyDeviceToHost, s); // back\n\
        cudaMemcpyAsync(h3, e, b, cudaMemcpyDeviceToHost, s);\n\
        check_output(h2, n);\n}\n";

    fn verdict(hazards: Vec<Hazard>) -> Verdict {
        Verdict {
            hazards,
            timeline: vec![
                op(OpKind::D2h, 30.0),
                op(OpKind::H2d, 0.0),
                op(OpKind::Kernel, 15.0),
                op(OpKind::D2h, 45.0),
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
        }
    }

    #[test]
    fn a_race_is_marked_at_the_op_its_other_line_issued_and_selected() {
        let v = verdict(vec![hazard(HazardKind::ReadBeforeSync, 6, Some(4))]);
        let t = VerdictTimeline::new(&v, SOURCE).unwrap();
        // Line 4 is the first of the two D2H lines: the earlier D2H (index 0, at 30 µs).
        assert_eq!(t.marks[0].op, Some(0));
        assert_eq!(t.marks[0].label(), "read-before-sync L6 ↔ L4");
        assert_eq!(t.view.selected_index(), Some(0));
        let v = verdict(vec![hazard(HazardKind::ReadBeforeSync, 6, Some(5))]);
        assert_eq!(
            VerdictTimeline::new(&v, SOURCE).unwrap().marks[0].op,
            Some(3)
        );
    }

    #[test]
    fn a_warning_marks_its_own_call_and_a_line_without_an_op_marks_nothing() {
        let v = verdict(vec![
            hazard(HazardKind::PageableAsync, 2, None),
            hazard(HazardKind::Leak, 6, Some(1)),
        ]);
        let t = VerdictTimeline::new(&v, SOURCE).unwrap();
        assert_eq!(t.marks[0].op, Some(1), "the H2D of line 2");
        assert_eq!(t.marks[0].label(), "pageable-async L2");
        assert_eq!(t.marks[1].op, None);
    }

    #[test]
    fn ambiguous_lines_are_not_pinned_to_a_guess() {
        let mut v = verdict(vec![hazard(HazardKind::ReadBeforeSync, 6, Some(4))]);
        v.timeline.push(op(OpKind::D2h, 60.0)); // three D2H ops from two lines: a loop
        assert_eq!(VerdictTimeline::new(&v, SOURCE).unwrap().marks[0].op, None);
        assert!(VerdictTimeline::new(&Verdict::default(), SOURCE).is_none());
    }
}
