//! Criteria on what the program did, read from the call log: which memory the copies used, a
//! call on the buffer they copied, the order of issue, the rounds of a loop, a buffer reused
//! only after an event said it was free. Each returns `Ok(detail)` or `Err(what is missing)`.

use std::collections::{HashMap, HashSet, VecDeque};

use super::facts::{DevOp, Direction, Memory};
use super::passes::{self, Order};
use super::poll::Poll;
use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, DeviceOpKind, RegionId};
use crate::gpu::{EventId, StreamId};
use crate::units::format_bytes as fmt_bytes;

/// The `call` (only `cudaHostRegister`) was made on the host buffer every `dir` copy used,
/// before the first of them. One walk over the log finds each buffer's first registration.
pub fn call_on_copied_buffer(
    out: &Outcome,
    ops: &[DevOp<'_>],
    call: &str,
    dir: Direction,
    poll: &Poll,
) -> Result<String, String> {
    let copies: Vec<&DevOp<'_>> = ops.iter().filter(|o| o.is_copy(dir, None)).collect();
    let Some(first) = copies.first() else {
        return Err(format!("the program makes no {} copy", dir.name()));
    };
    let mut first_register: HashMap<RegionId, usize> = HashMap::new();
    for (i, e) in out.log.iter().enumerate() {
        poll.tick()?;
        if let Call::Register { region } = e.call {
            first_register.entry(region).or_insert(i);
        }
    }
    let mut missing: Vec<String> = Vec::new();
    let mut named: HashSet<String> = HashSet::new();
    for c in &copies {
        poll.tick()?;
        let Some((region, _)) = c.host else { continue };
        let done = first_register.get(&region).is_some_and(|&i| i < c.idx);
        let name = out
            .region_names
            .get(&region)
            .cloned()
            .unwrap_or_else(|| "the host buffer".into());
        if !done && named.insert(name.clone()) {
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
        // Each round is a big copy in, a big copy out, then a `check_output`; anything else
        // between them leaves the round where it is.
        let big_op = big.get(&i);
        let checks = matches!(&e.call, Call::HostRead { what, .. } if what == "check_output");
        if want == Want::In && big_op == Some(&DeviceOpKind::CopyH2D) {
            want = Want::Out;
        } else if want == Want::Out && big_op == Some(&DeviceOpKind::CopyD2H) {
            want = Want::Check;
        } else if want == Want::Check && checks {
            checks_seen += 1;
            if checks_seen <= passed_checks {
                n += 1;
            }
            want = Want::In;
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
///
/// One walk over the log: the reads in flight wait in a queue per stream, in issue order, so a
/// wait frees each read once (an event frees a prefix of its stream's queue); a host write
/// looks only at the reads of the buffer it writes.
pub fn reuse_after_event(
    out: &Outcome,
    ops: &[DevOp<'_>],
    min_reuses: u32,
    poll: &Poll,
) -> Result<String, String> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        InFlight,
        FreedByEvent,
        FreedBySync,
        /// A host write overlapped it: it is done with.
        Gone,
    }
    struct Read {
        range: crate::exercise::log::Range,
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
    // Reads still in flight, per stream, in issue order (indices into `reads`).
    let mut in_flight: HashMap<StreamId, VecDeque<usize>> = HashMap::new();
    // Reads not yet overwritten, per buffer.
    let mut by_region: HashMap<RegionId, Vec<usize>> = HashMap::new();
    let mut reuses = 0u32;
    let free = |reads: &mut Vec<Read>, queue: &mut VecDeque<usize>, before: usize, to: State| {
        while let Some(&r) = queue.front() {
            if reads[r].at >= before {
                break;
            }
            queue.pop_front();
            if reads[r].state == State::InFlight {
                reads[r].state = to;
            }
        }
    };
    for (i, e) in out.log.iter().enumerate() {
        poll.tick()?;
        match &e.call {
            Call::EventRecord { event, stream } => {
                recorded.insert(*event, (i, *stream));
            }
            Call::EventSync { event } | Call::EventQuery { event, done: true } => {
                if let Some(&(at, s)) = recorded.get(event)
                    && let Some(q) = in_flight.get_mut(&s)
                {
                    free(&mut reads, q, at, State::FreedByEvent);
                }
            }
            Call::StreamSync { stream } => {
                if let Some(q) = in_flight.get_mut(stream) {
                    free(&mut reads, q, usize::MAX, State::FreedBySync);
                }
            }
            Call::DeviceSync => {
                for (_, mut q) in in_flight.drain() {
                    free(&mut reads, &mut q, usize::MAX, State::FreedBySync);
                }
            }
            Call::HostWrite { range, .. } => {
                let Some(list) = by_region.get_mut(&range.region) else {
                    continue;
                };
                for &r in list.iter() {
                    poll.tick()?;
                    let read = &mut reads[r];
                    if !read.range.overlaps(range) {
                        continue;
                    }
                    match read.state {
                        State::InFlight => {
                            let name = out
                                .region_names
                                .get(&range.region)
                                .cloned()
                                .unwrap_or_else(|| "a buffer".into());
                            return Err(format!(
                                "line {} writes `{name}` while the copy issued on line {} may still read it: wait for an event recorded after that copy first",
                                e.line, out.log[read.at].line
                            ));
                        }
                        State::FreedByEvent => reuses += 1,
                        State::FreedBySync | State::Gone => {}
                    }
                    read.state = State::Gone;
                }
                list.retain(|&r| reads[r].state != State::Gone);
            }
            Call::HostFuncRan { .. }
            | Call::Alloc { .. }
            | Call::Free { .. }
            | Call::Register { .. }
            | Call::Unregister { .. }
            | Call::StreamCreate { .. }
            | Call::StreamDestroy { .. }
            | Call::PerThreadStream { .. }
            | Call::EventCreate { .. }
            | Call::EventDestroy { .. }
            | Call::Device(_)
            | Call::EventElapsed { .. }
            | Call::StreamWaitEvent { .. }
            | Call::StreamQuery { .. }
            | Call::EventQuery { done: false, .. }
            | Call::HostRead { .. } => {
                if let Some(op) = async_reads.get(&i)
                    && let Some(range) = op.op.reads.first()
                {
                    let r = reads.len();
                    reads.push(Read {
                        range: *range,
                        at: i,
                        state: State::InFlight,
                    });
                    in_flight.entry(op.op.stream).or_default().push_back(r);
                    by_region.entry(range.region).or_default().push(r);
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
