//! Reading parser.c's tables back into numbers: its `#define`s, the symbol enum, the dense
//! table's designated initialisers, the small table's flat list and the lex modes.

use std::collections::HashMap;

/// The value of `#define NAME value`.
pub fn define(parser: &str, name: &str) -> Result<usize, String> {
    let prefix = format!("#define {name} ");
    parser
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .and_then(|value| value.trim().parse().ok())
        .ok_or_else(|| format!("no #define {name}"))
}

/// Each symbol's number, from `enum ts_symbol_identifiers` (plus the built-in end symbol, 0).
pub fn symbol_values(parser: &str) -> Result<HashMap<&str, usize>, String> {
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
pub fn dense_table(
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

/// The small table's flat list (`[7] = 2,` starting a state's groups, then `ACTIONS(12), 1,`
/// and symbol names) as its values. Each `[N] =` must name the position it is at, so a value
/// read wrongly or skipped cannot go unnoticed.
pub fn small_table(body: &str, symbols: &HashMap<&str, usize>) -> Result<Vec<u16>, String> {
    let mut table = Vec::new();
    for item in body.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let value = match item.strip_prefix('[').and_then(|i| i.split_once("] = ")) {
            Some((at, value)) if number(at) == Some(table.len()) => number(value),
            Some(_) => return Err(format!("`{item}` is not at position {}", table.len())),
            None => number(item).or_else(|| symbols.get(item).copied()),
        };
        let value = value.and_then(|v| u16::try_from(v).ok());
        table.push(value.ok_or(format!("bad value `{item}` in the small table"))?);
    }
    Ok(table)
}

/// `ts_lex_modes`' initialisers (`[7] = {.lex_state = 500, .external_lex_state = 2},`) as three
/// values per state in `TSLexerMode`'s field order; a field left out is 0.
pub fn lex_modes(body: &str, states: usize) -> Result<Vec<u16>, String> {
    const FIELDS: [&str; 3] = [".lex_state", ".external_lex_state", ".reserved_word_set_id"];
    let mut modes = vec![0u16; states * FIELDS.len()];
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let bad = || format!("unexpected lex mode `{line}`");
        let (state, fields) = line
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix("},"))
            .and_then(|l| l.split_once("] = {"))
            .ok_or_else(bad)?;
        let state = number(state).filter(|&s| s < states).ok_or_else(bad)?;
        for field in fields.split(", ") {
            let (name, value) = field.split_once(" = ").ok_or_else(bad)?;
            let column = FIELDS.iter().position(|f| *f == name).ok_or_else(bad)?;
            let value = number(value).and_then(|v| u16::try_from(v).ok());
            modes[state * FIELDS.len() + column] = value.ok_or_else(bad)?;
        }
    }
    Ok(modes)
}

/// `12`, `STATE(12)` or `ACTIONS(12)` as 12.
fn number(text: &str) -> Option<usize> {
    let inner = ["STATE(", "ACTIONS("]
        .iter()
        .find_map(|p| text.strip_prefix(p).and_then(|t| t.strip_suffix(')')))
        .unwrap_or(text);
    inner.parse().ok()
}
