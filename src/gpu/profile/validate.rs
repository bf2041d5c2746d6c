//! Profile validation: every number must make physical sense before the model uses it.

use super::{FORMAT_VERSION, Profile};

/// Why a profile could not be loaded, written or used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProfileError {
    #[error("cannot access profile {path}: {message}")]
    Io { path: String, message: String },
    #[error("profile {origin} is not valid TOML for a profile: {message}")]
    Parse { origin: String, message: String },
    #[error(
        "profile {origin}: field `{field}` is {value}, but {rule}; fix the file or re-record \
         it with `cuda-academy calibrate --out FILE`"
    )]
    Invalid {
        origin: String,
        field: &'static str,
        value: String,
        rule: &'static str,
    },
    #[error("no built-in profile named `{name}` (available: {available})")]
    UnknownBuiltin { name: String, available: String },
    #[error("cannot write the profile as TOML: {0}")]
    Serialize(String),
}

impl ProfileError {
    /// Name where the invalid profile came from.
    pub(super) fn with_origin(self, origin: &str) -> ProfileError {
        match self {
            ProfileError::Invalid {
                field, value, rule, ..
            } => ProfileError::Invalid {
                origin: origin.to_string(),
                field,
                value,
                rule,
            },
            other => other,
        }
    }
}

// Physical bounds, far outside any real machine either way: a profile beyond them (a typo, a
// unit mix-up, a hostile file) would give runs of 0.000 ms, inf or NaN metrics.
/// Slowest believable copy or memory bandwidth, GB/s.
const MIN_GBPS: f64 = 0.01;
/// Fastest believable bandwidth, GB/s (an H200's HBM is 4.8 TB/s).
const MAX_GBPS: f64 = 10_000.0;
/// Fixed costs (call times, latencies) above a second are not latencies.
const MAX_LATENCY_US: f64 = 1e6;
/// Costs that grow with size: 100 s per GiB is far slower than any real host.
const MAX_MS_PER_GIB: f64 = 1e5;
/// The spin kernel's iteration, ns.
const MIN_SPIN_NS: f64 = 1e-3;
const MAX_SPIN_NS: f64 = 1e6;

fn invalid(field: &'static str, value: impl ToString, rule: &'static str) -> ProfileError {
    ProfileError::Invalid {
        origin: String::new(),
        field,
        value: value.to_string(),
        rule,
    }
}

impl Profile {
    /// Check every field; the first problem found is returned.
    pub fn validate(&self) -> Result<(), ProfileError> {
        if self.format_version != FORMAT_VERSION {
            return Err(invalid(
                "format_version",
                self.format_version,
                "this build reads format_version 1 only",
            ));
        }
        if self.name.trim().is_empty() {
            return Err(invalid("name", "empty", "it must name the profile"));
        }
        if self.device_name.trim().is_empty() {
            return Err(invalid("device_name", "empty", "it must name the GPU"));
        }
        if self.copy_engines == 0 {
            return Err(invalid("copy_engines", 0, "it must be at least 1"));
        }
        if self.device_total_bytes == 0 {
            return Err(invalid("device_total_bytes", 0, "it must be positive"));
        }
        if self.host_total_bytes == 0 {
            return Err(invalid("host_total_bytes", 0, "it must be positive"));
        }
        for (field, value) in self.rates() {
            if !(value.is_finite() && value > 0.0) {
                return Err(invalid(field, value, "a rate must be a positive number"));
            }
            if field.ends_with("_gbps") && !(MIN_GBPS..=MAX_GBPS).contains(&value) {
                return Err(invalid(
                    field,
                    value,
                    "a bandwidth must be between 0.01 and 10000 GB/s",
                ));
            }
        }
        if !(MIN_SPIN_NS..=MAX_SPIN_NS).contains(&self.spin_ns_per_iteration) {
            return Err(invalid(
                "spin_ns_per_iteration",
                self.spin_ns_per_iteration,
                "one iteration must take between 0.001 and 1,000,000 ns",
            ));
        }
        for (field, value) in self.costs() {
            if !(value.is_finite() && value >= 0.0) {
                return Err(invalid(field, value, "a cost must be zero or positive"));
            }
            let (max, rule) = match field.ends_with("_us") {
                true => (
                    MAX_LATENCY_US,
                    "a fixed cost must be at most one second (1e6 us)",
                ),
                false => (
                    MAX_MS_PER_GIB,
                    "a cost per GiB must be at most 100 s (1e5 ms)",
                ),
            };
            if value > max {
                return Err(invalid(field, value, rule));
            }
        }
        Ok(())
    }

    /// Fields that divide: bandwidths and per-iteration times.
    fn rates(&self) -> [(&'static str, f64); 11] {
        [
            ("pinned_h2d_gbps", self.pinned_h2d_gbps),
            ("pinned_d2h_gbps", self.pinned_d2h_gbps),
            ("pageable_h2d_gbps", self.pageable_h2d_gbps),
            ("pageable_d2h_gbps", self.pageable_d2h_gbps),
            ("write_combined_h2d_gbps", self.write_combined_h2d_gbps),
            ("write_combined_d2h_gbps", self.write_combined_d2h_gbps),
            ("registered_h2d_gbps", self.registered_h2d_gbps),
            ("registered_d2h_gbps", self.registered_d2h_gbps),
            ("bidirectional_gbps", self.bidirectional_gbps),
            ("device_mem_gbps", self.device_mem_gbps),
            ("spin_ns_per_iteration", self.spin_ns_per_iteration),
        ]
    }

    /// Fields that add time.
    fn costs(&self) -> [(&'static str, f64); 26] {
        [
            ("copy_latency_us", self.copy_latency_us),
            ("pageable_copy_latency_us", self.pageable_copy_latency_us),
            ("async_call_us", self.async_call_us),
            ("launch_call_us", self.launch_call_us),
            ("sync_call_us", self.sync_call_us),
            ("api_call_us", self.api_call_us),
            ("kernel_launch_latency_us", self.kernel_launch_latency_us),
            ("pinned_alloc_fixed_us", self.pinned_alloc_fixed_us),
            ("pinned_free_ms_per_gib", self.pinned_free_ms_per_gib),
            ("pageable_alloc_us", self.pageable_alloc_us),
            ("pageable_alloc_ms_per_gib", self.pageable_alloc_ms_per_gib),
            ("register_ms_per_gib", self.register_ms_per_gib),
            ("unregister_ms_per_gib", self.unregister_ms_per_gib),
            ("device_alloc_us", self.device_alloc_us),
            ("device_free_us", self.device_free_us),
            ("pinned_alloc_ms_per_gib", self.pinned_alloc_ms_per_gib),
            ("pageable_free_ms_per_gib", self.pageable_free_ms_per_gib),
            ("batch_call_us", self.batch_call_us),
            ("batch_per_copy_us", self.batch_per_copy_us),
            ("batch_copy_latency_us", self.batch_copy_latency_us),
            ("host_sum_ns_per_float", self.host_sum_ns_per_float),
            ("managed_migrate_gbps", self.managed_migrate_gbps),
            ("managed_gpu_fault_us", self.managed_gpu_fault_us),
            ("managed_host_fault_us", self.managed_host_fault_us),
            ("mapped_gbps", self.mapped_gbps),
            (
                "mapped_scattered_access_ns",
                self.mapped_scattered_access_ns,
            ),
        ]
    }
}
