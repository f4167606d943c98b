//! Keeping a game the person left when the run writes no record.

use std::io::Write;

/// Keeps a game the person left (it ended as their forfeit) when the run writes no record: in
/// `croupier-left-GAME-SEED.jsonl` in the current directory (or the temporary directory when
/// that cannot be written), a new file readable by its owner only. Returns its path.
pub fn keep_left_game(rec: &crate::record::GameRecord) -> Result<std::path::PathBuf, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let line = format!("{}\n", rec.to_line());
    let mut why = String::new();
    for dir in [std::path::PathBuf::from("."), std::env::temp_dir()] {
        for k in 1..1000 {
            let name = match k {
                1 => format!("croupier-left-{}-{}.jsonl", rec.game, rec.seed),
                k => format!("croupier-left-{}-{}-{k}.jsonl", rec.game, rec.seed),
            };
            let path = dir.join(name);
            let file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&path);
            match file {
                Ok(mut f) => {
                    return f
                        .write_all(line.as_bytes())
                        .map(|_| {
                            path.strip_prefix(".")
                                .map_or_else(|_| path.clone(), |p| p.to_path_buf())
                        })
                        .map_err(|e| format!("{}: {e}", path.display()));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    why = format!("{}: {e}", path.display());
                    break;
                }
            }
        }
    }
    Err(why)
}
