//! The summary of small hand-made traces: per-stream counts, and overlap measured against the
//! union of kernel time.

use super::super::file::{ApiCall, Exit, Header, Kernel, Memcpy, Record, Trace};
use super::*;

fn copy(kind: u8, src_kind: u8, stream_id: u32, start: u64, end: u64) -> Record {
    Record::Memcpy(Memcpy {
        copy_kind: kind,
        src_kind,
        dst_kind: 2,
        bytes: 1000,
        start,
        end,
        device: 0,
        stream_id,
        corr: 1,
    })
}

fn kernel(stream_id: u32, start: u64, end: u64) -> Record {
    Record::Kernel(Kernel {
        name: "k".into(),
        grid: [1, 1, 1],
        block: [1, 1, 1],
        start,
        end,
        device: 0,
        stream_id,
        corr: 2,
    })
}

fn trace(records: Vec<Record>) -> Trace {
    Trace {
        header: Some(Header {
            format_version: 1,
            tool_version: String::new(),
            pid: 1,
            status: "ok".into(),
            detail: String::new(),
            driver_version: None,
            cupti_version: None,
            cupti_path: None,
        }),
        records,
        complete: true,
        exit: Some(Exit {
            code: Some(0),
            signal: None,
        }),
        bad_lines: 0,
        dropped: 0,
        notes: Vec::new(),
    }
}

#[test]
fn streams_count_their_copies_by_direction_and_their_kernels() {
    let s = summarize(&trace(vec![
        Record::Api(ApiCall {
            ret: 0,
            ..ApiCall::default()
        }),
        Record::Api(ApiCall {
            ret: 1,
            ..ApiCall::default()
        }),
        copy(1, 1, 13, 0, 10),
        copy(1, 4, 13, 10, 20),
        copy(2, 4, 14, 30, 40),
        kernel(14, 20, 30),
    ]));
    assert_eq!((s.api_calls, s.failed_calls), (2, 1));
    assert_eq!(s.streams.len(), 2);
    let a = &s.streams[0];
    assert_eq!(
        (
            a.stream_id,
            a.uploads.count,
            a.uploads.bytes,
            a.uploads.pageable,
            a.uploads.busy_ns
        ),
        (13, 2, 2000, 1, 20)
    );
    let b = &s.streams[1];
    assert_eq!(
        (
            b.stream_id,
            b.downloads.count,
            b.kernels,
            b.kernel_ns,
            b.first_ns,
            b.last_ns
        ),
        (14, 1, 1, 10, 20, 40)
    );
    assert_eq!(s.span_ns, 40);
}

#[test]
fn overlap_is_the_copy_time_some_kernel_also_ran() {
    // Kernels at [10,30) and [25,50) on two streams: their union is [10,50).
    let s = summarize(&trace(vec![
        kernel(1, 10, 30),
        kernel(2, 25, 50),
        copy(1, 4, 3, 0, 20),  // 10 of 20 ns under a kernel
        copy(1, 4, 3, 40, 60), // 10 of 20
        copy(1, 4, 3, 60, 70), // none
        copy(2, 4, 4, 0, 5),   // a download, before any kernel
    ]));
    assert_eq!(
        s.uploads_vs_kernels,
        Overlap {
            copies: 3,
            overlapped: 2,
            copy_ns: 50,
            overlapped_ns: 20
        }
    );
    assert_eq!(
        s.downloads_vs_kernels,
        Overlap {
            copies: 1,
            overlapped: 0,
            copy_ns: 5,
            overlapped_ns: 0
        }
    );
}

#[test]
fn the_text_says_incomplete_and_cleans_outside_text() {
    let mut t = trace(vec![copy(1, 1, 7, 0, 1_000_000)]);
    t.notes.push("bad\u{1b}]52;c;x\u{7}".into());
    t.complete = false;
    t.exit = Some(Exit {
        code: None,
        signal: Some(9),
    });
    let text = render(&summarize(&t));
    assert!(text.contains("killed by signal 9"), "{text}");
    assert!(text.contains("INCOMPLETE"), "{text}");
    assert!(
        text.contains("stream 7 (device 0): uploads 1 (1000 B, 1 pageable, 1.000 ms)"),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'), "{text}");
}

#[test]
fn the_json_form_carries_its_schema_version() {
    let s = summarize(&trace(vec![kernel(1, 0, 5)]));
    let v = serde_json::to_value(&s).unwrap();
    assert_eq!(v["schema_version"], SCHEMA_VERSION);
    assert_eq!(v["streams"][0]["kernels"], 1);
    assert_eq!(v["complete"], true);
}

#[test]
fn each_stream_names_its_longest_kernels_first_at_most_three() {
    let named = |name: &str, start: u64, end: u64| {
        Record::Kernel(Kernel {
            name: name.into(),
            grid: [1, 1, 1],
            block: [1, 1, 1],
            start,
            end,
            device: 0,
            stream_id: 5,
            corr: 3,
        })
    };
    let s = summarize(&trace(vec![
        named("a", 0, 10),
        named("b", 10, 40),
        named("a", 40, 70),
        named("c", 70, 75),
        named("d", 75, 76),
    ]));
    let top: Vec<(&str, u64, u64)> = s.streams[0]
        .top_kernels
        .iter()
        .map(|k| (k.name.as_str(), k.launches, k.ns))
        .collect();
    assert_eq!(top, [("a", 2, 40), ("b", 1, 30), ("c", 1, 5)]);
}

#[test]
fn summarising_as_the_file_is_read_gives_the_summary_of_the_whole_trace() {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/trace-programs/sample.trace.jsonl"
    ));
    let whole = super::super::file::read_path(path).unwrap();
    let streamed = summarize_path(path).unwrap();
    assert_eq!(streamed, summarize(&whole));
    assert_eq!(streamed.streams.len(), 2);
    assert_eq!(streamed.notes.len(), 1);
    let scanned = super::super::file::scan_path(path, |_| {}).unwrap();
    assert!(scanned.records.is_empty(), "scan keeps no record");
}

#[test]
fn an_op_the_programs_end_cut_off_never_ran_and_takes_no_time() {
    // Start and end both 0: CUPTI never timed it (an `exit` from another thread, on the H200).
    let s = summarize(&trace(vec![
        copy(1, 4, 13, 100, 110),
        copy(1, 4, 13, 0, 0),
        kernel(13, 0, 0),
    ]));
    let st = &s.streams[0];
    assert_eq!((st.uploads.count, st.kernels, st.never_ran), (1, 0, 2));
    assert_eq!((st.first_ns, st.last_ns, s.span_ns), (100, 110, 10));
}
