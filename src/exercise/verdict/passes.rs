//! Pipeline passes and the order they were issued in, read from the call log.
//!
//! A pass is the copies in, kernels and copies out issued between two host waits
//! (`cudaDeviceSynchronize`, `cudaStreamSynchronize`, `cudaEventSynchronize` or a synchronous
//! `cudaMemcpy`). A pass of k >= 2 chunks is per-chunk when it was issued as (in, kernel, out)
//! k times, breadth-first when as k copies in, then k kernels, then k copies out.

use serde::Deserialize;

use super::facts::DevOp;
use crate::exercise::calls::CallId;
use crate::exercise::interp::Outcome;
use crate::exercise::log::{Call, DeviceOpKind};

/// An order of issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// Each chunk's copy in, kernel and copy out together (lesson 4's per-chunk loop).
    PerChunk,
    /// All copies in, then all kernels, then all copies out.
    BreadthFirst,
}

impl Order {
    pub fn name(self) -> &'static str {
        match self {
            Order::PerChunk => "per-chunk (each chunk's in, kernel, out together)",
            Order::BreadthFirst => "breadth-first (all in, then all kernels, then all out)",
        }
    }

    /// The order's name alone.
    pub fn short(self) -> &'static str {
        match self {
            Order::PerChunk => "per-chunk",
            Order::BreadthFirst => "breadth-first",
        }
    }
}

/// One pass: its order (`None` when it is neither) and its ops.
#[derive(Debug, Clone)]
pub struct Pass<'a> {
    pub order: Option<Order>,
    pub chunks: usize,
    pub ops: Vec<DevOp<'a>>,
}

/// The passes of at least two chunks, in issue order.
pub fn passes<'a>(out: &Outcome, ops: &[DevOp<'a>]) -> Vec<Pass<'a>> {
    let waits: Vec<usize> = out
        .log
        .iter()
        .enumerate()
        .filter(|(_, e)| match &e.call {
            Call::DeviceSync | Call::StreamSync { .. } | Call::EventSync { .. } => true,
            Call::Device(op) => op.call_id() == Some(CallId::CudaMemcpy),
            Call::Alloc { .. }
            | Call::Free { .. }
            | Call::Register { .. }
            | Call::Unregister { .. }
            | Call::StreamCreate { .. }
            | Call::StreamDestroy { .. }
            | Call::PerThreadStream { .. }
            | Call::EventCreate { .. }
            | Call::EventDestroy { .. }
            | Call::EventRecord { .. }
            | Call::EventElapsed { .. }
            | Call::StreamWaitEvent { .. }
            | Call::StreamQuery { .. }
            | Call::EventQuery { .. }
            | Call::HostRead { .. }
            | Call::HostWrite { .. }
            | Call::HostFuncRan { .. }
            | Call::Exit { .. } => false,
        })
        .map(|(i, _)| i)
        .collect();
    let mut groups: Vec<Vec<DevOp<'a>>> = Vec::new();
    let mut current: Vec<DevOp<'a>> = Vec::new();
    let mut next_wait = waits.iter().peekable();
    for op in ops {
        while next_wait.next_if(|&&w| w < op.idx).is_some() {
            groups.push(std::mem::take(&mut current));
        }
        let stage = matches!(
            op.op.kind,
            DeviceOpKind::CopyH2D | DeviceOpKind::Kernel | DeviceOpKind::CopyD2H
        );
        if stage && op.op.call_id() != Some(CallId::CudaMemcpy) {
            current.push(op.clone());
        }
    }
    groups.push(current);
    groups
        .into_iter()
        .filter_map(|g| {
            let chunks = g
                .iter()
                .filter(|o| o.op.kind == DeviceOpKind::CopyH2D)
                .count();
            (chunks >= 2).then(|| Pass {
                order: classify(&g, chunks),
                chunks,
                ops: g,
            })
        })
        .collect()
}

fn classify(g: &[DevOp<'_>], k: usize) -> Option<Order> {
    use DeviceOpKind::{CopyD2H as D, CopyH2D as H, Kernel as K};
    let kinds: Vec<DeviceOpKind> = g.iter().map(|o| o.op.kind).collect();
    if kinds.len() != 3 * k {
        return None;
    }
    let per_chunk = kinds.chunks(3).all(|c| c == [H, K, D]);
    let breadth = kinds[..k].iter().all(|&x| x == H)
        && kinds[k..2 * k].iter().all(|&x| x == K)
        && kinds[2 * k..].iter().all(|&x| x == D);
    if per_chunk {
        Some(Order::PerChunk)
    } else if breadth {
        Some(Order::BreadthFirst)
    } else {
        None
    }
}
