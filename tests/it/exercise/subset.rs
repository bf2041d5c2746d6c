//! The subset's newer parts, each through a small program on the simulator: helper functions,
//! `#define`, `dim3`, polling with `cudaStreamQuery`/`cudaEventQuery`, `cudaLaunchHostFunc`,
//! `cudaMallocAsync`/`cudaFreeAsync`, `cudaMemcpyDefault`, CUDA errors that do not stop the
//! run, and `check_output`/`fill_input` counted from their pointer.

use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::hazards::{self, HazardKind};
use cuda_academy::exercise::interp::{self, Limits};
use cuda_academy::exercise::log::{Call, DeviceOpKind};
use cuda_academy::exercise::parse::parse;

use super::{program, run, sim};

const SETUP: &str = r#"    const size_t n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    float *h_in;
    float *h_out;
    cudaMallocHost(&h_in, bytes);
    cudaMallocHost(&h_out, bytes);
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    cudaStream_t s1;
    cudaStream_t s2;
    cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
"#;

/// Hazards of a run that must reach the end, leaks left out.
fn hazards_of(src: &str) -> Vec<(HazardKind, u32, Option<u32>)> {
    let out = run(src);
    assert!(out.error.is_none(), "{:?}\n{src}", out.error);
    hazards::check(&out.log, &out.region_names, false)
        .into_iter()
        .filter(|h| h.kind != HazardKind::Leak)
        .map(|h| (h.kind, h.line, h.other_line))
        .collect()
}

#[test]
fn a_helper_books_its_accesses_at_its_own_lines_and_returns_a_value() {
    // Line 3 is the copy inside the helper, line 5 its read of h before any sync.
    let src = format!(
        "#include \"academy.cuh\"\nstatic bool finish(float *h, float *d, size_t n, cudaStream_t s)\n{{\n    cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s);\n    return check_output(h, n);\n}}\nint main()\n{{\n{SETUP}    fill_input(h_in, n);\n    bool ok = finish(h_out, d_out, n, s1);\n    cudaStreamSynchronize(s1);\n    printf(\"%d\\n\", ok);\n    return 0;\n}}\n"
    );
    let h = hazards_of(&src);
    assert_eq!(h, [(HazardKind::ReadBeforeSync, 5, Some(4))], "{src}");
    let out = run(&src);
    assert_eq!(out.output, "0\n", "unwritten output is not the transform");
}

#[test]
fn helpers_see_only_their_own_variables_and_recursion_is_bounded() {
    let src = "#include \"academy.cuh\"\nint f(int k) { return k + hidden; }\nint main() { int hidden = 1; f(2); return 0; }\n";
    let err = run(src).error.unwrap();
    assert!(err.message.contains("`hidden` is not declared"), "{err:?}");
    let deep = "#include \"academy.cuh\"\nint down(int k) { return down(k + 1); }\nint main() { down(0); return 0; }\n";
    let err = run(deep).error.unwrap();
    assert!(err.message.contains("nested more than"), "{err:?}");
    assert_eq!(err.line, 2);
    let sum = "#include \"academy.cuh\"\nint tri(int k) { if (k == 0) return 0; return k + tri(k - 1); }\nint main() { printf(\"%d\\n\", tri(10)); return 0; }\n";
    assert_eq!(run(sum).output, "55\n");
    let arity =
        "#include \"academy.cuh\"\nvoid g(int a, int b) {}\nint main() { g(1); return 0; }\n";
    let err = run(arity).error.unwrap();
    assert_eq!(err.message, "`g` takes 2 arguments, not 1");
    let no_value = "#include \"academy.cuh\"\nint h() { }\nint main() { int x = h(); return 0; }\n";
    assert!(
        run(no_value)
            .error
            .unwrap()
            .message
            .contains("without returning")
    );
}

