//! Where croupier reads and writes: `-` for standard input/output, output files checked and
//! opened before the first game, and the per-run directory of the bots' stderr logs.

use super::usage;
use crate::game::GameSpec;
use crate::record::{check_record, read_records, GameRecord};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The name of standard input/output on the command line.
pub const DASH: &str = "-";

/// Whether `p` is `-`.
pub fn is_dash(p: &Path) -> bool {
    p.as_os_str() == DASH
}

/// How an input is named in messages: `-` is `<stdin>`.
pub fn input_name(p: &str) -> String {
    if p == DASH {
        "<stdin>".to_string()
    } else {
        p.to_string()
    }
}

/// Refuses `-` given more than once among inputs: standard input can be read only once.
pub fn stdin_at_most_once<'a>(inputs: impl IntoIterator<Item = &'a str>) -> Result<(), (u8, String)> {
    if inputs.into_iter().filter(|p| *p == DASH).count() > 1 {
        return Err(usage(
            "- (standard input) is given more than once: it can be read only once",
        ));
    }
    Ok(())
}

/// Reads an input file, or standard input for `-`. Errors name the file (exit 2).
pub fn read_input(path: &str) -> Result<Vec<u8>, (u8, String)> {
    let mut bytes = Vec::new();
    if path == DASH {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| usage(format!("<stdin>: {e}")))?;
    } else {
        let mut f = File::open(path).map_err(|e| usage(format!("{path}: {e}")))?;
        f.read_to_end(&mut bytes).map_err(|e| usage(format!("{path}: {e}")))?;
    }
    Ok(bytes)
}

/// An input as text; the first line that is not UTF-8 is named.
pub fn read_input_text(path: &str) -> Result<String, (u8, String)> {
    let bytes = read_input(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let line = e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        usage(format!("{}:{line}: not text (invalid UTF-8)", input_name(path)))
    })
}

/// The length of `bytes` without a torn last line: one that has no newline at its end (as a
/// killed writer leaves it) and is not valid JSON. `stats` and `match --resume` share this rule.
pub fn whole_lines(bytes: &[u8]) -> usize {
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return bytes.len();
    }
    let last = bytes.iter().rposition(|&b| b == b'\n').map(|i| i + 1).unwrap_or(0);
    if serde_json::from_slice::<serde_json::Value>(&bytes[last..]).is_ok() {
        bytes.len()
    } else {
        last
    }
}

/// A record with its line in the file and its game.
pub type CheckedRecord = (usize, GameRecord, GameSpec);

/// The games of a record file (`-`: standard input), each with its line and game, or an input
/// error (exit 2) naming the file and line: not text, empty, not JSON, not a croupier record,
/// an unknown game or option. With `drop_torn`, a torn last line after whole records (an
/// interrupted run) is left out with a note on stderr.
pub fn read_record_file(path: &str, drop_torn: bool) -> Result<Vec<CheckedRecord>, (u8, String)> {
    let name = input_name(path);
    let bytes = read_input(path)?;
    let mut keep = bytes.len();
    if drop_torn {
        let whole = whole_lines(&bytes);
        // A file that is nothing but a torn line is not a record file at all.
        if whole < bytes.len() && !bytes[..whole].iter().all(u8::is_ascii_whitespace) {
            eprintln!("croupier: {name}: skipping a torn last line");
            keep = whole;
        }
    }
    let text = std::str::from_utf8(&bytes[..keep]).map_err(|e| {
        let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
        usage(format!(
            "{name}:{line}: not a croupier record: not text (invalid UTF-8)"
        ))
    })?;
    if text.trim().is_empty() {
        return Err(usage(format!("{name}: empty: no game record in it")));
    }
    let mut out = Vec::new();
    for (line, rec) in read_records(text, &name).map_err(usage)? {
        let spec = check_record(&rec).map_err(|e| usage(format!("{name}:{line}: {e}")))?;
        out.push((line, rec, spec));
    }
    Ok(out)
}

/// An output: standard output (`-`) or a file opened before the first game.
pub enum Output {
    Stdout,
    File(File),
}

impl Output {
    /// Writes `text` and flushes. A closed standard output (`croupier … --record - | head`)
    /// ends croupier quietly with status 0, as a closed stdout does in text mode.
    pub fn write(&mut self, text: &[u8]) -> Result<(), String> {
        match self {
            Output::Stdout => {
                let mut out = std::io::stdout().lock();
                if let Err(e) = out.write_all(text).and_then(|_| out.flush()) {
                    if e.kind() == std::io::ErrorKind::BrokenPipe {
                        std::process::exit(0);
                    }
                    return Err(format!("writing to standard output: {e}"));
                }
                Ok(())
            }
            Output::File(f) => f.write_all(text).and_then(|_| f.flush()).map_err(|e| e.to_string()),
        }
    }
}

