//! The simulator's cost of one pipelined run: 64 MiB through upload, kernel and download in
//! 3 streams x 32 chunks (96 ops), setup included. The tests check what it computes; this says
//! how long it takes. Run: `cargo bench --bench sim -- --quick`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use cuda_academy::gpu::profile::Profile;
use cuda_academy::gpu::sim::SimGpu;
use cuda_academy::gpu::{Driver, GpuError, Kernel, Recording, StreamKind};
use cuda_academy::report::HostMemKind;

const BYTES: u64 = 64 << 20;

fn pipeline(profile: &Profile, streams: u64, chunks: u64) -> Result<usize, GpuError> {
    let mut gpu = SimGpu::new(profile.clone(), "bench".to_string());
    let src = gpu.host_alloc(BYTES, HostMemKind::Pinned)?;
    let dst = gpu.host_alloc(BYTES, HostMemKind::Pinned)?;
    let dev = gpu.device_alloc(BYTES)?;
    let ids = (0..streams)
        .map(|_| gpu.stream_create(StreamKind::NonBlocking))
        .collect::<Result<Vec<_>, _>>()?;
    gpu.timeline_begin()?;
    let chunk = BYTES / chunks;
    for c in 0..chunks {
        let (s, off) = (ids[(c % streams) as usize], c * chunk);
        gpu.copy_h2d_async(s, dev, off, src, off, chunk)?;
        gpu.launch(s, Kernel::Transform { a: 2.0, b: 1.0 }, dev, off, chunk)?;
        gpu.copy_d2h_async(s, dst, off, dev, off, chunk)?;
    }
    Ok(gpu.timeline_end()?.len())
}

fn bench_sim(c: &mut Criterion) {
    let Ok(profile) = Profile::builtin("h200") else {
        eprintln!("the built-in h200 profile did not load");
        return;
    };
    c.bench_function("sim_pipeline_64mib_3x32", |b| {
        b.iter(|| pipeline(black_box(&profile), 3, 32))
    });
}

criterion_group!(benches, bench_sim);
criterion_main!(benches);
