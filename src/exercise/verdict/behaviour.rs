//! Criteria on what the program did, read from the call log: which memory the copies used, a
//! call on the buffer they copied, the order of issue, the rounds of a loop, a buffer reused
//! only after an event said it was free. Each returns `Ok(detail)` or `Err(what is missing)`.

use std::collections::HashMap;

use super::facts::{DevOp, Direction, Memory};
use super::passes::{self, Order};
use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, DeviceOpKind};
use crate::gpu::{EventId, StreamId};
use crate::units::format_bytes as fmt_bytes;

/// The `call` (only `cudaHostRegister`) was made on the host buffer every `dir` copy used,
/// before the first of them.
pub fn call_on_copied_buffer(
    out: &Outcome,
    ops: &[DevOp<'_>],
    call: &str,
    dir: Direction,
) -> Result<String, String> {
    let copies: Vec<&DevOp<'_>> = ops.iter().filter(|o| o.is_copy(dir, None)).collect();
    let Some(first) = copies.first() else {
        return Err(format!("the program makes no {} copy", dir.name()));
    };
    let mut missing: Vec<String> = Vec::new();
    for c in &copies {
        let Some((region, _)) = c.host else { continue };
        let done = out.log[..c.idx]
            .iter()
            .any(|e| matches!(e.call, Call::Register { region: r } if r == region));
        let name = out
            .region_names
            .get(&region)
            .cloned()
            .unwrap_or_else(|| "the host buffer".into());
        if !done && !missing.contains(&name) {
            missing.push(name);
        }
    }
    if missing.is_empty() {
        Ok(format!(
            "`{call}` on the buffer the {} copies use (first copy line {})",
            dir.name(),
            first.line
        ))
    } else {
        Err(format!(
            "no `{call}` on `{}` before the {} copy on line {} used it",
            missing.join("`, `"),
            dir.name(),
            first.line
        ))
    }
}

/// Copies going `dir` of at least `min_bytes` in all came from (or went to) `mem`.
pub fn copies_from(
    ops: &[DevOp<'_>],
    dir: Direction,
    mem: Memory,
    min_bytes: u64,
) -> Result<String, String> {
    let sum = |m: Option<Memory>| -> u64 {
        ops.iter()
            .filter(|o| o.is_copy(dir, m))
            .map(DevOp::bytes)
            .sum()
    };
    let got = sum(Some(mem));
    if got >= min_bytes {
        return Ok(format!(
            "{} of {} copies with {} memory",
            fmt_bytes(got),
            dir.name(),
            mem.name()
        ));
    }
    let others: Vec<String> = [Memory::Pageable, Memory::Pinned, Memory::Registered]
        .into_iter()
        .filter(|&m| m != mem && sum(Some(m)) > 0)
        .map(|m| format!("{} from {}", fmt_bytes(sum(Some(m))), m.name()))
        .collect();
    let rest = if others.is_empty() {
        String::new()
    } else {
        format!(" (the rest: {})", others.join(", "))
    };
    Err(format!(
        "{} copies with {} memory moved {}, needs at least {}{rest}",
        dir.name(),
        mem.name(),
        fmt_bytes(got),
        fmt_bytes(min_bytes)
    ))
}

/// Passes of each order in `want` were issued, in that order.
pub fn issue_order(out: &Outcome, ops: &[DevOp<'_>], want: &[Order]) -> Result<String, String> {
    let found = passes::passes(out, ops);
    let mut it = found.iter();
    for (i, order) in want.iter().enumerate() {
        if !it.any(|p| p.order == Some(*order)) {
            let seen: Vec<String> = found
                .iter()
                .map(|p| {
                    let o = p.order.map_or("neither order", Order::short);
                    let line = p.ops.first().map_or(0, |o| o.line);
                    format!("{o} from line {line} ({} chunks)", p.chunks)
                })
                .collect();
            let after = if i == 0 {
                String::new()
            } else {
                " after the earlier pass".to_string()
            };
            let seen = if seen.is_empty() {
                "no chunked pass at all".to_string()
            } else {
                seen.join("; ")
            };
            // With an order asked for twice (a warm-up round, then the timed one), say so.
            let asked = if want.len() > 1 {
                let all: Vec<&str> = want.iter().map(|o| o.short()).collect();
                format!(" (asked for, in this order: {})", all.join(", "))
            } else {
                String::new()
            };
            return Err(format!(
                "no pass issued {}{after}{asked}: the run issued {seen}",
                order.name()
            ));
        }
    }
    Ok(format!("{} passes in the order asked", want.len()))
}

/// At least `count` rounds ran: a copy in of `min_bytes` or more, then a copy out of as much,
/// then a `check_output` that passed.
pub fn rounds(
    out: &Outcome,
    ops: &[DevOp<'_>],
    count: u32,
    min_bytes: u64,
) -> Result<String, String> {
    #[derive(PartialEq)]
    enum Want {
        In,
        Out,
        Check,
    }
    let big: HashMap<usize, DeviceOpKind> = ops
        .iter()
        .filter(|o| o.bytes() >= min_bytes)
        .map(|o| (o.idx, o.op.kind))
        .collect();
    let passed_checks = out.checks.iter().filter(|c| c.passed).count();
    let mut want = Want::In;
    let mut n = 0u32;
    let mut checks_seen = 0usize;
    for (i, e) in out.log.iter().enumerate() {
        match (&want, big.get(&i), &e.call) {
            (Want::In, Some(DeviceOpKind::CopyH2D), _) => want = Want::Out,
            (Want::Out, Some(DeviceOpKind::CopyD2H), _) => want = Want::Check,
            (Want::Check, _, Call::HostRead { what, .. }) if what == "check_output" => {
                checks_seen += 1;
                if checks_seen <= passed_checks {
                    n += 1;
                }
                want = Want::In;
            }
            _ => {}
        }
    }
    if n >= count {
        Ok(format!("{n} rounds of copy in, copy out and check"))
    } else {
        Err(format!(
            "{n} round(s) of copy in ({} or more), copy out and `check_output` ran, needs {count}: keep every round of the loop",
            fmt_bytes(min_bytes)
        ))
    }
}

/// Every host write to a buffer an async copy read came after an event recorded behind that
/// copy said it had finished (`cudaEventSynchronize`, or `cudaEventQuery` answering
/// `cudaSuccess`); at least `min_reuses` such reuses happened. A reuse after a stream or device
/// synchronisation is safe but does not count: no event said the buffer was free.
pub fn reuse_after_event(
    out: &Outcome,
    ops: &[DevOp<'_>],
    min_reuses: u32,
) -> Result<String, String> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        InFlight,
        FreedByEvent,
        FreedBySync,
    }
    struct Read {
        range: crate::exercise::log::Range,
        stream: StreamId,
        at: usize,
        state: State,
    }
    let async_reads: HashMap<usize, &DevOp<'_>> = ops
        .iter()
        .filter(|o| o.op.kind == DeviceOpKind::CopyH2D && o.op.call != "cudaMemcpy")
        .map(|o| (o.idx, o))
        .collect();
    let mut recorded: HashMap<EventId, (usize, StreamId)> = HashMap::new();
    let mut reads: Vec<Read> = Vec::new();
    let mut reuses = 0u32;
    let free = |reads: &mut Vec<Read>, hit: &dyn Fn(&Read) -> bool, to: State| {
        for r in reads
            .iter_mut()
            .filter(|r| r.state == State::InFlight && hit(r))
        {
            r.state = to;
        }
    };
    for (i, e) in out.log.iter().enumerate() {
        match &e.call {
            Call::EventRecord { event, stream } => {
                recorded.insert(*event, (i, *stream));
            }
            Call::EventSync { event } | Call::EventQuery { event, done: true } => {
                if let Some(&(at, s)) = recorded.get(event) {
                    free(
                        &mut reads,
                        &|r| r.stream == s && r.at < at,
                        State::FreedByEvent,
                    );
                }
            }
            Call::StreamSync { stream } => {
                free(&mut reads, &|r| r.stream == *stream, State::FreedBySync);
            }
            Call::DeviceSync => free(&mut reads, &|_| true, State::FreedBySync),
            Call::HostWrite { range, .. } => {
                for r in reads.iter_mut().filter(|r| r.range.overlaps(range)) {
                    match r.state {
                        State::InFlight => {
                            let name = out
                                .region_names
                                .get(&range.region)
                                .cloned()
                                .unwrap_or_else(|| "a buffer".into());
                            return Err(format!(
                                "line {} writes `{name}` while the copy issued on line {} may still read it: wait for an event recorded after that copy first",
                                e.line, out.log[r.at].line
                            ));
                        }
                        State::FreedByEvent => reuses += 1,
                        State::FreedBySync => {}
                    }
                }
                reads.retain(|r| !r.range.overlaps(range));
            }
            _ => {
                if let Some(op) = async_reads.get(&i)
                    && let Some(range) = op.op.reads.first()
                {
                    reads.push(Read {
                        range: *range,
                        stream: op.op.stream,
                        at: i,
                        state: State::InFlight,
                    });
                }
            }
        }
    }
    if reuses >= min_reuses {
        Ok(format!(
            "{reuses} reuse(s), each after an event said the buffer was free"
        ))
    } else {
        Err(format!(
            "{reuses} buffer reuse(s) after an event said the buffer was free, needs {min_reuses} (a stream or device synchronisation is safe but is not an event)"
        ))
    }
}
