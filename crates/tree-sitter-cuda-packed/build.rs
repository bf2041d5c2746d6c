//! Rewrites tree-sitter-cuda's generated `parser.c` so its two parse tables, the dense
//! `ts_parse_table[LARGE_STATE_COUNT][SYMBOL_COUNT]` (5.8 MB of mostly zeros and repeated rows)
//! and the flat `ts_small_parse_table` (0.77 MB of repeated groups), and its lex modes
//! (`ts_lex_modes`, 78 KB, one lexer state per parse state), are stored LZ-packed and unpacked
//! at first use into zero-initialised arrays, which cost no space in the binary. Everything
//! else in `parser.c` is compiled as generated.
//!
//! Falls back to tree-sitter-cuda's own build (cfg `tree_sitter_cuda_unpacked`) with a warning
//! when the sources are not found or not in the expected shape: the program is then bigger,
//! never wrong. Each packed stream is decoded again here and compared before it is used.

#[path = "build/lz.rs"]
mod lz;
#[path = "build/tables.rs"]
mod tables;

use std::path::{Path, PathBuf};
use std::{env, fs};

const VERSION: &str = "0.21.2";
const DENSE_START: &str =
    "static const uint16_t ts_parse_table[LARGE_STATE_COUNT][SYMBOL_COUNT] = {\n";
const LEX_MODES_START: &str = "static const TSLexerMode ts_lex_modes[STATE_COUNT] = {\n";
const SMALL_START: &str = "static const uint16_t ts_small_parse_table[] = {\n";
const TABLE_END: &str = "\n};\n";
const LANGUAGE_FN: &str = "TS_PUBLIC const TSLanguage *tree_sitter_cuda(void) {\n";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tree_sitter_cuda_unpacked)");
    println!("cargo:rerun-if-changed=src/unpack.c");
    println!("cargo:rerun-if-env-changed=TREE_SITTER_CUDA_SRC");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap_or_else(|_| ".".into()));
    match find_sources().and_then(|src| build_packed(&src, &out).map(|()| src)) {
        Ok(src) => println!("cargo:rerun-if-changed={}", src.join("parser.c").display()),
        Err(why) => {
            println!(
                "cargo:warning=tree-sitter-cuda's parse table is not packed ({why}); \
                 using tree-sitter-cuda as is (about 5 MB bigger)"
            );
            println!("cargo:rustc-cfg=tree_sitter_cuda_unpacked");
        }
    }
}

/// tree-sitter-cuda's `src/`: `$TREE_SITTER_CUDA_SRC`, else Cargo's registry source folder
/// (`$CARGO_HOME/registry/src/<index>/tree-sitter-cuda-0.21.2/src`), where Cargo unpacked it
/// because it is a dependency of this crate.
fn find_sources() -> Result<PathBuf, String> {
    if let Some(dir) = env::var_os("TREE_SITTER_CUDA_SRC") {
        return Ok(PathBuf::from(dir));
    }
    let cargo_home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))
        .ok_or("neither CARGO_HOME nor HOME is set")?;
    let registry = cargo_home.join("registry").join("src");
    let indexes = fs::read_dir(&registry).map_err(|e| format!("{}: {e}", registry.display()))?;
    indexes
        .filter_map(Result::ok)
        .map(|index| {
            index
                .path()
                .join(format!("tree-sitter-cuda-{VERSION}"))
                .join("src")
        })
        .find(|src| src.join("parser.c").is_file())
        .ok_or_else(|| {
            format!(
                "no tree-sitter-cuda-{VERSION}/src/parser.c under {}",
                registry.display()
            )
        })
}

fn build_packed(src: &Path, out: &Path) -> Result<(), String> {
    let parser = fs::read_to_string(src.join("parser.c")).map_err(|e| format!("parser.c: {e}"))?;
    let rewritten = rewrite(&parser)?;
    let generated = out.join("parser.c");
    fs::write(&generated, rewritten).map_err(|e| format!("{}: {e}", generated.display()))?;
    cc::Build::new()
        .std("c11")
        .include(src)
        .flag_if_supported("-Wno-unused-parameter")
        .file(&generated)
        .file(src.join("scanner.c"))
        .file("src/unpack.c")
        .try_compile("tree-sitter-cuda-packed")
        .map_err(|e| format!("compiling: {e}"))
}

