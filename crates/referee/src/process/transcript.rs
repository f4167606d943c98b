//! `--transcript`: the lines a bot was sent and answered, with their times, kept in memory until
//! the first game's file is given, then written to the file of the game in play.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

/// What `--transcript` writes for one bot: every line croupier sends it (`>`), every line it
/// answers (`<`), and what became of a read that brought no line (`#`: timeout, exit, flood),
/// each with the time since the bot was started. Lines are kept in memory until the first file
/// is opened (the handshake comes before the first game), then go to the current game's file.
#[derive(Debug, Default)]
pub(super) struct Transcript {
    pub(super) file: Option<io::BufWriter<File>>,
    pub(super) early: Vec<u8>,
    /// The first write error; the transcript stops there.
    pub(super) error: Option<String>,
}

impl Transcript {
    pub(super) fn line(&mut self, started: Instant, dir: char, text: &str) {
        if self.error.is_some() {
            return;
        }
        let t = started.elapsed().as_secs_f64();
        let entry = format!("{t:12.6} {dir} {text}\n");
        match &mut self.file {
            Some(f) => {
                if let Err(e) = f.write_all(entry.as_bytes()) {
                    self.error = Some(e.to_string());
                }
            }
            None => self.early.extend_from_slice(entry.as_bytes()),
        }
    }

    /// Writes into `path` from now on, closing the last file: see
    /// [`BotProcess::transcript_to`](crate::process::BotProcess::transcript_to).
    pub(super) fn write_to(&mut self, path: &Path) -> Result<(), String> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if let Some(mut f) = self.file.take() {
            f.flush().map_err(|e| e.to_string())?;
        }
        let open = || -> io::Result<File> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            // Owner-only (protocol.md §13), as the bots' logs.
            use std::os::unix::fs::OpenOptionsExt;
            OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(path)
        };
        let mut f = io::BufWriter::new(open().map_err(|e| format!("{}: {e}", path.display()))?);
        f.write_all(&std::mem::take(&mut self.early))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        self.file = Some(f);
        Ok(())
    }

    /// Goes on in the file of `before`, the transcript of the process this one replaces: see
    /// [`BotProcess::transcript_after`](crate::process::BotProcess::transcript_after).
    pub(super) fn go_on_after(&mut self, before: &mut Transcript) -> Result<(), String> {
        if let Some(e) = before.error.take() {
            return Err(e);
        }
        let Some(mut f) = before.file.take() else {
            return Ok(());
        };
        let write = |f: &mut io::BufWriter<File>, bytes: &[u8]| f.write_all(bytes).map_err(|e| e.to_string());
        write(
            &mut f,
            format!(
                "{:12.6} # restarted: a new process, its times count from its start\n",
                0.0
            )
            .as_bytes(),
        )?;
        write(&mut f, &std::mem::take(&mut self.early))?;
        self.file = Some(f);
        Ok(())
    }
}
