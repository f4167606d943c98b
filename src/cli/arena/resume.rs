//! Resuming a run from its record file: the file made ready (a torn last line cut off), its
//! first record (the run seed), and its records read back, each checked to come from a run
//! with the same arguments and to be there once.

use super::tags::{changed_arguments, tag_str};
use crate::arena;
use crate::arena::accumulator::Accumulator;
use crate::cli::exit::usage;
use crate::cli::io;
use crate::record::{parse_record, GameRecord};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The first record of the run that `--record FILE --resume` continues (its file made ready,
/// see [`prepare_resume`]); without --resume, a FILE that is not empty is refused.
pub(crate) fn previous_run(record: Option<&PathBuf>, resume: bool) -> Result<Option<GameRecord>, (u8, String)> {
    match (record, resume) {
        (Some(p), true) if io::is_dash(p) => Err(usage(
            "--resume reads the run so far from --record FILE: it cannot be - (standard output)",
        )),
        (Some(p), true) => prepare_resume(p),
        (Some(p), false) if io::is_dash(p) => Ok(None),
        (Some(p), false) => {
            if std::fs::metadata(p).map(|m| m.len() > 0).unwrap_or(false) {
                return Err(usage(format!(
                    "{} already exists and is not empty: use --resume to continue that run, or another file",
                    p.display()
                )));
            }
            Ok(None)
        }
        _ => Ok(None),
    }
}

/// The length of `text` without a torn last line (see [`io::whole_lines`]).
#[cfg(test)]
fn whole_lines(text: &str) -> usize {
    io::whole_lines(text.as_bytes())
}

/// Gets a record file ready for resuming and returns its first record (it holds the run
/// seed). A torn last line (no newline at its end, as a killed writer leaves it) is cut off
/// the file; a whole last record that lost only its newline gets one. Only the file's end and
/// its first record are read here ([`read_resume`] reads the rest).
fn prepare_resume(path: &Path) -> Result<Option<GameRecord>, (u8, String)> {
    let name = path.display().to_string();
    let err = |e: std::io::Error| usage(format!("{name}: {e}"));
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(err(e)),
    };
    let len = f.metadata().map_err(err)?.len();
    if len > 0 && !io::ends_with_newline(path) {
        // The last line starts after the last newline: look for it from the end.
        let mut start = len;
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            let from = start.saturating_sub(chunk.len() as u64);
            let n = (start - from) as usize;
            f.seek(SeekFrom::Start(from)).map_err(err)?;
            f.read_exact(&mut chunk[..n]).map_err(err)?;
            if let Some(p) = chunk[..n].iter().rposition(|&b| b == b'\n') {
                start = from + p as u64 + 1;
                break;
            }
            start = from;
            if from == 0 {
                break;
            }
        }
        let mut last = Vec::new();
        f.seek(SeekFrom::Start(start)).map_err(err)?;
        f.read_to_end(&mut last).map_err(err)?;
        if io::is_torn(&last) {
            eprintln!(
                "croupier: {name}: dropping a torn last line ({} bytes) left by an interrupted run",
                last.len()
            );
            let f = OpenOptions::new().write(true).open(path).map_err(err)?;
            f.set_len(start).map_err(err)?;
        } else {
            // A whole last record that lost only its newline: end the line before appending.
            let mut f = OpenOptions::new().append(true).open(path).map_err(err)?;
            f.write_all(b"\n").map_err(err)?;
        }
    }
    drop(f);
    let mut lines = io::LineReader::open(path)?;
    while let Some(l) = lines.next_line()? {
        if let Some(rec) = resume_line(&name, l.number, l.bytes)? {
            return Ok(Some(rec));
        }
    }
    Ok(None)
}

/// One line of a record file being resumed: a record, `None` for a blank line, or an error
/// naming the file and line.
fn resume_line(name: &str, line: usize, bytes: &[u8]) -> Result<Option<GameRecord>, (u8, String)> {
    let text = std::str::from_utf8(bytes).map_err(|_| {
        usage(format!(
            "{name}:{line}: not a croupier record: not text (invalid UTF-8)"
        ))
    })?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    parse_record(text)
        .map(Some)
        .map_err(|e| usage(format!("{name}:{line}: {e}")))
}

/// What a record file being resumed holds, beyond the whole deals already summed.
#[derive(Default)]
pub(super) struct Resumed {
    /// Every record read, also those of a deal whose other games are still missing.
    pub(super) already: u64,
    /// Deals of this run whose every game is in the file.
    pub(super) complete: u64,
    /// The games of deals that are only partly in the file (a write cut short), by set.
    pub(super) partial: BTreeMap<u64, Vec<GameRecord>>,
}

