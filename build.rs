//! Stages `cli/` and `grammars/` in OUT_DIR so that maturin installs them as `notation.cli`
//! and `notation.grammars` (pyproject.toml: `include` with `from = "out-dir"`). The repository
//! keeps them at the top of the tree; the wheel has `notation` as its only top-level name.

use std::fs;
use std::io;
use std::path::Path;

fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name();
        let name_text = name.to_string_lossy();
        if name_text == "__pycache__" || name_text.ends_with(".pyc") || name_text.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            copy_tree(&path, &to.join(&name))?;
        } else {
            fs::copy(&path, to.join(&name))?;
        }
    }
    Ok(())
}

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    for dir in ["cli", "grammars"] {
        let source = Path::new(&root).join(dir);
        if source.is_dir() {
            let target = Path::new(&out).join(dir);
            let _ = fs::remove_dir_all(&target);
            copy_tree(&source, &target).expect("copy a package directory into OUT_DIR");
            println!("cargo:rerun-if-changed={dir}");
        }
    }
    println!("cargo:rerun-if-changed=notation/rules/polyglot.txt");
}
