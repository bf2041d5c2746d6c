//! The work a run did, read from its call log: the bytes its copies moved each way, the floats
//! `transform` wrote, the clock cycles `spin` was asked for, and the time `host_work` kept the
//! host busy (from the host lane). `same-work` holds a run to the
//! exercise's solution, run in the same check: the solution does the task, so its work is the
//! task's work (stated once, by the starter's and the solution's own constants). A program that
//! moves less data or launches less work than that fails, naming what is missing, so a time
//! criterion beside it compares like with like (review 2026-12-01b: `spin` deleted, the compute
//! cut a hundredfold, a sixteenth of the data all passed a time limit).

use super::facts::{DevOp, Direction};
use super::reported::Reference;
use crate::exercise::interp::Outcome;
use crate::exercise::log::DeviceOpKind;
use crate::units::format_bytes;

/// What a run did, in the units the task states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Work {
    /// Bytes copied host to device.
    pub h2d_bytes: u64,
    /// Bytes copied device to host.
    pub d2h_bytes: u64,
    /// Bytes `transform` wrote (four a float).
    pub transformed_bytes: u64,
    /// Clock cycles of every `spin` launch together.
    pub spin_cycles: u64,
    /// Microseconds of `host_work`, all calls together, as the host lane timed them.
    pub host_work_us: u64,
}

