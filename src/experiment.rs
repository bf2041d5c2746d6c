//! The experiments that prove each lesson's claims, written once against [`crate::gpu::Gpu`].
//!
//! Ids are a contract (CLI, lesson front matter, JSON).

/// Every experiment id, in lesson order.
pub const IDS: [&str; 5] = [
    "pageable-vs-pinned",
    "pinned-alloc",
    "async-copy",
    "default-stream",
    "pipeline",
];
