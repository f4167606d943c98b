//! Files only their owner may read: written with mode 0600 (in a directory made 0700), and
//! refused when read if anyone else may read them.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// Writes `bytes` to `path` with mode 0600: into a temporary file beside it, renamed over it,
/// so that a reader never sees half a file. A missing directory is made with mode 0700.
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.exists() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .map_err(|e| format!("{}: cannot make the directory: {e}", dir.display()))?;
        }
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: cannot write: {e}", path.display())
    })
}

/// Checks that `path` is a file that only its owner may read or write (as ssh checks a private
/// key): a secret in a file others can read is not a secret.
pub fn check_private(path: &Path) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() {
        return Err(format!("{}: not a file", path.display()));
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(format!(
            "{}: others may read or write it (mode {mode:04o}); it holds a secret: chmod 600 {}",
            path.display(),
            path.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_private_file_is_0600_in_a_0700_directory_and_others_may_not_read_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("keys/seat.token");
        write_private(&path, b"hello").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"hello");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        check_private(&path).unwrap();
        // Written again: replaced whole, still 0600, no temporary file left.
        write_private(&path, b"again").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"again");
        assert_eq!(std::fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = check_private(&path).unwrap_err();
        assert!(err.contains("mode 0644") && err.contains("chmod 600"), "{err}");
        assert!(check_private(&dir.path().join("none")).is_err());
    }
}
