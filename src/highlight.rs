//! Syntax highlighting of code blocks with syntect and the two syntaxes lessons use, both in
//! `assets/syntaxes/`: CUDA C++ (fences `cuda`, `cu`, `cuh`, and `c`, `cpp`, `c++`, whose
//! snippets it reads as well) and shell commands (`sh`, `bash`, `shell`, `console`). Any other
//! fence (`text`, `toml`, ...) is shown plain. syntect's default syntax set is not built in: its
//! dump was 0.37 MB of the installed binary for fences no lesson uses (BENCHMARKS.md,
//! "Installed size, fourth pass").
//!
//! Loading takes about a millisecond, but the first highlight of a language compiles its regexes
//! lazily (~70 ms for C++-like code), so the app calls [`warm_up`] on a background thread and
//! renders code plain until [`is_ready`] says the work is done: the first frame never waits.
//! Results are cached per (language, code, colour), so a card re-rendered every frame costs a
//! hash and a clone, not a parse.

mod cache;
mod palette;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::text::{Line, Span};
use syntect::easy::HighlightLines;
use syntect::parsing::{SyntaxDefinition, SyntaxReference, SyntaxSet, SyntaxSetBuilder};
use syntect::util::LinesWithEndings;

use crate::theme::Theme;

/// The grammars, shipped inside the binary: (syntect name, source).
const SYNTAXES: [(&str, &str); 2] = [
    (
        "CUDA",
        include_str!("../assets/syntaxes/cuda.sublime-syntax"),
    ),
    (
        "Shell",
        include_str!("../assets/syntaxes/shell.sublime-syntax"),
    ),
];

/// Code larger than this is shown plain: syntect's cost grows with line length and a lesson
/// never needs a block this big highlighted (a multi-megabyte line must not stall a frame).
const MAX_CODE_BYTES: usize = 64 * 1024;
const MAX_LINE_BYTES: usize = 4 * 1024;

/// A CUDA snippet that touches most patterns, highlighted once by [`warm_up`].
const WARM_CUDA: &str = "#include <cuda_runtime.h>\n// comment\n__global__ void k(const float* __restrict__ in, float* out, int n) {\n  __shared__ float tile[256];\n  int i = blockIdx.x * blockDim.x + threadIdx.x; /* block */\n  if (i < n) { tile[threadIdx.x] = in[i] * 2.0f; }\n  __syncthreads();\n}\nint main() {\n  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);\n  k<<<dim3(4), 256, 0, s>>>(nullptr, nullptr, 0x10);\n  printf(\"%d\\n\", 'c');\n  return 0;\n}\n";

struct Assets {
    /// CUDA and Shell.
    syntaxes: SyntaxSet,
    theme: syntect::highlighting::Theme,
}

static ASSETS: OnceLock<Result<Assets, String>> = OnceLock::new();
static WARM: AtomicBool = AtomicBool::new(false);

fn load() -> Result<Assets, String> {
    let mut builder = SyntaxSetBuilder::new();
    for (name, source) in SYNTAXES {
        let definition =
            SyntaxDefinition::load_from_str(source, true, Some(name)).map_err(|e| {
                format!(
                    "the built-in {name} syntax does not parse ({e}); code is shown without colours"
                )
            })?;
        builder.add(definition);
    }
    Ok(Assets {
        syntaxes: builder.build(),
        theme: palette::theme(),
    })
}

/// Load the syntaxes and highlight a CUDA and a shell snippet once, so that the regexes are
/// compiled. Slow (tens of ms): call it on a background thread. Calling it again is cheap.
pub fn warm_up() {
    if is_ready() {
        return;
    }
    if let Ok(assets) = ASSETS.get_or_init(load) {
        let _ = highlight_with(assets, "cuda", WARM_CUDA, Theme::new(true));
        let _ = highlight_with(
            assets,
            "sh",
            "nvcc -O2 -o app app.cu && ./app --size 64\n",
            Theme::new(true),
        );
        WARM.store(true, Ordering::Release);
    }
}

/// Whether [`warm_up`] has finished, so that highlighting no longer pays the cold start.
pub fn is_ready() -> bool {
    WARM.load(Ordering::Acquire)
}

/// Why highlighting is unavailable, once loading has failed (never in a correct build).
pub fn load_error() -> Option<&'static str> {
    match ASSETS.get() {
        Some(Err(e)) => Some(e.as_str()),
        _ => None,
    }
}

/// Highlighted lines of `code` (one [`Line`] per source line, no trailing newline), for the
/// fence language `lang` (`cuda`/`cu`/`cuh`/`c`/`cpp`/`c++`, or `sh`/`bash`/`shell`/`console`).
/// `None` when [`warm_up`] has not finished, the language is unknown, or the code is too big to
/// highlight: the caller then shows it plain. With `theme.color == false` only font modifiers
/// remain. Never blocks on loading.
pub fn highlight(lang: &str, code: &str, theme: Theme) -> Option<Vec<Line<'static>>> {
    if !is_ready() {
        return None;
    }
    let assets = ASSETS.get()?.as_ref().ok()?;
    if let Some(lines) = cache::get(lang, code, theme) {
        return Some(lines);
    }
    let lines = highlight_with(assets, lang, code, theme)?;
    cache::put(lang, code, theme, &lines);
    Some(lines)
}

/// The syntax for a fence's info string (its first word, case-insensitive).
fn syntax_for<'s>(assets: &'s Assets, lang: &str) -> Option<&'s SyntaxReference> {
    let token = lang
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let name = match token.as_str() {
        "cuda" | "cu" | "cuh" | "c" | "h" | "cpp" | "c++" | "cxx" | "cc" | "hpp" => "CUDA",
        "sh" | "bash" | "shell" | "console" => "Shell",
        _ => return None,
    };
    assets.syntaxes.find_syntax_by_name(name)
}

fn highlight_with(
    assets: &Assets,
    lang: &str,
    code: &str,
    theme: Theme,
) -> Option<Vec<Line<'static>>> {
    if code.len() > MAX_CODE_BYTES {
        return None;
    }
    let syntax = syntax_for(assets, lang)?;
    let syntaxes = &assets.syntaxes;
    let mut state = HighlightLines::new(syntax, &assets.theme);
    let mut lines = Vec::new();
    for source in LinesWithEndings::from(code) {
        if source.len() > MAX_LINE_BYTES {
            return None;
        }
        let regions = state.highlight_line(source, syntaxes).ok()?;
        let spans: Vec<Span<'static>> = regions
            .into_iter()
            .map(|(style, text)| (style, text.trim_end_matches(['\n', '\r'])))
            .filter(|(_, text)| !text.is_empty())
            .map(|(style, text)| Span::styled(text.to_string(), palette::to_ratatui(style, theme)))
            .collect();
        lines.push(Line::from(spans));
    }
    Some(lines)
}

#[cfg(test)]
mod tests;
