use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::*;
use crate::exercise::halt::Halted;

static NEVER: AtomicBool = AtomicBool::new(false);

fn halt() -> Halt<'static> {
    Halt::cancel_only(&NEVER)
}

fn expanded(text: &str) -> String {
    expand(text, halt()).unwrap().text.into_owned()
}

fn refused(text: &str) -> Diagnostic {
    match expand(text, halt()) {
        Err(NotParsed::Problems(mut d)) => d.remove(0),
        Err(NotParsed::Halted(h)) => panic!("halted: {h:?}"),
        Ok(t) => panic!("expanded: {}", &t.text[..t.text.len().min(200)]),
    }
}

#[test]
fn a_statement_macro_expands_on_its_line_and_lines_stay_put() {
    let src = "#define CHECK(call) do { \\\n    int e = (call); \\\n  } while (0)\nint main()\n{\n    CHECK(f(1, g(2)));\n    return 0;\n}\n";
    let out = expanded(src);
    assert_eq!(out.lines().count(), src.lines().count());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "");
    assert_eq!(lines[2], "");
    assert_eq!(
        lines[5],
        "    do {      int e = (f(1, g(2)));    } while (0);"
    );
}

#[test]
fn stringify_paste_nesting_and_arguments_over_lines() {
    let src = "#define S(x) #x\n#define CAT(a, b) a ## b\n#define TWICE(x) (S(x) CAT(x, 2))\nTWICE(\"q\\\\\"\n)\nnext\n";
    let out = expanded(src);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[3], r#"("\"q\\\\\"" "q\\"2)"#, "{out}");
    assert_eq!(lines[4], "");
    assert_eq!(lines[5], "next");
}

#[test]
fn comments_strings_and_other_names_are_left_alone() {
    let src = "#define F(x) x + 1\nint a = F(1); // F(2)\nconst char *s = \"F(3)\";\n/* F(4)\n F(5) */ int FF = 0; int b = F (6);\n";
    let out = expanded(src);
    assert!(out.contains("int a = 1 + 1; // F(2)"), "{out}");
    assert!(out.contains("\"F(3)\""));
    assert!(
        out.contains("/* F(4)\n F(5) */ int FF = 0; int b = 6 + 1;"),
        "{out}"
    );
}

#[test]
fn bad_use_is_a_diagnostic_and_runaway_growth_is_bounded() {
    let arity = refused("#define F(a, b) a\nF(1)\n");
    assert!(
        arity.message.contains("takes 2 argument(s), not 1"),
        "{arity:?}"
    );
    assert_eq!(arity.line, 2);
    let open = refused("#define F(a) a\nF(1\n");
    assert!(open.message.contains("not closed"), "{open:?}");
    // An invocation left open for long stops at the line limit, not at the end of the file.
    let long = format!("#define F(a) a\nF(1\n{}", "2,\n".repeat(10_000));
    let err = refused(&long);
    assert!(err.message.contains("within 64 lines"), "{err:?}");
    // Each level copies four times within the depth limit: 4^15 copies would be gigabytes.
    let mut src = String::from("#define L0(x) x x x x\n");
    for k in 1..16 {
        let p = k - 1;
        src.push_str(&format!(
            "#define L{k}(x) L{p}(x) L{p}(x) L{p}(x) L{p}(x)\n"
        ));
    }
    src.push_str("L15(abcdefgh)\n");
    let err = refused(&src);
    assert!(err.message.contains("more than 4 MiB"), "{err:?}");
    // Deeper than the limit is said so.
    let mut deep = String::from("#define D0(x) x\n");
    for k in 1..40 {
        deep.push_str(&format!("#define D{k}(x) D{}(x)\n", k - 1));
    }
    deep.push_str("D39(1)\n");
    let err = refused(&deep);
    assert!(err.message.contains("more than 16 deep"), "{err:?}");
    // A macro that names itself is not expanded inside itself.
    assert_eq!(
        expanded("#define R(x) R(x)\nR(1)\n").lines().nth(1),
        Some("R(1)")
    );
}

/// Review 2026-12-01b CK15: arguments are expanded before they are substituted, so a macro
/// nested in its own argument works up to the depth limit, and past it the limit is named.
#[test]
fn arguments_expand_first_and_nesting_past_the_limit_is_named() {
    let nest = |n: usize| {
        format!(
            "#define C(x) x\nint a = {}1{};\n",
            "C(".repeat(n),
            ")".repeat(n)
        )
    };
    assert_eq!(expanded(&nest(2)).lines().nth(1), Some("int a = 1;"));
    assert_eq!(expanded(&nest(16)).lines().nth(1), Some("int a = 1;"));
    let err = refused(&nest(17));
    assert!(
        err.message
            .contains("the macro `C` expands macros more than 16 deep"),
        "{err:?}"
    );
    // `##` and `#` take the argument as written, not expanded.
    let src = "#define N 4\n#define CAT(a, b) a ## b\n#define S(x) #x\nCAT(N, 2) S(N) CAT(x, N)\n";
    assert_eq!(expanded(src).lines().nth(3), Some("N2 \"N\" xN"));
}

