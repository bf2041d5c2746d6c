//! libcupti, opened with `dlopen` at run time and its entry points found with `dlsym`: the
//! program may have no CUPTI on its library path, and this library must then let it run
//! untraced (the trace file says why) rather than fail to load. Also the two driver calls the
//! header reads (`cuDriverGetVersion`, from the libcuda the program already loaded).

use core::ffi::{c_char, c_int, c_void};
use std::ffi::{CStr, CString};

unsafe extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}

const RTLD_LAZY: c_int = 0x1;
const RTLD_NOW: c_int = 0x2;
const RTLD_NOLOAD: c_int = 0x4;

/// `CUpti_CallbackFunc`.
pub type CallbackFunc = unsafe extern "C" fn(*mut c_void, u32, u32, *const c_void);
/// `CUpti_BuffersCallbackRequestFunc`.
pub type BufferRequested = unsafe extern "C" fn(*mut *mut u8, *mut usize, *mut usize);
/// `CUpti_BuffersCallbackCompleteFunc`.
pub type BufferCompleted = unsafe extern "C" fn(usize, u32, *mut u8, usize, usize);

/// The CUPTI entry points used, each a C function pointer from `dlsym`.
pub struct Cupti {
    pub subscribe: unsafe extern "C" fn(*mut usize, CallbackFunc, *mut c_void) -> i32,
    pub enable_callback: unsafe extern "C" fn(u32, usize, u32, u32) -> i32,
    pub register_callbacks: unsafe extern "C" fn(BufferRequested, BufferCompleted) -> i32,
    pub activity_enable: unsafe extern "C" fn(u32) -> i32,
    pub get_next_record: unsafe extern "C" fn(*mut u8, usize, *mut *mut c_void) -> i32,
    pub dropped_records: unsafe extern "C" fn(usize, u32, *mut usize) -> i32,
    pub flush_all: unsafe extern "C" fn(u32) -> i32,
    pub get_timestamp: unsafe extern "C" fn(*mut u64) -> i32,
    pub get_version: unsafe extern "C" fn(*mut u32) -> i32,
    pub result_string: unsafe extern "C" fn(i32, *mut *const c_char) -> i32,
    pub get_stream_id: unsafe extern "C" fn(usize, usize, *mut u32) -> i32,
    /// `cuptiActivityFlushPeriod` (CUDA 11.1+): absent in older libcupti.
    pub flush_period: Option<unsafe extern "C" fn(u32) -> i32>,
    /// The path it was opened from, for the trace header.
    pub path: String,
}

