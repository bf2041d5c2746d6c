//! Whole-buffer verification, through a backend stand-in whose host buffers are plain vectors
//! (as the real GPU's are) and which reads them in bulk.

use super::*;
use crate::gpu::{DevBuf, DeviceInfo, StreamId, StreamKind};
use crate::report::{HostMemKind, Op};

struct Vectors(Vec<Vec<f32>>);

impl Gpu for Vectors {
    fn info(&self) -> &DeviceInfo {
        unimplemented!("not used by verification")
    }
    fn host_alloc(&mut self, _: u64, _: HostMemKind) -> Result<HostBuf, GpuError> {
        unimplemented!()
    }
    fn host_free(&mut self, _: HostBuf) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn host_touch(&mut self, _: HostBuf) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn host_register(&mut self, _: HostBuf) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn host_unregister(&mut self, _: HostBuf) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn host_fill(&mut self, _: HostBuf, _: u32) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn host_read_f32(&mut self, buf: HostBuf, index: u64) -> Result<f32, GpuError> {
        Ok(self.0[buf.0 as usize][index as usize])
    }
    fn bulk_reads(&self) -> bool {
        true
    }
    fn device_alloc(&mut self, _: u64) -> Result<DevBuf, GpuError> {
        unimplemented!()
    }
    fn device_free(&mut self, _: DevBuf) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn stream_create(&mut self, _: StreamKind) -> Result<StreamId, GpuError> {
        unimplemented!()
    }
    fn stream_destroy(&mut self, _: StreamId) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn copy_h2d_async(
        &mut self,
        _: StreamId,
        _: DevBuf,
        _: u64,
        _: HostBuf,
        _: u64,
        _: u64,
    ) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn copy_d2h_async(
        &mut self,
        _: StreamId,
        _: HostBuf,
        _: u64,
        _: DevBuf,
        _: u64,
        _: u64,
    ) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn launch(
        &mut self,
        _: StreamId,
        _: Kernel,
        _: DevBuf,
        _: u64,
        _: u64,
    ) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn stream_sync(&mut self, _: StreamId) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn device_sync(&mut self) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn host_now_us(&mut self) -> f64 {
        0.0
    }
    fn timeline_begin(&mut self) -> Result<(), GpuError> {
        unimplemented!()
    }
    fn timeline_end(&mut self) -> Result<Vec<Op>, GpuError> {
        unimplemented!()
    }
}

#[test]
fn every_float_is_compared_when_reads_are_cheap() {
    // 3 M floats: more than one block, and an error far from any sample or chunk edge.
    let n = 3 * (1 << 20) + 17;
    let src: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let mut dst: Vec<f32> = src.iter().map(|x| x * 2.0 + 1.0).collect();
    let mut gpu = Vectors(vec![src, dst.clone()]);
    let kernel = Kernel::Transform { a: 2.0, b: 1.0 };
    let bytes = n as u64 * 4;
    let ok = transform_matches(&mut gpu, "t", (HostBuf(0), HostBuf(1)), bytes, 1, kernel).unwrap();
    assert!(ok.passed, "{}", ok.detail);
    assert_eq!(ok.detail, format!("all {n} floats compared"));
    let bad_index = 2_345_679;
    assert!(!sample_indices(n as u64, 1).contains(&(bad_index as u64)));
    dst[bad_index] = -dst[bad_index];
    gpu.0[1] = dst;
    let bad = transform_matches(&mut gpu, "t", (HostBuf(0), HostBuf(1)), bytes, 1, kernel).unwrap();
    assert!(!bad.passed);
    assert!(
        bad.detail.starts_with(&format!("float {bad_index} of {n}")),
        "{}",
        bad.detail
    );
}
