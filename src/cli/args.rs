//! The values of options, checked as clap parses them (so that clap names the option in its
//! message): counts, seeds, sizes, users, probabilities and durations.

/// `--deals`, `--games`, `--concurrency`, `--players`: a whole number of at least 1 (clap reports the
/// value and the option: `invalid value '-3' for '--deals <DEALS>': …`).
pub fn at_least_one(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("write a whole number of at least 1".into()),
    }
}

/// [`at_least_one`] as a `usize`.
pub fn at_least_one_usize(s: &str) -> Result<usize, String> {
    at_least_one(s).and_then(|n| usize::try_from(n).map_err(|_| "too large".to_string()))
}

/// `--seed`: checked here (so clap names the option), kept as written. `@FILE` reads the seed
/// from FILE, so that it is not on the command line, which every local user can read in /proc.
pub fn seed_arg(s: &str) -> Result<String, String> {
    if let Some(path) = s.strip_prefix('@') {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let seed = crate::chance::parse_seed(text.trim()).map_err(|e| format!("{path}: {e}"))?;
        return Ok(seed.to_string());
    }
    crate::chance::parse_seed(s).map(|_| s.to_string())
}

/// `--bot-memory`: a size like `512M`, `2G`, `65536K` or a number of bytes, at least 1M.
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mult) = match t.char_indices().last() {
        Some((i, 'K' | 'k')) => (&t[..i], 1u64 << 10),
        Some((i, 'M' | 'm')) => (&t[..i], 1 << 20),
        Some((i, 'G' | 'g')) => (&t[..i], 1 << 30),
        _ => (t, 1),
    };
    let bytes = num
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("'{s}' is not a size: write one like 512M or 2G"))?;
    if bytes < 1 << 20 {
        return Err(format!("'{s}' is too small for a process: give at least 1M"));
    }
    Ok(bytes)
}

/// `--bot-user`: a user name or uid, as (uid, primary gid). Only root can run a process as
/// another user, so anyone else is told so here.
pub fn parse_user(s: &str) -> Result<(u32, u32), String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Err("croupier must run as root to start bots as another user".into());
    }
    let name = std::ffi::CString::new(s).map_err(|_| format!("'{s}' is not a user name"))?;
    // SAFETY: getpwnam/getpwuid return a pointer to static storage or null; it is read at once,
    // before any other call that could overwrite it (argument parsing is single-threaded).
    let pw = unsafe {
        match s.parse::<u32>() {
            Ok(uid) => libc::getpwuid(uid),
            Err(_) => libc::getpwnam(name.as_ptr()),
        }
    };
    if pw.is_null() {
        return Err(format!("no user '{s}' on this machine"));
    }
    // SAFETY: non-null, points to a valid passwd entry (see above).
    let (uid, gid) = unsafe { ((*pw).pw_uid, (*pw).pw_gid) };
    if uid == 0 {
        return Err(format!("'{s}' is root: bots must run as an ordinary user"));
    }
    Ok((uid, gid))
}

/// A whole number, 0 or more.
pub fn non_negative(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .map_err(|_| format!("'{s}' is not a whole number of 0 or more"))
}

/// `--alpha`, `--beta`: a probability strictly between 0 and 1.
pub fn probability(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(p) if p > 0.0 && p < 1.0 => Ok(p),
        _ => Err("write a probability between 0 and 1 (both excluded), like 0.05".into()),
    }
}

/// Durations as flags write them (the referee's clocks read them too, so it lives there).
pub use crate::referee::parse_duration;

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("300ms").unwrap(), Duration::from_millis(300));
        assert_eq!(parse_duration("2s").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("1m").unwrap(), Duration::from_secs(60));
        assert!(parse_duration("300").unwrap_err().contains("300ms"));
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("xs").is_err());
    }
}