/// Where libcupti is looked for: only `CUDA_ACADEMY_CUPTI_LIB` when it is set (a path: this
/// libcupti and no other); else the loader's own search (`LD_LIBRARY_PATH`, the cache), then
/// the toolkit's usual folders.
fn candidates() -> Vec<String> {
    if let Some(path) = std::env::var_os("CUDA_ACADEMY_CUPTI_LIB").filter(|p| !p.is_empty()) {
        return vec![path.to_string_lossy().into_owned()];
    }
    let mut out = Vec::new();
    for name in [
        "libcupti.so",
        "libcupti.so.13",
        "libcupti.so.12",
        "libcupti.so.11.8",
    ] {
        out.push(name.to_string());
    }
    let mut roots: Vec<String> = ["CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .collect();
    roots.push("/usr/local/cuda".to_string());
    for root in roots {
        for sub in [
            "extras/CUPTI/lib64",
            "lib64",
            "targets/x86_64-linux/lib",
            "targets/sbsa-linux/lib",
        ] {
            out.push(format!("{root}/{sub}/libcupti.so"));
        }
    }
    out
}

fn last_dl_error() -> String {
    // SAFETY: dlerror returns NULL or a NUL-terminated string owned by the loader, valid until
    // the next dl* call on this thread; it is copied at once.
    unsafe {
        let text = dlerror();
        if text.is_null() {
            "unknown error".to_string()
        } else {
            CStr::from_ptr(text).to_string_lossy().into_owned()
        }
    }
}

/// Find `name` in `lib`, as a function pointer of type `F`.
///
/// # Safety
/// `F` must be the C signature of `name`.
unsafe fn symbol<F: Copy>(lib: *mut c_void, name: &CStr) -> Option<F> {
    // SAFETY: lib is a handle from dlopen; name is NUL-terminated.
    let ptr = unsafe { dlsym(lib, name.as_ptr()) };
    if ptr.is_null() {
        return None;
    }
    debug_assert_eq!(size_of::<F>(), size_of::<*mut c_void>());
    // SAFETY: the caller names F as the symbol's signature; a function pointer and a data
    // pointer have the same size on every platform CUDA runs on.
    Some(unsafe { core::mem::transmute_copy::<*mut c_void, F>(&ptr) })
}

impl Cupti {
    /// Open libcupti and find every entry point, or say why not (each path tried and the
    /// loader's last word, or the missing symbol).
    pub fn load() -> Result<Cupti, String> {
        let mut tried = Vec::new();
        for path in candidates() {
            let Ok(c_path) = CString::new(path.clone()) else {
                continue;
            };
            // SAFETY: c_path is NUL-terminated; dlopen has no other precondition.
            let lib = unsafe { dlopen(c_path.as_ptr(), RTLD_NOW) };
            if lib.is_null() {
                tried.push(format!("{path}: {}", last_dl_error()));
                continue;
            }
            // SAFETY: lib is open, and each type below is the CUPTI header's signature.
            return unsafe { Self::from_library(lib, path) };
        }
        Err(format!(
            "libcupti could not be loaded (it ships with the CUDA toolkit, under extras/CUPTI/lib64; set CUDA_ACADEMY_CUPTI_LIB to its path). Tried: {}",
            tried.join("; ")
        ))
    }

    /// # Safety
    /// `lib` is an open libcupti handle.
    unsafe fn from_library(lib: *mut c_void, path: String) -> Result<Cupti, String> {
        macro_rules! need {
            ($name:literal) => {
                // SAFETY: the field's type is the header's signature of this symbol.
                match unsafe { symbol(lib, $name) } {
                    Some(f) => f,
                    None => {
                        return Err(format!(
                            "{path} lacks {} (too old a libcupti?)",
                            $name.to_string_lossy()
                        ))
                    }
                }
            };
        }
        Ok(Cupti {
            subscribe: need!(c"cuptiSubscribe"),
            enable_callback: need!(c"cuptiEnableCallback"),
            register_callbacks: need!(c"cuptiActivityRegisterCallbacks"),
            activity_enable: need!(c"cuptiActivityEnable"),
            get_next_record: need!(c"cuptiActivityGetNextRecord"),
            dropped_records: need!(c"cuptiActivityGetNumDroppedRecords"),
            flush_all: need!(c"cuptiActivityFlushAll"),
            get_timestamp: need!(c"cuptiGetTimestamp"),
            get_version: need!(c"cuptiGetVersion"),
            result_string: need!(c"cuptiGetResultString"),
            get_stream_id: need!(c"cuptiGetStreamId"),
            // SAFETY: the header's signature of cuptiActivityFlushPeriod.
            flush_period: unsafe { symbol(lib, c"cuptiActivityFlushPeriod") },
            path,
        })
    }

    /// CUPTI's own text for a result code.
    pub fn describe(&self, result: i32) -> String {
        let mut text: *const c_char = core::ptr::null();
        // SAFETY: result_string writes a pointer to a static string, or fails.
        let ok = unsafe { (self.result_string)(result, &mut text) } == 0;
        if ok && !text.is_null() {
            // SAFETY: CUPTI's result strings are static and NUL-terminated.
            unsafe { CStr::from_ptr(text) }
                .to_string_lossy()
                .into_owned()
        } else {
            format!("CUPTI error {result}")
        }
    }

    /// CUPTI's clock (the one its activity records use), in nanoseconds.
    pub fn now(&self) -> u64 {
        let mut ts = 0u64;
        // SAFETY: writes one u64.
        unsafe { (self.get_timestamp)(&mut ts) };
        ts
    }

    /// `cuptiGetVersion`, if it answers.
    pub fn version(&self) -> Option<u32> {
        let mut v = 0u32;
        // SAFETY: writes one u32.
        (unsafe { (self.get_version)(&mut v) } == 0).then_some(v)
    }
}

/// `cuDriverGetVersion` from the libcuda already in the process (never loads one).
pub fn driver_version() -> Option<i32> {
    // SAFETY: RTLD_NOLOAD only returns a handle to a library that is already loaded.
    let lib = unsafe { dlopen(c"libcuda.so.1".as_ptr(), RTLD_LAZY | RTLD_NOLOAD) };
    if lib.is_null() {
        return None;
    }
    type GetVersion = unsafe extern "C" fn(*mut c_int) -> c_int;
    // SAFETY: the driver header's signature of cuDriverGetVersion.
    let f: GetVersion = unsafe { symbol(lib, c"cuDriverGetVersion") }?;
    let mut v: c_int = 0;
    // SAFETY: writes one int; needs no cuInit.
    (unsafe { f(&mut v) } == 0).then_some(v)
}

/// `cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t
/// *paramSize)` (CUDA 12.4 and later).
pub type FuncGetParamInfo = unsafe extern "C" fn(usize, usize, *mut usize, *mut usize) -> c_int;

/// `cuFuncGetParamInfo` from the libcuda already in the process, looked up once (a driver
/// older than 12.4 has none: kernels' parameters are then not recorded).
pub fn func_get_param_info() -> Option<FuncGetParamInfo> {
    static FOUND: std::sync::OnceLock<Option<FuncGetParamInfo>> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        // SAFETY: RTLD_NOLOAD only returns a handle to a library that is already loaded.
        let lib = unsafe { dlopen(c"libcuda.so.1".as_ptr(), RTLD_LAZY | RTLD_NOLOAD) };
        if lib.is_null() {
            return None;
        }
        // SAFETY: the driver header's signature of cuFuncGetParamInfo.
        unsafe { symbol(lib, c"cuFuncGetParamInfo") }
    })
}

