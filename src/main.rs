//! The `cuda-academy` binary (interim: the CLI work replaces this).

fn main() {}
