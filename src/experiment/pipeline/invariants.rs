//! Physics a pipeline result must obey, as report checks: no two ops of one stream overlap,
//! the best time is not below the bound, and not above the sequential time.

use crate::report::{Check, Op, OpKind};

use super::super::session::same_stream_overlap;

/// Physics the result must obey (with 2% for measurement noise on real hardware).
pub fn checks(best_ops: &[Op], best_ms: f64, bound_ms: f64, sequential_ms: f64) -> Vec<Check> {
    let overlap = same_stream_overlap(best_ops);
    vec![
        Check {
            name: "ops on one stream never overlap".into(),
            passed: overlap.is_none(),
            detail: overlap.unwrap_or_else(|| {
                let n = best_ops.iter().filter(|o| o.kind != OpKind::Host).count();
                format!("{n} device ops of the best run checked")
            }),
        },
        Check {
            name: "best is not faster than the bound".into(),
            passed: best_ms >= bound_ms * 0.98,
            detail: format!("best {best_ms:.3} ms, bound {bound_ms:.3} ms"),
        },
        Check {
            name: "best is not slower than sequential".into(),
            passed: best_ms <= sequential_ms * 1.02,
            detail: format!("best {best_ms:.3} ms, sequential {sequential_ms:.3} ms"),
        },
    ]
}
