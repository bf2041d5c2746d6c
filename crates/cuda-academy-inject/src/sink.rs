//! The trace file: JSON lines written as they come through one small buffer, so memory stays
//! bounded however long the program runs (a million copies are a million lines on disk, never
//! in memory). After the exit flush every line is written through at once: the CUDA runtime's
//! own teardown (frees, context destruction) still calls the driver after `atexit` handlers
//! that were registered later than its own have run.
//!
//! What is buffered also goes to the file at least once a second (checked as lines come, and
//! after each activity buffer), so a program killed outright leaves everything but its last
//! second on disk, and the header at once.
//!
//! A forked child inherits this library and the open file; it writes nothing (its lines would
//! interleave with the parent's), which `pid` checks.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Bytes buffered before a write to the file.
pub const BUFFER_BYTES: usize = 64 * 1024;
/// The longest a line waits in the buffer while lines keep coming.
const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// A trace being written to `W`.
pub struct Sink<W: Write> {
    out: BufWriter<W>,
    /// The process that opened it.
    pid: u32,
    /// Past the exit flush: every line goes straight to the file.
    through: bool,
    /// Lines that could not be written (a full disk): counted, said in the end record.
    lost: u64,
    /// When the buffer last went to the file.
    flushed_at: Instant,
}

impl<W: Write> Sink<W> {
    pub fn new(out: W) -> Sink<W> {
        Sink {
            out: BufWriter::with_capacity(BUFFER_BYTES, out),
            pid: std::process::id(),
            through: false,
            lost: 0,
            flushed_at: Instant::now(),
        }
    }

    /// Append one line (already ending in a newline).
    pub fn write_line(&mut self, line: &str) {
        if std::process::id() != self.pid {
            return;
        }
        let written = self.out.write_all(line.as_bytes());
        let flushed = if self.through || self.flushed_at.elapsed() >= FLUSH_EVERY {
            self.flush()
        } else {
            Ok(())
        };
        if written.is_err() || flushed.is_err() {
            self.lost += 1;
        }
    }

    /// Write out what is buffered now.
    pub fn flush(&mut self) -> io::Result<()> {
        if std::process::id() != self.pid {
            return Ok(());
        }
        self.flushed_at = Instant::now();
        self.out.flush()
    }

    /// Lines lost so far.
    pub fn lost(&self) -> u64 {
        self.lost
    }

    /// Write out what is buffered; from now on every line is written through.
    pub fn flush_through(&mut self) -> io::Result<()> {
        if std::process::id() != self.pid {
            return Ok(());
        }
        self.through = true;
        self.out.flush()
    }

    /// What is waiting in the buffer (for the tests: never more than [`BUFFER_BYTES`]).
    pub fn buffered(&self) -> usize {
        self.out.buffer().len()
    }

    /// The writer underneath (for the tests).
    pub fn get_ref(&self) -> &W {
        self.out.get_ref()
    }
}

static SINK: Mutex<Option<Sink<File>>> = Mutex::new(None);

/// The process's trace file (a poisoned lock is still used: a line is a line).
pub fn global() -> MutexGuard<'static, Option<Sink<File>>> {
    SINK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Create (or truncate) the trace file at `path` and make it the process's sink.
pub fn open(path: &str) -> io::Result<()> {
    let file = File::create(path)?;
    *global() = Some(Sink::new(file));
    Ok(())
}

/// Write out what the process's trace file has buffered.
pub fn flush() {
    if let Some(sink) = global().as_mut() {
        let _ = sink.flush();
    }
}

/// Append one line to the process's trace file, if one is open.
pub fn emit(line: &str) {
    if let Some(sink) = global().as_mut() {
        sink.write_line(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_reach_the_writer_in_order_and_the_buffer_stays_bounded() {
        let mut sink = Sink::new(Vec::new());
        let line = format!("{{\"t\":\"api\",\"pad\":\"{}\"}}\n", "x".repeat(100));
        for _ in 0..10_000 {
            sink.write_line(&line);
            assert!(
                sink.buffered() <= BUFFER_BYTES,
                "{} buffered",
                sink.buffered()
            );
        }
        assert!(sink.flush_through().is_ok());
        assert_eq!(sink.buffered(), 0);
        assert_eq!(sink.get_ref().len(), line.len() * 10_000);
        assert!(sink.get_ref().ends_with(line.as_bytes()));
        sink.write_line("{\"t\":\"end\"}\n");
        assert_eq!(
            sink.buffered(),
            0,
            "after the exit flush lines go straight through"
        );
        assert_eq!(sink.lost(), 0);
    }

    #[test]
    fn an_explicit_flush_empties_the_buffer_and_lines_buffer_again_after() {
        let mut sink = Sink::new(Vec::new());
        sink.write_line("{\"t\":\"header\"}\n");
        assert!(sink.buffered() > 0);
        assert!(sink.flush().is_ok());
        assert_eq!(sink.buffered(), 0);
        assert_eq!(sink.get_ref().as_slice(), b"{\"t\":\"header\"}\n");
        sink.write_line("{}\n");
        assert_eq!(
            sink.buffered(),
            3,
            "not written through before the exit flush"
        );
    }

    /// A writer that always fails, as a full disk does.
    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::other("disk full"))
        }
    }

    #[test]
    fn lines_that_cannot_be_written_are_counted() {
        let mut sink = Sink::new(Full);
        assert!(sink.flush_through().is_err());
        sink.write_line("{}\n");
        sink.write_line("{}\n");
        assert_eq!(sink.lost(), 2);
    }
}
