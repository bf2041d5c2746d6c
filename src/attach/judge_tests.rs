//! The judge on hand-written traces in the library's format: each finding kind and each
//! no-overlap cause, with the case that must not report it; and the recorded H200 traces, each
//! with what its program (tests/fixtures/trace-programs/*.cu) truly has.

use super::overlap::{self, SMALL_COPY};
use super::*;
use crate::attach::file;

const HEADER: &str = r#"{"t":"header","format_version":1,"tool_version":"0.1.0","pid":1,"status":"ok","detail":"","driver_version":13000,"cupti_version":130001}"#;
const DEV: u64 = 0x7000_0000;
const HOST: u64 = 0x5000_0000;
const PINNED: u64 = 0x6000_0000;

fn trace(lines: &[String]) -> Trace {
    let mut text = String::from(HEADER);
    for l in lines {
        text.push('\n');
        text.push_str(l);
    }
    text.push_str("\n{\"t\":\"end\",\"reason\":\"exit\",\"lost_lines\":0}\n");
    match file::read(text.as_bytes()) {
        Ok(t) => t,
        Err(e) => panic!("hand-written trace does not read: {e:#}"),
    }
}

fn api(name: &str, corr: u32, fields: &str) -> String {
    format!(r#"{{"t":"api","name":"{name}","corr":{corr},"start":1,"end":2,"ret":0{fields}}}"#)
}
fn alloc(ptr: u64, bytes: u64) -> String {
    api(
        "cuMemAlloc_v2",
        1,
        &format!(r#","mem":"device","bytes":{bytes},"ptr":{ptr}"#),
    )
}
fn pinned(ptr: u64, bytes: u64) -> String {
    api(
        "cuMemAllocHost_v2",
        1,
        &format!(r#","mem":"pinned","bytes":{bytes},"ptr":{ptr}"#),
    )
}
fn stream(handle: u64, id: u32) -> String {
    api(
        "cuStreamCreate",
        1,
        &format!(r#","flags":1,"stream":{handle},"stream_id":{id}"#),
    )
}
fn copy(name: &str, way: &str, dst: u64, src: u64, bytes: u64, stream: u64, corr: u32) -> String {
    api(
        name,
        corr,
        &format!(
            r#","copy":"{way}","dst":{dst},"src":{src},"bytes":{bytes},"stream":{stream},"stream_id":{}"#,
            stream_id(stream)
        ),
    )
}
fn memset(dst: u64, bytes: u64, stream: u64) -> String {
    api(
        "cuMemsetD8Async",
        1,
        &format!(
            r#","dst":{dst},"value":0,"elem":1,"count":{bytes},"stream":{stream},"stream_id":{}"#,
            stream_id(stream)
        ),
    )
}
/// Stream handles 100, 200 are CUPTI ids 13, 14; the null stream is 7.
fn stream_id(handle: u64) -> u32 {
    match handle {
        100 => 13,
        200 => 14,
        _ => 7,
    }
}
fn gpu_copy(
    kind: u8,
    host_kind: u8,
    bytes: u64,
    start: u64,
    end: u64,
    stream: u32,
    corr: u32,
) -> String {
    let (src, dst) = if kind == 1 {
        (host_kind, 3)
    } else {
        (3, host_kind)
    };
    format!(
        r#"{{"t":"memcpy","copy_kind":{kind},"src_kind":{src},"dst_kind":{dst},"bytes":{bytes},"start":{start},"end":{end},"device":0,"stream_id":{stream},"corr":{corr}}}"#
    )
}
fn kernel(start: u64, end: u64, stream: u32) -> String {
    format!(
        r#"{{"t":"kernel","name":"k","grid":[1,1,1],"block":[1,1,1],"start":{start},"end":{end},"device":0,"stream_id":{stream},"corr":99}}"#
    )
}
fn launch(stream: u64) -> String {
    api(
        "cuLaunchKernel",
        99,
        &format!(
            r#","kernel":"k","stream":{stream},"stream_id":{}"#,
            stream_id(stream)
        ),
    )
}

fn kinds(t: &Trace) -> Vec<&'static str> {
    judge(t).findings.iter().map(|f| f.kind).collect()
}

#[test]
fn two_streams_writing_the_same_bytes_race() {
    let t = trace(&[
        alloc(DEV, 4096),
        stream(100, 13),
        stream(200, 14),
        memset(DEV, 4096, 100),
        memset(DEV + 1024, 16, 200),
    ]);
    assert_eq!(kinds(&t), ["device-race"]);
}

#[test]
fn disjoint_bytes_or_an_event_between_do_not_race() {
    let disjoint = trace(&[
        alloc(DEV, 4096),
        stream(100, 13),
        stream(200, 14),
        memset(DEV, 1024, 100),
        memset(DEV + 1024, 16, 200),
    ]);
    assert_eq!(kinds(&disjoint), Vec::<&str>::new());
    let ordered = trace(&[
        alloc(DEV, 4096),
        stream(100, 13),
        stream(200, 14),
        api("cuEventCreate", 1, r#","event":500"#),
        memset(DEV, 4096, 100),
        api("cuEventRecord", 1, r#","event":500,"stream":100"#),
        api("cuStreamWaitEvent", 1, r#","event":500,"stream":200"#),
        memset(DEV, 16, 200),
    ]);
    assert_eq!(kinds(&ordered), Vec::<&str>::new());
}

#[test]
fn freeing_pinned_memory_a_copy_still_reads_is_reported() {
    let t = trace(&[
        alloc(DEV, 4096),
        pinned(PINNED, 4096),
        stream(100, 13),
        copy("cuMemcpyHtoDAsync_v2", "htod", DEV, PINNED, 4096, 100, 5),
        api(
            "cuMemFreeHost",
            1,
            &format!(r#","mem":"pinned","ptr":{PINNED}"#),
        ),
    ]);
    assert!(
        kinds(&t).contains(&"free-while-in-flight"),
        "{:?}",
        kinds(&t)
    );
    let synced = trace(&[
        alloc(DEV, 4096),
        pinned(PINNED, 4096),
        stream(100, 13),
        copy("cuMemcpyHtoDAsync_v2", "htod", DEV, PINNED, 4096, 100, 5),
        api("cuStreamSynchronize", 1, r#","stream":100"#),
        api(
            "cuMemFreeHost",
            1,
            &format!(r#","mem":"pinned","ptr":{PINNED}"#),
        ),
    ]);
    assert_eq!(kinds(&synced), Vec::<&str>::new());
}

#[test]
fn a_use_after_free_async_is_reported() {
    let t = trace(&[
        stream(100, 13),
        api(
            "cuMemAllocAsync",
            1,
            &format!(r#","mem":"device","bytes":4096,"ptr":{DEV},"stream":100"#),
        ),
        api(
            "cuMemFreeAsync",
            1,
            &format!(r#","mem":"device","ptr":{DEV},"stream":100"#),
        ),
        memset(DEV, 16, 100),
    ]);
    assert!(
        kinds(&t).contains(&"device-race") || kinds(&t).len() == 1,
        "{:?}",
        kinds(&t)
    );
    let f = judge(&t);
    assert!(
        f.findings
            .iter()
            .any(|x| x.message.contains("after the `cudaFreeAsync`")),
        "{f:?}"
    );
}

#[test]
fn pageable_async_copies_warn_and_pinned_ones_do_not() {
    let pageable = trace(&[
        alloc(DEV, 4096),
        stream(100, 13),
        copy("cuMemcpyHtoDAsync_v2", "htod", DEV, HOST, 4096, 100, 5),
    ]);
    assert_eq!(kinds(&pageable), ["pageable-async"]);
    let pinned_copy = trace(&[
        alloc(DEV, 4096),
        pinned(PINNED, 4096),
        stream(100, 13),
        copy("cuMemcpyHtoDAsync_v2", "htod", DEV, PINNED, 4096, 100, 5),
    ]);
    assert_eq!(kinds(&pinned_copy), Vec::<&str>::new());
}

#[test]
fn legacy_stream_work_beside_a_busy_blocking_stream_warns() {
    let blocking = api(
        "cuStreamCreate",
        1,
        r#","flags":0,"stream":100,"stream_id":13"#,
    );
    let t = trace(&[
        alloc(DEV, 8192),
        blocking,
        memset(DEV, 16, 100),
        memset(DEV + 4096, 16, 0),
    ]);
    assert_eq!(kinds(&t), ["default-stream"]);
    // A non-blocking stream is not held up by the legacy stream.
    let untied = trace(&[
        alloc(DEV, 8192),
        stream(100, 13),
        memset(DEV, 16, 100),
        memset(DEV + 4096, 16, 0),
    ]);
    assert_eq!(kinds(&untied), Vec::<&str>::new());
}

#[test]
fn host_races_are_always_listed_as_not_watched_and_kernels_when_launched() {
    let plain = judge(&trace(&[alloc(DEV, 16)]));
    assert_eq!(plain.not_watched, [HOST_RACES_NOT_WATCHED]);
    let with_kernel = judge(&trace(&[alloc(DEV, 16), launch(0)]));
    assert_eq!(
        with_kernel.not_watched,
        [HOST_RACES_NOT_WATCHED, KERNELS_NOT_WATCHED]
    );
    assert!(render(&plain).contains("no line information"));
}

/// The causes the overlap report names for `lines`.
fn causes(lines: &[String]) -> Vec<&'static str> {
    overlap::report(&trace(lines))
        .causes
        .iter()
        .map(|c| c.cause)
        .collect()
}

const BIG: u64 = 1 << 20;

#[test]
fn a_copy_beside_a_kernel_has_no_cause_and_no_kernels_means_no_report() {
    assert_eq!(
        causes(&[
            stream(100, 13),
            stream(200, 14),
            gpu_copy(1, 4, BIG, 10, 20, 13, 5),
            kernel(15, 30, 14)
        ]),
        Vec::<&str>::new()
    );
    assert_eq!(
        causes(&[gpu_copy(1, 1, BIG, 10, 20, 13, 5)]),
        Vec::<&str>::new()
    );
}

#[test]
fn each_cause_is_named_by_its_rule() {
    let two = [stream(100, 13), stream(200, 14)];
    let with = |extra: &[String]| -> Vec<String> {
        two.iter().cloned().chain(extra.iter().cloned()).collect()
    };
    // Pageable host memory.
    assert_eq!(
        causes(&with(&[
            gpu_copy(1, 1, BIG, 10, 20, 13, 5),
            kernel(30, 40, 14)
        ])),
        ["pageable-memory"]
    );
    // The legacy default stream.
    assert_eq!(
        causes(&with(&[
            copy("cuMemcpyHtoDAsync_v2", "htod", DEV, PINNED, BIG, 0, 5),
            gpu_copy(1, 4, BIG, 10, 20, 7, 5),
            kernel(30, 40, 14)
        ])),
        ["legacy-default-stream"]
    );
    // Everything on one stream.
    assert_eq!(
        causes(&with(&[
            gpu_copy(1, 4, BIG, 10, 20, 13, 5),
            kernel(30, 40, 13)
        ])),
        ["one-stream"]
    );
    // A synchronous copy (on a created stream's id, so rule 2 does not take it first).
    assert_eq!(
        causes(&with(&[
            api("cuMemcpyHtoD_v2", 5, ""),
            gpu_copy(1, 4, BIG, 10, 20, 13, 5),
            kernel(30, 40, 14)
        ])),
        ["synchronous-copy"]
    );
    // A host wait between the copy and the kernel.
    let wait =
        r#"{"t":"sync","sync_type":3,"start":22,"end":25,"corr":8,"stream_id":13,"event_id":0}"#
            .to_string();
    assert_eq!(
        causes(&with(&[
            gpu_copy(1, 4, BIG, 10, 20, 13, 5),
            wait.clone(),
            kernel(30, 40, 14)
        ])),
        ["synchronisation"]
    );
    // A wait elsewhere is not between them.
    let late =
        r#"{"t":"sync","sync_type":3,"start":50,"end":55,"corr":8,"stream_id":13,"event_id":0}"#
            .to_string();
    assert_eq!(
        causes(&with(&[
            gpu_copy(1, 4, BIG, 10, 20, 13, 5),
            late,
            kernel(30, 40, 14)
        ])),
        ["dependency"]
    );
    // Small copies.
    assert_eq!(
        causes(&with(&[
            gpu_copy(2, 4, SMALL_COPY - 1, 10, 20, 13, 5),
            kernel(30, 40, 14)
        ])),
        ["small-copies"]
    );
    assert_eq!(
        causes(&with(&[
            gpu_copy(2, 4, SMALL_COPY, 10, 20, 13, 5),
            kernel(30, 40, 14)
        ])),
        ["dependency"]
    );
}

#[test]
fn a_cause_costs_the_time_its_copies_ran_alone() {
    let r = overlap::report(&trace(&[
        gpu_copy(1, 1, BIG, 10, 20, 13, 5),
        gpu_copy(2, 1, BIG, 50, 80, 13, 6),
        kernel(30, 40, 14),
    ]));
    assert_eq!((r.lone_copies, r.lone_ns), (2, 40));
    assert_eq!((r.causes[0].copies, r.causes[0].cost_ns), (2, 40));
}

fn recorded(name: &str) -> Trace {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/trace-programs/h200")
        .join(name);
    match file::read_path(&path) {
        Ok(t) => t,
        Err(e) => panic!("{e:#}"),
    }
}

#[test]
fn recorded_h200_traces_get_the_findings_their_programs_have() {
    // pageable_async.cu: cudaMemcpyAsync both ways from malloc memory.
    assert_eq!(
        kinds(&recorded("pageable_async.trace.jsonl")),
        ["pageable-async", "pageable-async"]
    );
    assert_eq!(causes_of("pageable_async.trace.jsonl"), ["pageable-memory"]);
    // two_streams.cu: pinned memory, non-blocking streams, an event orders them: clean.
    assert_eq!(
        kinds(&recorded("two_streams.trace.jsonl")),
        Vec::<&str>::new()
    );
    // exit_from_thread.cu and nvtx_ranges.cu: one copy and kernel on the null stream, no race.
    for name in ["exit_from_thread.trace.jsonl", "nvtx_ranges.trace.jsonl"] {
        assert_eq!(kinds(&recorded(name)), Vec::<&str>::new(), "{name}");
        assert_eq!(causes_of(name), ["legacy-default-stream"], "{name}");
    }
    // killed_self.cu: killed before any CUDA work was recorded.
    assert_eq!(
        kinds(&recorded("killed_self.trace.jsonl")),
        Vec::<&str>::new()
    );
}

fn causes_of(name: &str) -> Vec<&'static str> {
    overlap::report(&recorded(name))
        .causes
        .iter()
        .map(|c| c.cause)
        .collect()
}

fn gpu_memset(bytes: u64, start: u64, end: u64, stream: u32, corr: u32) -> String {
    format!(
        r#"{{"t":"memset","bytes":{bytes},"start":{start},"end":{end},"device":0,"stream_id":{stream},"corr":{corr}}}"#
    )
}

#[test]
fn a_finding_is_placed_at_its_calls_gpu_op_and_a_call_without_one_at_the_call() {
    let memset_on = |stream: u64, bytes: u64, corr: u32| {
        api(
            "cuMemsetD8Async",
            corr,
            &format!(
                r#","dst":{DEV},"elem":1,"count":{bytes},"stream":{stream},"stream_id":{}"#,
                stream_id(stream)
            ),
        )
    };
    let t = trace(&[
        alloc(DEV, 4096),
        stream(100, 13),
        stream(200, 14),
        memset_on(100, 4096, 7),
        memset_on(200, 16, 8),
        gpu_memset(4096, 300, 400, 13, 7),
        gpu_memset(16, 500, 600, 14, 8),
    ]);
    let f = judge(&t).findings;
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!((f[0].call, f[0].other_call), (5, Some(4)));
    assert_eq!(
        (f[0].start_ns, f[0].end_ns, f[0].stream),
        (500, 600, Some(14))
    );
    let mark = f[0].as_mark();
    assert_eq!(
        (mark.kind.as_str(), mark.severity),
        ("device-race", Severity::Error)
    );
    assert_eq!(
        (mark.start_ns, mark.end_ns, mark.stream),
        (500, 600, Some(14))
    );
    assert!(
        mark.text
            .starts_with("call 5 (cuMemsetD8Async), with call 4: "),
        "{}",
        mark.text
    );

    // The free has no GPU op: the finding is at the call itself, on no stream.
    let free = format!(
        r#"{{"t":"api","name":"cuMemFreeHost","corr":9,"start":700,"end":750,"ret":0,"mem":"pinned","ptr":{PINNED}}}"#
    );
    let t = trace(&[
        alloc(DEV, 4096),
        pinned(PINNED, 4096),
        stream(100, 13),
        copy("cuMemcpyHtoDAsync_v2", "htod", DEV, PINNED, 4096, 100, 5),
        gpu_copy(1, 2, 4096, 800, 900, 13, 5),
        free,
    ]);
    let f = judge(&t).findings;
    let freed = f.iter().find(|x| x.kind == "free-while-in-flight");
    let Some(freed) = freed else {
        panic!("no free-while-in-flight in {f:?}")
    };
    assert_eq!(freed.call, 5);
    assert_eq!(
        (freed.start_ns, freed.end_ns, freed.stream),
        (700, 750, None)
    );
}

#[test]
fn the_views_cause_lines_carry_each_causes_numbers_and_card() {
    const BIG: u64 = SMALL_COPY * 4;
    let r = overlap::report(&trace(&[
        gpu_copy(1, 1, BIG, 10, 20, 13, 5),
        gpu_copy(2, 1, BIG, 50, 80, 13, 6),
        kernel(30, 40, 14),
    ]));
    let lines = overlap::view_lines(&r);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].contains("2 copies ran while no kernel ran"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("pageable-memory: 2 copies, 0.000 ms: the host side is pageable (malloc) memory (learn: async-copy / "),
        "{lines:?}"
    );
    assert!(overlap::view_lines(&overlap::OverlapReport::default()).is_empty());
}

/// A launch of `kernel` on `stream` with these parameter values (JSON: numbers or null).
fn launch_with(kernel: &str, stream: u64, params: &str) -> String {
    api(
        "cuLaunchKernel",
        99,
        &format!(
            r#","kernel":"{kernel}","stream":{stream},"stream_id":{},"params":[{params}]"#,
            stream_id(stream)
        ),
    )
}

/// A kernel on stream 100 given `DEV + 256`, then a download of `DEV` on stream 200, with an
/// event between them when `ordered`.
fn kernel_then_download(kernel: &str, ordered: bool) -> Trace {
    let mut lines = vec![
        alloc(DEV, 4096),
        pinned(PINNED, 4096),
        stream(100, 13),
        stream(200, 14),
        api("cuEventCreate", 1, r#","event":500"#),
        launch_with(kernel, 100, &format!("{},null", DEV + 256)),
    ];
    if ordered {
        lines.push(api("cuEventRecord", 1, r#","event":500,"stream":100"#));
        lines.push(api("cuStreamWaitEvent", 1, r#","event":500,"stream":200"#));
    }
    lines.push(copy(
        "cuMemcpyDtoHAsync_v2",
        "dtoh",
        PINNED,
        DEV,
        4096,
        200,
        5,
    ));
    trace(&lines)
}

#[test]
fn a_kernel_writing_what_a_copy_on_another_stream_reads_races_unless_an_event_orders_them() {
    let f = judge(&kernel_then_download("_Z6kernelPfi", false));
    let races: Vec<&Finding> = f
        .findings
        .iter()
        .filter(|x| x.kind == "device-race")
        .collect();
    assert_eq!(races.len(), 1, "{f:?}");
    assert!(
        races[0].message.contains("the kernel's ranges are assumed")
            && races[0].message.contains("parameter 1 read and written"),
        "{}",
        races[0].message
    );
    assert!(
        races[0].warning,
        "an assumed range makes it a warning: {f:?}"
    );
    assert!(!f.not_watched.contains(&KERNELS_NOT_WATCHED), "{f:?}");
    assert_eq!(
        kinds(&kernel_then_download("_Z6kernelPfi", true)),
        Vec::<&str>::new()
    );
}

#[test]
fn a_kernel_given_a_chunk_and_its_count_touches_only_that_chunk() {
    // The two-streams pattern: a kernel on stream 100 over the first half (512 floats), a
    // download of the second half on stream 200. With the count, no race; without one (a
    // count that does not fit, or none), the range runs to the allocation's end and races.
    let with = |count: &str| {
        trace(&[
            alloc(DEV, 4096),
            pinned(PINNED, 4096),
            stream(100, 13),
            stream(200, 14),
            launch_with("_Z4spinxPfm", 100, &format!("1000000,{DEV},{count}")),
            copy(
                "cuMemcpyDtoHAsync_v2",
                "dtoh",
                PINNED,
                DEV + 2048,
                2048,
                200,
                5,
            ),
        ])
    };
    assert_eq!(kinds(&with("512")), Vec::<&str>::new());
    let f = judge(&with("512"));
    assert!(f.findings.is_empty(), "{f:?}");
    // 513 floats reach into the second half.
    assert_eq!(kinds(&with("513")), ["device-race"]);
    let f = judge(&with("513"));
    assert!(
        f.findings[0]
            .message
            .contains("2052 bytes: parameter 3 elements"),
        "{}",
        f.findings[0].message
    );
    // A count larger than the allocation is not a count of these elements: to the end.
    assert_eq!(kinds(&with("4096")), ["device-race"]);
    assert_eq!(kinds(&with("null")), ["device-race"]);
}

#[test]
fn a_const_pointer_parameter_is_only_read_and_an_unparsed_name_is_read_write() {
    // Both read DEV: no race.
    assert_eq!(
        kinds(&kernel_then_download("_Z6kernelPKfi", false)),
        Vec::<&str>::new()
    );
    // extern "C": the type is unknown, so assumed written, and the finding says so.
    let f = judge(&kernel_then_download("kernel_c", false));
    assert_eq!(f.findings.len(), 1, "{f:?}");
    assert!(
        f.findings[0].message.contains("not known from the name"),
        "{f:?}"
    );
    // A const kernel still races with an upload on another stream writing the same bytes.
    let t = trace(&[
        alloc(DEV, 4096),
        pinned(PINNED, 4096),
        stream(100, 13),
        stream(200, 14),
        // 1024 floats: the whole allocation, so the upload's bytes are the kernel's.
        launch_with("_Z6kernelPKfi", 100, &format!("{DEV},1024")),
        copy(
            "cuMemcpyHtoDAsync_v2",
            "htod",
            DEV + 4000,
            PINNED,
            16,
            200,
            5,
        ),
    ]);
    assert_eq!(kinds(&t), ["device-race"]);
}

#[test]
fn only_launches_without_parameters_are_not_watched_and_values_outside_allocations_touch_nothing() {
    let t = trace(&[
        alloc(DEV, 4096),
        pinned(PINNED, 4096),
        stream(100, 13),
        stream(200, 14),
        // 5 and a pointer past the allocation: neither is in a known allocation.
        launch_with("_Z6kernelPfi", 100, &format!("{},5", DEV + 8192)),
        copy("cuMemcpyDtoHAsync_v2", "dtoh", PINNED, DEV, 4096, 200, 5),
    ]);
    let f = judge(&t);
    assert_eq!(kinds(&t), Vec::<&str>::new());
    assert!(!f.not_watched.contains(&KERNELS_NOT_WATCHED), "{f:?}");
    let old = trace(&[alloc(DEV, 4096), stream(100, 13), launch(100)]);
    assert!(judge(&old).not_watched.contains(&KERNELS_NOT_WATCHED));
}

#[test]
fn a_launch_whose_parameters_the_driver_refused_says_what_it_answered() {
    let refused = api(
        "cuLaunchKernel",
        99,
        &format!(
            r#","kernel":"k","stream":100,"stream_id":{},"params_error":"cuFuncGetParamInfo 400, cuKernelGetParamInfo \u001b[31m1""#,
            stream_id(100)
        ),
    );
    let f = judge(&trace(&[alloc(DEV, 4096), stream(100, 13), refused]));
    assert!(f.not_watched.contains(&KERNELS_NOT_WATCHED), "{f:?}");
    let text = render(&f);
    assert!(
        text.contains("the driver, which answered: cuFuncGetParamInfo 400, cuKernelGetParamInfo"),
        "{text}"
    );
    assert!(
        !text.contains('\u{1b}'),
        "the driver's words are cleaned: {text:?}"
    );
    // A trace from before the field says nothing of it.
    let old = judge(&trace(&[alloc(DEV, 4096), stream(100, 13), launch(100)]));
    assert_eq!(old.kernel_params_refused, None);
    assert!(!render(&old).contains("answered"));
}

#[test]
fn memory_freed_and_allocated_again_at_its_address_is_another_allocation() {
    let other = 0x7100_0000;
    let free = |ptr: u64| api("cuMemFree_v2", 1, &format!(r#","ptr":{ptr}"#));
    let sync = |s: u64| api("cuStreamSynchronize", 1, &format!(r#","stream":{s}"#));
    // One thread after another (the second one's allocation gets the freed address), while
    // another allocation is in use on the first stream: a new allocation is none of the others
    // (ids were once counted from the live ones, so this one took `other`'s).
    let in_turn = trace(&[
        stream(100, 13),
        stream(200, 14),
        alloc(DEV, 4096),
        alloc(other, 4096),
        memset(DEV, 4096, 100),
        sync(100),
        free(DEV),
        memset(other, 4096, 100),
        alloc(DEV, 4096),
        memset(DEV, 4096, 200),
        sync(200),
        free(DEV),
    ]);
    assert_eq!(kinds(&in_turn), Vec::<&str>::new());
    // Two threads: the first's free returned (its record written) after the second's
    // allocation already had the memory; the free is the first allocation's.
    let threads = trace(&[
        stream(100, 13),
        stream(200, 14),
        alloc(DEV, 4096),
        memset(DEV, 4096, 100),
        sync(100),
        alloc(DEV, 4096),
        free(DEV),
        memset(DEV, 4096, 200),
        sync(200),
        free(DEV),
    ]);
    assert_eq!(kinds(&threads), Vec::<&str>::new());
    // The same address on two streams with no free between is still one allocation: a race.
    let shared = trace(&[
        stream(100, 13),
        stream(200, 14),
        alloc(DEV, 4096),
        memset(DEV, 4096, 100),
        memset(DEV, 4096, 200),
    ]);
    assert_eq!(kinds(&shared), ["device-race"]);
}

#[test]
fn a_pinned_allocation_is_imported_as_pinned_memory() {
    // `cuMemAllocHost_v2` starts with `cuMemAlloc`: it was once imported as device memory.
    let im = import(&trace(&[pinned(PINNED, 4096), alloc(DEV, 4096)]));
    let mut names: Vec<&str> = im.names.values().map(String::as_str).collect();
    names.sort();
    assert_eq!(
        names,
        [
            format!("device memory at {DEV:#x}"),
            format!("pinned memory at {PINNED:#x}")
        ]
    );
}