#[test]
fn object_like_defines_expand_in_place_and_undef_ends_them() {
    let src = "#define N 4\n#define BYTES (N * sizeof(float)) // bytes\nint main() { return BYTES + N1 + 1e5f; }\n#undef N\nint x = N;\n";
    let out = expanded(src);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert_eq!(
        lines[2],
        "int main() { return (4 * sizeof(float)) + N1 + 1e5f; }"
    );
    assert_eq!(lines[3], "");
    assert_eq!(lines[4], "int x = N;");
    // A self-reference stays as it is; an empty value is nothing.
    assert_eq!(
        expanded("#define X X\n#define E\nint y = X E;\n")
            .lines()
            .nth(2),
        Some("int y = X ;")
    );
    let plain = "int main() { return 0; }\n";
    assert!(matches!(
        expand(plain, halt()),
        Ok(Expanded {
            text: Cow::Borrowed(_),
            ..
        })
    ));
    // Variadic macros stay for the parser to name.
    let v = "#define P(...) printf(__VA_ARGS__)\n";
    assert_eq!(expanded(v), v);
}

/// `#define A{i} (A{i-1} + A{i-1})` for 30 lines (CK2): 2^30 copies. The expansion stops at a
/// bound with a diagnostic, having done a bounded amount of work.
#[test]
fn a_doubling_define_chain_is_a_diagnostic() {
    for copies in [2, 3] {
        let mut src = String::from("#define A0 1\n");
        for i in 1..=30 {
            let uses = vec![format!("A{}", i - 1); copies].join(" + ");
            src.push_str(&format!("#define A{i} ({uses})\n"));
        }
        src.push_str("int main() { return A30; }\n");
        match expand_counted(&src, halt()) {
            Err(NotParsed::Problems(d)) => assert!(
                d[0].message.contains("more than 16 deep")
                    || d[0].message.contains("more than 4 MiB"),
                "{d:?}"
            ),
            Err(NotParsed::Halted(h)) => panic!("{h:?}"),
            Ok((t, _)) => panic!("expanded to {} bytes", t.text.len()),
        }
    }
}

/// CK3: a chain of defines, each using the one before, costs work in proportion to the file:
/// twice the defines, about twice the work (never the cube).
#[test]
fn chained_defines_cost_linear_work() {
    let chain = |n: usize, used: usize| {
        let mut s = String::from("#define A0 1\n");
        for i in 1..=n {
            s.push_str(&format!("#define A{i} (A{}+1)\n", i - 1));
        }
        for i in (0..n).step_by(n / used) {
            // Each use is 10 levels deep at most (the depth limit is 16).
            s.push_str(&format!("int v{i} = A{};\n", i % 10));
        }
        s
    };
    let work = |n: usize| match expand_counted(&chain(n, 100), halt()) {
        Ok((_, w)) => w,
        Err(_) => panic!("refused"),
    };
    let (w1, w2) = (work(2_000), work(4_000));
    assert!(w1 > 0 && w2 < 3 * w1, "{w1} then {w2}");
    // 35,000 defines (under the 1 MiB file cap) expand within the work budget.
    let big = chain(35_000, 1_000);
    assert!(big.len() < 1 << 20);
    let w = match expand_counted(&big, halt()) {
        Ok((_, w)) => w,
        Err(_) => panic!("refused"),
    };
    assert!(w < 4 * big.len() as u64, "{w} for {} bytes", big.len());
}

/// A set cancel flag, or a passed deadline, stops the expansion with the halt.
#[test]
fn a_halt_stops_the_expansion() {
    let mut src = String::from("#define L0(x) x x x x\n");
    for k in 1..8 {
        let p = k - 1;
        src.push_str(&format!(
            "#define L{k}(x) L{p}(x) L{p}(x) L{p}(x) L{p}(x)\n"
        ));
    }
    src.push_str("L7(abcdefgh)\n");
    assert!(expand(&src, halt()).is_ok());
    let cancel = AtomicBool::new(true);
    assert!(matches!(
        expand(&src, Halt::cancel_only(&cancel)),
        Err(NotParsed::Halted(Halted::Cancelled))
    ));
    let never = AtomicBool::new(false);
    assert!(matches!(
        expand(&src, Halt::new(&never, Duration::ZERO)),
        Err(NotParsed::Halted(h)) if h != Halted::Cancelled
    ));
}

/// Issue 27: each top-level use is placed: its expansion's columns map back to the use, and the
/// text after it (on its line, or after a use over several lines) to where it was written.
#[test]
fn each_use_is_placed_for_diagnostics() {
    let text = "#define F(x) ((x) + 1000)\nint a = F(1); int b;\nint c = F(2\n  ); int d;\n";
    let e = expand(text, halt()).unwrap();
    assert_eq!(e.map.uses.len(), 2, "{:?}", e.map.uses);
    let at = |line, column| Pos { line, column };
    // Line 2: `F(1)` at column 9 became `((1) + 1000)`; `int b` was at column 15.
    let line2 = e.text.lines().nth(1).unwrap();
    let inside = line2.find("1000").unwrap() as u32 + 1;
    assert_eq!(e.map.locate(at(2, inside)), (at(2, 9), Some("F")));
    let b = line2.find("int b").unwrap() as u32 + 1;
    assert_eq!(e.map.locate(at(2, b)), (at(2, 15), None));
    // Lines 3-4: the text after the `)` on line 4 starts the line in the expansion.
    let line4 = e.text.lines().nth(3).unwrap();
    let d = line4.find("int d").unwrap() as u32 + 1;
    assert_eq!(e.map.locate(at(4, d)), (at(4, 6), None));
    assert_eq!(e.map.locate(at(1, 1)), (at(1, 1), None), "no use on line 1");
}
