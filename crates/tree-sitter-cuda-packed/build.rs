//! Rewrites tree-sitter-cuda's generated `parser.c` so its dense parse table
//! (`ts_parse_table[LARGE_STATE_COUNT][SYMBOL_COUNT]`, 5.8 MB of mostly zeros and repeated rows)
//! is stored LZ-packed and unpacked at first use into a zero-initialised array, which costs no
//! space in the binary. Everything else in `parser.c` is compiled as generated.
//!
//! Falls back to tree-sitter-cuda's own build (cfg `tree_sitter_cuda_unpacked`) with a warning
//! when the sources are not found or not in the expected shape: the program is then bigger,
//! never wrong. The packed stream is decoded again here and compared before it is used.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::{env, fs};

const VERSION: &str = "0.21.2";
const TABLE_START: &str =
    "static const uint16_t ts_parse_table[LARGE_STATE_COUNT][SYMBOL_COUNT] = {\n";
const LANGUAGE_FN: &str = "TS_PUBLIC const TSLanguage *tree_sitter_cuda(void) {\n";
const MIN_COPY: usize = 4;
const MAX_RUN: usize = 0x7fff;

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

/// `parser` with the dense table replaced by a packed one and the language function renamed
/// to `tree_sitter_cuda_packed`, unpacking the table once before returning the language.
fn rewrite(parser: &str) -> Result<String, String> {
    let rows = define(parser, "LARGE_STATE_COUNT")?;
    let columns = define(parser, "SYMBOL_COUNT")?;
    let symbols = symbol_values(parser)?;
    let start = parser.find(TABLE_START).ok_or("no dense ts_parse_table")?;
    let body_start = start + TABLE_START.len();
    let body_len = parser[body_start..]
        .find("\n};\n")
        .ok_or("ts_parse_table never ends")?;
    let table = dense_table(
        &parser[body_start..body_start + body_len],
        rows,
        columns,
        &symbols,
    )?;
    let packed = pack(&table, columns);
    if unpack(&packed, table.len()) != table {
        return Err("the packed table does not unpack to the original".into());
    }
    let rest = &parser[body_start + body_len + "\n};\n".len()..];
    if !rest.contains(LANGUAGE_FN) {
        return Err("no tree_sitter_cuda() function".into());
    }
    let rest = rest.replace(
        LANGUAGE_FN,
        "TS_PUBLIC const TSLanguage *tree_sitter_cuda_packed(void) {\n  \
         tree_sitter_cuda_packed_once(ts_parse_table_unpack);\n",
    );
    Ok(format!(
        "{}{}{rest}",
        &parser[..start],
        packed_table_c(&packed)
    ))
}

/// The value of `#define NAME value`.
fn define(parser: &str, name: &str) -> Result<usize, String> {
    let prefix = format!("#define {name} ");
    parser
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .and_then(|value| value.trim().parse().ok())
        .ok_or_else(|| format!("no #define {name}"))
}

/// Each symbol's number, from `enum ts_symbol_identifiers` (plus the built-in end symbol, 0).
fn symbol_values(parser: &str) -> Result<HashMap<&str, usize>, String> {
    let start = parser
        .find("enum ts_symbol_identifiers {\n")
        .ok_or("no symbol enum")?;
    let body = &parser[start..];
    let body = &body[..body.find("\n};").ok_or("symbol enum never ends")?];
    let mut values: HashMap<&str, usize> = body
        .lines()
        .skip(1)
        .filter_map(|line| {
            let (name, value) = line.trim().trim_end_matches(',').split_once(" = ")?;
            Some((name, value.parse().ok()?))
        })
        .collect();
    values.insert("ts_builtin_sym_end", 0);
    Ok(values)
}

/// The table's designated initialisers (`[STATE(3)] = {`, `[sym_x] = ACTIONS(7),`, `},`) as a
/// dense row-major array.
fn dense_table(
    body: &str,
    rows: usize,
    columns: usize,
    symbols: &HashMap<&str, usize>,
) -> Result<Vec<u16>, String> {
    let mut table = vec![0u16; rows * columns];
    let mut row = None;
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line == "}," {
            row = None;
        } else if let Some(index) = line.strip_suffix("] = {") {
            let index = number(index.trim_start_matches('['));
            row = Some(
                index
                    .filter(|&r| r < rows)
                    .ok_or(format!("bad row `{line}`"))?,
            );
        } else {
            let (key, value) = line
                .strip_prefix('[')
                .and_then(|l| l.trim_end_matches(',').split_once("] = "))
                .ok_or(format!("unexpected line `{line}`"))?;
            let column = symbols.get(key).copied().filter(|&c| c < columns);
            let cell = row.zip(column).ok_or(format!("bad cell `{line}`"))?;
            let value = number(value).and_then(|v| u16::try_from(v).ok());
            table[cell.0 * columns + cell.1] = value.ok_or(format!("bad value `{line}`"))?;
        }
    }
    Ok(table)
}

