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
