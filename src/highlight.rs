//! Syntax highlighting of code blocks with syntect: its default syntaxes plus the CUDA syntax in
//! `assets/syntaxes/cuda.sublime-syntax` (fences `cuda`, `cu`, `cuh`).
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

/// The CUDA grammar, shipped inside the binary.
const CUDA_SYNTAX: &str = include_str!("../assets/syntaxes/cuda.sublime-syntax");

/// Code larger than this is shown plain: syntect's cost grows with line length and a lesson
/// never needs a block this big highlighted (a multi-megabyte line must not stall a frame).
const MAX_CODE_BYTES: usize = 64 * 1024;
const MAX_LINE_BYTES: usize = 4 * 1024;

/// A CUDA snippet that touches most patterns, highlighted once by [`warm_up`].
const WARM_CUDA: &str = "#include <cuda_runtime.h>\n// comment\n__global__ void k(const float* __restrict__ in, float* out, int n) {\n  __shared__ float tile[256];\n  int i = blockIdx.x * blockDim.x + threadIdx.x; /* block */\n  if (i < n) { tile[threadIdx.x] = in[i] * 2.0f; }\n  __syncthreads();\n}\nint main() {\n  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);\n  k<<<dim3(4), 256, 0, s>>>(nullptr, nullptr, 0x10);\n  printf(\"%d\\n\", 'c');\n  return 0;\n}\n";

struct Assets {
    /// syntect's own syntaxes, as loaded.
    defaults: SyntaxSet,
    /// Ours, in a set of its own: adding it to the defaults would rebuild (re-link) all 75 of
    /// them, about 80 ms, for nothing, since the CUDA syntax includes none of them.
    cuda: SyntaxSet,
    theme: syntect::highlighting::Theme,
}

static ASSETS: OnceLock<Result<Assets, String>> = OnceLock::new();
static WARM: AtomicBool = AtomicBool::new(false);

fn load() -> Result<Assets, String> {
    let definition =
        SyntaxDefinition::load_from_str(CUDA_SYNTAX, true, Some("CUDA")).map_err(|e| {
            format!("the built-in CUDA syntax does not parse ({e}); code is shown without colours")
        })?;
    let mut cuda = SyntaxSetBuilder::new();
    cuda.add(definition);
    Ok(Assets {
        // Reads syntect's embedded dump (a built-in asset, not user input).
        defaults: SyntaxSet::load_defaults_newlines(),
        cuda: cuda.build(),
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
/// fence language `lang` (`cuda`/`cu`/`cuh`, or any syntect token: `cpp`, `rust`, `sh`, ...).
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

/// The syntax for a fence's info string (its first word, case-insensitive), with the set it
/// belongs to.
fn syntax_for<'s>(assets: &'s Assets, lang: &str) -> Option<(&'s SyntaxSet, &'s SyntaxReference)> {
    let token = lang
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let defaults = &assets.defaults;
    let syntax = match token.as_str() {
        "" => None,
        "cuda" | "cu" | "cuh" => {
            return Some((&assets.cuda, assets.cuda.find_syntax_by_name("CUDA")?));
        }
        "c++" => defaults.find_syntax_by_token("cpp"),
        _ => defaults.find_syntax_by_token(&token),
    };
    Some((defaults, syntax?))
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
    let (syntaxes, syntax) = syntax_for(assets, lang)?;
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
