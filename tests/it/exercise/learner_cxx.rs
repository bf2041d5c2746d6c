//! Issue 27, "the subset takes what learners write": the C++ a programmer writes at once runs.
//! Arrays decay to pointers, `&x` and `&a[i]` go to the file's functions and to CUDA calls'
//! out-parameters, `exit` ends the run with what ran judged, the classic `CHECK` macro runs and
//! its diagnostics point at its use, the step budget holds a verifying loop over 16 Mi floats,
//! and the host idioms of NVIDIA's samples (file-scope variables, `#if`/`#ifdef`, typed
//! pointers, `assert`) run. What stays outside says what to write instead.

use std::sync::atomic::AtomicBool;

use cuda_academy::exercise::catalog;
use cuda_academy::exercise::hazards::{self, HazardKind};
use cuda_academy::exercise::interp::Limits;
use cuda_academy::exercise::log::Call;
use cuda_academy::exercise::parse::parse;
use cuda_academy::exercise::{self, Verdict};

use super::{program, run};

/// The file's `median`, as time-a-copy's starter has it.
const MEDIAN: &str = "static inline float median(float *v, int n)\n{\n    for (int i = 1; i < n; i++) {\n        float x = v[i];\n        int j = i - 1;\n        while (j >= 0 && v[j] > x) {\n            v[j + 1] = v[j];\n            j = j - 1;\n        }\n        v[j + 1] = x;\n    }\n    if (n % 2 == 1) {\n        return v[n / 2];\n    }\n    return (v[n / 2 - 1] + v[n / 2]) / 2;\n}\n";

fn with_helpers(helpers: &str, body: &str) -> String {
    format!("#include \"academy.cuh\"\n{helpers}\nint main()\n{{\n{body}\n    return 0;\n}}\n")
}

#[test]
fn an_array_passed_to_a_function_decays_to_a_pointer() {
    let src = with_helpers(
        &format!(
            "{MEDIAN}void fill(float a[], int n) {{ for (int i = 0; i < n; i++) a[i] = 10 - i; }}\nfloat second(float *p) {{ return *(p + 1); }}\n"
        ),
        "    float times[5];\n    fill(times, 5);\n    float m = median(times, 5);\n    printf(\"%f %f %f\\n\", m, times[0], second(times));",
    );
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    // Sorted in place through the pointer: the caller's array changed.
    assert_eq!(out.output, "8.000000 6.000000 7.000000\n");
    let past = with_helpers(
        "float at(float *p, int i) { return p[i]; }\n",
        "    float t[3] = {1, 2, 3};\n    at(t, 3);",
    );
    let err = run(&past).error.unwrap();
    assert_eq!(err.message, "index 3 is outside `t`, which has 3 elements");
    assert_eq!(err.line, 2);
}

#[test]
fn addresses_go_to_the_files_functions_and_out_parameters() {
    let src = with_helpers(
        "void bump(int *count) { *count = *count + 1; }\nvoid make(cudaStream_t *s) { cudaStreamCreate(s); }\n",
        "    int k = 0;\n    bump(&k);\n    int hits[3] = {0, 0, 0};\n    bump(&hits[2]);\n    bump(hits + 1);\n    cudaStream_t streams[2];\n    cudaStreamCreate(&streams[0]);\n    make(&streams[1]);\n    float *ptrs[2];\n    cudaMalloc(&ptrs[0], 64);\n    cudaMalloc(&ptrs[1], 64);\n    cudaEvent_t a, b;\n    cudaEventCreate(&a);\n    cudaEventCreate(&b);\n    float *ms = (float *)malloc(2 * sizeof(float));\n    float local[2];\n    for (int i = 0; i < 2; i++) {\n        cudaEventRecord(a, streams[i]);\n        cudaMemsetAsync(ptrs[i], 0, 64, streams[i]);\n        cudaEventRecord(b, streams[i]);\n        cudaEventSynchronize(b);\n        cudaEventElapsedTime(&ms[i], a, b);\n        cudaEventElapsedTime(&local[i], a, b);\n    }\n    printf(\"%d %d %d %d %d\\n\", k, hits[0], hits[1], hits[2], ms[1] == local[1]);",
    );
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "1 0 1 1 1\n");
    let streams = out
        .log
        .iter()
        .filter(|e| matches!(e.call, Call::StreamCreate { .. }))
        .count();
    assert_eq!(streams, 2, "both streams made through their addresses");
    // `&ms[i]` of a host buffer: the elapsed time is a host write the hazard checker sees.
    let line = 28;
    assert!(
        out.log
            .iter()
            .any(|e| e.line == line && matches!(e.call, Call::HostWrite { .. })),
        "{:?}",
        out.log
    );
}