/// The work of the run whose device ops are `ops`.
pub fn of(out: &Outcome, ops: &[DevOp<'_>]) -> Work {
    let copied = |dir: Direction| -> u64 {
        ops.iter()
            .filter(|o| o.is_copy(dir, None))
            .map(DevOp::bytes)
            .fold(0, u64::saturating_add)
    };
    let transformed_bytes = ops
        .iter()
        .filter(|o| o.op.kind == DeviceOpKind::Kernel && o.op.call.starts_with("transform"))
        .filter_map(|o| o.op.writes.first())
        .map(|w| w.end.saturating_sub(w.start))
        .fold(0, u64::saturating_add);
    Work {
        h2d_bytes: copied(Direction::H2d),
        d2h_bytes: copied(Direction::D2h),
        transformed_bytes,
        spin_cycles: out.spins.iter().map(|s| s.1).fold(0, u64::saturating_add),
        host_work_us: out
            .host_work
            .iter()
            .map(|h| (h.end_us - h.start_us).max(0.0))
            .sum::<f64>() as u64,
    }
}

/// One quantity of [`Work`]: how to read it, and how a run and the task say it.
struct Quantity {
    get: fn(&Work) -> u64,
    /// "moved 8 MiB host-to-device"
    did: fn(u64) -> String,
    /// "the task moves 128 MiB"
    task: fn(u64) -> String,
    /// How much less than the task's passes, in percent: 0 for what the log counts exactly; 2
    /// for a time a clock measured (`host_work` on a live host runs a little long or short).
    slack_pct: u64,
}

const QUANTITIES: [Quantity; 5] = [
    Quantity {
        get: |w| w.h2d_bytes,
        did: |x| format!("moved {} host-to-device", format_bytes(x)),
        task: |x| format!("the task moves {}", format_bytes(x)),
        slack_pct: 0,
    },
    Quantity {
        get: |w| w.d2h_bytes,
        did: |x| format!("moved {} device-to-host", format_bytes(x)),
        task: |x| format!("the task moves {}", format_bytes(x)),
        slack_pct: 0,
    },
    Quantity {
        get: |w| w.transformed_bytes,
        did: |x| format!("`transform` wrote {}", format_bytes(x)),
        task: |x| format!("the task transforms {}", format_bytes(x)),
        slack_pct: 0,
    },
    Quantity {
        get: |w| w.spin_cycles,
        did: |x| format!("`spin` ran {} cycles in all", grouped(x)),
        task: |x| format!("the task spins {}", grouped(x)),
        slack_pct: 0,
    },
    Quantity {
        get: |w| w.host_work_us,
        did: |x| format!("`host_work` ran {:.3} ms", x as f64 / 1000.0),
        task: |x| format!("the task's host work takes {:.3} ms", x as f64 / 1000.0),
        slack_pct: 2,
    },
];

impl Quantity {
    /// Whether `got` falls short of `want`, beyond the slack.
    fn short(&self, got: &Work, want: &Work) -> bool {
        let (g, w) = ((self.get)(got), (self.get)(want));
        g.saturating_mul(100) < w.saturating_mul(100 - self.slack_pct)
    }
}

/// The run did at least the work of the reference run (the exercise's solution) in every
/// quantity the solution does any of.
pub(super) fn same_work(
    out: &Outcome,
    ops: &[DevOp<'_>],
    reference: Reference<'_>,
) -> Result<String, String> {
    let want = match reference {
        Some(Ok(r)) => r.work,
        Some(Err(e)) => return Err(e.clone()),
        None => return Err("no reference run".into()),
    };
    let got = of(out, ops);
    let short: Vec<String> = QUANTITIES
        .iter()
        .filter(|q| q.short(&got, &want))
        .map(|q| format!("{}; {}", (q.did)((q.get)(&got)), (q.task)((q.get)(&want))))
        .collect();
    if short.is_empty() {
        let done: Vec<String> = QUANTITIES
            .iter()
            .filter(|q| (q.get)(&want) > 0)
            .map(|q| (q.did)((q.get)(&got)))
            .collect();
        Ok(format!(
            "{}: at least the solution's work in this check",
            done.join(", ")
        ))
    } else {
        Err(format!(
            "{}: do the whole task (the time criteria compare like with like)",
            short.join("; ")
        ))
    }
}

/// `8000000` as `8,000,000`.
fn grouped(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercise::verdict::ReferenceRun;

    fn reference(work: Work) -> Result<ReferenceRun, String> {
        Ok(ReferenceRun {
            metrics: Default::default(),
            work,
        })
    }

    #[test]
    fn less_of_any_quantity_fails_naming_it_and_more_passes() {
        let task = Work {
            h2d_bytes: 128 << 20,
            d2h_bytes: 128 << 20,
            transformed_bytes: 128 << 20,
            spin_cycles: 8_000_000,
            host_work_us: 2_000,
        };
        let r = reference(task);
        // An empty run did none of it: every quantity is named.
        let out = Outcome::default();
        let err = same_work(&out, &[], Some(&r)).unwrap_err();
        assert!(
            err.contains("moved 0 B host-to-device; the task moves 128 MiB"),
            "{err}"
        );
        assert!(err.contains("the task spins 8,000,000"), "{err}");
        assert!(
            err.contains("`host_work` ran 0.000 ms; the task's host work takes 2.000 ms"),
            "{err}"
        );
        // A measured time 1% short passes; 10% short does not.
        let host = |us| Work {
            host_work_us: us,
            ..Work::default()
        };
        let q = &QUANTITIES[4];
        assert!(!q.short(&host(1_980), &host(2_000)));
        assert!(q.short(&host(1_800), &host(2_000)));
        assert!(QUANTITIES[0].short(
            &Work {
                h2d_bytes: 99,
                ..Work::default()
            },
            &Work {
                h2d_bytes: 100,
                ..Work::default()
            }
        ));
        // Spin cycles are read from the run's `spins`.
        let mut spun = Outcome {
            spins: vec![(0, 5_000_000), (3, 3_000_000)],
            ..Outcome::default()
        };
        let only_copies = reference(Work {
            spin_cycles: 8_000_000,
            ..Work::default()
        });
        assert!(same_work(&spun, &[], Some(&only_copies)).is_ok());
        spun.spins.pop();
        let err = same_work(&spun, &[], Some(&only_copies)).unwrap_err();
        assert!(err.contains("`spin` ran 5,000,000 cycles in all"), "{err}");
    }

    #[test]
    fn a_failed_reference_run_is_the_reason() {
        let r: Result<ReferenceRun, String> = Err("the reference run failed".into());
        let err = same_work(&Outcome::default(), &[], Some(&r)).unwrap_err();
        assert_eq!(err, "the reference run failed");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(999), "999");
    }
}
