//! The C library's and `academy.cuh`'s helpers: `printf`, `fprintf`, `exit`, `min`/`max`,
//! `dim3`, and the exercise helpers `report`, `host_work`, `fill_input`, `check_output` and
//! `now_ms`.

use super::OutputCheck;
use super::args::Args;
use super::eval::stop;
use super::value::Value;
use super::{Interp, Res, limits};
use crate::exercise::api;
use crate::exercise::log::{Call, MemKind, Range};
use crate::exercise::{FILL_SEED, printf};
use crate::gpu::HostBuf;

/// `min(a, b)` (`smaller`) or `max(a, b)`: the argument itself, integer or floating.
pub(super) fn min_max(a: &Args, smaller: bool) -> Res<Value> {
    let (x, y) = (a.val(0)?, a.val(1)?);
    let (fx, fy) = (a.num(0)?, a.num(1)?);
    let first = if smaller { fx <= fy } else { fx >= fy };
    Ok(if first { x.clone() } else { y.clone() })
}

/// `fabs(x)`, `sqrt(x)` and their `f` twins: `f` of the number, as a floating value (a float's
/// result is computed in double here: the exercises compare with tolerances).
pub(super) fn math(a: &Args, f: fn(f64) -> f64) -> Res<Value> {
    Ok(Value::Float(f(a.num(0)?)))
}

/// `abs(x)`: an integer's absolute value stays an integer; a floating one (`std::abs` of a
/// float) stays floating.
pub(super) fn abs(a: &Args) -> Res<Value> {
    Ok(match a.val(0)? {
        Value::Int(i) => Value::Int(i.wrapping_abs()),
        _ => Value::Float(a.num(0)?.abs()),
    })
}

/// `dim3(x[, y[, z]])`: each size at least 1.
pub(super) fn dim3(a: &Args) -> Res<Value> {
    let mut d = [1i64; 3];
    for (i, x) in d.iter_mut().enumerate().take(a.vals.len()) {
        *x = a.int(i)?;
        if *x < 1 {
            return Err(stop(
                a.at(i),
                format!("a dim3's sizes are at least 1, not {x}"),
            ));
        }
    }
    Ok(Value::Dim3(d))
}

/// The most `spin` passes `check_output` is asked about (each a float addition, exact at
/// this count for the input pattern's values).
const MAX_SPIN_PASSES: u32 = 64;

/// Where `fill_input` or `check_output` works: `n` floats at byte `off` of host buffer `h`.
struct Pattern {
    range: Range,
    h: HostBuf,
    off: u64,
    n: u64,
    /// The whole buffer (a fill of it is also its first touch).
    whole: bool,
}