/// The outputs of one command, by option: no file (and `-` at most once) may be given for two of
/// them, since the second would overwrite or interleave with the first.
pub fn distinct_outputs(outputs: &[(&str, Option<&Path>)]) -> Result<(), (u8, String)> {
    let given: Vec<(&str, &Path)> = outputs.iter().filter_map(|(o, p)| p.map(|p| (*o, p))).collect();
    for (i, (oa, a)) in given.iter().enumerate() {
        for (ob, b) in &given[i + 1..] {
            if same_output(a, b) {
                let what = if is_dash(a) {
                    "- (standard output)".to_string()
                } else {
                    a.display().to_string()
                };
                return Err(usage(format!(
                    "{oa} and {ob} both name {what}: give each output its own file"
                )));
            }
        }
    }
    Ok(())
}

fn same_output(a: &Path, b: &Path) -> bool {
    if is_dash(a) || is_dash(b) {
        return is_dash(a) && is_dash(b);
    }
    #[cfg(unix)]
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return (x.dev(), x.ino()) == (y.dev(), y.ino());
    }
    absolute(a) == absolute(b)
}

/// `p` made absolute, with its directory resolved when it exists (the file may not exist yet).
fn absolute(p: &Path) -> PathBuf {
    let abs = std::env::current_dir()
        .map(|d| d.join(p))
        .unwrap_or_else(|_| p.to_path_buf());
    match (abs.parent().and_then(|d| d.canonicalize().ok()), abs.file_name()) {
        (Some(d), Some(f)) => d.join(f),
        _ => abs,
    }
}

/// Opens an output file for writing (`append` or truncate), creating it; `what` names the option
/// in the error, which names the path (exit 2).
pub fn open_output(path: &Path, what: &str, append: bool) -> Result<Output, (u8, String)> {
    if is_dash(path) {
        return Ok(Output::Stdout);
    }
    let mut o = OpenOptions::new();
    o.create(true);
    if append {
        o.append(true);
    } else {
        o.write(true).truncate(true);
    }
    o.open(path)
        .map(Output::File)
        .map_err(|e| usage(format!("{what} {}: cannot open for writing: {e}", path.display())))
}

/// The directory of this run's bot logs: `<base>/<UTC date and time>-<pid>`, created when a bot
/// first writes to stderr. `base` must be a directory or not exist yet (nor may a file stand in
/// its way): that is checked now, before anything is played.
pub fn run_log_dir(base: &Path) -> Result<PathBuf, (u8, String)> {
    let mut p = Some(base);
    while let Some(q) = p.filter(|q| !q.as_os_str().is_empty()) {
        if let Ok(m) = std::fs::metadata(q) {
            if !m.is_dir() {
                return Err(usage(if q == base {
                    format!("--log-dir {}: is a file, not a directory", base.display())
                } else {
                    format!(
                        "--log-dir {}: {} is a file, not a directory",
                        base.display(),
                        q.display()
                    )
                }));
            }
            break;
        }
        p = q.parent();
    }
    Ok(base.join(run_stamp()))
}

/// `20250301T101500Z-4242`: the UTC time and the process id, unique per run on a machine.
fn run_stamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (y, m, d) = civil_date(secs.div_euclid(86_400));
    let t = secs.rem_euclid(86_400);
    format!(
        "{y:04}{m:02}{d:02}T{:02}{:02}{:02}Z-{}",
        t / 3600,
        t / 60 % 60,
        t % 60,
        std::process::id()
    )
}

/// The date of a day counted from 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// "bot stderr logs are in DIR", when DIR exists and holds a log.
pub fn logs_note(dir: &Path) -> Option<String> {
    let holds_logs = std::fs::read_dir(dir).map(|mut d| d.next().is_some()).unwrap_or(false);
    holds_logs.then(|| format!("bot stderr logs are in {}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(19_723), (2024, 1, 1));
        assert_eq!(civil_date(19_723 + 59), (2024, 2, 29));
        assert_eq!(civil_date(-1), (1969, 12, 31));
    }

    #[test]
    fn outputs_are_compared_as_files() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let dot_a = dir.path().join(".").join("a");
        assert!(same_output(&a, &dot_a), "before the file exists");
        std::fs::write(&a, "").unwrap();
        assert!(same_output(&a, &dot_a), "after");
        assert!(!same_output(&a, &dir.path().join("b")));
        assert!(same_output(Path::new("-"), Path::new("-")));
        assert!(!same_output(Path::new("-"), &a));
    }
}