#[test]
fn defines_and_dim3_configure_a_launch() {
    let src = "#include \"academy.cuh\"\n#define N (1 << 10)\n#define THREADS 256\nint main()\n{\n    float *d;\n    cudaMalloc(&d, N * sizeof(float));\n    dim3 block(THREADS, 1, 1);\n    dim3 grid((N + THREADS - 1) / THREADS);\n    transform<<<grid, block>>>(d, d, N);\n    transform<<<dim3(2, 2), 256>>>(d, d, N);\n    cudaDeviceSynchronize();\n    cudaFree(d);\n    return 0;\n}\n";
    let out = run(src);
    assert!(out.error.is_none(), "{:?}", out.error);
    let too_big = src.replace("dim3 block(THREADS, 1, 1)", "dim3 block(THREADS, 8, 1)");
    let err = run(&too_big).error.unwrap();
    assert!(err.message.contains("dim3(256, 8, 1)"), "{err:?}");
    assert_eq!(err.line, 10);
    // Function-like macros expand as the preprocessor's do; variadic ones are named.
    let macro_fn = "#include \"academy.cuh\"\n#define SQ(x) ((x) * (x))\nint main()\n{\n    printf(\"%d\\n\", SQ(1 + 2));\n    return 0;\n}\n";
    let out = run(macro_fn);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "9\n");
    let variadic =
        "#include \"academy.cuh\"\n#define P(...) printf(__VA_ARGS__)\nint main() { return 0; }\n";
    let d = parse(variadic).unwrap_err();
    assert!(d[0].message.contains("function-like macro"), "{d:?}");
    assert_eq!(d[0].line, 2);
}

/// A learner's own error-checking macro: a statement macro over several lines with `#call`
/// and `__LINE__`, whose failing call is reported at the line it was written on.
#[test]
fn a_check_macro_runs_and_reports_the_line_it_is_used_on() {
    let src = "#include \"academy.cuh\"\n#define CHECK(call)                          \\\n    do {                                     \\\n        cudaError_t e_ = (call);             \\\n        if (e_ != cudaSuccess)               \\\n            printf(\"%s: line %d\\n\", #call, __LINE__); \\\n    } while (0)\nint main()\n{\n    float *h;\n    CHECK(cudaMallocHost(&h, 64));\n    CHECK(cudaFree(h));\n    CHECK(cudaFreeHost(h));\n    return 0;\n}\n";
    let out = run(src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "cudaFree(h): line 12\n");
    assert_eq!(out.cuda_errors.len(), 1, "{:?}", out.cuda_errors);
    assert_eq!(out.cuda_errors[0].line, 12);
}

#[test]
fn polling_a_stream_ends_on_the_simulator_and_counts_as_knowing_it_finished() {
    let body = format!(
        "{SETUP}    spin<<<1, 1, 0, s1>>>(20000000LL);\n    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s1);\n    int polls = 0;\n    while (cudaStreamQuery(s1) == cudaErrorNotReady) {{ polls++; }}\n    float x = h_out[0];\n    printf(\"%d\\n\", polls > 0);"
    );
    let src = program(&body);
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(
        out.output, "1\n",
        "the spin kept the stream busy for a while"
    );
    let queries: Vec<bool> = out
        .log
        .iter()
        .filter_map(|e| match e.call {
            Call::StreamQuery { done, .. } => Some(done),
            _ => None,
        })
        .collect();
    assert_eq!(queries, [false, true], "unanswered polls are logged once");
    assert!(hazards_of(&src).is_empty());
    // Polling the other stream says nothing about s1.
    let wrong = src.replace("cudaStreamQuery(s1)", "cudaStreamQuery(s2)");
    assert_eq!(
        hazards_of(&wrong),
        [(HazardKind::ReadBeforeSync, 23, Some(20))]
    );
}

#[test]
fn an_event_query_answers_not_ready_then_success() {
    let body = format!(
        "{SETUP}    cudaEvent_t e;\n    cudaEventCreate(&e);\n    spin<<<1, 1, 0, s1>>>(20000000LL);\n    cudaEventRecord(e, s1);\n    int first = cudaEventQuery(e);\n    cudaEventSynchronize(e);\n    printf(\"%d %d\\n\", first, cudaEventQuery(e));"
    );
    let out = run(&program(&body));
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "600 0\n");
}