/// The position of a record's game among the seatings of its deal (`keys`: `r0`, `r1`, …).
pub(super) fn seating(keys: &[String], r: &GameRecord) -> usize {
    let k = tag_str(r, "job");
    keys.iter().position(|x| *x == k).unwrap_or(keys.len())
}

/// Reads the record file of a resumed run a line at a time and hands `each` every record with
/// the file's name and its line, after checking that it comes from a run with the same
/// arguments (`canonical`, the arguments the run's fingerprint is made of, and `shard`); a
/// record of other arguments is refused, naming those that changed. Returns how many records
/// were read (0 without a file).
pub(crate) fn resumed_records(
    path: &Path,
    canonical: &Value,
    shard: &str,
    mut each: impl FnMut(&str, usize, GameRecord) -> Result<(), (u8, String)>,
) -> Result<u64, (u8, String)> {
    if !path.exists() {
        return Ok(0);
    }
    let fp = arena::fingerprint(&canonical.to_string());
    let mut lines = io::LineReader::open(path)?;
    let name = lines.name().to_string();
    let mut read = 0;
    while let Some(l) = lines.next_line()? {
        let line = l.number;
        let Some(r) = resume_line(&name, line, l.bytes)? else {
            continue;
        };
        if tag_str(&r, "match") != fp || tag_str(&r, "shard") != shard {
            return Err(usage(format!(
                "{name}: line {line} was written by a run with other arguments: {}; resume with the same arguments as that run, or use another file",
                changed_arguments(&r, canonical, shard).join("; ")
            )));
        }
        read += 1;
        each(&name, line, r)?;
    }
    Ok(read)
}

/// The error for a game found twice in the file of a resumed run.
pub(crate) fn repeated_game(name: &str, line: usize, set: u64, job: &str) -> (u8, String) {
    usage(format!(
        "{name}:{line}: deal {set} seating '{job}' is already in the file: a run writes each game once, so the file was edited or joined; use another file"
    ))
}

/// Reads the record file of a resumed run ([`resumed_records`]). Each record must be there
/// once. A deal of the run whose games are all in the file goes to `acc` as soon as it is
/// complete; the games of deals still missing some are returned.
pub(super) fn read_resume(
    path: &Path,
    canonical: &Value,
    shard: &str,
    in_plan: impl Fn(u64) -> bool,
    keys: &[String],
    acc: &mut Accumulator,
) -> Result<Resumed, (u8, String)> {
    let mut out = Resumed::default();
    out.already = resumed_records(path, canonical, shard, |name, line, r| {
        let set = r.tags.get("set").and_then(|v| v.as_u64()).unwrap_or(u64::MAX);
        if !in_plan(set) {
            return Ok(());
        }
        let job = tag_str(&r, "job");
        if acc.holds(set) {
            return Err(repeated_game(name, line, set, &job));
        }
        if seating(keys, &r) == keys.len() {
            return Err(usage(format!(
                "{name}:{line}: seating '{job}' is not one of this match's ({})",
                keys.join(", ")
            )));
        }
        let recs = out.partial.entry(set).or_default();
        if recs.iter().any(|x| tag_str(x, "job") == job) {
            return Err(repeated_game(name, line, set, &job));
        }
        recs.push(r);
        if recs.len() == keys.len() {
            let mut recs = out.partial.remove(&set).unwrap_or_default();
            recs.sort_by_key(|r| seating(keys, r));
            acc.add_set(set, &recs);
            out.complete += 1;
        }
        Ok(())
    })?;
    Ok(out)
}

/// The jobs (by key) that the record holds of each set it holds only partly: they are not
/// played again.
pub(crate) fn jobs_held(partial: &BTreeMap<u64, Vec<GameRecord>>) -> BTreeMap<u64, BTreeSet<String>> {
    partial
        .iter()
        .map(|(i, recs)| (*i, recs.iter().map(|r| tag_str(r, "job")).collect()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::whole_lines;

    #[test]
    fn only_a_torn_last_line_is_dropped() {
        assert_eq!(whole_lines(""), 0);
        assert_eq!(whole_lines("{}\n{}\n"), 6);
        assert_eq!(whole_lines("{}\n{\"a\":"), 3);
        assert_eq!(
            whole_lines("{}\n{}"),
            5,
            "a complete last line without its newline is kept"
        );
        assert_eq!(whole_lines("{\"form"), 0);
    }
}
