//! The protocol reader, fuzzed (issue 13, "Tests"): `parse_reply`, `parse_incoming` and
//! `Hello::parse` never panic on any text and classify it as protocol.md §1 says; the line
//! reader of a bot process returns exactly the lines a process wrote (any bytes: CR LF, NULs,
//! invalid UTF-8, lines at and around the size limit), or a flood for a line over the limit,
//! and never panics or hangs.

use croupier::process::{BotProcess, Limits, ReadResult};
use croupier::protocol::{parse_incoming, parse_reply, Hello, Reply};
use proptest::prelude::*;
use std::time::{Duration, Instant};

/// Text near the protocol: responses, ids (some past u64), spaces, tabs, CR, '#', garbage.
fn replyish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("=".to_string()),
        Just("?".to_string()),
        Just(" ".to_string()),
        Just("\t".to_string()),
        Just("\r".to_string()),
        Just("#".to_string()),
        "[0-9]{1,25}",
        "[A-Za-z_]{1,8}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..6).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn reading_any_text_never_panics(line in any::<String>()) {
        let _ = parse_reply(&line);
        let _ = parse_incoming(&line);
        let _ = Hello::parse(&line);
    }

    #[test]
    fn replies_are_classified_as_the_protocol_says(line in replyish()) {
        let t = line.trim_end_matches('\r').trim();
        match parse_reply(&line) {
            Reply::Ignored => prop_assert!(t.is_empty() || t.starts_with('#')),
            Reply::Garbage(g) => {
                prop_assert_eq!(g, line.trim_end_matches('\r'));
                if let Some(rest) = t.strip_prefix('=').or_else(|| t.strip_prefix('?')) {
                    // Only a bad id makes a response garbage: too large, or glued to its text.
                    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                    prop_assert!(!digits.is_empty());
                    let after = &rest[digits.len()..];
                    prop_assert!(
                        digits.parse::<u64>().is_err()
                            || !(after.is_empty() || after.starts_with(' ') || after.starts_with('\t'))
                    );
                }
            }
            Reply::Success { id, text } | Reply::Failure { id, text } => {
                prop_assert!(t.starts_with('=') || t.starts_with('?'));
                let rest = &t[1..];
                let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                prop_assert_eq!(id, (!digits.is_empty()).then(|| digits.parse::<u64>().unwrap()));
                prop_assert_eq!(text.as_str(), rest[digits.len()..].trim());
            }
        }
    }

    #[test]
    fn ids_round_trip(id in any::<u64>(), text in "[A-Za-z0-9_ ]{0,20}") {
        let text = text.trim().to_string();
        prop_assert_eq!(parse_reply(&format!("={id} {text}")), Reply::Success { id: Some(id), text: text.clone() });
        prop_assert_eq!(parse_reply(&format!("?{id} {text}\r")), Reply::Failure { id: Some(id), text });
        // One digit more than u64 holds: no id at all, garbage.
        let too_big = format!("={}0 x", u64::MAX);
        prop_assert!(matches!(parse_reply(&too_big), Reply::Garbage(_)));
    }
}

/// What the line reader should make of `bytes`: the complete lines (without `\n` or `\r\n`,
/// invalid UTF-8 replaced) up to the first line over `max` bytes, which is a flood.
fn expected_lines(bytes: &[u8], max: usize) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut rest = bytes;
    while let Some(p) = rest.iter().position(|&b| b == b'\n') {
        let mut line = &rest[..p];
        if line.last() == Some(&b'\r') {
            line = &line[..line.len() - 1];
        }
        if line.len() > max {
            return (lines, true);
        }
        lines.push(String::from_utf8_lossy(line).into_owned());
        rest = &rest[p + 1..];
    }
    // An unfinished last line over the limit is a flood too (its one extra byte may be the `\r`
    // of a `\r\n` still to come); a shorter one is never a line.
    let over = rest.len() > max && !(rest.len() == max + 1 && rest.last() == Some(&b'\r'));
    (lines, over)
}

/// A line of random bytes (no newline) whose length is near `max`, or short.
fn fuzz_line(max: usize) -> impl Strategy<Value = Vec<u8>> {
    let len = prop_oneof![0..8usize, (max - 2)..(max + 3)];
    len.prop_flat_map(|n| {
        prop::collection::vec(
            prop_oneof![
                Just(b'\r'),
                Just(0u8),
                Just(0xffu8),
                Just(0xc3u8),
                any::<u8>().prop_filter("no newline", |b| *b != b'\n')
            ],
            n,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// A process that writes random lines (and maybe an unfinished one) and stays alive: the
    /// reader returns exactly those lines, then a flood or a timeout, never anything else.
    #[test]
    fn the_line_reader_returns_exactly_the_lines_written(
        lines in prop::collection::vec(fuzz_line(64), 0..6),
        tail in fuzz_line(64),
    ) {
        let max = 64;
        let mut bytes = Vec::new();
        for l in &lines {
            bytes.extend_from_slice(l);
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(&tail);
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("out.bin");
        std::fs::write(&data, &bytes).unwrap();
        // The process marks when every byte is in the pipe, so that the last read below waits
        // for nothing that is still on its way (a slow `sh` start on a busy machine once made
        // it time out before a flood arrived).
        let done = dir.path().join("done");
        let argv: Vec<String> = [
            "sh",
            "-c",
            &format!("cat {}; : > {}; sleep 60", data.display(), done.display()),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let limits = Limits { max_line_bytes: max, ..Limits::default() };
        let mut bot = BotProcess::spawn(&argv, None, limits).unwrap();
        let (want, flood) = expected_lines(&bytes, max);
        let start = Instant::now();
        for w in &want {
            prop_assert_eq!(bot.read_line(Instant::now() + Duration::from_secs(5)), ReadResult::Line(w.clone()));
        }
        let waited = Instant::now();
        while !done.exists() {
            prop_assert!(waited.elapsed() < Duration::from_secs(60), "the writer never finished");
            std::thread::sleep(Duration::from_millis(5));
        }
        let end = bot.read_line(Instant::now() + Duration::from_millis(100));
        if flood {
            prop_assert!(matches!(end, ReadResult::Flood(_)), "{:?}", end);
        } else {
            prop_assert_eq!(end, ReadResult::Timeout);
        }
        prop_assert!(start.elapsed() < Duration::from_secs(65));
        bot.kill();
    }
}
