//! The recorded traces the binary carries, so that `trace --open sample:NAME` works in an
//! installed copy, with no checkout and no GPU: `build.rs` embeds, deflated, every
//! `*.trace.jsonl` of `tests/fixtures/trace-programs/public/h200/` (real public programs traced
//! on an H200; where each comes from: that folder's README) and of
//! `tests/fixtures/trace-programs/h200/` (this repository's own test programs).

use super::file::{self, Trace};

include!(concat!(env!("OUT_DIR"), "/embedded_traces.rs"));

/// What `--open` takes to name an embedded trace: `sample:NAME`.
pub const PREFIX: &str = "sample:";

/// The names of the embedded traces, in the order `build.rs` put them.
pub fn names() -> Vec<&'static str> {
    EMBEDDED_TRACES.iter().map(|(name, _, _)| *name).collect()
}

/// The folder of the repository an embedded trace was recorded into (its source and README
/// are there).
pub fn folder(name: &str) -> Option<&'static str> {
    EMBEDDED_TRACES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, dir, _)| *dir)
}

/// The embedded trace `name`, read, or why there is none.
pub fn open(name: &str) -> anyhow::Result<Trace> {
    let Some((_, _, packed)) = EMBEDDED_TRACES.iter().find(|(n, _, _)| *n == name) else {
        let known = names();
        let list = if known.is_empty() {
            "this build carries none".to_string()
        } else {
            format!("this build carries: {}", known.join(", "))
        };
        anyhow::bail!(
            "there is no sample trace {}; {list} (open one with --open {PREFIX}NAME)",
            crate::sanitize::clean_line(name)
        );
    };
    let bytes = miniz_oxide::inflate::decompress_to_vec(packed).map_err(|e| {
        anyhow::anyhow!("the sample trace {name} embedded in this build does not inflate ({e:?}); rebuild cuda-academy")
    })?;
    file::read(bytes.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_trace_opens_and_is_the_file_it_came_from() {
        assert!(names().contains(&"two_streams"), "{:?}", names());
        for name in names() {
            let Some(dir) = folder(name) else {
                panic!("{name} has no folder")
            };
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(dir)
                .join(format!("{name}.trace.jsonl"));
            let from_file = file::read_path(&path).unwrap();
            assert_eq!(open(name).unwrap(), from_file, "{name}");
        }
    }

    #[test]
    fn an_unknown_name_lists_the_ones_there_are() {
        let err = open("no-such\u{1b}[2J").unwrap_err().to_string();
        assert!(err.contains("two_streams"), "{err}");
        assert!(!err.contains('\u{1b}'), "{err}");
    }
}
