//! Placeholder, written below.
fn main() {}
