//! A call of the table ([`crate::exercise::calls`]): its row found, its arity checked from the
//! row's signature, its host time booked, and its handler run: the dispatch is made here from
//! the table's handler column (`for_each_call`), one arm a row, so a call is its row and the
//! method it names. NVTX annotations are in `nvtx`.

mod nvtx;

use super::args::Args;
use super::eval::stop;
use super::value::Value;
use super::{Interp, Res, academy, errors};
use crate::exercise::ast::{Expr, Pos};
use crate::exercise::calls::{self, CallId, for_each_call};
use crate::exercise::log::MemKind;
use crate::report::HostMemKind;

/// What runs a call: given the interpreter and the call's checked arguments, its value.
type Handler = fn(&mut Interp<'_>, &Args<'_>) -> Res<Value>;

/// The dispatch from the table's rows: `handler(id)` is the row's handler column, typed as a
/// [`Handler`] here (where its names resolve), with an exhaustive match and no catch-all.
macro_rules! define_dispatch {
    ($( $id:ident = $name:literal ( $($param:expr),* ) $family:ident, $ordering:expr, $doc:literal => $handler:expr; )*) => {
        /// The handler of the call `id`.
        fn handler(id: CallId) -> Handler {
            match id {
                $( CallId::$id => $handler, )*
            }
        }
    };
}

for_each_call!(define_dispatch);

impl Interp<'_> {
    pub(super) fn call(&mut self, name: &str, exprs: &[Expr], pos: Pos) -> Res<Value> {
        let program = self.program;
        if let Some(f) = program.function(name) {
            return self.call_function(f, exprs, pos);
        }
        let mut vals = Vec::with_capacity(exprs.len());
        for e in exprs {
            vals.push(self.eval(e)?);
        }
        // A statement over several lines books the call where the call is written.
        self.line = pos.line;
        let a = Args {
            name,
            vals: &vals,
            exprs,
            pos,
        };
        let start_us = self.gpu.host_now_us();
        self.call_log_start = self.out.log.len();
        let result = self.checked(&a);
        self.book_host_time(name, start_us);
        // Host functions whose stream got to them meanwhile run now (`ordered.rs`).
        let value = result?;
        if self.collect.is_none() && !self.host_funcs.is_empty() {
            self.run_reached_host_funcs(false)?;
        }
        if !self.freed_async.is_empty() {
            self.release_freed_async()?;
        }
        Ok(value)
    }

    /// The call's row, its arity, then its handler.
    fn checked(&mut self, a: &Args) -> Res<Value> {
        // The parser refuses names outside the table; this answers one that got past it.
        let Some(row) = calls::find(a.name) else {
            return Err(stop(
                a.pos,
                format!(
                    "`{}` is not supported here; {}",
                    a.name,
                    crate::exercise::parse::OUTSIDE_THE_SUBSET
                ),
            ));
        };
        if let Some(why) = row.arity_error(a.vals.len()) {
            return Err(stop(a.pos, why));
        }
        handler(row.id)(self, a)
    }

    /// A call the host spent time in (a wait, a blocking copy, `host_work`) goes on the
    /// timeline's host lane, with its line; calls that return at once are left off (on a real
    /// GPU every call takes a few microseconds). A host function's body runs in stream order,
    /// not on the host's time line.
    fn book_host_time(&mut self, name: &str, start_us: f64) {
        let end_us = self.gpu.host_now_us();
        if self.collect.is_some() || end_us - start_us < super::HOST_SPAN_MIN_US {
            return;
        }
        self.out.host_calls.push(crate::report::Op {
            stream: 0,
            kind: crate::report::OpKind::Host,
            start_us,
            end_us,
            bytes: 0,
            host_mem: None,
            engine: None,
            start_inferred: false,
            line: Some(self.line),
            label: name.to_string(),
        });
    }
}
