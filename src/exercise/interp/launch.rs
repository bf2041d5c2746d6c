//! Kernel launches: `transform<<<…>>>(in, out, n)`, `spin<<<…>>>(cycles)` and
//! `spin<<<…>>>(cycles, x, n)` from academy.cuh.

use super::args::Args;
use super::eval::stop;
use super::value::Value;
use super::{Interp, Res};
use crate::exercise::ast::{Expr, Pos};
use crate::exercise::log::{DeviceOp, DeviceOpKind, Range};
use crate::gpu::{DevBuf, StreamId};

impl Interp<'_> {
    pub(super) fn launch(
        &mut self,
        kernel: &str,
        config: &[Expr],
        exprs: &[Expr],
        pos: Pos,
    ) -> Res<Value> {
        let mut cfg = Vec::new();
        for e in config {
            cfg.push(self.eval(e)?);
        }
        // A statement over several lines books the launch where it is written.
        self.line = pos.line;
        let c = Args {
            name: kernel,
            vals: &cfg,
            exprs: config,
            pos,
        };
        if !(2..=4).contains(&cfg.len()) {
            return Err(stop(
                pos,
                "a launch takes `<<<grid, block>>>`, optionally with shared memory bytes and a stream",
            ));
        }
        check_shape(&c)?;
        if cfg.len() >= 3 {
            c.count(2)?; // shared memory bytes: a number, unused by academy.cuh's kernels
        }
        let stream = self.stream_arg(&c, 3)?;
        let mut vals = Vec::new();
        for e in exprs {
            vals.push(self.eval(e)?);
        }
        let a = Args {
            name: kernel,
            vals: &vals,
            exprs,
            pos,
        };
        if kernel == "spin" {
            self.spin(&a, stream)
        } else {
            self.transform(&a, stream)
        }
    }

    /// `spin<<<…>>>(cycles)`: busy for about `cycles` clock ticks on `stream`; with `(cycles,
    /// x, n)` also `x[i] += SPIN_ADD` over `n` floats of device memory, so the log says it reads
    /// and writes them (an order the spin needs is then the checker's to hold).
    fn spin(&mut self, a: &Args, stream: StreamId) -> Res<Value> {
        a.arity(1, 3)?;
        let cycles = a.count(0)?;
        let chunk = match a.vals.len() {
            1 => None,
            3 => Some(self.spin_chunk(a)?),
            _ => {
                return Err(stop(
                    a.pos,
                    "`spin` takes `(cycles)` or `(cycles, x, n)`: x device memory, n its floats",
                ));
            }
        };
        let call = "spin<<<…>>>".to_string();
        let span = chunk.map(|(range, ..)| vec![range]).unwrap_or_default();
        self.device_op(
            a,
            DeviceOp::queued(stream, DeviceOpKind::Kernel, call, span.clone(), span),
        )?;
        // The work check counts the cycles (`verdict::work`): the log's entry has none.
        let idx = self.out.log.len().saturating_sub(1);
        self.out.spins.push((idx, cycles));
        let r = match chunk {
            None => self.gpu.launch_spin_cycles(stream, cycles),
            Some((_, buf, off, bytes)) => self.gpu.launch_spin_add(stream, cycles, buf, off, bytes),
        };
        self.m(a.pos, "spin", r)?;
        Ok(Value::Void)
    }

    /// The floats `spin(cycles, x, n)` adds to: their range, device buffer, offset and bytes.
    fn spin_chunk(&mut self, a: &Args) -> Res<(Range, DevBuf, u64, u64)> {
        let ((r, off), n) = (a.ptr(1)?, a.count(2)?);
        let bytes = n.saturating_mul(4);
        let range = self.span(a, r, off, bytes)?;
        let Some(dev) = self.regions[r].dev else {
            return Err(stop(
                a.at(1),
                "`spin` runs on the GPU: the `x` it adds to must be device memory (from `cudaMalloc`)",
            ));
        };
        Ok((range, dev, off, bytes))
    }

    /// `transform<<<…>>>(in, out, n)`: `out[i] = in[i] * 2 + 1` on `stream`, device memory only.
    fn transform(&mut self, a: &Args, stream: StreamId) -> Res<Value> {
        let pos = a.pos;
        let call = "transform<<<…>>>".to_string();
        a.arity(3, 3)?;
        let ((ir, ioff), (or, ooff), n) = (a.ptr(0)?, a.ptr(1)?, a.count(2)?);
        let bytes = n.saturating_mul(4);
        let (src, dst) = (
            self.span(a, ir, ioff, bytes)?,
            self.span(a, or, ooff, bytes)?,
        );
        let (Some(ds), Some(dd)) = (self.regions[ir].dev, self.regions[or].dev) else {
            return Err(stop(
                pos,
                "`transform` runs on the GPU: its `in` and `out` must be device memory (from `cudaMalloc`)",
            ));
        };
        self.device_op(
            a,
            DeviceOp::queued(stream, DeviceOpKind::Kernel, call, vec![src], vec![dst]),
        )?;
        let r = self
            .gpu
            .launch_transform_into(stream, ds, ioff, dd, ooff, bytes);
        self.m(pos, "transform", r)?;
        Ok(Value::Void)
    }
}

/// The launch's grid and block are within CUDA's limits.
fn check_shape(c: &Args) -> Res<()> {
    let (grid, block) = (dims(c, 0)?, dims(c, 1)?);
    let threads: i64 = block.iter().product();
    let grid_ok = (1..=i64::from(i32::MAX)).contains(&grid[0])
        && grid[1..].iter().all(|d| (1..=65535).contains(d));
    let block_ok = (1..=1024).contains(&block[0])
        && (1..=1024).contains(&block[1])
        && (1..=64).contains(&block[2])
        && threads <= 1024;
    if !grid_ok || !block_ok {
        return Err(stop(
            c.pos,
            format!(
                "`<<<{}, {}>>>`: the grid needs at least 1 block in each dimension and a block 1 to 1024 threads in all",
                shown(grid),
                shown(block)
            ),
        ));
    }
    Ok(())
}

/// A launch dimension (an integer or a `dim3`) as x, y, z.
fn dims(c: &Args, i: usize) -> Res<[i64; 3]> {
    match c.val(i)? {
        Value::Dim3(d) => Ok(*d),
        _ => Ok([c.int(i)?, 1, 1]),
    }
}

/// `256` or `dim3(256, 2, 1)`, for messages.
fn shown(d: [i64; 3]) -> String {
    match d {
        [x, 1, 1] => x.to_string(),
        [x, y, z] => format!("dim3({x}, {y}, {z})"),
    }
}
