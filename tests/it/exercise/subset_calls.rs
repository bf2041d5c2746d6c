//! No call of the subset panics whatever its arguments: every row of the call table, with 0 to 6
//! arguments of each kind, ends in a diagnostic (or runs, when the call is right), and a wrong
//! number of arguments is always a diagnostic at the call.

use cuda_academy::exercise::calls::TABLE;
use cuda_academy::exercise::log::Call;

use super::{program, run};

/// One argument of each kind the subset has.
const KINDS: &[&str] = &["1", "2.5f", "h", "d", "s", "e", "\"x\"", "&x", "NULL", "g"];

const SETUP: &str = "    float *h;\n    cudaMallocHost(&h, 1024);\n    float *d;\n    cudaMalloc(&d, 1024);\n    cudaStream_t s;\n    cudaStreamCreate(&s);\n    cudaEvent_t e;\n    cudaEventCreate(&e);\n    float x = 0;\n    dim3 g(2);\n";

#[test]
fn every_callable_with_any_arguments_ends_in_a_diagnostic_not_a_panic() {
    let mut runs = 0;
    for row in TABLE {
        let (name, (min, max)) = (row.name, row.arity());
        for n in 0..=6usize {
            for kind in KINDS {
                let args = vec![*kind; n].join(", ");
                let body = format!("{SETUP}    {name}({args});\n");
                let src = program(&body);
                // Panics fail the test here; the run itself must never panic.
                let out = run(&src);
                runs += 1;
                if n < min || n > max {
                    let err = out
                        .error
                        .unwrap_or_else(|| panic!("{name} with {n} args ran: {body}"));
                    assert_eq!(err.line, 15, "{name}({args}): {err:?}");
                    assert!(err.message.contains(&format!("`{name}`")), "{err:?}");
                }
            }
        }
    }
    assert!(runs > 1000);
}

#[test]
fn memcpy_with_two_arguments_names_the_count() {
    let out = run(&program(
        "    float *a = (float *)malloc(64);\n    float *b = (float *)malloc(64);\n    memcpy(a, b);",
    ));
    let err = out.error.unwrap();
    assert_eq!(err.message, "`memcpy` takes 3 arguments, not 2");
    assert_eq!(err.line, 7);
    // The log holds nothing of the bad call.
    assert!(
        !out.log
            .iter()
            .any(|e| matches!(e.call, Call::HostRead { .. }))
    );
}
