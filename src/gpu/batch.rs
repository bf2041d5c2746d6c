//! The shape of a batched copy (`cuMemcpyBatchAsync`, CUDA 12.8+; the CUDA 13.0 prototype
//! without `failIdx`): many host-to-device copies handed to the driver in one call, with one
//! source access order for all of them.
//!
//! What the Driver API reference says of it, which both backends follow: the batch as a whole
//! runs in stream order, but its copies have no order among themselves; the stream must not be
//! the legacy NULL stream; `srcAccessOrder` says when the source is read (below).

use super::{DevBuf, HostBuf};

/// One copy of a batch: `bytes` from `src[src_off ..]` to `dst[dst_off ..]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchCopy {
    pub dst: DevBuf,
    pub dst_off: u64,
    pub src: HostBuf,
    pub src_off: u64,
    pub bytes: u64,
}

/// `CUmemcpySrcAccessOrder`: when the driver may read a copy's source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SrcAccessOrder {
    /// `CU_MEMCPY_SRC_ACCESS_ORDER_STREAM`: in stream order, like `cuMemcpyAsync`; the source
    /// must stay unchanged until the copy has run.
    Stream,
    /// `CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL`: every access is complete before the call
    /// returns, so the source may be reused at once (the reference: "suited for ephemeral
    /// sources", "removes the need for the user to synchronize the stream").
    DuringApiCall,
    /// `CU_MEMCPY_SRC_ACCESS_ORDER_ANY`: out of stream order, and accesses may happen even
    /// after the call returns: keep the source unchanged until the copy completes.
    Any,
}

impl SrcAccessOrder {
    /// Every order, in the enum's numeric order.
    pub const ALL: [SrcAccessOrder; 3] = [Self::Stream, Self::DuringApiCall, Self::Any];

    /// The Runtime API's name (`cudaMemcpySrcAccessOrderStream`, ...).
    pub fn runtime_name(self) -> &'static str {
        match self {
            Self::Stream => "cudaMemcpySrcAccessOrderStream",
            Self::DuringApiCall => "cudaMemcpySrcAccessOrderDuringApiCall",
            Self::Any => "cudaMemcpySrcAccessOrderAny",
        }
    }
}

/// The bytes of all `copies` together.
pub fn total_bytes(copies: &[BatchCopy]) -> u64 {
    copies.iter().map(|c| c.bytes).sum()
}

/// The driver's answer for the legacy default stream (the Driver API reference: `hStream`
/// "Must not be legacy NULL stream"), the same text on both backends.
pub const LEGACY_STREAM_REFUSED: &str = "CUDA_ERROR_INVALID_VALUE: a batched copy must not use \
     the legacy default stream; create a stream (cudaStreamCreateWithFlags) and pass it";
