//! Host functions (`cudaLaunchHostFunc`) in the checker. The launch is an op of its stream,
//! ordered like any other; its body runs on the host when the stream reaches it, and its
//! accesses are the host's: each is judged against the device ops nothing orders with the
//! function, at the line of the body that made it, and against `main`'s accesses since the
//! launch (nothing orders `main` with a function it has not waited for). The interpreter logs
//! the body's accesses when it ran ([`Call::HostFuncRan`]), before any wait it ran inside.

use super::{Checker, HazardKind};
use crate::exercise::log::{Call, Range};

/// What a host function's body did.
pub(super) struct Body<'a> {
    pub reads: &'a [Range],
    pub writes: &'a [Range],
    /// Each access with the line of the body and whether it wrote.
    pub accesses: &'a [(Range, u32, bool)],
}

/// One body access that conflicts with a device op.
pub(super) struct Conflict {
    /// The body's line.
    line: u32,
    body_writes: bool,
    /// The device op's line and call, and whether it writes the bytes.
    other: u32,
    call: String,
    op_writes: bool,
    range: Range,
}

impl Body<'_> {
    /// The body's accesses that conflict with a device op touching `uses`, of which it writes
    /// `writes`, issued on line `other` as `call`: a body write with any use, a body read with
    /// a device write.
    pub(super) fn conflicts<'r>(
        &self,
        uses: impl Iterator<Item = &'r Range> + Clone,
        writes: &[Range],
        other: u32,
        call: &str,
    ) -> Vec<Conflict> {
        let mut out = Vec::new();
        for &(range, line, body_writes) in self.accesses {
            let op_writes = writes.iter().any(|w| w.overlaps(&range));
            let op_uses = uses.clone().any(|u| u.overlaps(&range));
            if op_writes || (body_writes && op_uses) {
                out.push(Conflict {
                    line,
                    body_writes,
                    other,
                    call: call.to_string(),
                    op_writes,
                    range,
                });
            }
        }
        out
    }
}

impl<'a> Checker<'a> {
    /// The body of the host function launched at log entry `launch` ran (entry `at`).
    pub(super) fn host_func_ran(&mut self, at: usize, launch: usize, body: Body<'a>) {
        let Some(k) = self.in_flight.iter().position(|o| o.at == launch) else {
            return;
        };
        let mut found = Vec::new();
        let h = &self.in_flight[k].issued;
        for (j, o) in self.in_flight.iter().enumerate() {
            let ordered = h.is_after(o.issued.op) || o.issued.is_after(h.op);
            if j == k || ordered || o.body.is_some() {
                continue;
            }
            let uses = o.reads().iter().chain(o.writes());
            found.extend(body.conflicts(uses, o.writes(), o.line, &o.op.call));
        }
        for r in super::regions(body.reads, body.writes) {
            *self.touching.entry(r).or_insert(0) += 1;
        }
        self.in_flight[k].body = Some(body);
        self.report_body_conflicts(found);
        // `main`'s accesses since the launch ran beside the body.
        let log = self.log;
        for e in log.get(launch + 1..at).unwrap_or_default() {
            if let Call::HostRead { range, what } = &e.call {
                self.host_access_against(e.line, range, what, false, &[k]);
            } else if let Call::HostWrite { range, what } = &e.call {
                self.host_access_against(e.line, range, what, true, &[k]);
            }
        }
    }

    /// Report each conflict at the body's line: a body write is a `write-while-in-flight`, a
    /// body read of bytes the op writes a `read-before-sync`.
    pub(super) fn report_body_conflicts(&mut self, found: Vec<Conflict>) {
        for c in found {
            let name = self.name(c.range.region);
            let doing = if c.op_writes { "writing" } else { "reading" };
            let (kind, message) = if c.body_writes {
                (
                    HazardKind::WriteWhileInFlight,
                    format!(
                        "the host function writes `{name}` while the `{}` on line {} may still be {doing} it: nothing orders them (a host function is ordered only within its own stream); record an event after the `{}` and make the function's stream wait for it",
                        c.call, c.other, c.call
                    ),
                )
            } else {
                (
                    HazardKind::ReadBeforeSync,
                    format!(
                        "the host function reads `{name}` before the `{}` on line {} is known to have finished writing it (a host function is ordered only within its own stream); record an event after the `{}` and make the function's stream wait for it",
                        c.call, c.other, c.call
                    ),
                )
            };
            self.report(kind, c.line, Some(c.other), message);
        }
    }
}