#[test]
fn an_address_never_outlives_what_it_points_to() {
    let ret = with_helpers(
        "float *mine() { float x[2]; return x; }\n",
        "    float *p = mine();",
    );
    let err = run(&ret).error.unwrap();
    assert!(
        err.message
            .contains("`mine` returns the address of its own variable `x`"),
        "{err:?}"
    );
    let inner = program("    float *p = 0;\n    {\n        float y = 1;\n        p = &y;\n    }");
    let err = run(&inner).error.unwrap();
    assert!(
        err.message
            .contains("`p` would keep the address of `y` after `y` ends"),
        "{err:?}"
    );
    // Arrays of variables are not allocations: a copy says what to allocate.
    let copy = program(
        "    float a[4];\n    float *d;\n    cudaMalloc(&d, 16);\n    cudaMemcpy(d, a, 16, cudaMemcpyHostToDevice);",
    );
    let err = run(&copy).error.unwrap();
    assert!(
        err.message.contains("not memory from an allocation")
            && err.message.contains("float *h = (float *)malloc(bytes);"),
        "{err:?}"
    );
}

#[test]
fn exit_ends_the_run_with_what_ran_judged_and_its_status_recorded() {
    let src = program(
        "    float *h = (float *)malloc(64);\n    printf(\"before\\n\");\n    if (h != NULL) {\n        exit(EXIT_FAILURE);\n    }\n    printf(\"after\\n\");",
    );
    let out = run(&src);
    assert!(out.error.is_none(), "exit is not an error: {:?}", out.error);
    assert_eq!(out.output, "before\n");
    assert_eq!((out.exit_code, out.exit_line), (1, Some(8)));
    assert!(
        out.log
            .iter()
            .any(|e| e.line == 8 && e.call == Call::Exit { status: 1 }),
        "the exit is in the call log: {:?}",
        out.log
    );
    let ret = "#include \"academy.cuh\"\nint main() { return 7; }\n";
    assert_eq!(
        (run(ret).exit_code, run(ret).exit_line, run(ret).return_line),
        (7, None, Some(2))
    );
}

/// The lines of the leaks the checker finds in `src`'s run.
fn leak_lines(src: &str) -> Vec<u32> {
    let out = run(src);
    assert!(out.error.is_none(), "{:?}", out.error);
    hazards::check(&out.log, &out.region_names, false)
        .into_iter()
        .filter(|h| h.kind == HazardKind::Leak)
        .map(|h| h.line)
        .collect()
}

#[test]
fn what_the_program_holds_when_it_calls_exit_is_no_leak_but_a_return_from_main_leaks_it() {
    // The operating system and the driver free a process's memory, streams and events when it
    // exits (the classic `CHECK` macro ends so); `main` returning with them held keeps the
    // leak report the exercises teach by.
    let holds = "    float *h = (float *)malloc(64);\n    float *d;\n    cudaMalloc(&d, 64);\n    cudaStream_t s;\n    cudaStreamCreate(&s);\n    float *p;\n    cudaMallocHost(&p, 64);\n    float *r = (float *)malloc(64);\n    cudaHostRegister(r, 64, cudaHostRegisterDefault);\n";
    let exits = program(&format!("{holds}    exit(EXIT_FAILURE);"));
    assert_eq!(leak_lines(&exits), Vec::<u32>::new());
    let exits_zero = program(&format!("{holds}    if (h != NULL) exit(0);"));
    assert_eq!(leak_lines(&exits_zero), Vec::<u32>::new());
    let returns = program(holds);
    assert_eq!(leak_lines(&returns), [5, 7, 9, 11, 12, 13]);
    // A free of a registered buffer before the exit happened while the program ran: reported.
    let freed_registered = program(&format!("{holds}    free(r);\n    exit(1);"));
    assert_eq!(leak_lines(&freed_registered), [14]);
}

/// The classic CUDA error macro, on one line (`\` continuations are the macro tests').
const CHECK: &str = "#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { fprintf(stderr, \"%s:%d: %s\\n\", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)\n";

