//! Embeds every `lessons/*.md` into the binary, so an installed `cuda-academy` works anywhere.

use std::{env, fs, path::Path};

fn main() {
    println!("cargo:rerun-if-changed=lessons");
    let mut files: Vec<String> = fs::read_dir("lessons")
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".md"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let root = env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let mut out = String::from(
        "/// (file name, contents) of every lesson in `lessons/`, sorted.\npub static EMBEDDED_LESSONS: &[(&str, &[u8])] = &[\n",
    );
    for name in &files {
        println!("cargo:rerun-if-changed=lessons/{name}");
        out.push_str(&format!(
            "    ({name:?}, include_bytes!({:?})),\n",
            format!("{root}/lessons/{name}")
        ));
    }
    out.push_str("];\n");
    let dest =
        Path::new(&env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("embedded_lessons.rs");
    if let Err(err) = fs::write(&dest, out) {
        println!("cargo:warning=could not write {}: {err}", dest.display());
    }
}
