//! The LZ format unpack.c decodes: a stream of u16 where a header below 0x8000 is a run of that
//! many literal values and a header with the top bit set copies (header & 0x7fff) values from
//! a distance back: one u16 below 0x8000 for a distance under 32,768, else two (the low 15
//! bits with the top bit set, then the rest). `pack` writes it, `unpack` checks it.

use std::collections::HashMap;

const MIN_COPY: usize = 4;
const MAX_RUN: usize = 0x7fff;

/// Greedy LZ over u16 values in unpack.c's format. Candidates for a copy: the last
/// `MAX_CHAIN` places the next three values occurred, the previous value (runs of zeros) and
/// the same column one row up when the data has rows (neighbouring states share most of their
/// actions).
pub fn pack(data: &[u16], row_len: Option<usize>) -> Vec<u16> {
    let mut out = Vec::new();
    let mut literals: Vec<u16> = Vec::new();
    let mut seen = Seen::default();
    let mut i = 0;
    while i < data.len() {
        let mut candidates = seen.places(data, i);
        candidates.extend(i.checked_sub(1));
        candidates.extend(row_len.and_then(|r| i.checked_sub(r)));
        let best = longest_match(data, i, &candidates);
        let step = if best.0 >= MIN_COPY && best.1 < 1 << 31 {
            best.0
        } else {
            1
        };
        for k in i..(i + step).min(data.len().saturating_sub(2)) {
            seen.add(data, k);
        }
        if step == 1 {
            literals.push(data[i]);
            if literals.len() == MAX_RUN {
                flush(&mut out, &mut literals);
            }
        } else {
            flush(&mut out, &mut literals);
            out.push(0x8000 | best.0 as u16);
            if best.1 < 0x8000 {
                out.push(best.1 as u16);
            } else {
                out.extend([0x8000 | (best.1 & 0x7fff) as u16, (best.1 >> 15) as u16]);
            }
        }
        i += step;
    }
    flush(&mut out, &mut literals);
    out
}

/// How many earlier places with the same next three values are tried: more finds longer
/// copies (the small table repeats groups all over), at a cost only to the build.
const MAX_CHAIN: usize = 1024;

/// Every earlier position by its next three values, newest first (a hash chain).
#[derive(Default)]
struct Seen {
    newest: HashMap<[u16; 3], usize>,
    previous: HashMap<usize, usize>,
}

impl Seen {
    fn add(&mut self, data: &[u16], at: usize) {
        if let Some(older) = self.newest.insert(key(data, at), at) {
            self.previous.insert(at, older);
        }
    }

    /// The newest `MAX_CHAIN` earlier positions where the values at `at` also start.
    fn places(&self, data: &[u16], at: usize) -> Vec<usize> {
        if at + 3 > data.len() {
            return Vec::new();
        }
        let first = self.newest.get(&key(data, at)).copied();
        std::iter::successors(first, |p| self.previous.get(p).copied())
            .take(MAX_CHAIN)
            .collect()
    }
}

fn key(data: &[u16], at: usize) -> [u16; 3] {
    [data[at], data[at + 1], data[at + 2]]
}

/// The longest copy for position `at` from the candidates: (length, distance).
fn longest_match(data: &[u16], at: usize, candidates: &[usize]) -> (usize, usize) {
    let limit = MAX_RUN.min(data.len() - at);
    let mut best = (0, 0);
    for &from in candidates {
        // A candidate that differs where the best so far ends cannot beat it.
        if best.0 >= limit || (best.0 > 0 && data[from + best.0] != data[at + best.0]) {
            continue;
        }
        let len = (0..limit)
            .take_while(|&k| data[at + k] == data[from + k])
            .count();
        if len > best.0 {
            best = (len, at - from);
        }
    }
    best
}

fn flush(out: &mut Vec<u16>, literals: &mut Vec<u16>) {
    if !literals.is_empty() {
        out.push(literals.len() as u16);
        out.append(literals);
    }
}

/// unpack.c's loop in Rust, to check `pack` before its output is compiled in.
pub fn unpack(packed: &[u16], len: usize) -> Vec<u16> {
    let mut out = Vec::with_capacity(len);
    let mut i = 0;
    while i < packed.len() {
        let head = packed[i] as usize;
        i += 1;
        if head & 0x8000 != 0 {
            let Some(&lo) = packed.get(i) else { break };
            i += 1;
            let mut distance = lo as usize & 0x7fff;
            if lo & 0x8000 != 0 {
                let Some(&hi) = packed.get(i) else { break };
                i += 1;
                distance |= (hi as usize) << 15;
            }
            if distance == 0 || distance > out.len() {
                break;
            }
            for _ in 0..head & 0x7fff {
                out.push(out[out.len() - distance]);
            }
        } else {
            out.extend(packed.iter().skip(i).take(head));
            i += head;
        }
    }
    out
}