#[test]
fn the_classic_check_macro_runs_and_exits_on_a_failure() {
    let src = format!(
        "#include \"academy.cuh\"\n{CHECK}int main()\n{{\n    float *d;\n    CHECK(cudaMalloc(&d, 64));\n    float *h = (float *)malloc(64);\n    CHECK(cudaFree(h));\n    printf(\"not reached\\n\");\n    return 0;\n}}\n"
    );
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "exercise.cu:8: invalid argument\n");
    assert_eq!((out.exit_code, out.exit_line), (1, Some(8)));
    assert_eq!(out.cuda_errors.len(), 1, "{:?}", out.cuda_errors);
}

/// `src` checked as `fix-the-race` on a fresh simulator.
fn verdict(src: &str) -> Verdict {
    let ex = catalog::find("fix-the-race").unwrap();
    exercise::check(
        ex,
        src,
        &mut super::sim(),
        Limits::default(),
        &AtomicBool::new(false),
    )
}

/// The detail of `v`'s `runs to the end` check and whether it passed.
fn ending(v: &Verdict) -> (bool, String) {
    let c = v
        .checks
        .iter()
        .find(|c| c.name == "runs to the end")
        .unwrap();
    (c.passed, c.detail.clone())
}

#[test]
fn a_check_macro_that_fires_fails_the_run_saying_which_cuda_call_failed_and_the_rest_is_graded() {
    // fix-the-race's solution with a CHECK around a `cudaFree` of host memory, which fails.
    let solution = catalog::find("fix-the-race").unwrap().solution;
    let mut lines: Vec<String> = solution.lines().map(str::to_string).collect();
    let main = lines
        .iter()
        .position(|l| l.starts_with("int main"))
        .unwrap();
    lines.insert(main, CHECK.trim_end().to_string());
    let open = main + 2;
    lines.insert(open + 1, "    float *junk = (float *)malloc(64);".into());
    lines.insert(open + 2, "    CHECK(cudaFree(junk));".into());
    let fired = lines.join("\n") + "\n";
    let line = open + 3;
    let v = verdict(&fired);
    assert!(!v.passed);
    let (passed, detail) = ending(&v);
    assert!(!passed);
    assert!(
        detail.starts_with(&format!(
            "the program exited with status 1 (`exit(1)` at line {line}): exercise.cu:{line}: invalid argument. A CUDA call failed before it, and the program's error check ended the run: `cudaFree` on line {line} returned cudaErrorInvalidValue"
        )),
        "{detail}"
    );
    // Verdict intact: the criteria still judge what ran (nothing did), and what the program
    // held when it exited is no leak.
    let output = v.checks.iter().find(|c| c.name.contains("output")).unwrap();
    assert!(!output.passed, "{:#?}", v.checks);
    assert!(
        v.hazards.iter().all(|h| h.kind != HazardKind::Leak),
        "{:#?}",
        v.hazards
    );
    // A non-zero status with no CUDA error says so; `exit(0)` after the work passes.
    let chose = solution.replacen("int main()\n{\n", "int main()\n{\n    exit(3);\n", 1);
    let (passed, detail) = ending(&verdict(&chose));
    assert!(!passed);
    assert!(
        detail.contains("status 3 (`exit(3)` at line")
            && detail
                .ends_with("No CUDA call had failed: find why the program chose to stop there"),
        "{detail}"
    );
    let mut zero: Vec<&str> = solution.lines().collect();
    let last_return = zero.iter().rposition(|l| l.trim() == "return 0;").unwrap();
    zero[last_return] = "    exit(EXIT_SUCCESS);";
    let v = verdict(&(zero.join("\n") + "\n"));
    assert!(v.passed, "{:#?}", v.checks);
    assert!(
        ending(&v)
            .1
            .ends_with(&format!("steps; `exit(0)` at line {}", last_return + 1)),
        "{:?}",
        ending(&v)
    );
    let v = verdict(solution);
    assert!(
        ending(&v).1.ends_with(" steps; exit status 0"),
        "{:?}",
        ending(&v)
    );
}

