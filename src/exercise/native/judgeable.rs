//! Which of an exercise's criteria a traced native run can be judged on, and why not the
//! others: a criterion is graded natively only where everything it reads is in the trace.

use crate::exercise::verdict::Criterion;

/// `None` when a trace holds what `c` reads; else why it is not judged natively.
pub fn why_not(c: &Criterion, parsed: bool) -> Option<&'static str> {
    match c {
        Criterion::OutputCorrect { .. }
        | Criterion::NoHazards
        | Criterion::MetricsReported { .. }
        | Criterion::MetricNearReference { .. }
        | Criterion::MetricAtLeastReference { .. }
        | Criterion::MetricAtMostReference { .. }
        | Criterion::MetricBelowSum { .. }
        | Criterion::PinsAtMost { .. }
        | Criterion::PinnedAtMost { .. }
        | Criterion::DeviceMemoryAtMost { .. }
        | Criterion::InputStaysPageable
        | Criterion::CallOnCopiedBuffer { .. }
        | Criterion::CopiesFrom { .. }
        | Criterion::IssueOrder { .. }
        | Criterion::Rounds { .. }
        | Criterion::OpsOverlap { .. }
        | Criterion::MetricMatchesTimeline { .. } => None,
        Criterion::ChecksErrors { .. } if parsed => None,
        Criterion::ChecksErrors { .. } => Some(
            "whether errors are checked is read from the program's tree, and this file is \
             outside the interpreter's subset",
        ),
        Criterion::SameWork => Some(
            "the task's work is counted from `transform`'s floats and `spin`'s cycles, and a \
             trace records no kernel arguments",
        ),
        Criterion::EventsTimeCopies { .. } | Criterion::MedianOfTimedCopies { .. } => {
            Some("which two events a `cudaEventElapsedTime` read is not in the trace's call log")
        }
        Criterion::ReuseAfterEvent { .. } => {
            Some("a buffer's reuse is the program's own host writes, which a trace does not record")
        }
        Criterion::StagingSlots { .. } => Some(
            "slots freed by `cudaStreamQuery`/`cudaEventQuery` answers, which the trace's call \
             log does not hold",
        ),
    }
}
