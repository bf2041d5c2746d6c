use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::*;

fn refused(text: &str) -> Vec<Diagnostic> {
    match parse(text) {
        Ok(_) => panic!("parsed: {text}"),
        Err(d) => d,
    }
}

fn program(body: &str) -> String {
    format!("#include \"academy.cuh\"\nint main()\n{{\n{body}\n    return 0;\n}}\n")
}

/// CK6: defines cannot bypass the nesting limit: a define's value nested 150 deep, used
/// inside another 150 levels, is refused at 200, not an overflow of the stack.
#[test]
fn nesting_through_defines_is_refused_at_the_limit() {
    let src = format!(
        "#define P {}1{}\n{}",
        "(".repeat(150),
        ")".repeat(150),
        program(&format!(
            "    int x = {}P{};",
            "-(".repeat(150),
            ")".repeat(150)
        ))
    );
    let d = refused(&src);
    assert!(d[0].message.contains("nested more than 200 deep"), "{d:?}");
    // The same value used on its own is fine.
    let ok = format!(
        "#define P {}1{}\n{}",
        "(".repeat(150),
        ")".repeat(150),
        program("    int x = P;")
    );
    assert!(parse(&ok).is_ok());
}

/// A cancelled halt stops the parse (whichever phase it is in), and so does a passed deadline.
#[test]
fn a_halted_check_stops_the_parse() {
    let src = program(&"    int x = 1;\n".repeat(5_000));
    let cancel = AtomicBool::new(true);
    assert_eq!(
        parse_within(&src, Halt::cancel_only(&cancel)),
        Err(NotParsed::Halted(Halted::Cancelled))
    );
    let never = AtomicBool::new(false);
    let late = parse_within(&src, Halt::new(&never, Duration::ZERO));
    assert!(
        matches!(late, Err(NotParsed::Halted(h)) if h != Halted::Cancelled),
        "{late:?}"
    );
    // Without macros too (tree-sitter's own progress callback, then the walk).
    let plain = src.replace("#include \"academy.cuh\"\n", "");
    assert_eq!(
        parse_within(&plain, Halt::cancel_only(&cancel)),
        Err(NotParsed::Halted(Halted::Cancelled))
    );
    assert!(parse_within(&plain, Halt::cancel_only(&never)).is_ok());
}

/// CK9 (nvcc refuses these), CK16 (a prototype without a body), CK13 (a NUL byte).
#[test]
fn what_nvcc_refuses_is_named() {
    let d = refused("void main()\n{\n}\n");
    assert!(d[0].message.contains("`main` must return `int`"), "{d:?}");
    let two = "int main()\n{\n    return 0;\n}\nint main()\n{\n    return 1;\n}\n";
    let d = refused(two);
    assert_eq!(d[0].line, 5);
    assert!(
        d[0].message
            .contains("redefinition of `main`, first defined on line 1"),
        "{d:?}"
    );
    let proto = "int f(int a);\nint main()\n{\n    return f(1);\n}\n";
    let d = refused(proto);
    assert!(
        d[0].message
            .contains("`f` is declared on line 1 but never defined"),
        "{d:?}"
    );
    let d = refused("int main()\n{\n    int x = 1;\0\n}\n");
    assert!(d[0].message.contains("NUL byte"), "{d:?}");
    assert_eq!((d[0].line, d[0].column), (3, 15));
}

/// CK12, CK14: files gcc reads are read.
#[test]
fn cr_line_endings_and_nested_empty_blocks_parse() {
    let cr = "#include \"academy.cuh\"\rint main()\r{\r    int x = 1;\r    return x;\r}\r";
    assert!(parse(cr).is_ok(), "{:?}", parse(cr));
    for blocks in ["{ { } }", "{{}}", "{ {\n} }"] {
        let src = program(blocks);
        assert!(parse(&src).is_ok(), "{blocks}: {:?}", parse(&src));
    }
    let deep = program(&format!("{}{}", "{".repeat(150), "}".repeat(150)));
    assert!(parse(&deep).is_ok());
}