#[test]
fn a_diagnostic_inside_a_macro_points_at_its_use() {
    // Line 6: `nope` is inside the expansion of the second CHECK, which starts at column 28;
    // `bad` after the first use is at its own column, 55.
    let src = format!(
        "#include \"academy.cuh\"\n{CHECK}int main()\n{{\n    float *d;\n    CHECK(cudaMalloc(&d, 64)); CHECK(cudaFree(nope));\n    return 0;\n}}\n"
    );
    let err = run(&src).error.unwrap();
    assert_eq!((err.line, err.column), (6, 32), "{err:?}");
    assert_eq!(
        err.message,
        "`nope` is not declared (in the expansion of `CHECK`)"
    );
    let after = format!(
        "#include \"academy.cuh\"\n{CHECK}int main()\n{{\n    float *d;\n    CHECK(cudaMalloc(&d, 64)); float q = bad;\n    return 0;\n}}\n"
    );
    let err = run(&after).error.unwrap();
    assert_eq!((err.line, err.column), (6, 42), "{err:?}");
    assert_eq!(err.message, "`bad` is not declared");
    // A parse diagnostic inside an expansion is placed the same way.
    let parse_err = "#include \"academy.cuh\"\n#define BAD(x) goto x\nint main()\n{\n    int y = 0; BAD(end);\n    return 0;\n}\n";
    let d = parse(parse_err).unwrap_err();
    assert_eq!((d[0].line, d[0].column), (5, 16), "{d:?}");
    assert!(
        d[0].message.ends_with("(in the expansion of `BAD`)"),
        "{d:?}"
    );
}

#[test]
fn the_step_budget_holds_a_verifying_loop_over_16_mi_floats_and_says_how_large_it_is() {
    // The loop a learner writes to verify output, over 64 Ki floats: its steps per element,
    // times 16 Mi, must fit the default budget (the full loop takes 20 s of CPU in a debug build: BENCHMARKS.md).
    let verify = |n: u64| {
        program(&format!(
            "    float *h = (float *)malloc({n} * sizeof(float));\n    fill_input(h, {n});\n    int bad = 0;\n    for (int i = 0; i < {n}; i++) if (h[i] != 1.0f) bad++;\n    printf(\"%d\\n\", bad);\n    free(h);"
        ))
    };
    let small = run(&verify(1 << 16));
    assert!(small.error.is_none(), "{:?}", small.error);
    let per_element = small.steps.div_ceil(1 << 16);
    let budget = Limits::default().max_steps;
    assert!(
        per_element * (16 << 20) * 2 <= budget,
        "{per_element} steps an element: 16 Mi elements need {}, the budget is {budget}",
        per_element * (16 << 20)
    );
    let out = super::run_with(
        &verify(1 << 16),
        Limits {
            max_steps: 100_000,
            ..Limits::default()
        },
    );
    let err = out.error.unwrap();
    assert!(
        err.message
            .contains("the budget is 100000, room for a loop of about 5000 iterations"),
        "{err:?}"
    );
}

#[test]
fn a_verifying_loop_over_two_buffers_logs_a_range_a_buffer_and_fits_the_budget_at_16_mi() {
    // Line 9 fills `h_out` as `transform` would; line 12 is the loop a learner writes against
    // the input, with the header's constants (`ACADEMY_TRANSFORM_A`, `_B`). It alternates
    // between `h_out` and `h_in` at every element, which once logged an entry an element
    // (32 Mi entries over 16 Mi floats: the check ran out of memory).
    let n: u64 = 1 << 16;
    let src = program(&format!(
        "    size_t n = {n};\n    float *h_in = (float *)malloc(n * sizeof(float));\n    float *h_out = (float *)malloc(n * sizeof(float));\n    fill_input(h_in, n);\n    for (size_t i = 0; i < n; i++) h_out[i] = h_in[i] * 2.0f + 1.0f;\n    int bad = 0;\n    for (size_t i = 0; i < n; i++) {{\n        if (h_out[i] != h_in[i] * ACADEMY_TRANSFORM_A + ACADEMY_TRANSFORM_B) {{\n            bad++;\n        }}\n    }}\n    printf(\"%d\\n\", bad);\n    free(h_in);\n    free(h_out);"
    ));
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "0\n");
    let bytes = n * 4;
    for line in [9, 12] {
        let ranges: Vec<(bool, u64, u64)> = out
            .log
            .iter()
            .filter(|e| e.line == line)
            .filter_map(|e| match &e.call {
                Call::HostRead { range, .. } => Some((false, range.start, range.end)),
                Call::HostWrite { range, .. } => Some((true, range.start, range.end)),
                _ => None,
            })
            .collect();
        let want = if line == 9 {
            vec![(false, 0, bytes), (true, 0, bytes)]
        } else {
            vec![(false, 0, bytes), (false, 0, bytes)]
        };
        assert_eq!(ranges, want, "line {line}: {} entries", ranges.len());
    }
    // The whole run's steps an element, times 16 Mi, within the default budget.
    let per_element = out.steps.div_ceil(n);
    let budget = Limits::default().max_steps;
    assert!(
        per_element * (16 << 20) <= budget,
        "{per_element} steps an element: 16 Mi elements need {}, the budget is {budget}",
        per_element * (16 << 20)
    );
}

