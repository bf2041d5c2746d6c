//! The LZ format unpack.c decodes: a stream of u16 where a header below 0x8000 is a run of that
//! many literal values and a header with the top bit set copies (header & 0x7fff) values from
//! a distance back (two u16, low half first). `pack` writes it, `unpack` checks it.

use std::collections::HashMap;

const MIN_COPY: usize = 4;
const MAX_RUN: usize = 0x7fff;

/// Greedy LZ over u16 values in unpack.c's format. Candidates for a copy: the last place the
/// next three values occurred, the previous value (runs of zeros) and the same column one row
/// up when the data has rows (neighbouring states share most of their actions).
pub fn pack(data: &[u16], row_len: Option<usize>) -> Vec<u16> {
    let mut out = Vec::new();
    let mut literals: Vec<u16> = Vec::new();
    let mut last_seen: HashMap<[u16; 3], usize> = HashMap::new();
    let key = |i: usize| [data[i], data[i + 1], data[i + 2]];
    let mut i = 0;
    while i < data.len() {
        let mut best = (0, 0);
        let hashed = (i + 3 <= data.len())
            .then(|| last_seen.get(&key(i)).copied())
            .flatten();
        for from in hashed
            .into_iter()
            .chain(i.checked_sub(1))
            .chain(row_len.and_then(|r| i.checked_sub(r)))
        {
            let len = (0..MAX_RUN.min(data.len() - i))
                .take_while(|&k| data[i + k] == data[from + k])
                .count();
            if len > best.0 {
                best = (len, i - from);
            }
        }
        let step = if best.0 >= MIN_COPY && best.1 < 1 << 32 {
            best.0
        } else {
            1
        };
        for k in i..(i + step).min(data.len().saturating_sub(2)) {
            last_seen.insert(key(k), k);
        }
        if step == 1 {
            literals.push(data[i]);
            if literals.len() == MAX_RUN {
                flush(&mut out, &mut literals);
            }
        } else {
            flush(&mut out, &mut literals);
            out.extend([0x8000 | best.0 as u16, best.1 as u16, (best.1 >> 16) as u16]);
        }
        i += step;
    }
    flush(&mut out, &mut literals);
    out
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
            let (Some(&lo), Some(&hi)) = (packed.get(i), packed.get(i + 1)) else {
                break;
            };
            i += 2;
            let distance = lo as usize | (hi as usize) << 16;
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
