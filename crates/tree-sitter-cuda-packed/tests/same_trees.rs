//! The packed grammar parses every CUDA file in the repository into exactly the tree
//! tree-sitter-cuda itself gives, and threads asking for it at once all get a whole table.

use std::fs;
use std::path::{Path, PathBuf};

use tree_sitter::{Language, Parser};

fn tree(language: &Language, source: &str) -> String {
    let mut parser = Parser::new();
    parser
        .set_language(language)
        .expect("the grammar's ABI is supported");
    let tree = parser
        .parse(source, None)
        .expect("no timeout or cancellation is set");
    tree.root_node().to_sexp()
}

/// Every `.cu`/`.cuh` file under `dir`, recursively.
fn cuda_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir)
        .expect("the repository folder is readable")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            cuda_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "cu" || e == "cuh") {
            found.push(path);
        }
    }
}

#[test]
fn packed_and_original_grammars_give_the_same_trees() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["kernels", "exercises"] {
        cuda_files(&repo.join(dir), &mut files);
    }
    assert!(
        files.len() >= 10,
        "expected the repository's kernels and exercises, found {files:?}"
    );
    let packed: Language = tree_sitter_cuda_packed::LANGUAGE.into();
    let original: Language = tree_sitter_cuda::LANGUAGE.into();
    for file in files {
        let source = fs::read_to_string(&file).expect("CUDA sources are UTF-8");
        let (ours, theirs) = (tree(&packed, &source), tree(&original, &source));
        assert_eq!(ours, theirs, "{}", file.display());
    }
}

#[test]
fn threads_that_load_the_grammar_together_all_parse_correctly() {
    let source = "__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n\
                  int main() { k<<<1, 32>>>(nullptr); cudaDeviceSynchronize(); }\n";
    let expected = tree(&tree_sitter_cuda::LANGUAGE.into(), source);
    let threads: Vec<_> = (0..8)
        .map(|_| {
            std::thread::spawn(move || tree(&tree_sitter_cuda_packed::LANGUAGE.into(), source))
        })
        .collect();
    for thread in threads {
        assert_eq!(thread.join().expect("no parser thread panics"), expected);
    }
}