/// `parser` with its lex modes and both parse tables replaced by packed ones and the language
/// function renamed to `tree_sitter_cuda_packed`, unpacking the tables once before returning
/// the language.
fn rewrite(parser: &str) -> Result<String, String> {
    let states = tables::define(parser, "STATE_COUNT")?;
    let rows = tables::define(parser, "LARGE_STATE_COUNT")?;
    let columns = tables::define(parser, "SYMBOL_COUNT")?;
    let symbols = tables::symbol_values(parser)?;
    let modes = find_table(parser, LEX_MODES_START, 0)?;
    let dense = find_table(parser, DENSE_START, modes.end)?;
    let small = find_table(parser, SMALL_START, dense.end)?;
    let mode_values = tables::lex_modes(&parser[modes.body.clone()], states)?;
    let dense_values = tables::dense_table(&parser[dense.body.clone()], rows, columns, &symbols)?;
    let small_values = tables::small_table(&parser[small.body.clone()], &symbols)?;
    let rest = &parser[small.end..];
    if !rest.contains(LANGUAGE_FN) {
        return Err("no tree_sitter_cuda() function".into());
    }
    let rest = rest.replace(
        LANGUAGE_FN,
        "TS_PUBLIC const TSLanguage *tree_sitter_cuda_packed(void) {\n  \
         tree_sitter_cuda_packed_once(ts_tables_unpack);\n",
    );
    let small_type = format!("uint16_t ts_small_parse_table[{}]", small_values.len());
    Ok(format!(
        "{}{}{}{}{}{}{UNPACK_C}{rest}",
        &parser[..modes.start],
        packed_c(
            "TSLexerMode ts_lex_modes[STATE_COUNT]",
            &mode_values,
            Some(3)
        )?,
        &parser[modes.end..dense.start],
        packed_c(
            "uint16_t ts_parse_table[LARGE_STATE_COUNT][SYMBOL_COUNT]",
            &dense_values,
            Some(columns)
        )?,
        &parser[dense.end..small.start],
        packed_c(&small_type, &small_values, None)?,
    ))
}

/// Where a table's definition starts, where its initialisers are and where it ends.
struct Table {
    start: usize,
    body: std::ops::Range<usize>,
    end: usize,
}

/// The first table opened by `opening` at or after `from`.
fn find_table(parser: &str, opening: &str, from: usize) -> Result<Table, String> {
    let name = opening.trim_end_matches(" = {\n");
    let start = from
        + parser[from..]
            .find(opening)
            .ok_or(format!("no `{name}` (after the dense table)"))?;
    let body_start = start + opening.len();
    let body_len = parser[body_start..]
        .find(TABLE_END)
        .ok_or(format!("`{name}` never ends"))?;
    let body = body_start..body_start + body_len;
    Ok(Table {
        start,
        end: body.end + TABLE_END.len(),
        body,
    })
}

/// The C that replaces a table (`declaration`: its type, name and size): a zeroed array of the
/// same type and its packed values, after checking that they unpack to `values`. `row_len`
/// lets the packer copy from one row up.
fn packed_c(declaration: &str, values: &[u16], row_len: Option<usize>) -> Result<String, String> {
    let name = declaration
        .split(['[', ' '])
        .nth(1)
        .ok_or(format!("no table name in `{declaration}`"))?;
    let packed = lz::pack(values, row_len);
    if lz::unpack(&packed, values.len()) != values {
        return Err(format!("the packed {name} does not unpack to the original"));
    }
    let mut c = format!(
        "/* Packed by tree-sitter-cuda-packed's build.rs; unpacked by unpack.c on first use. */\n\
         static {declaration};\n\
         static const uint16_t {name}_packed[] = {{\n"
    );
    for line in packed.chunks(24) {
        let values: Vec<String> = line.iter().map(u16::to_string).collect();
        c.push_str(&values.join(","));
        c.push_str(",\n");
    }
    c.push_str("};\n");
    Ok(c)
}

/// Fills the three tables, once per process (unpack.c).
const UNPACK_C: &str = "\
void tree_sitter_cuda_packed_unpack(uint16_t *, size_t, const uint16_t *, size_t);
void tree_sitter_cuda_packed_once(void (*)(void));
/* Each table is unpacked as an array of uint16_t: a TSLexerMode is three of them (hence the
 * parenthesised divisor, which tells GCC the division by uint16_t is meant). */
_Static_assert(sizeof(TSLexerMode) == 3 * sizeof(uint16_t), \"TSLexerMode is not 3 uint16_t\");
#define TS_UNPACK(name) tree_sitter_cuda_packed_unpack((uint16_t *)name, \\
  sizeof name / (sizeof(uint16_t)), name##_packed, sizeof name##_packed / sizeof(uint16_t))
static void ts_tables_unpack(void) {
  TS_UNPACK(ts_lex_modes);
  TS_UNPACK(ts_parse_table);
  TS_UNPACK(ts_small_parse_table);
}
#undef TS_UNPACK
";
