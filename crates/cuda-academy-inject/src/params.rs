//! A kernel launch's parameter values, read inside the launch's callback so that the trace's
//! judge can tell which allocations a kernel touches: the driver gives each parameter's offset
//! and size (`cuFuncGetParamInfo`, CUDA 12.4 and later; an index past the last answers
//! `CUDA_ERROR_INVALID_VALUE`), and `kernelParams[i]` points at parameter `i`'s value (valid
//! for the call's duration). A parameter of 8 or 4 bytes is recorded as its value (a pointer,
//! a count, or some other value, zero-extended: the judge keeps values inside an allocation as
//! pointers and reads an integer parameter as a count); any other size as `null`. Parameters passed through `extra` (`CU_LAUNCH_PARAM_BUFFER_POINTER`) are not
//! read: the launch then has no `params`, and its kernel is not watched.
//!
//! The launch's `f` may be a `CUfunction` or a `CUkernel` (the driver takes either; CUDA 12's
//! runtime launches library kernels): when `cuFuncGetParamInfo` refuses the handle,
//! `cuKernelGetParamInfo` (same shape, CUDA 12.4 and later) is asked. When neither answers,
//! the launch records why (`params_error`: each query's `CUresult`), so a trace says what the
//! driver answered rather than only that nothing was read.

use core::ffi::c_void;
use std::cell::Cell;

use crate::layout::Handle;

/// The most parameters recorded per launch; a kernel with more is marked `params_cut`.
pub const MAX_PARAMS: usize = 32;

/// `CUDA_ERROR_INVALID_VALUE`: the index is past the kernel's last parameter.
const INVALID_VALUE: i32 = 1;

thread_local! {
    /// This thread is inside `cuFuncGetParamInfo` for a launch: the callback for that call is
    /// not recorded (it is the library's, not the program's).
    static QUERYING: Cell<bool> = const { Cell::new(false) };
}

/// Whether the driver call now being called back is the library's own parameter query.
pub fn querying() -> bool {
    QUERYING.with(Cell::get)
}

/// What one launch's parameters were.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    /// Per parameter, its value when it is 8 bytes.
    pub values: Vec<Option<u64>>,
    /// The kernel has more than [`MAX_PARAMS`] parameters.
    pub cut: bool,
}

/// The parameter at `index` of `func`: its offset and size, `Ok(None)` past the last, `Err`
/// when the driver cannot say.
pub type Query<'a> = dyn FnMut(usize) -> Result<Option<(usize, usize)>, i32> + 'a;