/// `cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset, size_t
/// *paramSize)` (CUDA 12.4 and later): the same question of a library kernel handle, which a
/// launch may pass as its `f`.
pub fn kernel_get_param_info() -> Option<FuncGetParamInfo> {
    static FOUND: std::sync::OnceLock<Option<FuncGetParamInfo>> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        // SAFETY: RTLD_NOLOAD only returns a handle to a library that is already loaded.
        let lib = unsafe { dlopen(c"libcuda.so.1".as_ptr(), RTLD_LAZY | RTLD_NOLOAD) };
        if lib.is_null() {
            return None;
        }
        // SAFETY: the driver header's signature of cuKernelGetParamInfo (FuncGetParamInfo's,
        // with a CUkernel, also a pointer-sized handle).
        unsafe { symbol(lib, c"cuKernelGetParamInfo") }
    })
}

/// `InitializeInjectionNvtx2` (`NvtxInitializeInjectionNvtxFunc_t`).
pub type NvtxEntry = unsafe extern "C" fn(*const c_void) -> c_int;

/// libcupti's NVTX entry point, from the first libcupti that opens.
pub fn nvtx_entry() -> Option<NvtxEntry> {
    candidates().into_iter().find_map(|path| {
        let c_path = CString::new(path).ok()?;
        // SAFETY: c_path is NUL-terminated.
        let lib = unsafe { dlopen(c_path.as_ptr(), RTLD_NOW) };
        if lib.is_null() {
            return None;
        }
        // SAFETY: libcupti's InitializeInjectionNvtx2 has NvtxEntry's signature.
        unsafe { symbol(lib, c"InitializeInjectionNvtx2") }
    })
}
