//! Reading a trace file (JSON lines, written by `crates/cuda-academy-inject` and closed by
//! `trace` with an `exit` line) back into records, on any machine. Unknown record kinds are
//! skipped (a newer library may add some), a line that does not parse is counted, not fatal (a
//! program killed mid-write leaves half a line), and a file from a newer format is refused with
//! a message that says so.
//!
//! The field names are the library's (`crates/cuda-academy-inject/src/api.rs` and
//! `activity.rs`); this module is their one reader.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::Context as _;
use serde::Deserialize;

/// The newest trace format this reader knows (the library's `FORMAT_VERSION`).
pub const FORMAT_VERSION: u64 = 1;

/// The longest line read; a longer one is counted as bad and skipped.
const MAX_LINE: u64 = 1 << 20;

/// The first line: what wrote the trace and whether tracing started.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Header {
    pub format_version: u64,
    #[serde(default)]
    pub tool_version: String,
    #[serde(default)]
    pub pid: u64,
    /// `ok`, or why nothing was traced: `no_cupti`, `another_cupti_client`, `cupti_error`.
    pub status: String,
    #[serde(default)]
    pub detail: String,
    pub driver_version: Option<i64>,
    pub cupti_version: Option<u64>,
    pub cupti_path: Option<String>,
}

/// One driver API call, with the arguments the library took inside the callback (which ones
/// depends on the call).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct ApiCall {
    pub name: String,
    pub cbid: u32,
    pub corr: u32,
    pub tid: u64,
    pub start: u64,
    pub end: u64,
    pub ret: i64,
    /// `htod`, `dtoh`, `dtod`, `default` (unified addressing), `peer`, `descriptor`, `batch`.
    pub copy: Option<String>,
    pub dst: Option<u64>,
    pub src: Option<u64>,
    pub bytes: Option<u64>,
    pub stream: Option<u64>,
    pub stream_id: Option<u32>,
    pub event: Option<u64>,
    pub flags: Option<u64>,
    pub kernel: Option<String>,
    pub grid: Option<[u64; 3]>,
    pub block: Option<[u64; 3]>,
    pub shared: Option<u64>,
    /// Launches: each parameter's value when it is 8 or 4 bytes (`null` otherwise); absent when
    /// the library could not read them (then the kernel's memory is not watched).
    pub params: Option<Vec<Option<u64>>>,
    /// The kernel has more parameters than the library records.
    pub params_cut: bool,
    /// Launches whose parameters the library could not read: what the driver answered
    /// (`cuFuncGetParamInfo 400, cuKernelGetParamInfo 1`).
    pub params_error: Option<String>,
    /// Allocations and frees: `device`, `managed`, `pinned`, `registered`.
    pub mem: Option<String>,
    pub ptr: Option<u64>,
    /// Memsets: the element width in bytes and the element count.
    pub elem: Option<u64>,
    pub count: Option<u64>,
    /// 2D memsets: the rows.
    pub height: Option<u64>,
}

/// A copy the GPU ran (`CUpti_ActivityMemcpy`).
#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
pub struct Memcpy {
    /// `CUpti_ActivityMemcpyKind`: 1 HtoD, 2 DtoH, 8 DtoD, 10 PtoP, ...
    pub copy_kind: u8,
    /// `CUpti_ActivityMemoryKind`: 1 pageable, 2 device, 4 pinned, 6 managed, ...
    pub src_kind: u8,
    pub dst_kind: u8,
    pub bytes: u64,
    pub start: u64,
    pub end: u64,
    pub device: u32,
    pub stream_id: u32,
    pub corr: u32,
}

/// A memset the GPU ran.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
pub struct Memset {
    pub bytes: u64,
    pub start: u64,
    pub end: u64,
    pub device: u32,
    pub stream_id: u32,
    pub corr: u32,
}

/// A kernel the GPU ran.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Kernel {
    pub name: String,
    pub grid: [u64; 3],
    pub block: [u64; 3],
    pub start: u64,
    pub end: u64,
    pub device: u32,
    pub stream_id: u32,
    pub corr: u32,
}

/// A blocking synchronisation (`CUpti_ActivitySynchronization`).
#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
pub struct Sync {
    /// 1 event synchronize, 2 stream wait event, 3 stream synchronize, 4 context synchronize.
    pub sync_type: u32,
    pub start: u64,
    pub end: u64,
    pub corr: u32,
    pub stream_id: u32,
    pub event_id: u32,
}

/// How the program ended (written by `trace`, not the library).
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
pub struct Exit {
    pub code: Option<i32>,
    pub signal: Option<i32>,
}