/// Why a launch's parameters were not read, as the trace line's `params_error` says it.
pub fn why_not(func: Handle, kernel_params: Handle, errors: &[(&str, i32)]) -> String {
    if func == 0 {
        return "no function handle".to_string();
    }
    if kernel_params == 0 {
        return "no kernelParams (extra, or no parameters passed)".to_string();
    }
    if errors.is_empty() {
        return "the driver has neither cuFuncGetParamInfo nor cuKernelGetParamInfo".to_string();
    }
    errors
        .iter()
        .map(|(name, code)| format!("{name} {code}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The launch's parameters, or why they cannot be read (no `kernelParams`, neither query
/// in the driver, or each refused: [`why_not`]).
///
/// # Safety
/// `kernel_params` is the launch's `kernelParams`: NULL, or an array with one pointer per
/// parameter of `func`, each pointing at that parameter's value.
pub unsafe fn read(func: Handle, kernel_params: Handle) -> Result<Params, String> {
    if func == 0 || kernel_params == 0 {
        return Err(why_not(func, kernel_params, &[]));
    }
    let mut errors = Vec::new();
    let queries = [
        ("cuFuncGetParamInfo", crate::cupti::func_get_param_info()),
        (
            "cuKernelGetParamInfo",
            crate::cupti::kernel_get_param_info(),
        ),
    ];
    for (name, info) in queries {
        let Some(info) = info else { continue };
        let mut refused = None;
        let mut query = |index: usize| {
            let (mut offset, mut size) = (0usize, 0usize);
            QUERYING.with(|q| q.set(true));
            // SAFETY: the header's signature (both queries have it); writes two size_t.
            let ret = unsafe { info(func, index, &mut offset, &mut size) };
            QUERYING.with(|q| q.set(false));
            match ret {
                0 => Ok(Some((offset, size))),
                INVALID_VALUE => Ok(None),
                other => {
                    refused = Some(other);
                    Err(other)
                }
            }
        };
        // SAFETY: the caller's promise.
        if let Some(p) = unsafe { read_with(&mut query, kernel_params as *const *const c_void) } {
            return Ok(p);
        }
        errors.push((name, refused.unwrap_or(0)));
    }
    Err(why_not(func, kernel_params, &errors))
}

/// [`read`] with the driver's answers from `query` (the tests' way in).
///
/// # Safety
/// `kernel_params` is non-NULL and has one readable pointer per parameter `query` reports,
/// each pointing at at least that parameter's size in bytes.
pub unsafe fn read_with(query: &mut Query, kernel_params: *const *const c_void) -> Option<Params> {
    let mut values = Vec::new();
    for index in 0..MAX_PARAMS {
        let Some((_offset, size)) = query(index).ok()? else {
            return Some(Params { values, cut: false });
        };
        let value = if size == 8 || size == 4 {
            // SAFETY: the caller's promise: entry `index` exists and points at `size` bytes.
            let at = unsafe { kernel_params.add(index).read_unaligned() };
            if at.is_null() {
                return None;
            }
            // SAFETY: as above; `size` bytes are readable there.
            Some(unsafe {
                if size == 8 {
                    at.cast::<u64>().read_unaligned()
                } else {
                    u64::from(at.cast::<u32>().read_unaligned())
                }
            })
        } else {
            None
        };
        values.push(value);
    }
    // More than MAX_PARAMS only if the driver knows one more.
    let cut = matches!(query(MAX_PARAMS), Ok(Some(_)));
    Some(Params { values, cut })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_and_four_byte_parameters_are_read_and_others_are_null_up_to_the_last() {
        let (a, n, b, h): (u64, i32, u64, u16) = (0x7000_0000, 5, 0x7100_0000, 9);
        let ptrs: [*const c_void; 4] = [
            (&raw const a).cast(),
            (&raw const n).cast(),
            (&raw const b).cast(),
            (&raw const h).cast(),
        ];
        let layout = [(0, 8), (8, 4), (16, 8), (24, 2)];
        let mut query = |i: usize| Ok(layout.get(i).copied());
        // SAFETY: four entries, each pointing at its parameter's size.
        let p = unsafe { read_with(&mut query, ptrs.as_ptr()) };
        assert_eq!(
            p,
            Some(Params {
                values: vec![Some(0x7000_0000), Some(5), Some(0x7100_0000), None],
                cut: false
            })
        );
    }

    #[test]
    fn why_not_names_each_refusal() {
        assert_eq!(
            why_not(
                1,
                2,
                &[("cuFuncGetParamInfo", 400), ("cuKernelGetParamInfo", 1)]
            ),
            "cuFuncGetParamInfo 400, cuKernelGetParamInfo 1"
        );
        assert!(why_not(1, 0, &[]).starts_with("no kernelParams"));
        assert!(why_not(1, 2, &[]).contains("neither"));
    }

    #[test]
    fn a_driver_error_means_not_read_and_a_long_list_is_cut() {
        let v: u64 = 7;
        let ptrs = [(&raw const v).cast::<c_void>(); MAX_PARAMS + 1];
        let mut failing = |_| Err(201);
        // SAFETY: never read: the first query fails.
        assert_eq!(unsafe { read_with(&mut failing, ptrs.as_ptr()) }, None);
        let mut many = |i: usize| Ok((i <= MAX_PARAMS).then_some((i * 8, 8)));
        // SAFETY: MAX_PARAMS + 1 entries, each pointing at 8 bytes.
        let p = unsafe { read_with(&mut many, ptrs.as_ptr()) };
        let Some(p) = p else { panic!("not read") };
        assert_eq!(
            (p.values.len(), p.cut, p.values[0]),
            (MAX_PARAMS, true, Some(7))
        );
    }
}
