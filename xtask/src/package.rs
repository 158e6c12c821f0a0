//! The package step of `cargo xtask verify`: each library crate packaged as crates.io would
//! receive it and built from that package against the other packaged crates (nothing uploaded).
//!
//! `cargo publish --dry-run --workspace` serves the packaged crates from a temporary local
//! registry and unpacks them under `$CARGO_HOME/registry/src/-<hash>/`, a directory named by
//! the registry's place relative to the workspace, so every clone of this repository shares it.
//! Cargo unpacks a crate only where no unpacked copy of that name and version exists: a copy
//! left by an earlier run of another revision (same version 0.1.0) is built instead of the new
//! package. CI failed that way once (the new runtime built against an old `interp-kernels`).
//! The same holds for what the target directory compiled from those copies: a registry crate's
//! build is keyed by its name, version and source, never by its content. So before packaging,
//! the unpacked copies of the workspace's published crates are removed from every local
//! registry directory (crates.io's directory and other crates are not touched) and their
//! builds are cleaned (`cargo clean -p`; a fresh clone, as CI's, has none to clean).

use std::fs;
use std::path::{Path, PathBuf};

use crate::cmd::cargo;

/// Removes stale unpacked copies of the workspace's crates, then packages and builds them.
pub fn run() -> Result<(), String> {
    let names = published_members()?;
    let removed = remove_unpacked_copies(&registry_sources(), &names)?;
    for path in &removed {
        println!("package: removed a stale unpacked copy {}", path.display());
    }
    let mut clean = vec!["clean"];
    for name in &names {
        clean.extend(["-p", name.as_str()]);
    }
    cargo("package: clean earlier builds", &clean)?;
    cargo("package", &["publish", "--dry-run", "--workspace", "--allow-dirty"])
}

/// `$CARGO_HOME/registry/src` (cargo's default home where the variable is unset).
fn registry_sources() -> PathBuf {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo"));
    home.join("registry").join("src")
}

/// The package names of the workspace's members that are published (no `publish = false`),
/// read from their manifests.
fn published_members() -> Result<Vec<String>, String> {
    let root = crate::project_root();
    let manifest = read(&root.join("Cargo.toml"))?;
    let members = manifest
        .lines()
        .find_map(|line| line.trim().strip_prefix("members = "))
        .ok_or("package: no `members = [...]` line in the workspace manifest")?;
    let mut names = Vec::new();
    for member in quoted(members) {
        let text = read(&root.join(member).join("Cargo.toml"))?;
        if text.lines().any(|line| line.trim() == "publish = false") {
            continue;
        }
        let name = text
            .lines()
            .find_map(|line| line.trim().strip_prefix("name = "))
            .and_then(|name| quoted(name).into_iter().next())
            .ok_or(format!("package: no `name = \"...\"` in {member}/Cargo.toml"))?;
        names.push(name.to_owned());
    }
    Ok(names)
}

/// Deletes `<name>-<version>` under every local registry's directory (named `-<hash>`: a
/// registry without a host); returns what it deleted.
fn remove_unpacked_copies(sources: &Path, names: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut removed = Vec::new();
    let Ok(registries) = fs::read_dir(sources) else {
        return Ok(removed); // no registry unpacked yet: nothing can be stale
    };
    for registry in registries.flatten() {
        if !registry.file_name().to_string_lossy().starts_with('-') {
            continue;
        }
        for entry in fs::read_dir(registry.path()).into_iter().flatten().flatten() {
            let file_name = entry.file_name();
            if is_copy_of(&file_name.to_string_lossy(), names) {
                let path = entry.path();
                fs::remove_dir_all(&path).map_err(|e| format!("package: could not remove {}: {e}", path.display()))?;
                removed.push(path);
            }
        }
    }
    Ok(removed)
}

/// Whether a directory name is `<one of names>-<version>` (a version starts with a digit).
fn is_copy_of(dir: &str, names: &[String]) -> bool {
    names.iter().any(|name| {
        dir.strip_prefix(name.as_str())
            .and_then(|rest| rest.strip_prefix('-'))
            .is_some_and(|version| version.starts_with(|c: char| c.is_ascii_digit()))
    })
}

/// The double-quoted strings of a line, in order.
fn quoted(line: &str) -> Vec<&str> {
    line.split('"').skip(1).step_by(2).collect()
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("package: could not read {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_are_named_by_member_and_version() {
        let names = vec!["interp-kernels".to_owned(), "interp-dsl".to_owned()];
        assert!(is_copy_of("interp-kernels-0.1.0", &names));
        assert!(is_copy_of("interp-dsl-12.0.0-rc.1", &names));
        // Another crate whose name extends a member's, and crates.io's own crates, stay.
        assert!(!is_copy_of("interp-kernels-extra-0.1.0", &names));
        assert!(!is_copy_of("interp-runtime-0.1.0", &names));
        assert!(!is_copy_of("interpolate_name-0.2.4", &names));
    }

    #[test]
    fn published_members_leave_out_unpublished_ones() {
        let names = published_members().unwrap();
        for published in ["interp-dsl", "interp-macros", "interp-kernels", "interp-runtime", "interp-burn"] {
            assert!(names.iter().any(|n| n == published), "{published} missing from {names:?}");
        }
        for unpublished in ["xtask", "interp-user-mode"] {
            assert!(!names.iter().any(|n| n == unpublished), "{unpublished} in {names:?}");
        }
    }

    #[test]
    fn quoted_strings_in_order() {
        assert_eq!(quoted(r#"["a", "b/c", "d"]"#), vec!["a", "b/c", "d"]);
        assert_eq!(quoted(r#""interp-dsl""#), vec!["interp-dsl"]);
    }

    #[test]
    fn removes_only_local_registry_copies_of_members() {
        let root = std::env::temp_dir().join(format!("xtask-package-{}", std::process::id()));
        let local = root.join("-22c3805da5a543b4");
        let crates_io = root.join("index.crates.io-1949cf8c6b5b557f");
        for dir in [
            local.join("interp-kernels-0.1.0/src"),
            local.join("serde-1.0.0"),
            crates_io.join("interp-kernels-0.1.0"),
        ] {
            fs::create_dir_all(dir).unwrap();
        }
        let removed = remove_unpacked_copies(&root, &["interp-kernels".to_owned()]).unwrap();
        assert_eq!(removed, vec![local.join("interp-kernels-0.1.0")]);
        assert!(!local.join("interp-kernels-0.1.0").exists());
        assert!(local.join("serde-1.0.0").exists());
        assert!(crates_io.join("interp-kernels-0.1.0").exists());
        fs::remove_dir_all(&root).unwrap();
    }
}
