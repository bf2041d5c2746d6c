//! What `academy.cuh` leaves in a traced run: under `-DACADEMY_NATIVE` each helper makes an
//! NVTX mark (`nvtxMarkA`) named `academy:<helper> line=<line> key=value…`, which the trace
//! records as a `marker` with its time on CUPTI's clock (the clock of the driver calls). Read
//! back here into [`Mark`]s; a mark that does not parse is counted, never guessed at.

use crate::attach::file::{Record, Trace};

/// The prefix of every mark the header makes.
pub const PREFIX: &str = "academy:";

/// One helper call the program made, with the line of the learner's file it was called on.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// When, in ns on CUPTI's clock.
    pub at_ns: u64,
    pub line: u32,
    pub what: Helper,
}

/// Which helper, with what it was given and answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Helper {
    /// `check_output(h, n, spins)`: its answer.
    CheckOutput {
        ptr: u64,
        bytes: u64,
        spins: u32,
        passed: bool,
    },
    /// `fill_input(h, n)`.
    FillInput {
        ptr: u64,
        bytes: u64,
    },
    /// `host_work(ms)` began or ended.
    HostWorkBegin,
    HostWorkEnd,
    /// `report(name, value)`.
    Report {
        name: String,
        value: f64,
    },
}

/// The marks of `trace` in time order, and how many `academy:` marks did not parse.
pub fn of_trace(trace: &Trace) -> (Vec<Mark>, usize) {
    let mut marks = Vec::new();
    let mut bad = 0;
    for r in &trace.records {
        if let Record::Marker {
            name, timestamp, ..
        } = r
            && let Some(body) = name.strip_prefix(PREFIX)
        {
            match parse(body) {
                Some((line, what)) => marks.push(Mark {
                    at_ns: *timestamp,
                    line,
                    what,
                }),
                None => bad += 1,
            }
        }
    }
    marks.sort_by_key(|m| m.at_ns);
    (marks, bad)
}

/// `<helper> line=N k=v…` (a report's `name=` last: the name may hold spaces).
fn parse(body: &str) -> Option<(u32, Helper)> {
    let (helper, rest) = body.split_once(' ').unwrap_or((body, ""));
    let (fields, name) = match rest.split_once(" name=") {
        Some((f, n)) => (f, Some(n)),
        None => (rest, None),
    };
    let get = |key: &str| {
        fields
            .split(' ')
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
    };
    let num = |key: &str| get(key)?.parse::<u64>().ok();
    let hex = |key: &str| u64::from_str_radix(get(key)?, 16).ok();
    let line = u32::try_from(num("line")?).ok()?;
    let what = match helper {
        "check_output" => Helper::CheckOutput {
            ptr: hex("ptr")?,
            bytes: num("bytes")?,
            spins: u32::try_from(num("spins")?).ok()?,
            passed: num("pass")? == 1,
        },
        "fill_input" => Helper::FillInput {
            ptr: hex("ptr")?,
            bytes: num("bytes")?,
        },
        "host_work_begin" => Helper::HostWorkBegin,
        "host_work_end" => Helper::HostWorkEnd,
        "report" => Helper::Report {
            name: name?.to_string(),
            value: get("value")?.parse().ok()?,
        },
        _ => return None,
    };
    Some((line, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_helpers_mark_parses_as_the_header_writes_it() {
        assert_eq!(
            parse("check_output line=41 ptr=7f00aa000010 bytes=4096 spins=2 pass=1"),
            Some((
                41,
                Helper::CheckOutput {
                    ptr: 0x7f00_aa00_0010,
                    bytes: 4096,
                    spins: 2,
                    passed: true
                }
            ))
        );
        assert_eq!(
            parse("fill_input line=9 ptr=10 bytes=8"),
            Some((9, Helper::FillInput { ptr: 16, bytes: 8 }))
        );
        assert_eq!(
            parse("report line=50 value=12.5 name=h2d ms"),
            Some((
                50,
                Helper::Report {
                    name: "h2d ms".into(),
                    value: 12.5
                }
            ))
        );
        assert_eq!(
            parse("host_work_end line=3"),
            Some((3, Helper::HostWorkEnd))
        );
    }

    #[test]
    fn a_damaged_or_unknown_mark_is_none() {
        assert_eq!(
            parse("check_output line=41 ptr=zz bytes=1 spins=0 pass=1"),
            None
        );
        assert_eq!(parse("report line=1 value=1"), None);
        assert_eq!(parse("teleport line=1"), None);
        assert_eq!(parse("host_work_begin"), None);
    }
}
