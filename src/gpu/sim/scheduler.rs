//! Streams for the simulator: the one ordering model ([`crate::ordering`]) decides what each
//! op waits for; this file only maps the model's ops (stream, place) to the device's op ids.

use std::collections::HashMap;

use super::engines::OpId;
use crate::gpu::{GpuError, StreamId, StreamKind};
use crate::ordering::{Issued, Model, OpRef, Refused};

/// Every stream of the simulated context, and which device op each model op became.
#[derive(Debug)]
pub(super) struct Streams {
    next: u32,
    pub(super) model: Model,
    ids: HashMap<OpRef, OpId>,
}

impl Streams {
    pub(super) fn new() -> Streams {
        Streams {
            next: 1,
            model: Model::new(),
            ids: HashMap::new(),
        }
    }

    pub(super) fn create(&mut self, kind: StreamKind) -> StreamId {
        let id = self.next;
        self.next += 1;
        self.model.create_stream(id, kind == StreamKind::Blocking);
        StreamId(id)
    }

    pub(super) fn destroy(&mut self, stream: StreamId) -> Result<(), GpuError> {
        self.model.destroy_stream(stream.0).map_err(refused)
    }

    /// Check that `stream` can take work.
    pub(super) fn check(&self, stream: StreamId) -> Result<(), GpuError> {
        self.model.check_stream(stream.0).map_err(refused)
    }

    /// The device ops behind model ops (ops never issued to the device are skipped).
    pub(super) fn device_ops(&self, ops: &[OpRef]) -> Vec<OpId> {
        ops.iter()
            .filter_map(|o| self.ids.get(o).copied())
            .collect()
    }

    /// The device op behind one model op, if it was issued to the device.
    pub(super) fn device_op(&self, op: OpRef) -> Option<OpId> {
        self.ids.get(&op).copied()
    }

    /// Record that the model's op became device op `id`.
    pub(super) fn issued(&mut self, issued: &Issued, id: OpId) {
        self.ids.insert(issued.op, id);
    }
}

pub(super) fn refused(r: Refused) -> GpuError {
    GpuError::Invalid(r.to_string())
}