#[test]
fn a_host_function_runs_in_stream_order_and_its_reads_are_a_device_ordered_op() {
    let file = |stream: &str| {
        format!(
            "#include \"academy.cuh\"\nvoid CUDART_CB check_fn(void *p)\n{{\n    float *h = (float *)p;\n    printf(\"%d\\n\", check_output(h, 1 << 20));\n}}\nint main()\n{{\n{SETUP}    fill_input(h_in, n);\n    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s1);\n    transform<<<1024, 256, 0, s1>>>(d_in, d_out, n);\n    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s1);\n    cudaLaunchHostFunc({stream}, check_fn, h_out);\n    cudaDeviceSynchronize();\n    return 0;\n}}\n"
        )
    };
    let same = file("s1");
    let out = run(&same);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "1\n");
    let op = out
        .log
        .iter()
        .find_map(|e| match &e.call {
            Call::Device(op) if op.kind == DeviceOpKind::HostFunc => Some((e.line, op.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(op.0, 27);
    // The body ran later, when the stream reached it: its reads are in its run's entry.
    let reads = out
        .log
        .iter()
        .find_map(|e| match &e.call {
            Call::HostFuncRan { reads, .. } => Some(reads.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(reads.len(), 1);
    assert_eq!(reads[0].end - reads[0].start, 4 << 20);
    assert!(
        !out.log
            .iter()
            .any(|e| matches!(e.call, Call::HostRead { .. }) && e.line == 5),
        "the body's read is the op's, not main's"
    );
    assert!(hazards_of(&same).is_empty());
    let other = hazards_of(&file("s2"));
    // Its read is the host's: a read-before-sync at the body's line, against the download.
    assert!(
        other
            .iter()
            .any(|h| h.0 == HazardKind::ReadBeforeSync && h.1 == 5 && h.2 == Some(26)),
        "the host function on s2 is not ordered after the download on s1: {other:?}"
    );
}

#[test]
fn stream_ordered_allocation_is_an_op_and_use_after_free_async_stops() {
    let body = format!(
        "{SETUP}    float *d_tmp;\n    cudaMallocAsync(&d_tmp, bytes, s1);\n    cudaMemcpyAsync(d_tmp, h_in, bytes, cudaMemcpyHostToDevice, s2);\n    cudaFreeAsync(d_tmp, s1);\n    cudaStreamSynchronize(s1);\n    cudaStreamSynchronize(s2);"
    );
    let h = hazards_of(&program(&body));
    assert!(h.contains(&(HazardKind::DeviceRace, 21, Some(20))), "{h:?}");
    assert!(h.contains(&(HazardKind::DeviceRace, 22, Some(21))), "{h:?}");
    // Before the host knows the free happened, a use is a hazard with both lines (issue 27).
    let before = body.replacen(
        "    cudaFreeAsync(d_tmp, s1);\n",
        "    cudaFreeAsync(d_tmp, s1);\n    cudaMemsetAsync(d_tmp, 0, bytes, s1);\n",
        1,
    );
    let out = run(&program(&before));
    assert!(out.error.is_none(), "{:?}", out.error);
    let h = hazards_of(&program(&before));
    assert!(h.contains(&(HazardKind::DeviceRace, 22, Some(21))), "{h:?}");
    // Once it does, the memory is gone and a use stops the run.
    let after = format!("{body}\n    cudaMemset(d_tmp, 0, bytes);");
    let err = run(&program(&after)).error.unwrap();
    assert!(err.message.contains("after it was freed"), "{err:?}");
    assert_eq!(err.line, 25);
}

#[test]
fn cuda_errors_return_their_code_and_the_run_goes_on() {
    let body = format!(
        "{SETUP}    int r = cudaFree(h_in);\n    printf(\"%d %s %s\\n\", r, cudaGetErrorName(r), cudaGetErrorString(r));\n    printf(\"%d %d\\n\", cudaGetLastError(), cudaGetLastError());\n    h_in[0] = 1.0f;\n    cudaFreeHost(h_in);\n    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s1);\n    float y = h_out[0];\n    cudaStreamSynchronize(s1);"
    );
    let src = program(&body);
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(
        out.output,
        "1 cudaErrorInvalidValue invalid argument\n1 0\n"
    );
    assert_eq!(out.cuda_errors.len(), 1);
    assert_eq!(out.cuda_errors[0].line, 19);
    // The hazard after the failed call is still found.
    assert_eq!(
        hazards_of(&src),
        [(HazardKind::ReadBeforeSync, 25, Some(24))]
    );
}

#[test]
fn memcpy_default_infers_every_direction() {
    let body = format!(
        "{SETUP}    float *h2 = (float *)malloc(bytes);\n    fill_input(h_in, n);\n    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyDefault);\n    cudaMemcpy(d_out, d_in, bytes, cudaMemcpyDefault);\n    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDefault);\n    cudaMemcpy(h2, h_out, bytes, cudaMemcpyDefault);\n    printf(\"%f\\n\", h2[3]);"
    );
    let out = run(&program(&body));
    assert!(out.error.is_none(), "{:?}", out.error);
    let kinds: Vec<DeviceOpKind> = out
        .log
        .iter()
        .filter_map(|e| match &e.call {
            Call::Device(op) => Some(op.kind),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            DeviceOpKind::CopyH2D,
            DeviceOpKind::CopyD2D,
            DeviceOpKind::CopyD2H
        ]
    );
}

#[test]
fn fill_and_check_count_the_pattern_from_their_pointer() {
    // Per-chunk fill and check, each from its own pointer, pass as under nvcc.
    let chunks = format!(
        "{SETUP}    const size_t c = n / 4;\n    for (int i = 0; i < 4; i++) {{\n        fill_input(h_in + i * c, c);\n        cudaMemcpy(d_in + i * c, h_in + i * c, c * sizeof(float), cudaMemcpyHostToDevice);\n        transform<<<256, 256>>>(d_in + i * c, d_out + i * c, c);\n        cudaMemcpy(h_out + i * c, d_out + i * c, c * sizeof(float), cudaMemcpyDeviceToHost);\n        printf(\"%d\", check_output(h_out + i * c, c));\n    }}"
    );
    let out = run(&program(&chunks));
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "1111");
    // One fill of the whole buffer, checked from an offset: index 0 is at the pointer, so the
    // floats there do not match (academy.cuh says the same).
    let whole = format!(
        "{SETUP}    fill_input(h_in, n);\n    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);\n    transform<<<256, 256>>>(d_in, d_out, n);\n    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);\n    printf(\"%d%d\", check_output(h_out, n), check_output(h_out + 4, n - 4));"
    );
    assert_eq!(run(&program(&whole)).output, "10");
}

#[test]
fn output_correct_wants_the_whole_result_buffer_checked() {
    let ex = cuda_academy::exercise::catalog::find("fix-the-race").unwrap();
    let body = |check: &str| {
        format!(
            "{SETUP}    fill_input(h_in, n);\n    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);\n    transform<<<256, 256>>>(d_in, d_out, n);\n    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);\n{check}"
        )
    };
    let grade = |check: &str| {
        let v = cuda_academy::exercise::check(
            ex,
            &program(&body(check)),
            &mut sim(),
            Limits::default(),
            &AtomicBool::new(false),
        );
        v.checks
            .into_iter()
            .find(|c| c.name == "output is correct")
            .unwrap()
    };
    let one = grade("    check_output(h_out, 1);");
    assert!(!one.passed, "{one:?}");
    assert!(one.detail.contains("h_out"), "{one:?}");
    assert!(grade("    check_output(h_out, n);").passed);
    let halves = grade("    check_output(h_out, n / 2);\n    check_output(h_out + n / 2, n / 2);");
    assert!(
        !halves.passed,
        "the second half is not the pattern from its pointer"
    );
    let _ = interp::Limits::default();
}

#[test]
fn the_address_of_an_element_is_the_pointer_plus_its_index() {
    // `&h[i]` and `&d[i]` are `h + i` and `d + i`: two half copies through them fill the
    // whole device buffer, and the output is checked from `&h_out[0]`.
    let src = format!(
        "#include \"academy.cuh\"\nint main()\n{{\n{SETUP}    fill_input(h_in, n);\n    size_t half = n / 2;\n    cudaMemcpyAsync(&d_in[0], &h_in[0], half * sizeof(float), cudaMemcpyHostToDevice, s1);\n    cudaMemcpyAsync(&d_in[half], &h_in[half], half * sizeof(float), cudaMemcpyHostToDevice, s1);\n    transform<<<1024, 256, 0, s1>>>(d_in, d_out, n);\n    cudaMemcpyAsync(&h_out[0], d_out, bytes, cudaMemcpyDeviceToHost, s1);\n    cudaStreamSynchronize(s1);\n    float *second = &h_out[half];\n    printf(\"%d %d\\n\", check_output(&h_out[0], n), second == h_out + half);\n    return 0;\n}}\n"
    );
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "1 1\n", "{src}");
    assert!(hazards_of(&src).is_empty());
}

#[test]
fn line_is_the_line_it_is_written_on() {
    // Error-checking helpers take `__LINE__`: a call on line 5 passes 5.
    let src = "#include \"academy.cuh\"\nstatic void where(int line) { printf(\"%d\\n\", line); }\nint main()\n{\n    where(__LINE__);\n    return 0;\n}\n";
    let out = run(src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "5\n");
}

#[test]
fn do_while_runs_its_body_before_the_first_test_and_std_min_max_are_min_max() {
    // The body runs once although the test is false from the start; `continue` goes to the test.
    let src = "#include \"academy.cuh\"\n#include <algorithm>\nint main()\n{\n    int j = 10;\n    do { j++; } while (j < 3);\n    int i = 0;\n    do { i++; if (i == 2) continue; } while (i < 5);\n    printf(\"%d %d %d %d\\n\", j, i, (int)std::min(3, 4), (int)std::max(3, 4));\n    return 0;\n}\n";
    let out = run(src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "11 5 3 4\n");
}

/// `probes/learner-idioms.cu` (a CHECK macro, `&p[i]`, do-while, `std::min`) prints on the
/// simulator what nvcc's build of it printed on the H200 (`probes/learner-idioms-h200.txt`).
#[test]
fn the_learner_idioms_probe_prints_what_nvcc_printed_on_the_h200() {
    let root = env!("CARGO_MANIFEST_DIR");
    let src = std::fs::read_to_string(format!("{root}/probes/learner-idioms.cu")).unwrap();
    let record = std::fs::read_to_string(format!("{root}/probes/learner-idioms-h200.txt")).unwrap();
    let nvcc: String = record
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(nvcc.contains("check_output: pass"), "{record}");
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, nvcc);
}

#[test]
fn arrays_take_brace_initialisers_and_the_rest_is_zero() {
    let src = "#include \"academy.cuh\"\nint main()\n{\n    int a[] = {1, 2, 3};\n    float b[4] = {1.5f};\n    float *h;\n    cudaMallocHost(&h, 64);\n    float *bufs[2] = {h, h + 4};\n    cudaStream_t s[2] = {};\n    cudaStreamCreate(&s[1]);\n    printf(\"%d %d %.1f %.1f %d\\n\", a[0], a[2], b[0], b[3], bufs[1] == h + 4);\n    cudaStreamDestroy(s[1]);\n    cudaFreeHost(h);\n    return 0;\n}\n";
    let out = run(src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "1 3 1.5 0.0 1\n");
    let too_many = src.replace("int a[] = {1, 2, 3};", "int a[2] = {1, 2, 3};");
    let err = run(&too_many).error.unwrap();
    assert!(
        err.message.contains("has 2 elements and 3 initialisers"),
        "{err:?}"
    );
    let scalar = src.replace("int a[] = {1, 2, 3};", "int a = {1};");
    let d = parse(&scalar).unwrap_err();
    assert!(
        d[0].message
            .contains("brace initializer for a single variable"),
        "{d:?}"
    );
}
