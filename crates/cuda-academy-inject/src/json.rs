//! One JSON object on one line, built field by field without a JSON crate: keys are this
//! library's own words, values are numbers or strings escaped here (kernel names and NVTX text
//! come from the program and may hold anything, including invalid UTF-8, which becomes U+FFFD).

use std::fmt::Write as _;

/// A JSON object being written: `Line::new("api").u64("bytes", 8).finish()`.
pub struct Line {
    text: String,
}

impl Line {
    /// `{"t":"<kind>"`.
    pub fn new(kind: &str) -> Line {
        let mut line = Line {
            text: String::with_capacity(192),
        };
        line.text.push('{');
        line.key("t");
        push_str(&mut line.text, kind);
        line
    }

    fn key(&mut self, key: &str) {
        if self.text.len() > 1 {
            self.text.push(',');
        }
        push_str(&mut self.text, key);
        self.text.push(':');
    }

    /// An unsigned number (pointers and handles too: JSON readers here take u64).
    pub fn u64(mut self, key: &str, value: u64) -> Line {
        self.key(key);
        let _ = write!(self.text, "{value}");
        self
    }

    /// A signed number.
    pub fn i64(mut self, key: &str, value: i64) -> Line {
        self.key(key);
        let _ = write!(self.text, "{value}");
        self
    }

    /// A boolean.
    pub fn bool(mut self, key: &str, value: bool) -> Line {
        self.key(key);
        self.text.push_str(if value { "true" } else { "false" });
        self
    }

    /// A string, escaped.
    pub fn str(mut self, key: &str, value: &str) -> Line {
        self.key(key);
        push_str(&mut self.text, value);
        self
    }

    /// Three numbers, `[x,y,z]` (grid and block sizes).
    pub fn dim3(mut self, key: &str, value: [u64; 3]) -> Line {
        self.key(key);
        let _ = write!(self.text, "[{},{},{}]", value[0], value[1], value[2]);
        self
    }

    /// A list of numbers, `null` where one is not known (`[1,null,3]`).
    pub fn u64_list(mut self, key: &str, values: &[Option<u64>]) -> Line {
        self.key(key);
        self.text.push('[');
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                self.text.push(',');
            }
            match v {
                Some(v) => {
                    let _ = write!(self.text, "{v}");
                }
                None => self.text.push_str("null"),
            }
        }
        self.text.push(']');
        self
    }

    /// The line, `}` and newline added.
    pub fn finish(mut self) -> String {
        self.text.push_str("}\n");
        self.text
    }
}

/// `value` as a JSON string: quotes, backslashes and every control character escaped (so a
/// name can never break the line), everything else as it is.
fn push_str(out: &mut String, value: &str) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' || ('\u{80}'..='\u{9f}').contains(&c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_in_order_and_strings_escaped() {
        let line = Line::new("kernel")
            .u64("bytes", 8)
            .i64("ret", -1)
            .bool("ok", true)
            .str("name", "a\"b\\c\n\u{1b}[2J\u{9b}")
            .dim3("grid", [1, 2, 3])
            .finish();
        assert_eq!(
            line,
            "{\"t\":\"kernel\",\"bytes\":8,\"ret\":-1,\"ok\":true,\"name\":\"a\\\"b\\\\c\\n\\u001b[2J\\u009b\",\"grid\":[1,2,3]}\n"
        );
    }
}
