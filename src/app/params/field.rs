//! One field of the parameter form: its label, how its value reads, and how Left/Right step it
//! through its choices (auto included) or typed text sets it.

use super::Field;
use crate::experiment::options::{GIB, MIB, format_bytes};
use crate::experiment::{ExperimentOptions, IssueOrder, parse_size};
use crate::report::HostMemKind;

const SIZES: [u64; 7] = [MIB, 4 * MIB, 16 * MIB, 64 * MIB, 256 * MIB, GIB, 4 * GIB];
const STREAMS: [u32; 8] = [1, 2, 3, 4, 6, 8, 16, 32];
const CHUNKS: [u32; 10] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 1024];
const MEMS: [HostMemKind; 2] = [HostMemKind::Pinned, HostMemKind::Pageable];

impl Field {
    /// The label shown in the form.
    pub fn label(self) -> &'static str {
        match self {
            Field::Size => "size",
            Field::Streams => "streams",
            Field::Chunks => "chunks",
            Field::HostMem => "host memory",
            Field::Order => "issue order",
        }
    }

    /// The field's value in `o`, as the form shows it.
    pub fn value(self, o: &ExperimentOptions) -> String {
        let auto = |what: &str| format!("auto ({what})");
        match self {
            Field::Size => o.size.map_or(auto("experiment default"), format_bytes),
            Field::Streams => o.streams.map_or(auto("sweep"), |s| s.to_string()),
            Field::Chunks => o.chunks.map_or(auto("sweep"), |c| c.to_string()),
            Field::HostMem => match o.host_mem {
                Some(HostMemKind::Pageable) => HostMemKind::Pageable.name().into(),
                Some(_) => HostMemKind::Pinned.name().into(),
                None => auto("pinned"),
            },
            Field::Order => o.issue_order.map_or(auto("try all"), |x| x.name().into()),
        }
    }

    /// Step the value by `delta` through its choices: auto first, except for the size, whose
    /// auto sits where the experiment's default size does (`→` goes to the next size above it).
    pub(super) fn step(self, o: &mut ExperimentOptions, delta: i32, default_size: Option<u64>) {
        match self {
            Field::Size => {
                o.size = match default_size {
                    Some(default) => step_around(&SIZES, default, o.size, delta),
                    None => step(&SIZES, o.size, delta, |a, b| a > b),
                }
            }
            Field::Streams => o.streams = step(&STREAMS, o.streams, delta, |a, b| a > b),
            Field::Chunks => o.chunks = step(&CHUNKS, o.chunks, delta, |a, b| a > b),
            Field::HostMem => o.host_mem = step(&MEMS, o.host_mem, delta, |_, _| false),
            Field::Order => {
                o.issue_order = step(&IssueOrder::ALL, o.issue_order, delta, |_, _| false);
            }
        }
    }

    /// Set the value from typed text.
    pub(super) fn set(self, o: &mut ExperimentOptions, text: &str) -> Result<(), String> {
        let count = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{t}` is not a whole number"))
        };
        match self {
            Field::Size => o.size = Some(parse_size(text)?),
            Field::Streams => o.streams = Some(count(text)?),
            Field::Chunks => o.chunks = Some(count(text)?),
            Field::HostMem | Field::Order => return Err("use ← → to choose".into()),
        }
        Ok(())
    }
}

/// The size `delta` steps from `current` in the sizes ordered with auto in the default's place
/// (`..., 64 MiB, auto (256 MiB), 1 GiB, ...`); a typed size steps to its neighbour on that side.
fn step_around(choices: &[u64], default: u64, current: Option<u64>, delta: i32) -> Option<u64> {
    let below = choices.iter().copied().filter(|&c| c < default).map(Some);
    let above = choices.iter().copied().filter(|&c| c > default).map(Some);
    let line: Vec<Option<u64>> = below.chain([None]).chain(above).collect();
    let value = |slot: &Option<u64>| slot.unwrap_or(default);
    let at = match current {
        None => line.iter().position(Option::is_none),
        Some(v) => line.iter().position(|s| *s == Some(v)),
    };
    let at = i64::try_from(match at {
        Some(p) => p,
        // A typed size: the first step goes to the neighbour on that side.
        None => {
            let v = current.unwrap_or(default);
            let first_above = line.iter().position(|s| value(s) > v).unwrap_or(line.len());
            if delta > 0 {
                first_above.saturating_sub(1)
            } else {
                first_above
            }
        }
    })
    .unwrap_or(0);
    let last = i64::try_from(line.len()).unwrap_or(1) - 1;
    let next = (at + i64::from(delta)).clamp(0, last);
    usize::try_from(next)
        .ok()
        .and_then(|i| line.get(i).copied())
        .flatten()
}

/// The choice `delta` steps from `current` in `auto, choices...` (clamped at both ends); a typed
/// value that is not a choice steps from its place among them (`greater(a, b)`: a > b).
fn step<T: Copy + PartialEq>(
    choices: &[T],
    current: Option<T>,
    delta: i32,
    greater: fn(&T, &T) -> bool,
) -> Option<T> {
    let last = i64::try_from(choices.len()).unwrap_or(0);
    let delta = i64::from(delta);
    // Positions: 0 is auto, i is choices[i - 1].
    let next = match current {
        None => delta,
        Some(v) => match choices.iter().position(|c| *c == v) {
            Some(p) => i64::try_from(p).unwrap_or(0) + 1 + delta,
            None => {
                // Between choices: the first step goes to the neighbour on that side.
                let above = choices
                    .iter()
                    .position(|c| greater(c, &v))
                    .unwrap_or(choices.len());
                let above = i64::try_from(above).unwrap_or(last);
                if delta > 0 {
                    above + delta
                } else {
                    above + 1 + delta
                }
            }
        },
    }
    .clamp(0, last);
    usize::try_from(next - 1)
        .ok()
        .and_then(|i| choices.get(i).copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_goes_through_auto_and_clamps() {
        let gt = |a: &u32, b: &u32| a > b;
        assert_eq!(step(&STREAMS, None, 1, gt), Some(1));
        assert_eq!(step(&STREAMS, Some(1), -1, gt), None);
        assert_eq!(step(&STREAMS, None, -1, gt), None);
        assert_eq!(step(&STREAMS, Some(32), 1, gt), Some(32));
        // A typed value between choices steps to its neighbours.
        assert_eq!(step(&STREAMS, Some(5), 1, gt), Some(6));
        assert_eq!(step(&STREAMS, Some(5), -1, gt), Some(4));
        assert_eq!(step(&STREAMS, Some(99), -1, gt), Some(32));
    }

    #[test]
    fn size_auto_sits_at_the_default_size() {
        let default = 256 * MIB;
        assert_eq!(step_around(&SIZES, default, None, 1), Some(GIB));
        assert_eq!(step_around(&SIZES, default, None, -1), Some(64 * MIB));
        assert_eq!(step_around(&SIZES, default, Some(64 * MIB), 1), None);
        assert_eq!(step_around(&SIZES, default, Some(GIB), -1), None);
        assert_eq!(step_around(&SIZES, default, Some(MIB), -1), Some(MIB));
        assert_eq!(
            step_around(&SIZES, default, Some(4 * GIB), 1),
            Some(4 * GIB)
        );
        // A default that is not a choice, and typed sizes between choices.
        assert_eq!(step_around(&SIZES, 100 * MIB, None, 1), Some(256 * MIB));
        assert_eq!(step_around(&SIZES, default, Some(100 * MIB), 1), None);
        assert_eq!(
            step_around(&SIZES, default, Some(100 * MIB), -1),
            Some(64 * MIB)
        );
    }
}
