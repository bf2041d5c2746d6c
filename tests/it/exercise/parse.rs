//! Diagnostics: syntax errors, constructs outside the subset, runaway loops, huge allocations.

use cuda_academy::exercise::ast::{ExprKind, StmtKind};
use cuda_academy::exercise::interp::Limits;
use cuda_academy::exercise::parse::parse;

use super::{program, run, run_with};

#[test]
fn a_missing_semicolon_is_a_diagnostic_at_its_line() {
    let src = program("    int n = 4\n    int m = 5;");
    let diags = parse(&src).unwrap_err();
    assert!(diags[0].message.contains("expected `;`"), "{diags:?}");
    assert_eq!(diags[0].line, 5, "{diags:?}");
}

#[test]
fn an_unsupported_call_is_named_at_its_line_and_column() {
    let src = program("    cudaMemcpy3D(0);");
    let diags = parse(&src).unwrap_err();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        diags[0].message,
        "`cudaMemcpy3D` is not supported here; the checker runs a subset of C and CUDA (README, \"Hands-on exercises\", \"The supported subset\")"
    );
    assert_eq!((diags[0].line, diags[0].column), (5, 5));
}

#[test]
fn unsupported_statements_and_functions_are_diagnostics_not_crashes() {
    for (body, needle) in [
        (
            "    int i = 0;\n    switch (i) { case 0: break; }",
            "switch statement",
        ),
        ("    goto end;", "goto"),
        ("    int x = 1;\n    int **p = 0;", "int **"),
        ("    float a = 1.0f;\n    a = ~a;", "`~`"),
    ] {
        let diags = parse(&program(body)).unwrap_err();
        assert!(
            diags
                .iter()
                .any(|d| d.message.contains(needle) && d.message.contains("not supported here")),
            "{body}: {diags:?}"
        );
    }
    // A function may not take a name academy.cuh or CUDA already defines.
    let clash = "#include \"academy.cuh\"\nvoid fill_input() {}\nint main() { return 0; }\n";
    let diags = parse(clash).unwrap_err();
    assert!(diags[0].message.contains("`fill_input`"), "{diags:?}");
    assert_eq!(diags[0].line, 2);
}

#[test]
fn garbage_never_panics() {
    for src in [
        "",
        "\0\0\0",
        "int main() {",
        "}}}}",
        "int main() { transform<<<>>>(); }",
        &"(".repeat(5000),
    ] {
        let _ = parse(src);
    }
}

#[test]
fn a_launch_with_a_stream_from_an_array_parses_as_a_launch() {
    let src = program("    transform<<<g, b, 0, s[i]>>>(d_in + off, d_out, n);");
    let p = parse(&src).unwrap();
    let StmtKind::Expr(e) = &p.main[0].kind else {
        panic!("{p:?}")
    };
    let ExprKind::Launch {
        kernel,
        config,
        args,
    } = &e.kind
    else {
        panic!("{e:?}")
    };
    assert_eq!(
        (kernel.as_str(), config.len(), args.len()),
        ("transform", 4, 3)
    );
    assert!(matches!(config[3].kind, ExprKind::Index(..)));
}

#[test]
fn a_runaway_loop_stops_with_the_step_budget() {
    let out = run_with(
        &program("    for (;;) {}"),
        Limits {
            max_steps: 10_000,
            ..Limits::default()
        },
    );
    let err = out.error.expect("stopped");
    assert!(
        err.message
            .starts_with("stopped after 10000 steps: the check's step budget was reached"),
        "{}",
        err.message
    );
    assert_eq!(err.line, 5);
}

#[test]
fn a_loop_issuing_gpu_work_stops_at_the_operation_cap() {
    let body = "    cudaStream_t s;\n    cudaStreamCreate(&s);\n    while (true) { spin<<<1, 1, 0, s>>>(10); }";
    let out = run_with(
        &program(body),
        Limits {
            max_gpu_ops: 50,
            ..Limits::default()
        },
    );
    assert!(
        out.error
            .expect("stopped")
            .message
            .contains("stopped after 50 GPU operations")
    );
}

#[test]
fn a_huge_allocation_is_refused_with_the_limit() {
    let out = run(&program(
        "    float *d;\n    cudaMalloc(&d, (size_t)1 << 50);",
    ));
    let err = out.error.expect("refused");
    assert!(
        err.message.contains("more than the device's free memory"),
        "{err:?}"
    );
    assert_eq!(err.line, 6);
    let out = run(&program("    float *h = (float *)malloc((size_t)1 << 40);"));
    assert!(out.error.expect("refused").message.contains("host memory"));
}

#[test]
fn host_code_computes_like_c() {
    let body = r#"    int a = 7 / 2;
    double b = 7 / 2.0;
    size_t big = (size_t)1 << 40;
    float *h = (float *)malloc(4 * sizeof(float));
    for (int i = 0; i < 4; i++) { h[i] = i * 0.5f; }
    float sum = 0;
    int k = 0;
    while (k < 4) { sum += h[k]; k++; }
    report("a", a);
    report("b", b);
    report("big", big);
    report("sum", max(sum, 1));
    report("cond", a > 3 ? 1 : 0);
    printf("%d %zu %.2f %s\n", a, big, sum, "ok");
    free(h);"#;
    let out = run(&program(body));
    assert!(out.error.is_none(), "{:?}", out.error);
    let m = &out.metrics;
    assert_eq!(
        (m["a"], m["b"], m["big"], m["sum"], m["cond"]),
        (3.0, 3.5, 1099511627776.0, 3.0, 0.0)
    );
    assert!(
        out.output.contains("3 1099511627776 3.00 ok\n"),
        "{}",
        out.output
    );
}

#[test]
fn misuse_at_run_time_is_a_diagnostic() {
    for (body, needle) in [
        (
            "    float *d;\n    cudaMalloc(&d, 64);\n    float x = d[0];",
            "device memory",
        ),
        (
            "    float *h = (float *)malloc(16);\n    h[4] = 1;",
            "out of bounds",
        ),
        (
            "    float *h = (float *)malloc(16);\n    free(h);\n    free(h);",
            "freed twice",
        ),
        (
            "    float *h;\n    cudaMallocHost(&h, 16);\n    free(h);",
            "cudaFreeHost",
        ),
        (
            "    int x;\n    int y = x + 1;",
            "before it is given a value",
        ),
        ("    int z = 1 / 0;", "division by zero"),
    ] {
        let out = run(&program(body));
        let err = out.error.unwrap_or_else(|| panic!("no error for {body}"));
        assert!(err.message.contains(needle), "{body}: {err:?}");
    }
}
