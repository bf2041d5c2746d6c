//! Kernel launches: `transform<<<…>>>(in, out, n)` and `spin<<<…>>>(cycles)` from academy.cuh.

use super::calls::Args;
use super::eval::stop;
use super::value::Value;
use super::{Interp, Res};
use crate::exercise::ast::{Expr, Pos};
use crate::exercise::log::{DeviceOp, DeviceOpKind, HostWait};

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
        let (grid, block) = (c.int(0)?, c.int(1)?);
        if grid < 1 || !(1..=1024).contains(&block) {
            return Err(stop(
                pos,
                format!(
                    "`<<<{grid}, {block}>>>`: the grid needs at least 1 block and a block 1 to 1024 threads"
                ),
            ));
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
        let call = format!("{kernel}<<<…>>>");
        if kernel == "spin" {
            a.arity(1, 1)?;
            let cycles = a.count(0)?;
            self.device_op(
                &a,
                DeviceOp {
                    stream,
                    kind: DeviceOpKind::Kernel,
                    call,
                    reads: vec![],
                    writes: vec![],
                    host_wait: HostWait::None,
                    pageable_async: false,
                },
            )?;
            let r = self.gpu.launch_spin_cycles(stream, cycles);
            self.m(pos, "spin", r)?;
            return Ok(Value::Void);
        }
        a.arity(3, 3)?;
        let ((ir, ioff), (or, ooff), n) = (a.ptr(0)?, a.ptr(1)?, a.count(2)?);
        let bytes = n.saturating_mul(4);
        let (src, dst) = (
            self.span(&a, ir, ioff, bytes)?,
            self.span(&a, or, ooff, bytes)?,
        );
        let (Some(ds), Some(dd)) = (self.regions[ir].dev, self.regions[or].dev) else {
            return Err(stop(
                pos,
                "`transform` runs on the GPU: its `in` and `out` must be device memory (from `cudaMalloc`)",
            ));
        };
        self.device_op(
            &a,
            DeviceOp {
                stream,
                kind: DeviceOpKind::Kernel,
                call,
                reads: vec![src],
                writes: vec![dst],
                host_wait: HostWait::None,
                pageable_async: false,
            },
        )?;
        let r = self
            .gpu
            .launch_transform_into(stream, ds, ioff, dd, ooff, bytes);
        self.m(pos, "transform", r)?;
        Ok(Value::Void)
    }
}
