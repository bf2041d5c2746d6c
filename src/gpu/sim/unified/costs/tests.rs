//! The cost model moves the right way when one parameter or one size moves.

use super::*;

fn h200() -> Profile {
    Profile::builtin("h200").unwrap()
}

const MIB: u64 = 1 << 20;
const ONCE: Access = Access {
    stride: 1,
    passes: 1,
};
const SPARSE: Access = Access {
    stride: 16384,
    passes: 1,
};
const MAPPED_BOTH: [Place; 2] = [Place::Mapped, Place::Mapped];

#[test]
fn a_faster_link_makes_mapped_reads_faster_and_leaves_device_memory_alone() {
    let p = h200();
    let fast = Profile {
        mapped_gbps: p.mapped_gbps * 2.0,
        ..p.clone()
    };
    let slow = strided_kernel_us(&p, 256 * MIB, ONCE, MAPPED_BOTH);
    let quick = strided_kernel_us(&fast, 256 * MIB, ONCE, MAPPED_BOTH);
    assert!(quick < slow * 0.6, "{quick} against {slow}");
    let dev = [Place::DeviceMemory; 2];
    assert_eq!(
        strided_kernel_us(&p, 256 * MIB, ONCE, dev),
        strided_kernel_us(&fast, 256 * MIB, ONCE, dev)
    );
}

#[test]
fn passes_multiply_the_mapped_cost_and_sparse_access_costs_round_trips() {
    let p = h200();
    let four = Access { passes: 4, ..ONCE };
    let one = strided_kernel_us(&p, 256 * MIB, ONCE, MAPPED_BOTH);
    let many = strided_kernel_us(&p, 256 * MIB, four, MAPPED_BOTH);
    assert!(
        many > 3.9 * (one - p.kernel_launch_latency_us),
        "{many} {one}"
    );
    let sparse = strided_kernel_us(&p, 256 * MIB, SPARSE, MAPPED_BOTH);
    let dearer = Profile {
        mapped_scattered_access_ns: p.mapped_scattered_access_ns * 3.0,
        ..p.clone()
    };
    let sparse_dear = strided_kernel_us(&dearer, 256 * MIB, SPARSE, MAPPED_BOTH);
    assert!(sparse < one / 10.0, "{sparse} {one}");
    assert!(
        sparse_dear > 2.5 * (sparse - p.kernel_launch_latency_us),
        "{sparse_dear}"
    );
}

#[test]
fn dearer_faults_and_slower_migration_make_faulting_dearer() {
    let p = h200();
    let base = faults_us(&p, 4096, p.managed_gpu_fault_us);
    let dear = Profile {
        managed_gpu_fault_us: p.managed_gpu_fault_us * 2.0,
        ..p.clone()
    };
    let slow = Profile {
        managed_migrate_gbps: p.managed_migrate_gbps / 2.0,
        ..p.clone()
    };
    assert!(faults_us(&dear, 4096, dear.managed_gpu_fault_us) > base);
    assert!(faults_us(&slow, 4096, slow.managed_gpu_fault_us) > base);
    assert_eq!(faults_us(&p, 0, p.managed_gpu_fault_us), 0.0);
}

#[test]
fn a_dense_access_faults_every_block_and_a_sparse_one_only_those_it_touches() {
    let p = h200();
    let blocks = (256 * MIB) / p.managed_fault_bytes;
    assert_eq!(blocks_touched(&p, 256 * MIB, ONCE).len() as u64, blocks);
    // One float in 64 KiB touches every 64 KiB block; one in 256 KiB, a quarter of them.
    assert_eq!(blocks_touched(&p, 256 * MIB, SPARSE).len() as u64, blocks);
    let sparser = Access {
        stride: 65536,
        passes: 1,
    };
    assert_eq!(
        blocks_touched(&p, 256 * MIB, sparser).len() as u64,
        blocks / 4
    );
}

#[test]
fn the_host_checksum_grows_with_the_floats_it_reads() {
    let p = h200();
    assert!(host_sum_us(&p, 64 << 20) > 1000.0 * host_sum_us(&p, 4096));
    assert!(missing_fields(&p).is_empty());
    let old = Profile {
        mapped_gbps: 0.0,
        ..p
    };
    assert_eq!(missing_fields(&old), vec!["mapped_gbps"]);
}
