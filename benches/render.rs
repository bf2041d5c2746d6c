//! Rendering cost of a typical lesson card (prose, a list, a quote, a table, a 15-line CUDA
//! block) at 200 and 76 columns, with highlighting warm; plus syntect's cost on a block it has
//! not seen (what the per-block cache saves). Run: `cargo bench --bench render -- --quick`.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

use criterion::{Criterion, criterion_group, criterion_main};
use cuda_academy::highlight;
use cuda_academy::markdown::{RenderOptions, render};
use cuda_academy::theme::Theme;

const CUDA: &str = r#"__global__ void scale(const float* __restrict__ in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}

int main() {
    float *h_in, *d_in, *d_out;
    cudaMallocHost(&h_in, bytes);           // pinned: copies can be async
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);
    scale<<<(n + 255) / 256, 256, 0, s>>>(d_in, d_out, n);
    cudaStreamSynchronize(s);              // before touching results
}"#;

fn card() -> String {
    format!(
        "<!-- source: CUDA C++ Programming Guide, Asynchronous Concurrent Execution -->\n\
# The typical pattern\n\n\
Copy in with `cudaMemcpyAsync`, run the kernel, copy out, and **synchronize once** at the end. \
All three are queued in one *stream*, so they run in order while the host goes on. \
On your GPU the whole round trip took {{{{metric:pattern_ms}}}}.\n\n\
> Pinned memory is what makes the copies return at once: from pageable memory the driver \
stages through its own buffer and the call may block.\n\n\
- issue order: copy in, kernel, copy out\n\
- one `cudaStreamSynchronize(s)` before reading `h_out`\n\
- keep `h_in` alive until the copy completes\n\n\
| step | call | returns |\n|---|---|---|\n| copy in | cudaMemcpyAsync | at once |\n\
| kernel | `scale<<<g, b, 0, s>>>` | at once |\n| sync | cudaStreamSynchronize | when done |\n\n\
```cuda\n{CUDA}\n```\n\n\
Further reading: [API synchronization behavior](https://docs.nvidia.com/cuda/cuda-runtime-api/api-sync-behavior.html).\n"
    )
}

fn metric(name: &str) -> Option<String> {
    (name == "pattern_ms").then(|| "1.42 ms".to_string())
}

fn bench_render(c: &mut Criterion) {
    highlight::warm_up();
    let md = card();
    for (name, width, highlight) in [
        ("render_200", 200, true),
        ("render_76", 76, true),
        ("render_200_plain", 200, false),
    ] {
        let opts = RenderOptions {
            width,
            theme: Theme::new(true),
            highlight,
            metric: &metric,
            code_scroll: 0,
        };
        let lines = render(&md, &opts); // fills the highlight cache
        assert!(lines.len() > 20);
        c.bench_function(name, |b| {
            b.iter(|| render(black_box(&md), black_box(&opts)))
        });
    }
    // A block syntect has not seen: a counter in a comment defeats the cache.
    let counter = AtomicU64::new(0);
    c.bench_function("highlight_15_lines_uncached", |b| {
        b.iter(|| {
            let code = format!("// {}\n{CUDA}", counter.fetch_add(1, Ordering::Relaxed));
            highlight::highlight("cuda", black_box(&code), Theme::new(true))
        })
    });
}

/// Hostile input, 256 KiB each (the sizes `markdown::tests::hostile_input_renders` checks for
/// fit): one unbroken word, many short words, one long code line. Linear cost keeps each in the
/// low milliseconds; a quadratic renderer would take minutes.
fn bench_hostile(c: &mut Criterion) {
    let cases = [
        ("hostile_long_word_256k", "x".repeat(256 << 10)),
        ("hostile_words_256k", "word ".repeat((256 << 10) / 5)),
        (
            "hostile_code_line_256k",
            format!("```cuda\n{}\n```", "a+".repeat(128 << 10)),
        ),
    ];
    for (name, md) in cases {
        let opts = RenderOptions {
            width: 200,
            theme: Theme::new(true),
            highlight: true,
            metric: &metric,
            code_scroll: 0,
        };
        c.bench_function(name, |b| {
            b.iter(|| render(black_box(&md), black_box(&opts)))
        });
    }
}

criterion_group!(benches, bench_render, bench_hostile);
criterion_main!(benches);
