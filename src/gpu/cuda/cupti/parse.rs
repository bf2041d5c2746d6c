//! Reading CUPTI activity records by field offset (see the parent module for why offsets).
#![allow(unsafe_code)]

use cudarc::cupti::sys::CUpti_ActivityKind;

use super::{RecKind, Record};

/// Field offsets (bytes) shared by every CUpti_ActivityMemcpy / CUpti_ActivityKernel version
/// we may meet (Memcpy5+, Kernel4+).
pub mod offsets {
    pub const MEMCPY_COPY_KIND: usize = 4;
    pub const MEMCPY_BYTES: usize = 8;
    pub const MEMCPY_START: usize = 16;
    pub const MEMCPY_END: usize = 24;
    pub const MEMCPY_CORRELATION: usize = 44;
    pub const MEMCPY_CHANNEL_ID: usize = 76;
    pub const MEMCPY_CHANNEL_TYPE: usize = 80;
    pub const KERNEL_START: usize = 16;
    pub const KERNEL_END: usize = 24;
    pub const KERNEL_CORRELATION: usize = 92;
    pub const EXTERNAL_ID: usize = 8;
    pub const EXTERNAL_CORRELATION: usize = 16;
}

/// One parsed activity record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Parsed {
    /// A copy or kernel.
    Op(Record),
    /// `CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION`: the driver call `correlation` was made
    /// while `external` was pushed (the recorder pushes each op's tag around its call).
    Link { correlation: u32, external: u64 },
}

unsafe fn read<T: Copy>(p: *const u8, off: usize) -> T {
    // SAFETY: callers read fields that lie inside the record (see `offsets`).
    unsafe { p.add(off).cast::<T>().read_unaligned() }
}

pub(super) unsafe fn parse(p: *const u8) -> Option<Parsed> {
    use offsets::*;
    // SAFETY (whole fn): `p` is a record from `cuptiActivityGetNextRecord`.
    let kind: u32 = unsafe { read(p, 0) };
    if kind == CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION as u32 {
        return Some(Parsed::Link {
            correlation: unsafe { read(p, EXTERNAL_CORRELATION) },
            external: unsafe { read(p, EXTERNAL_ID) },
        });
    }
    unsafe { parse_op(p, kind) }.map(Parsed::Op)
}

unsafe fn parse_op(p: *const u8, kind: u32) -> Option<Record> {
    use offsets::*;
    // SAFETY (whole fn): as in `parse`.
    if kind == CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_MEMCPY as u32 {
        let copy_kind: u8 = unsafe { read(p, MEMCPY_COPY_KIND) };
        let channel_type: u32 = unsafe { read(p, MEMCPY_CHANNEL_TYPE) };
        Some(Record {
            kind: match copy_kind {
                1 => RecKind::H2d,
                2 => RecKind::D2h,
                _ => RecKind::OtherCopy,
            },
            bytes: unsafe { read(p, MEMCPY_BYTES) },
            start_ns: unsafe { read(p, MEMCPY_START) },
            end_ns: unsafe { read(p, MEMCPY_END) },
            correlation: unsafe { read(p, MEMCPY_CORRELATION) },
            // 2 = CUPTI_CHANNEL_TYPE_ASYNC_MEMCPY: the id is a copy channel.
            channel: (channel_type == 2).then(|| unsafe { read(p, MEMCPY_CHANNEL_ID) }),
        })
    } else if kind == CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL as u32
        || kind == CUpti_ActivityKind::CUPTI_ACTIVITY_KIND_KERNEL as u32
    {
        Some(Record {
            kind: RecKind::Kernel,
            bytes: 0,
            start_ns: unsafe { read(p, KERNEL_START) },
            end_ns: unsafe { read(p, KERNEL_END) },
            correlation: unsafe { read(p, KERNEL_CORRELATION) },
            channel: None,
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::offsets::*;
    use cudarc::cupti::sys::{
        CUpti_ActivityExternalCorrelation, CUpti_ActivityKernel10, CUpti_ActivityMemcpy6,
    };
    use std::mem::offset_of;

    #[test]
    fn offsets_match_the_bindings() {
        assert_eq!(
            offset_of!(CUpti_ActivityMemcpy6, copyKind),
            MEMCPY_COPY_KIND
        );
        assert_eq!(offset_of!(CUpti_ActivityMemcpy6, bytes), MEMCPY_BYTES);
        assert_eq!(offset_of!(CUpti_ActivityMemcpy6, start), MEMCPY_START);
        assert_eq!(offset_of!(CUpti_ActivityMemcpy6, end), MEMCPY_END);
        assert_eq!(
            offset_of!(CUpti_ActivityMemcpy6, correlationId),
            MEMCPY_CORRELATION
        );
        assert_eq!(
            offset_of!(CUpti_ActivityMemcpy6, channelID),
            MEMCPY_CHANNEL_ID
        );
        assert_eq!(
            offset_of!(CUpti_ActivityMemcpy6, channelType),
            MEMCPY_CHANNEL_TYPE
        );
        assert_eq!(
            offset_of!(CUpti_ActivityExternalCorrelation, externalId),
            EXTERNAL_ID
        );
        assert_eq!(
            offset_of!(CUpti_ActivityExternalCorrelation, correlationId),
            EXTERNAL_CORRELATION
        );
        assert_eq!(offset_of!(CUpti_ActivityKernel10, start), KERNEL_START);
        assert_eq!(offset_of!(CUpti_ActivityKernel10, end), KERNEL_END);
        assert_eq!(
            offset_of!(CUpti_ActivityKernel10, correlationId),
            KERNEL_CORRELATION
        );
    }
}
