//! The reader against lines the injection library's own writer makes (`cuda-academy-inject`
//! as a dev-dependency): activity records built in memory with the library's record heads, turned
//! into lines by its `record_line`, read back here.
// The records are raw memory handed to the library's reader, as CUPTI hands them.
#![allow(unsafe_code)]

use std::ffi::CString;

use cuda_academy_inject::activity::record_line;
use cuda_academy_inject::json::Line;
use cuda_academy_inject::layout::{KernelHead, MemcpyHead};

use super::*;

fn header(status: &str) -> String {
    Line::new("header")
        .u64("format_version", cuda_academy_inject::FORMAT_VERSION)
        .str("tool", "cuda-academy-inject")
        .str("tool_version", "0.1.0")
        .u64("pid", 42)
        .str("status", status)
        .str("detail", "")
        .i64("driver_version", 13000)
        .finish()
}

fn memcpy_line(copy_kind: u8, src_kind: u8, start: u64, end: u64) -> String {
    let head = MemcpyHead {
        kind: cuda_academy_inject::ids::KIND_MEMCPY,
        copyKind: copy_kind,
        srcKind: src_kind,
        dstKind: 2,
        flags: 1,
        bytes: 1 << 20,
        start,
        end,
        deviceId: 0,
        contextId: 1,
        streamId: 13,
        correlationId: 7,
    };
    // SAFETY: a whole MemcpyHead, the only part of the record record_line reads for a memcpy.
    unsafe { record_line((&raw const head).cast()) }.unwrap()
}

#[test]
fn the_library_format_version_is_the_one_read_here() {
    assert_eq!(cuda_academy_inject::FORMAT_VERSION, FORMAT_VERSION);
    assert_eq!(
        cuda_academy_inject::TRACE_FILE_ENV,
        super::super::TRACE_FILE_ENV
    );
}

#[test]
fn records_written_by_the_library_read_back_field_for_field() {
    let name = CString::new("_Z5scalePfi\u{1b}[2J").unwrap();
    let kernel = KernelHead {
        kind: cuda_academy_inject::ids::KIND_CONCURRENT_KERNEL,
        cacheConfig: 0,
        sharedMemoryConfig: 0,
        registersPerThread: 16,
        partitionedGlobalCacheRequested: 0,
        partitionedGlobalCacheExecuted: 0,
        start: 150,
        end: 400,
        completed: 400,
        deviceId: 0,
        contextId: 1,
        streamId: 14,
        gridX: 256,
        gridY: 1,
        gridZ: 1,
        blockX: 128,
        blockY: 1,
        blockZ: 1,
        staticSharedMemory: 0,
        dynamicSharedMemory: 0,
        localMemoryPerThread: 0,
        localMemoryTotal: 0,
        correlationId: 8,
        gridId: 1,
        name: name.as_ptr(),
    };
    // SAFETY: a whole KernelHead with a live name.
    let kernel_line = unsafe { record_line((&raw const kernel).cast()) }.unwrap();
    let api = Line::new("api")
        .str("name", "cuMemcpyHtoDAsync_v2")
        .u64("cbid", 277)
        .u64("corr", 7)
        .u64("tid", 99)
        .u64("start", 90)
        .u64("end", 95)
        .i64("ret", 0)
        .str("copy", "htod")
        .u64("dst", 0x7f00_0000_0000)
        .u64("src", 0x5555_0000)
        .u64("bytes", 1 << 20)
        .u64("stream", 0xdead_beef)
        .u64("stream_id", 13)
        .finish();
    let text = [
        header("ok"),
        api,
        memcpy_line(1, 4, 100, 300),
        kernel_line,
        "{\"t\":\"end\",\"reason\":\"exit\",\"lost_lines\":0}\n".into(),
        exit_line(super::super::launch::Ended::Code(3)),
    ]
    .concat();
    let trace = read(text.as_bytes()).unwrap();
    assert_eq!(
        trace
            .header
            .as_ref()
            .map(|h| (h.status.as_str(), h.driver_version)),
        Some(("ok", Some(13000)))
    );
    assert!(trace.complete);
    assert_eq!(
        trace.exit,
        Some(Exit {
            code: Some(3),
            signal: None
        })
    );
    assert_eq!(trace.bad_lines, 0);
    let [Record::Api(call), Record::Memcpy(copy), Record::Kernel(k)] = trace.records.as_slice()
    else {
        panic!("records: {:?}", trace.records);
    };
    assert_eq!(
        (
            call.name.as_str(),
            call.corr,
            call.tid,
            call.bytes,
            call.stream_id
        ),
        ("cuMemcpyHtoDAsync_v2", 7, 99, Some(1 << 20), Some(13))
    );
    assert_eq!(call.copy.as_deref(), Some("htod"));
    assert_eq!(
        *copy,
        Memcpy {
            copy_kind: 1,
            src_kind: 4,
            dst_kind: 2,
            bytes: 1 << 20,
            start: 100,
            end: 300,
            device: 0,
            stream_id: 13,
            corr: 7
        }
    );
    assert_eq!(
        (
            k.name.as_str(),
            k.grid,
            k.block,
            k.start,
            k.end,
            k.stream_id,
            k.corr
        ),
        (
            "_Z5scalePfi\u{1b}[2J",
            [256, 1, 1],
            [128, 1, 1],
            150,
            400,
            14,
            8
        )
    );
}

#[test]
fn a_cut_last_line_is_counted_and_an_unknown_kind_skipped_and_no_end_is_incomplete() {
    let text = format!(
        "{}{{\"t\":\"something_new\",\"x\":1}}\n{}{{\"t\":\"memcpy\",\"copy_k",
        header("ok"),
        memcpy_line(2, 2, 5, 9)
    );
    let trace = read(text.as_bytes()).unwrap();
    assert_eq!(trace.records.len(), 1);
    assert_eq!(trace.bad_lines, 1);
    assert!(!trace.complete);
    assert_eq!(trace.exit, None);
}

#[test]
fn a_newer_format_is_refused_and_a_file_without_header_is_not_a_trace() {
    let newer = "{\"t\":\"header\",\"format_version\":99,\"status\":\"ok\"}\n";
    let err = read(newer.as_bytes()).unwrap_err().to_string();
    assert!(err.contains("newer"), "{err}");
    let headless = memcpy_line(1, 1, 0, 1);
    assert!(read(headless.as_bytes()).is_err());
    let empty = read(&b""[..]).unwrap();
    assert_eq!(empty, Trace::default());
}

#[test]
fn an_overlong_line_is_skipped_without_losing_the_next() {
    let long = format!(
        "{{\"t\":\"note\",\"text\":\"{}\"}}\n",
        "x".repeat((MAX_LINE as usize) * 2)
    );
    let text = format!("{}{long}{}", header("ok"), memcpy_line(1, 4, 0, 1));
    let trace = read(text.as_bytes()).unwrap();
    assert_eq!(trace.bad_lines, 1);
    assert!(
        matches!(trace.records.as_slice(), [Record::Memcpy(_)]),
        "{:?}",
        trace.records
    );
}
