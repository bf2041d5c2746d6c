//! A small fixed catalog for tests, snapshots and benchmarks: three lessons and one broken file,
//! so screens do not change when the real lessons are edited.

use crate::lesson::Catalog;

const PAGEABLE: &str = r#"+++
id = "pageable"
title = "Why Pageable Memory Is Slow"
order = 1
experiments = ["pageable-vs-pinned"]

[[quiz]]
id = "staging"
prompt = "Where does the driver put pageable data before the DMA engine copies it?"
choices = ["In the GPU's L2 cache", "In a pinned staging buffer", "In swap space", "Nowhere: DMA reads it directly"]
answer = 1
explanation = "The DMA engine can only read page-locked memory, so the driver copies pageable data into a pinned staging buffer first, chunk by chunk."

[[quiz]]
id = "sync"
prompt = "Does `cudaMemcpy` from pageable memory return before the copy ends?"
choices = ["Yes, always", "No: it returns once the copy is done"]
answer = 1
explanation = "A pageable `cudaMemcpy` returns only after the data has reached the device."
+++
# Host memory is paged

The operating system may move a **pageable** page at any time, so the GPU cannot read it directly.

```cuda
float *h = (float *)malloc(bytes);   // pageable
cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
```
---
# The staging buffer

The driver copies your data into a *pinned* buffer, then the copy engine moves it over PCIe.

- one extra copy through host memory
- the call blocks until the last chunk is sent
---
# Measure it

Compare `pageable` and `pinned` bandwidth for sizes from 4 KiB to 256 MiB.

1. small copies are dominated by latency
2. large copies show the staging cost
"#;

const PINNED: &str = r#"+++
id = "pinned"
title = "Pinned Memory with cudaMallocHost"
order = 2
experiments = ["pinned-alloc"]

[[quiz]]
id = "alloc"
prompt = "Which call allocates page-locked host memory?"
choices = ["malloc", "cudaMalloc", "cudaMallocHost", "mmap"]
answer = 2
explanation = "`cudaMallocHost` returns page-locked (pinned) host memory that the copy engines read directly."

[[quiz]]
id = "ratio"
kind = "predict"
prompt = "Predict: how many GB/s does a pinned 256 MiB H2D copy reach?"
metric = "pinned_h2d_gbps"
tolerance_pct = 25.0
explanation = "On PCIe Gen5 pinned copies reach about 55 GB/s and pageable ones about 9 GB/s."
+++
# Page-locked memory

`cudaMallocHost` gives memory the OS will not move.
---
# Do not pin too much

Pinned pages cannot be swapped out: pinning gigabytes starves the rest of the system.
"#;

const ASYNC: &str = r#"+++
id = "async"
title = "cudaMemcpyAsync in a Stream"
order = 3
experiments = ["async-copy", "default-stream"]

[[quiz]]
id = "done"
kind = "predict"
prompt = "How long until a pageable 4 MiB async copy is done, in µs?"
metric = "copy_done_us_pageable"
tolerance_pct = 40.0
explanation = "From pageable memory the driver stages the copy, so it takes as long as a synchronous one."
+++
# Returning is not finishing

`cudaMemcpyAsync` queues the copy and returns.

On your GPU a pageable copy was done after {{metric:copy_done_us_pageable}}.
"#;

const BROKEN: &str = "+++\nid = \"overlap\"\ntitle = \"The Double-Buffering Pipeline\"\ncolour = \"blue\"\n+++\n# Card\n";

/// The fixed lesson files as (file name, contents): three good lessons, then a broken one (an
/// unknown front matter key). End-to-end tests write them to a folder for `--lessons`.
pub fn sample_files() -> Vec<(&'static str, &'static str)> {
    Vec::from([
        ("01-pageable.md", PAGEABLE),
        ("02-pinned.md", PINNED),
        ("03-async.md", ASYNC),
        ("04-pipeline.md", BROKEN),
    ])
}

/// The fixed catalog, parsed from [`sample_files`].
pub fn sample_catalog() -> Catalog {
    Catalog::from_files(
        sample_files()
            .into_iter()
            .map(|(name, text)| (format!("lessons/{name}"), text.as_bytes().to_vec())),
    )
}
