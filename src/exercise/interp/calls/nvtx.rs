//! NVTX annotations: `nvtxRangePushA`, `nvtxRangePop` and `nvtxMarkA` of
//! `<nvtx3/nvToolsExt.h>`, so that a learner can name the phases of an exercise for Nsight
//! Systems (lesson 3, "Profile your own program") and still check the same file here.
//!
//! NVTX 3 is header-only, and with no tool attached its calls do nothing: push and pop return
//! `NVTX_NO_PUSH_POP_TRACKING` (-2), the header's answer when nobody tracks ranges. The checker
//! is no tool, so it answers the same and records nothing: no device work, no entry in the call
//! log, no host time. A program checks the same with these calls as without them.

use super::Args;
use crate::exercise::interp::value::Value;
use crate::exercise::interp::{Interp, Res};

/// What NVTX 3's push and pop return when no tool is attached (`NVTX_NO_PUSH_POP_TRACKING`).
const NO_PUSH_POP_TRACKING: i64 = -2;

/// Whether `name` is one of the NVTX calls this module answers.
pub(super) fn is_nvtx(name: &str) -> bool {
    matches!(name, "nvtxRangePushA" | "nvtxRangePop" | "nvtxMarkA")
}

impl Interp<'_> {
    /// Check the arguments as the header's prototypes would, then do nothing.
    pub(super) fn nvtx(&mut self, a: &Args) -> Res<Value> {
        match a.name {
            "nvtxRangePop" => {
                a.arity(0, 0)?;
                Ok(Value::Int(NO_PUSH_POP_TRACKING))
            }
            _ => {
                // `nvtxRangePushA(const char *message)`, `nvtxMarkA(const char *message)`.
                a.arity(1, 1)?;
                a.str(0)?;
                Ok(if a.name == "nvtxMarkA" {
                    Value::Void
                } else {
                    Value::Int(NO_PUSH_POP_TRACKING)
                })
            }
        }
    }
}
