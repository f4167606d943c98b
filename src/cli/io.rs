//! Where croupier reads and writes: `-` for standard input/output, output files checked and
//! opened before the first game, and the per-run directory of the bots' stderr logs.

use super::exit::usage;
use super::output::stdout_is_data;
use crate::game::GameSpec;
use crate::record::{check_record, parse_record, GameRecord};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The mode of the files croupier creates (records, reports, pages; bot logs and transcripts):
/// read and write for its user alone.
pub const OWNER_ONLY: u32 = 0o600;

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

/// Whether `last`, a last line that no newline ends, is torn: cut short by a killed writer,
/// so not valid JSON. `stats` and `match --resume` share this rule.
pub fn is_torn(last: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(last).is_err()
}

/// The length of `bytes` without a torn last line (see [`is_torn`]).
#[cfg(test)]
pub fn whole_lines(bytes: &[u8]) -> usize {
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return bytes.len();
    }
    let last = bytes.iter().rposition(|&b| b == b'\n').map(|i| i + 1).unwrap_or(0);
    if is_torn(&bytes[last..]) {
        last
    } else {
        bytes.len()
    }
}

/// A line of an input: its number from 1, its bytes without the line ending (`\n` or
/// `\r\n`), and whether a newline ended it (only the last line may lack one).
pub struct Line<'a> {
    pub number: usize,
    pub bytes: &'a [u8],
    pub ended: bool,
}

/// The longest line a [`LineReader`] takes (64 MiB).
pub const MAX_LINE_BYTES: u64 = 64 << 20;

/// An input (`-`: standard input) read one line at a time, never as a whole, each line at most
/// [`MAX_LINE_BYTES`].
pub struct LineReader {
    name: String,
    input: Box<dyn BufRead>,
    number: usize,
    buf: Vec<u8>,
}

impl LineReader {
    /// Opens `path` (`-`: standard input); an error names it (exit 2).
    pub fn open(path: &Path) -> Result<LineReader, (u8, String)> {
        let name = if is_dash(path) {
            input_name(DASH)
        } else {
            path.display().to_string()
        };
        let input: Box<dyn BufRead> = if is_dash(path) {
            Box::new(std::io::stdin().lock())
        } else {
            let f = File::open(path).map_err(|e| usage(format!("{name}: {e}")))?;
            Box::new(BufReader::with_capacity(1 << 16, f))
        };
        Ok(LineReader {
            name,
            input,
            number: 0,
            buf: Vec::new(),
        })
    }

    /// The input's name for messages (`<stdin>` for `-`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next line; `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, (u8, String)> {
        self.buf.clear();
        // At most one byte past the cap is read: a line without end (a file that is not
        // records) is refused before it fills the memory.
        let n = (&mut self.input)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| usage(format!("{}: {e}", self.name)))?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        let ended = self.buf.ends_with(b"\n");
        if !ended && self.buf.len() as u64 > MAX_LINE_BYTES {
            return Err(usage(format!(
                "{}:{}: a line longer than {} MiB: not a croupier record (the longest game records are a few MiB)",
                self.name,
                self.number,
                MAX_LINE_BYTES >> 20
            )));
        }
        let mut line = &self.buf[..];
        if ended {
            line = &line[..line.len() - 1];
            if line.ends_with(b"\r") {
                line = &line[..line.len() - 1];
            }
        }
        Ok(Some(Line {
            number: self.number,
            bytes: line,
            ended,
        }))
    }
}

/// Whether the file at `path` ends with a newline (or is empty or cannot be read): only its
/// last byte is read.
pub fn ends_with_newline(path: &Path) -> bool {
    let Ok(mut f) = File::open(path) else { return true };
    let mut last = [b'\n'];
    if f.seek(SeekFrom::End(-1)).is_ok() {
        let _ = f.read_exact(&mut last);
    }
    last[0] == b'\n'
}

/// The `k`-th game (from 1) of a record file: the file's name for messages, the line the
/// game is on, the record and its game. The file is read to its end: a file that is not a
/// record file is an input error, whichever game is asked for.
pub fn nth_record(path: &str, k: usize) -> Result<(String, usize, GameRecord, GameSpec), (u8, String)> {
    let mut records = records(path, false)?;
    let name = records.name().to_string();
    let mut count = 0;
    let mut chosen = None;
    for r in &mut records {
        let r = r?;
        count += 1;
        if count == k {
            chosen = Some(r);
        }
    }
    match chosen {
        Some((line, rec, spec)) => Ok((name, line, rec, spec)),
        None => Err(usage(format!("{name} holds {count} game(s); there is no game {k}"))),
    }
}

/// A record with its line in the file and its game.
pub type CheckedRecord = (usize, GameRecord, GameSpec);

/// The games of a record file, read a line at a time: each with its line and game, or an input
/// error (exit 2) naming the file and line: not text, not JSON, not a croupier record, an
/// unknown game or option; a file without a record is an error too (empty). With `drop_torn`,
/// a torn last line after whole records (an interrupted run) is left out with a note on stderr.
/// After an error the reader ends.
pub struct RecordReader {
    lines: LineReader,
    drop_torn: bool,
    /// Whether a line that is not blank was read.
    content: bool,
    records: usize,
    done: bool,
}

/// The games of the record file `path` (`-`: standard input), see [`RecordReader`].
pub fn records(path: &str, drop_torn: bool) -> Result<RecordReader, (u8, String)> {
    Ok(RecordReader {
        lines: LineReader::open(Path::new(path))?,
        drop_torn,
        content: false,
        records: 0,
        done: false,
    })
}

