//! Which fields of a calibrated profile were measured on the GPU and which were carried over
//! from the template, so that a reader (and `BENCHMARKS.md`) never takes a template value for
//! a measurement.

use crate::gpu::profile::Profile;

/// Fields that describe the profile itself rather than the GPU.
const DESCRIPTIVE: [&str; 7] = [
    "format_version",
    "name",
    "device_name",
    "recorded_at",
    "source",
    "measured",
    "carried_over",
];

/// Every parameter field of a profile (by its TOML name), in file order.
fn parameter_fields(p: &Profile) -> Vec<String> {
    match toml::Value::try_from(p) {
        Ok(toml::Value::Table(t)) => t
            .keys()
            .filter(|k| !DESCRIPTIVE.contains(&k.as_str()))
            .cloned()
            .collect(),
        _ => Vec::new(),
    }
}

/// Mark `measured` fields as such and every other parameter as carried over.
pub fn mark(p: &mut Profile, measured: &[&str]) {
    let fields = parameter_fields(p);
    p.measured = fields
        .iter()
        .filter(|f| measured.contains(&f.as_str()))
        .cloned()
        .collect();
    p.carried_over = fields
        .into_iter()
        .filter(|f| !measured.contains(&f.as_str()))
        .collect();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_either_measured_or_carried_over() {
        let mut p = Profile::builtin("h200").expect("built-in profile");
        mark(&mut p, &["pinned_h2d_gbps", "copy_engines", "not_a_field"]);
        assert_eq!(p.measured, ["copy_engines", "pinned_h2d_gbps"]);
        assert!(
            p.carried_over
                .contains(&"pageable_free_ms_per_gib".to_string())
        );
        assert!(
            !p.carried_over
                .iter()
                .any(|f| f == "pinned_h2d_gbps" || f == "name")
        );
        let all = parameter_fields(&p).len();
        assert_eq!(p.measured.len() + p.carried_over.len(), all);
        // The marks survive a round trip through the file format.
        let text = p.to_toml().expect("serialises");
        let back = Profile::from_toml_str(&text, "test").expect("reads back");
        assert_eq!(back.carried_over, p.carried_over);
    }
}
