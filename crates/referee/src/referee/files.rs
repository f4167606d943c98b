//! Where a table's bots write: the file name of a bot's stderr log and of its transcripts.

use crate::chance::format_seed;
use crate::game::Seat;
use std::path::PathBuf;

/// The transcript of the bot in `seat` of the game of `game_seed` (as the record writes the
/// seed): `DIR/game-<seed>-seat<seat>-<name>.txt`, `name` as in its stderr log's name.
pub fn transcript_path(dir: &std::path::Path, game_seed: u64, seat: Seat, name: &str) -> PathBuf {
    dir.join(format!(
        "game-{}-seat{seat}-{}.txt",
        format_seed(game_seed),
        log_file_name(name.to_string())
    ))
}

/// A bot name or command line made into a file name: the last part of each path, characters
/// other than letters, digits and `._+=-` as `_`, at most 60 bytes.
pub fn log_file_name(name: String) -> String {
    let words: Vec<&str> = name
        .split_whitespace()
        .map(|w| w.trim_end_matches('/').rsplit('/').next().unwrap_or(w))
        .collect();
    let mut out: String = words
        .join("_")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._+=-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.starts_with('.') {
        out.replace_range(..1, "_");
    }
    out.truncate(60); // ASCII only: any length is a character boundary
    if out.is_empty() {
        "bot".into()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::log_file_name;

    #[test]
    fn log_file_names_are_plain_file_names() {
        assert_eq!(log_file_name("mine".into()), "mine");
        assert_eq!(
            log_file_name("python3 bots/python/bot.py --level 3".into()),
            "python3_bot.py_--level_3"
        );
        assert_eq!(log_file_name("./mybot".into()), "mybot");
        assert_eq!(log_file_name("../a b/c".into()), "a_c");
        assert_eq!(log_file_name(".hidden".into()), "_hidden");
        assert_eq!(log_file_name("ünï".into()), "_n_");
        assert_eq!(log_file_name("".into()), "bot");
        assert_eq!(log_file_name("x".repeat(100)).len(), 60);
    }
}