#[test]
fn the_host_idioms_of_nvidias_samples_run() {
    let src = "#include \"academy.cuh\"\n#include <assert.h>\n#define USE_PINNED\n#ifndef N_ELEMS\n#define N_ELEMS (1 << 10)\n#endif\nconst int N = N_ELEMS;\nstatic float *h_a;\nstatic int calls;\nint main()\n{\n#ifdef USE_PINNED\n    cudaMallocHost(&h_a, N * sizeof(float));\n#else\n    h_a = (float *)malloc(N * sizeof(float));\n#endif\n#if defined(USE_PINNED) && N_ELEMS > 100\n    int *idx = (int *)malloc(N * sizeof(int));\n#elif 0\n    this does not parse(;\n#endif\n    for (int i = 0; i < N; i++) idx[i] = i * 3 + 16777217;\n    assert(idx[N - 1] == (N - 1) * 3 + 16777217);\n    double d[2] = {1.5, 2.5};\n    double *pd = d;\n    unsigned char flags[2] = {0, 0};\n    unsigned char *pf = flags;\n    pf[1] = 200;\n    printf(\"%d %d %f %d %d\\n\", calls, h_a == NULL, pd[1], flags[1], idx[5]);\n    free(idx);\n    cudaFreeHost(h_a);\n    return 0;\n}\n";
    let out = run(src);
    assert!(out.error.is_none(), "{:?}", out.error);
    // Globals start at zero; an `int *` keeps integers past 2^24 exact in a host buffer.
    assert_eq!(out.output, "0 0 2.500000 200 16777232\n");
    let failed = program("    int n = 3;\n    assert(n == 4);");
    let err = run(&failed).error.unwrap();
    assert_eq!(
        err.message,
        "assertion failed on line 6: `n == 4` is false, and `assert` ends the program there"
    );
    let unclosed =
        parse("#include \"academy.cuh\"\n#if 1\nint main() { return 0; }\n").unwrap_err();
    assert_eq!(unclosed[0].line, 2);
    assert!(
        unclosed[0].message.contains("has no `#endif`"),
        "{unclosed:?}"
    );
}

#[test]
fn what_stays_outside_says_what_to_write_instead() {
    let wide = program("    double *h = (double *)malloc(8 * sizeof(double));\n    h[1] = 2.0;");
    let err = run(&wide).error.unwrap();
    assert!(
        err.message
            .contains("a `double *` into host memory cannot be indexed here")
            && err.message.contains("use `float *` (or `int *`)"),
        "{err:?}"
    );
    let local_static = parse(&program("    static int count = 0;")).unwrap_err();
    assert!(
        local_static[0]
            .message
            .contains("declare it at file scope (before `main`)"),
        "{local_static:?}"
    );
    let fprintf_file = program("    fprintf(3, \"x\");");
    let err = run(&fprintf_file).error.unwrap();
    assert!(err.message.contains("`stderr` or `stdout`"), "{err:?}");
}

#[test]
fn a_verifying_loop_with_a_tolerance_uses_the_c_library_math() {
    let src = with_helpers(
        "",
        "    float *h = (float *)malloc(4 * sizeof(float));\n    for (int i = 0; i < 4; i++) h[i] = i * 0.5f - 1.0f;\n    int bad = 0;\n    for (int i = 0; i < 4; i++) {\n        if (fabsf(h[i] - (i * 0.5f - 1.0f)) > 1e-6f) bad++;\n        if (std::abs(h[i]) > 1.0f) bad++;\n    }\n    fflush(stdout);\n    printf(\"%d %g %d %g %g\\n\", bad, fabs(-2.5), abs(-3), sqrtf(16.0f), std::sqrt(2.25));\n    free(h);",
    );
    let out = run(&src);
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "0 2.5 3 4 1.5\n");
}