impl Interp<'_> {
    /// `now_ms()`: the host's clock, in milliseconds.
    pub(super) fn now_ms(&mut self) -> Value {
        Value::Float(self.gpu.host_now_us() / 1000.0)
    }

    /// `printf(format, ...)`: the number of bytes printed.
    pub(super) fn printf(&mut self, a: &Args) -> Res<Value> {
        // Step cost (issue 21): formatting costs in proportion to the text.
        self.charge(a.pos, limits::text_steps(a.str(0)?.len()))?;
        let rest = a.vals.get(1..).unwrap_or_default();
        let text = printf::format(a.str(0)?, rest).map_err(|m| stop(a.pos, m))?;
        self.print(&text);
        Ok(Value::Int(text.len() as i64))
    }

    /// `fprintf(stderr, format, …)` or `fprintf(stdout, …)`: printed as `printf` prints (the
    /// program's output is one text, as a terminal shows both).
    pub(super) fn fprintf(&mut self, a: &Args) -> Res<Value> {
        let stream = a.int(0)?;
        if stream != api::STDOUT && stream != api::STDERR {
            return Err(stop(
                a.at(0),
                "the first argument of `fprintf` is `stderr` or `stdout` here (the checker opens no files)",
            ));
        }
        self.charge(a.pos, limits::text_steps(a.str(1)?.len()))?;
        let rest = a.vals.get(2..).unwrap_or_default();
        let text = printf::format(a.str(1)?, rest).map_err(|m| stop(a.pos, m))?;
        self.print(&text);
        if stream == api::STDERR {
            self.note_stderr(&text);
        }
        Ok(Value::Int(text.len() as i64))
    }

    /// `exit(status)`: the run ends here and what ran is judged. Logged, so the checker knows
    /// the process ended with what it still held (the operating system frees it: no leak).
    pub(super) fn exit(&mut self, a: &Args) -> Res<Value> {
        let status = a.int(0)?;
        self.log(Call::Exit { status });
        Err(super::Stop {
            exited: Some(status),
            ..stop(a.pos, "exit")
        })
    }

    /// Keep the last non-blank line of `text`, written to `stderr`, for the verdict of a run
    /// its error check ended (`Outcome::last_stderr_line`).
    fn note_stderr(&mut self, text: &str) {
        if let Some(line) = text.lines().rev().map(str::trim).find(|l| !l.is_empty()) {
            let mut end = line.len().min(super::STDERR_LINE_MAX);
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            self.out.last_stderr_line = Some(line[..end].to_string());
        }
    }

    /// `report("name", value)`: a metric the checks read.
    pub(super) fn report(&mut self, a: &Args) -> Res<Value> {
        let (name, value) = (a.str(0)?.to_string(), a.num(1)?);
        if name.is_empty()
            || name.len() > 64
            || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            return Err(stop(
                a.pos,
                "a metric name is letters, digits and `_`, e.g. \"pinned_gbps\"",
            ));
        }
        self.print(&format!("report {name} = {value:.6}\n"));
        self.out.metrics.insert(name, value);
        Ok(Value::Void)
    }

    /// `host_work(ms)`: the host busy for `ms`, on the host lane.
    pub(super) fn host_work(&mut self, a: &Args) -> Res<Value> {
        let ms = a.num(0)?;
        if !(0.0..=10_000.0).contains(&ms) {
            return Err(stop(a.pos, "`host_work` takes 0 to 10000 milliseconds"));
        }
        let start_us = self.gpu.host_now_us();
        self.gpu.host_busy_us(ms * 1000.0);
        let end_us = self.gpu.host_now_us();
        self.out.host_work.push(super::HostSpan {
            line: self.line,
            start_us,
            end_us,
        });
        Ok(Value::Void)
    }

    /// `check_output(h + i, n[, spins])`: whether the `n` floats there hold the transform of
    /// the input after `spins` passes of `spin(cycles, x, n)` (none when left out).
    pub(super) fn check_output(&mut self, a: &Args) -> Res<Value> {
        let Pattern {
            range, h, off, n, ..
        } = self.pattern_span(a)?;
        let spins = match a.vals.len() {
            3 => u32::try_from(a.count(2)?)
                .ok()
                .filter(|&s| s <= MAX_SPIN_PASSES)
                .ok_or_else(|| {
                    stop(
                        a.at(2),
                        format!("`check_output`'s `spins` is 0 to {MAX_SPIN_PASSES}: how many `spin(cycles, x, n)` passes each float went through"),
                    )
                })?,
            _ => 0,
        };
        // Step cost (issue 21): a comparison over `n` floats.
        self.charge(a.pos, limits::bulk_steps(n))?;
        self.log(Call::HostRead {
            range,
            what: "check_output".into(),
        });
        let res = self
            .gpu
            .host_holds_transform_of_fill(h, off, n * 4, (FILL_SEED, spins));
        let ok = self.m(a.pos, "check_output", res)?;
        self.out.checks.push(OutputCheck {
            line: self.line,
            passed: ok,
            range,
            spins,
        });
        Ok(Value::Bool(ok))
    }

    /// `fill_input(h + i, n)`: the input pattern into `n` floats.
    pub(super) fn fill_input(&mut self, a: &Args) -> Res<Value> {
        let Pattern {
            range,
            h,
            off,
            n,
            whole,
        } = self.pattern_span(a)?;
        self.log(Call::HostWrite {
            range,
            what: "fill_input".into(),
        });
        // Step cost (issue 21): a fill of `n` floats, whole buffer or part.
        self.charge(a.pos, limits::bulk_steps(n))?;
        let res = if whole {
            // The whole buffer: also its first touch, as the backend's fill models it.
            self.gpu.host_fill(h, FILL_SEED)
        } else {
            self.gpu.host_fill_range(h, off, n * 4, FILL_SEED)
        };
        self.m(a.pos, "fill_input", res)?;
        Ok(Value::Void)
    }

    /// The `n` floats at the pointer `fill_input` and `check_output` take: host memory, inside
    /// its allocation. The pattern's float 0 is at the pointer, as in academy.cuh, whatever the
    /// offset.
    fn pattern_span(&self, a: &Args) -> Res<Pattern> {
        let ((r, off), n) = (a.ptr(0)?, a.count(1)?);
        let range = self.span(a, r, off, n.saturating_mul(4))?;
        let region = &self.regions[r];
        if region.kind == MemKind::Device {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` runs on the host; `{}` is device memory",
                    a.name,
                    self.region_name(r)
                ),
            ));
        }
        let Some(h) = region.host else {
            return Err(stop(a.pos, "host buffer missing"));
        };
        Ok(Pattern {
            range,
            h,
            off,
            n,
            whole: off == 0 && n * 4 == region.bytes,
        })
    }

    pub(super) fn print(&mut self, text: &str) {
        // Bounded: a print in a runaway loop must not fill memory before the step budget ends it.
        if self.out.output.len() < 64 * 1024 {
            self.out.output.push_str(text);
        }
    }
}
