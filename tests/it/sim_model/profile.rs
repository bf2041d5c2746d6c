//! The backend's identity and its profile file: round trip and validation.

use super::*;

#[test]
fn info_names_the_simulator_and_its_profile() {
    let gpu = SimGpu::new(h200(), "--backend sim".to_string());
    let info = gpu.info();
    assert_eq!(info.backend.kind, BackendKind::Simulated);
    assert_eq!(info.backend.timing, TimingSource::Model);
    assert_eq!(info.backend.profile.as_deref(), Some("h200"));
    assert_eq!(info.backend.reason.as_deref(), Some("--backend sim"));
    assert_eq!(info.backend.device, h200().device_name);
    assert_eq!(info.copy_engines, h200().copy_engines);
    assert!(info.kernels_available);
}

#[test]
fn profile_round_trips_through_toml() {
    let p = h200();
    let text = p.to_toml().unwrap();
    assert_eq!(Profile::from_toml_str(&text, "round trip").unwrap(), p);
    let path = std::env::temp_dir().join(format!("sim-model-{}.toml", std::process::id()));
    p.save(&path).unwrap();
    assert_eq!(Profile::load(&path).unwrap(), p);
    std::fs::remove_file(path).unwrap();
}

#[test]
fn invalid_profiles_are_rejected_with_the_field_named() {
    let text = h200().to_toml().unwrap();
    let bad: String = text
        .lines()
        .map(|l| {
            if l.starts_with("pinned_h2d_gbps =") {
                "pinned_h2d_gbps = -1.0".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(bad, text);
    let err = Profile::from_toml_str(&bad, "bad.toml").unwrap_err();
    assert!(
        matches!(
            err,
            ProfileError::Invalid {
                field: "pinned_h2d_gbps",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("bad.toml"));

    let missing: String = text
        .lines()
        .filter(|l| !l.starts_with("bidirectional_gbps"))
        .collect::<Vec<_>>()
        .join("\n");
    let err = Profile::from_toml_str(&missing, "missing.toml").unwrap_err();
    assert!(err.to_string().contains("bidirectional_gbps"), "{err}");

    let unknown = format!("{text}\npinned_h2d_gbs = 3.0\n");
    assert!(Profile::from_toml_str(&unknown, "typo.toml").is_err());

    let zero = text.replace("copy_engines = 3", "copy_engines = 0");
    assert!(Profile::from_toml_str(&zero, "zero.toml").is_err());

    assert!(matches!(
        Profile::builtin("a100"),
        Err(ProfileError::UnknownBuiltin { .. })
    ));
    assert!(Profile::load(std::path::Path::new("/nonexistent/p.toml")).is_err());
}

#[test]
fn the_shipped_file_is_the_builtin_profile() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/profiles/h200.toml");
    let on_disk = Profile::load(&path).unwrap();
    assert_eq!(on_disk, h200());
    assert_eq!(on_disk.name, "h200");
    for name in cuda_academy::gpu::profile::BUILTIN_NAMES {
        assert_eq!(Profile::builtin(name).unwrap().name, name);
    }
}