/// `12`, `STATE(12)` or `ACTIONS(12)` as 12.
fn number(text: &str) -> Option<usize> {
    let inner = ["STATE(", "ACTIONS("]
        .iter()
        .find_map(|p| text.strip_prefix(p).and_then(|t| t.strip_suffix(')')))
        .unwrap_or(text);
    inner.parse().ok()
}

/// Greedy LZ over u16 values in unpack.c's format. Candidates for a copy: the last place the
/// next three values occurred, the previous value (runs of zeros) and the same column one row
/// up (neighbouring states share most of their actions).
fn pack(data: &[u16], row_len: usize) -> Vec<u16> {
    let mut out = Vec::new();
    let mut literals: Vec<u16> = Vec::new();
    let mut last_seen: HashMap<[u16; 3], usize> = HashMap::new();
    let key = |i: usize| [data[i], data[i + 1], data[i + 2]];
    let mut i = 0;
    while i < data.len() {
        let mut best = (0, 0);
        let hashed = (i + 3 <= data.len())
            .then(|| last_seen.get(&key(i)).copied())
            .flatten();
        for from in hashed
            .into_iter()
            .chain(i.checked_sub(1))
            .chain(i.checked_sub(row_len))
        {
            let len = (0..MAX_RUN.min(data.len() - i))
                .take_while(|&k| data[i + k] == data[from + k])
                .count();
            if len > best.0 {
                best = (len, i - from);
            }
        }
        let step = if best.0 >= MIN_COPY && best.1 < 1 << 32 {
            best.0
        } else {
            1
        };
        for k in i..(i + step).min(data.len().saturating_sub(2)) {
            last_seen.insert(key(k), k);
        }
        if step == 1 {
            literals.push(data[i]);
            if literals.len() == MAX_RUN {
                flush(&mut out, &mut literals);
            }
        } else {
            flush(&mut out, &mut literals);
            out.extend([0x8000 | best.0 as u16, best.1 as u16, (best.1 >> 16) as u16]);
        }
        i += step;
    }
    flush(&mut out, &mut literals);
    out
}

fn flush(out: &mut Vec<u16>, literals: &mut Vec<u16>) {
    if !literals.is_empty() {
        out.push(literals.len() as u16);
        out.append(literals);
    }
}

/// unpack.c's loop in Rust, to check `pack` before its output is compiled in.
fn unpack(packed: &[u16], len: usize) -> Vec<u16> {
    let mut out = Vec::with_capacity(len);
    let mut i = 0;
    while i < packed.len() {
        let head = packed[i] as usize;
        i += 1;
        if head & 0x8000 != 0 {
            let (Some(&lo), Some(&hi)) = (packed.get(i), packed.get(i + 1)) else {
                break;
            };
            i += 2;
            let distance = lo as usize | (hi as usize) << 16;
            if distance == 0 || distance > out.len() {
                break;
            }
            for _ in 0..head & 0x7fff {
                out.push(out[out.len() - distance]);
            }
        } else {
            out.extend(packed.iter().skip(i).take(head));
            i += head;
        }
    }
    out
}

/// The C that replaces the dense table.
fn packed_table_c(packed: &[u16]) -> String {
    let mut c = String::from(
        "/* Packed by tree-sitter-cuda-packed's build.rs; unpacked by unpack.c on first use. */\n\
         static uint16_t ts_parse_table[LARGE_STATE_COUNT][SYMBOL_COUNT];\n\
         static const uint16_t ts_parse_table_packed[] = {\n",
    );
    for line in packed.chunks(24) {
        let values: Vec<String> = line.iter().map(u16::to_string).collect();
        c.push_str(&values.join(","));
        c.push_str(",\n");
    }
    c.push_str(
        "};\n\
         void tree_sitter_cuda_packed_unpack(uint16_t *, size_t, const uint16_t *, size_t);\n\
         void tree_sitter_cuda_packed_once(void (*)(void));\n\
         static void ts_parse_table_unpack(void) {\n  \
           tree_sitter_cuda_packed_unpack(&ts_parse_table[0][0], \
         (size_t)LARGE_STATE_COUNT * SYMBOL_COUNT, ts_parse_table_packed,\n    \
           sizeof ts_parse_table_packed / sizeof ts_parse_table_packed[0]);\n}\n",
    );
    c
}