/// One line of a trace file.
// Driver calls are most of a trace's lines and the largest variant: boxing them would add an
// allocation to most lines to save the bytes of the few others.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Record {
    Header(Header),
    Note {
        text: String,
    },
    Api(ApiCall),
    Memcpy(Memcpy),
    Memset(Memset),
    Kernel(Kernel),
    Sync(Sync),
    Event {
        stream_id: u32,
        event_id: u32,
        corr: u32,
    },
    Marker {
        flags: u64,
        timestamp: u64,
        id: u64,
        name: String,
        domain: String,
    },
    Dropped {
        records: u64,
    },
    End {
        reason: String,
        lost_lines: u64,
    },
    Exit(Exit),
    /// A kind this reader does not know.
    #[serde(other)]
    Unknown,
}

/// A whole trace, read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    pub header: Option<Header>,
    /// Every record other than the header, the end and the exit, in file order.
    pub records: Vec<Record>,
    /// The library's exit flush ran (an `end` line): nothing recorded was lost.
    pub complete: bool,
    pub exit: Option<Exit>,
    /// Lines that did not parse (a cut last line, a damaged file).
    pub bad_lines: usize,
    /// Records CUPTI had to drop, and lines the library could not write.
    pub dropped: u64,
    /// The library's notes (what it could not record, and why).
    pub notes: Vec<String>,
}

/// Read the trace at `path`.
pub fn read_path(path: &Path) -> anyhow::Result<Trace> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    read(file).with_context(|| format!("reading {}", path.display()))
}

/// Read a trace from `input`, every record kept.
pub fn read(input: impl Read) -> anyhow::Result<Trace> {
    let mut records = Vec::new();
    let mut trace = scan(input, |record| records.push(record))?;
    trace.records = records;
    Ok(trace)
}

/// [`scan`] the trace at `path`.
pub fn scan_path(path: &Path, visit: impl FnMut(Record)) -> anyhow::Result<Trace> {
    let file = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    scan(file, visit).with_context(|| format!("reading {}", path.display()))
}

/// Read a trace from `input` one line at a time, handing each record other than the header,
/// the end and the exit to `visit` and keeping none (so a trace of a million copies is read in
/// the memory of one line): the [`Trace`] returned has everything but `records`.
pub fn scan(input: impl Read, mut visit: impl FnMut(Record)) -> anyhow::Result<Trace> {
    let mut reader = BufReader::new(input);
    let mut trace = Trace::default();
    let mut seen = 0usize;
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        if !line.ends_with(b"\n") && n as u64 == MAX_LINE {
            trace.bad_lines += 1;
            skip_rest_of_line(&mut reader)?;
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Record>(&text) {
            Ok(record) => {
                if let Some(body) = add(&mut trace, record)? {
                    seen += 1;
                    visit(body);
                }
            }
            Err(_) => trace.bad_lines += 1,
        }
    }
    if trace.header.is_none() && (seen > 0 || trace.bad_lines > 0) {
        anyhow::bail!("not a cuda-academy trace: no header line");
    }
    Ok(trace)
}

fn skip_rest_of_line(reader: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(at) = buf.iter().position(|b| *b == b'\n') {
            reader.consume(at + 1);
            return Ok(());
        }
        let len = buf.len();
        reader.consume(len);
    }
}

/// Take what the trace's own facts are from `record`; the record back when it is one of the
/// program's.
fn add(trace: &mut Trace, record: Record) -> anyhow::Result<Option<Record>> {
    match record {
        Record::Header(h) => {
            if h.format_version > FORMAT_VERSION {
                anyhow::bail!(
                    "the trace has format version {}, newer than this cuda-academy reads ({FORMAT_VERSION}); open it with a newer cuda-academy",
                    h.format_version
                );
            }
            if trace.header.is_none() {
                trace.header = Some(h);
            }
        }
        Record::End { lost_lines, .. } => {
            trace.complete = true;
            trace.dropped += lost_lines;
        }
        Record::Exit(e) => trace.exit = Some(e),
        Record::Dropped { records } => {
            trace.dropped += records;
            return Ok(Some(record));
        }
        Record::Note { ref text } => {
            trace.notes.push(text.clone());
            return Ok(Some(record));
        }
        Record::Unknown => {}
        other => return Ok(Some(other)),
    }
    Ok(None)
}

/// The `exit` line `trace` appends once the program has ended.
pub fn exit_line(ended: super::launch::Ended) -> String {
    match ended {
        super::launch::Ended::Code(c) => format!("{{\"t\":\"exit\",\"code\":{c}}}\n"),
        super::launch::Ended::Signal(s) => format!("{{\"t\":\"exit\",\"signal\":{s}}}\n"),
    }
}

#[cfg(test)]
#[path = "file_tests.rs"]
mod tests;