impl RecordReader {
    /// The file's name for messages (`<stdin>` for `-`).
    pub fn name(&self) -> &str {
        self.lines.name()
    }

    fn next_record(&mut self) -> Result<Option<CheckedRecord>, (u8, String)> {
        loop {
            let name = self.lines.name.clone();
            let Some(Line {
                number: line,
                bytes,
                ended,
            }) = self.lines.next_line()?
            else {
                if self.records == 0 {
                    return Err(usage(format!("{name}: empty: no game record in it")));
                }
                return Ok(None);
            };
            // A file that is nothing but a torn line is not a record file at all.
            if !ended && self.drop_torn && self.content && is_torn(bytes) {
                eprintln!("croupier: {name}: skipping a torn last line");
                return Ok(None);
            }
            self.content |= !bytes.iter().all(u8::is_ascii_whitespace);
            let text = std::str::from_utf8(bytes).map_err(|_| {
                usage(format!(
                    "{name}:{line}: not a croupier record: not text (invalid UTF-8)"
                ))
            })?;
            if text.trim().is_empty() {
                continue;
            }
            let rec = parse_record(text).map_err(|e| usage(format!("{name}:{line}: {e}")))?;
            let spec = check_record(&rec).map_err(|e| usage(format!("{name}:{line}: {e}")))?;
            self.records += 1;
            return Ok(Some((line, rec, spec)));
        }
    }
}

impl Iterator for RecordReader {
    type Item = Result<CheckedRecord, (u8, String)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.next_record().transpose();
        if !matches!(r, Some(Ok(_))) {
            self.done = true;
        }
        r
    }
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

/// One test case of a JUnit XML report ([`junit_xml`]).
pub struct JunitCase {
    pub classname: String,
    pub name: String,
    pub seconds: f64,
    /// Why it failed (the `message` attribute) and the details; `None` when it passed.
    pub failure: Option<(String, String)>,
    /// What a passing case prints (its `system-out`), if anything.
    pub output: String,
}

/// A JUnit XML report (as CI servers read it: `testsuites`, one `testsuite`, a `testcase`
/// per case with a `failure` when it failed), for `compare --junit` and `regress --junit`.
pub fn junit_xml(suite: &str, cases: &[JunitCase], seconds: f64) -> String {
    // XML 1.0 allows no control characters but tab and line ends (a bot's message may hold any).
    let esc = |s: &str| {
        s.chars()
            .map(|c| match c {
                '&' => "&amp;".to_string(),
                '<' => "&lt;".to_string(),
                '>' => "&gt;".to_string(),
                '"' => "&quot;".to_string(),
                '\t' | '\n' | '\r' => c.to_string(),
                c if c.is_control() => "\u{fffd}".to_string(),
                c => c.to_string(),
            })
            .collect::<String>()
    };
    let failures = cases.iter().filter(|c| c.failure.is_some()).count();
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" time=\"{seconds:.3}\">\n",
        esc(suite),
        cases.len()
    );
    for c in cases {
        xml.push_str(&format!(
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\">\n",
            esc(&c.classname),
            esc(&c.name),
            c.seconds
        ));
        if let Some((message, text)) = &c.failure {
            xml.push_str(&format!(
                "      <failure message=\"{}\">{}</failure>\n",
                esc(message),
                esc(text)
            ));
        } else if !c.output.is_empty() {
            xml.push_str(&format!("      <system-out>{}</system-out>\n", esc(&c.output)));
        }
        xml.push_str("    </testcase>\n");
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
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
/// in the error, which names the path (exit 2). A file croupier creates is its user's alone
/// (mode 0600): records, reports and pages hold every hand, and a bot running as another user
/// in the same directory must not read them (protocol.md §13). A file that exists keeps its mode.
pub fn open_output(path: &Path, what: &str, append: bool) -> Result<Output, (u8, String)> {
    use std::os::unix::fs::OpenOptionsExt;
    if is_dash(path) {
        return Ok(Output::Stdout);
    }
    let mut o = OpenOptions::new();
    o.create(true).mode(OWNER_ONLY);
    if append {
        o.append(true);
    } else {
        o.write(true).truncate(true);
    }
    o.open(path)
        .map(Output::File)
        .map_err(|e| usage(format!("{what} {}: cannot open for writing: {e}", path.display())))
}

/// Opens the file of a report written at the end (`what`: its option) now, before the work: a
/// path that cannot be written is an error at once. `-` is standard output, which then carries
/// the report only (the text for people goes to stderr).
pub fn open_report(path: &Path, what: &str) -> Result<Output, (u8, String)> {
    if is_dash(path) {
        stdout_is_data();
    }
    open_output(path, what, false)
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
    fn junit_escapes_markup_and_drops_what_xml_cannot_hold() {
        let case = |failure: Option<(String, String)>| JunitCase {
            classname: "c".into(),
            name: "a <b> & \"c\"".into(),
            seconds: 0.5,
            failure,
            output: String::new(),
        };
        let xml = junit_xml(
            "s",
            &[
                case(None),
                case(Some(("bot said \u{1b}[31m\u{0}".into(), "x\ny".into()))),
            ],
            1.0,
        );
        assert!(xml.contains("tests=\"2\" failures=\"1\" time=\"1.000\""), "{xml}");
        assert!(xml.contains("name=\"a &lt;b&gt; &amp; &quot;c&quot;\""), "{xml}");
        assert!(
            xml.contains("message=\"bot said \u{fffd}[31m\u{fffd}\">x\ny</failure>"),
            "{xml}"
        );
        assert_eq!(xml.matches("<testcase").count(), 2);
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
