//! Exercises on the real thing (issue 25): the learner's file compiled with nvcc against
//! `academy.cuh` and run under the trace machinery (`attach`), its trace judged with the
//! exercise's own criteria. Here the parts that need no GPU: the header the binary carries
//! (`header`), how the program's `check_output`, `report`, `fill_input` and `host_work` reach
//! the trace as NVTX marks and are read back (`marks`), the trace as the interpreter's
//! `Outcome` (`outcome`), and which criteria a trace can judge (`judgeable`). Compiling and
//! running are the CLI's (`cli::exercise::native`).

pub mod grade;
pub mod header;
pub mod judgeable;
pub mod marks;
pub mod outcome;

#[cfg(test)]
mod tests;
