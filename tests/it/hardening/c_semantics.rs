//! The interpreter's answers where C's differ from a naive model (review 2026-12-01 X24, X25):
//! a pointer before its allocation, whole numbers past 2^53, `%u` of a negative number.

use crate::exercise::run;

fn main_with(body: &str) -> String {
    format!("int main()\n{{\n{body}\n    return 0;\n}}\n")
}

#[test]
fn a_pointer_before_its_allocation_is_said_so() {
    for (body, said) in [
        (
            "    float *h;\n    cudaMallocHost(&h, 16);\n    float *q = h - 1;\n    q[0] = 1;",
            "4 bytes before the start of `h`",
        ),
        (
            "    float *h;\n    cudaMallocHost(&h, 16);\n    float x = h[-3];",
            "12 bytes before the start of `h`",
        ),
        (
            "    float *h;\n    float *d;\n    cudaMallocHost(&h, 16);\n    cudaMalloc(&d, 16);\n    \
             cudaMemcpy(d, h - 2, 8, cudaMemcpyHostToDevice);",
            "points before the start of its allocation",
        ),
    ] {
        let out = run(&main_with(body));
        let err = out.error.unwrap_or_else(|| panic!("not stopped: {body}"));
        assert!(err.message.contains(said), "{body}: {}", err.message);
        assert!(
            !err.message.contains("18446744073709551"),
            "{}",
            err.message
        );
    }
}

#[test]
fn whole_numbers_compare_exactly_and_print_as_c_does() {
    let out = run(&main_with(
        "    int bytes = 65536 * 65536;\n    unsigned int u = -1;\n    \
         long long big = 9007199254740993;\n    printf(\"%d %u\\n\", bytes, u);\n    \
         if (big == 9007199254740992) {\n        printf(\"equal\\n\");\n    }",
    ));
    assert!(out.error.is_none(), "{:?}", out.error);
    assert_eq!(out.output, "0 4294967295\n");
}

/// Review 2026-12-01b CK10, CK9, CK17: a NaN said to be one, a float subscript refused as nvcc
/// refuses it, and `cudaHostAlloc` flags outside Portable|Mapped|WriteCombined an error code.
#[test]
fn nan_float_subscripts_and_bad_host_alloc_flags_are_said_so() {
    for (body, said) in [
        (
            "    long long z = (long long)(0.0 / 0.0);",
            "cannot convert NaN (not a number) to an integer type",
        ),
        (
            "    int z = 1.0 / 0.0;",
            "cannot convert an infinity to an integer type",
        ),
        (
            "    float *h = (float *)malloc(0.0 / 0.0);",
            "argument 1 of `malloc` is NaN (not a number), not a finite number",
        ),
        (
            "    float *h = (float *)malloc(8);\n    h[1.5] = 2;",
            "an index must be an integer, not a floating-point value (1.5)",
        ),
    ] {
        let out = run(&main_with(body));
        let err = out.error.unwrap_or_else(|| panic!("not stopped: {body}"));
        assert!(err.message.contains(said), "{body}: {}", err.message);
        assert!(
            !err.message.contains("in a `int` variable"),
            "{}",
            err.message
        );
    }
    for flags in ["0xFFFFFFFF", "-1", "8"] {
        let body = format!(
            "    float *h;\n    int e = cudaHostAlloc(&h, 64, {flags});\n    printf(\"%d\\n\", e);"
        );
        let out = run(&main_with(&body));
        assert!(out.error.is_none(), "{flags}: {:?}", out.error);
        assert_eq!(out.output.trim(), "1", "{flags}: cudaErrorInvalidValue");
    }
    let out = run(&main_with(
        "    float *h;\n    int e = cudaHostAlloc(&h, 64, 7);\n    printf(\"%d\\n\", e);\n    cudaFreeHost(h);",
    ));
    assert_eq!(out.output.trim(), "0", "{:?}", out.error);
}
