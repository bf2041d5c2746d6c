//! Criteria on what the program did, read from the call log: which memory the copies used, a
//! call on the buffer they copied, the order of issue, the rounds of a loop, a buffer reused
//! only after an event said it was free. Each returns `Ok(detail)` or `Err(what is missing)`.

use std::collections::{HashMap, HashSet};

use super::facts::{DevOp, Direction, Memory};
use super::passes::{self, Order};
use super::poll::Poll;
use crate::exercise::calls::CallId;
use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, DeviceOpKind, RegionId};
use crate::units::format_bytes as fmt_bytes;

mod reuse;
pub use reuse::reuse_after_event;

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
        let checks = matches!(&e.call, Call::HostRead { .. })
            && e.call.host_access_by() == Some(CallId::CheckOutput);
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
